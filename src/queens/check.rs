//! [`placement_defect`]: the checker, O(n) time and a bit per line.

use crate::error::SearchError;
use crate::memory;

/// Why `cols` is not an n-queens solution, or `Ok(None)` if it is: O(n)
/// time, and a bit per column and diagonal (`Err(Memory)` if those cannot
/// be had: 5 bits a queen, 640 MiB for 2^30 queens).
pub fn placement_defect(cols: &[u32]) -> Result<Option<String>, SearchError> {
    let n = cols.len();
    if n == 0 {
        return Ok(Some("a placement needs at least one queen".into()));
    }
    let words = |bits: usize| bits.div_ceil(64);
    let what = "checking a placement";
    let mut column: Vec<u64> = memory::try_zeroed(words(n), what)?;
    let mut down: Vec<u64> = memory::try_zeroed(words(2 * n - 1), what)?;
    let mut up: Vec<u64> = memory::try_zeroed(words(2 * n - 1), what)?;
    // Set bit `i` of `set`; whether it was set already.
    let taken = |set: &mut [u64], i: usize| {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let was = set[word] & bit != 0;
        set[word] |= bit;
        was
    };
    for (row, &c) in cols.iter().enumerate() {
        let c = c as usize;
        if c >= n {
            return Ok(Some(format!(
                "row {row}: column {c} is off the {n}x{n} board"
            )));
        }
        let (d, u) = (row + n - 1 - c, row + c);
        if taken(&mut column, c) {
            return Ok(Some(format!("row {row}: column {c} already holds a queen")));
        }
        // Both diagonals are marked before either is judged, as before.
        let (on_down, on_up) = (taken(&mut down, d), taken(&mut up, u));
        if on_down || on_up {
            return Ok(Some(format!(
                "row {row}: the queen shares a diagonal with an earlier one"
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::construct_queens;

    #[test]
    fn defects_are_found() {
        let d = |cols: &[u32]| placement_defect(cols).unwrap().unwrap();
        assert!(d(&[]).contains("at least one queen"));
        assert!(d(&[0, 4]).contains("off the 2x2 board"));
        assert!(d(&[1, 3, 1, 2]).contains("row 2: column 1 already"));
        assert!(d(&[0, 1, 3, 2]).contains("row 1: the queen shares a diagonal"));
        assert_eq!(placement_defect(&[1, 3, 0, 2]), Ok(None));
        // Past 64 columns the bit sets span several words.
        let mut p = construct_queens(130).unwrap().unwrap();
        p.swap(70, 100);
        assert!(d(&p).contains("diagonal"), "{}", d(&p));
    }
}
