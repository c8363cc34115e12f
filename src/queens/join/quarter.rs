//! The quarter table: every non-attacking placement on an `h x h` quarter,
//! indexed by the rows and columns it fills, built by two walks (count, fill).

use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;

/// Every non-attacking placement on an `h x h` quarter, grouped by the rows
/// and columns it fills: cell `rows << h | cols` holds the placements' local
/// diagonals, `r - c + h - 1` in the low 32 bits and `r + c` in the high 32.
pub struct QuarterTable {
    h: usize,
    offsets: Vec<u32>,
    diagonals: Vec<u64>,
}

impl QuarterTable {
    /// The table for side `h` (at most 12: 16 M cells).
    pub fn new(h: usize, ctl: &Control) -> Result<QuarterTable, SearchError> {
        assert!((1..=12).contains(&h), "quarter side out of range");
        let cells = 1usize << (2 * h);
        let mut counts = memory::try_zeroed::<u32>(cells + 1, "the quarter table's index")?;
        let mut polled = 0u32;
        // A walk stops at the first poll that finds the call cancelled.
        let walked = walk_quarter(h, &mut |rows, cols, _| {
            counts[(rows << h | cols) as usize] += 1;
            polled = polled.wrapping_add(1);
            polled & 0xffff != 0 || !ctl.is_cancelled()
        });
        if !walked {
            return Err(SearchError::Cancelled);
        }
        // Prefix sums: cell i's entries are offsets[i]..offsets[i + 1].
        let mut total = 0u32;
        for c in counts.iter_mut() {
            let here = *c;
            *c = total;
            total += here;
        }
        let offsets = counts;
        let mut diagonals = memory::try_zeroed::<u64>(total as usize, "the quarter table")?;
        let mut next = offsets.clone();
        let walked = walk_quarter(h, &mut |rows, cols, diag| {
            let cell = (rows << h | cols) as usize;
            diagonals[next[cell] as usize] = diag;
            next[cell] += 1;
            polled = polled.wrapping_add(1);
            polled & 0xffff != 0 || !ctl.is_cancelled()
        });
        if !walked {
            return Err(SearchError::Cancelled);
        }
        Ok(QuarterTable {
            h,
            offsets,
            diagonals,
        })
    }

    /// The placements that fill exactly `rows` and `cols`.
    #[inline]
    pub fn cell(&self, rows: u32, cols: u32) -> &[u64] {
        let i = (rows << self.h | cols) as usize;
        &self.diagonals[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Placements in the table.
    pub fn len(&self) -> usize {
        self.diagonals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.diagonals.is_empty()
    }
}

/// Every non-attacking placement on the `h x h` quarter, row by row (each
/// row empty or holding one queen): `visit(rows, cols, diagonals)`.
fn walk_quarter(h: usize, visit: &mut dyn FnMut(u32, u32, u64) -> bool) -> bool {
    fn below(
        h: usize,
        row: usize,
        rows: u32,
        cols: u32,
        down: u32,
        up: u32,
        visit: &mut dyn FnMut(u32, u32, u64) -> bool,
    ) -> bool {
        if row == h {
            return visit(rows, cols, down as u64 | (up as u64) << 32);
        }
        if !below(h, row + 1, rows, cols, down, up, visit) {
            return false;
        }
        for col in 0..h {
            let d = 1u32 << (row + h - 1 - col);
            let u = 1u32 << (row + col);
            if cols & 1 << col == 0
                && down & d == 0
                && up & u == 0
                && !below(
                    h,
                    row + 1,
                    rows | 1 << row,
                    cols | 1 << col,
                    down | d,
                    up | u,
                    visit,
                )
            {
                return false;
            }
        }
        true
    }
    below(h, 0, 0, 0, 0, 0, visit)
}
