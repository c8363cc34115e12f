//! The explicit construction: one placement of any size up to
//! [`MAX_CONSTRUCT_N`] in O(n), column by column, no search.

use crate::error::{CountError, InputError};
use crate::memory;

/// The explicit construction takes any board up to this size.
pub const MAX_CONSTRUCT_N: usize = 1 << 30;

/// One placement in O(n) by the classic explicit construction (Hoffman,
/// Loessi and Moore, 1969), or `None` for n = 2, 3.  Columns are 0-based.
/// The placement takes 4 bytes a queen (`Err(Memory)` if they cannot be
/// had); [`construction`] yields the same columns without storing them.
pub fn construct_queens(n: usize) -> Result<Option<Vec<u32>>, CountError> {
    let Some(columns) = construction(n)? else {
        return Ok(None);
    };
    let mut cols = memory::try_with_capacity(n, "the placement")?;
    cols.extend(columns);
    Ok(Some(cols))
}

/// The columns of [`construct_queens`], row by row, computed one at a time
/// (so a caller can write them straight where they are wanted), or `None`
/// for n = 2, 3.
pub fn construction(
    n: usize,
) -> Result<Option<impl ExactSizeIterator<Item = u32> + Send>, InputError> {
    if n == 0 || n > MAX_CONSTRUCT_N {
        return Err(InputError(format!(
            "n must be between 1 and {MAX_CONSTRUCT_N}, got {n}"
        )));
    }
    if n == 2 || n == 3 {
        return Ok(None);
    }
    Ok(Some((0..n).map(move |row| constructed_column(n, row))))
}

/// The column (0-based) of the queen in `row` of the explicit construction.
/// Its 1-based columns are the evens `2, 4, ...` then the odds `1, 3, ...`,
/// with the classic repairs: for n = 6k + 2 the odds run `3, 1, 7, 9, ...,
/// 5` (5 moved last); for n = 6k + 3 the evens run `4, 6, ..., 2` and the
/// odds `5, 7, ..., 1, 3`.
#[inline]
fn constructed_column(n: usize, row: usize) -> u32 {
    let evens = n / 2;
    let odds = n - evens;
    let one_based = if row < evens {
        let j = row;
        match n % 6 {
            3 if j == evens - 1 => 2,
            3 => 2 * j + 4,
            _ => 2 * j + 2,
        }
    } else {
        let j = row - evens;
        match n % 6 {
            2 if j == 0 => 3,
            2 if j == 1 => 1,
            2 if j == odds - 1 => 5,
            2 => 2 * j + 3,
            3 if j == odds - 2 => 1,
            3 if j == odds - 1 => 3,
            3 => 2 * j + 5,
            _ => 2 * j + 1,
        }
    };
    (one_based - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::placement_defect;

    /// The construction as the classic recipe states it, list by list.
    fn recipe(n: usize) -> Vec<u32> {
        let mut evens: Vec<u32> = (2..=n as u32).step_by(2).collect();
        let mut odds: Vec<u32> = (1..=n as u32).step_by(2).collect();
        match n % 6 {
            2 => {
                odds.swap(0, 1);
                let five = odds.remove(2);
                odds.push(five);
            }
            3 => {
                let two = evens.remove(0);
                evens.push(two);
                odds.drain(0..2);
                odds.extend([1, 3]);
            }
            _ => {}
        }
        evens.into_iter().chain(odds).map(|c| c - 1).collect()
    }

    #[test]
    fn construction_is_valid() {
        for n in 1..300 {
            match construct_queens(n).unwrap() {
                None => assert!(n == 2 || n == 3),
                Some(p) => {
                    assert_eq!(placement_defect(&p), Ok(None), "n={n}");
                    assert_eq!(p, recipe(n), "n={n}");
                }
            }
        }
        for n in [6 * 1000 + 2, 6 * 1000 + 3, 100_001] {
            let p = construct_queens(n).unwrap().unwrap();
            assert_eq!(placement_defect(&p), Ok(None), "n={n}");
        }
        assert!(construct_queens(0).is_err());
        assert!(construct_queens(MAX_CONSTRUCT_N + 1).is_err());
    }
}
