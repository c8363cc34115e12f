//! The symmetry classes of the n-queens solutions from their total (Burnside's
//! lemma): the solutions fixed by the half and the quarter turn, counted by a
//! small backtracking search on orbits of squares.

use super::diagonals_of;
use crate::engine::Control;
use crate::error::SearchError;

/// Symmetry classes from the count of all solutions (Burnside's lemma).
/// No solution of two or more queens is its own mirror image in a line
/// through the centre: a queen fixed by a left-right (top-bottom) mirror
/// sits in the middle column (row), which holds only one; under a diagonal
/// reflection two queens swapped with each other share an anti-diagonal.
/// So the classes are `(all + fixed by the half turn + 2 x fixed by a
/// quarter turn) / 8`, the last two counted here by backtracking on one
/// orbit of squares at a time (a small search: a quarter or half of the
/// queens decide the rest).
pub fn classes(n: usize, all: u128, ctl: &Control) -> Result<u128, SearchError> {
    let half_turn = count_invariant(n, false, ctl)?;
    let quarter_turn = count_invariant(n, true, ctl)?;
    let fixed = all + half_turn + 2 * quarter_turn;
    debug_assert_eq!(fixed % 8, 0);
    Ok(fixed / 8)
}

/// Solutions fixed by the quarter turn (`quarter`) or by the half turn.
fn count_invariant(n: usize, quarter: bool, ctl: &Control) -> Result<u128, SearchError> {
    struct Walk<'a> {
        n: usize,
        quarter: bool,
        ctl: &'a Control,
        polled: u32,
    }
    impl Walk<'_> {
        /// The squares of `(r, c)`'s orbit under the turn.
        fn orbit(&self, r: usize, c: usize) -> ([(usize, usize); 4], usize) {
            let last = self.n - 1;
            let mut out = [(r, c); 4];
            let mut len = 1;
            let mut at = (r, c);
            loop {
                at = if self.quarter {
                    (at.1, last - at.0)
                } else {
                    (last - at.0, last - at.1)
                };
                if at == (r, c) {
                    return (out, len);
                }
                out[len] = at;
                len += 1;
            }
        }

        fn below(&mut self, rows: u64, cols: u64, down: u64, up: u64) -> Result<u128, SearchError> {
            let n = self.n;
            if rows.count_ones() as usize == n {
                return Ok(1);
            }
            self.polled = self.polled.wrapping_add(1);
            if self.polled & 0xfff == 0 && self.ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let r = (!rows).trailing_zeros() as usize;
            let mut total = 0u128;
            for c in 0..n {
                let (squares, len) = self.orbit(r, c);
                let (mut rs, mut cs, mut ds, mut us) = (rows, cols, down, up);
                let mut ok = true;
                for &(qr, qc) in &squares[..len] {
                    let (d, u) = diagonals_of(n, qr, qc);
                    if rs & 1 << qr != 0 || cs & 1 << qc != 0 || ds & d != 0 || us & u != 0 {
                        ok = false;
                        break;
                    }
                    rs |= 1 << qr;
                    cs |= 1 << qc;
                    ds |= d;
                    us |= u;
                }
                if ok {
                    total += self.below(rs, cs, ds, us)?;
                }
            }
            Ok(total)
        }
    }
    let mut walk = Walk {
        n,
        quarter,
        ctl,
        polled: 0,
    };
    walk.below(0, 0, 0, 0)
}
