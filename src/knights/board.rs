//! The board model: a rectangular grid with missing cells ([`Board`]), the
//! knight's moves on it, the window a shaped board is searched in
//! ([`Window`]), the cheap exact rules that rule a tour out before any search
//! (connectivity, colour counts, Schwenk's theorem), and the tour checker
//! ([`tour_defect`]).
//!
//! Squares are numbered row-major, `index = row * cols + col`, row 0 at the
//! top.  Invariant: `present.len() == rows * cols <= MAX_FIND_SQUARES`, with
//! `rows, cols >= 1` (every constructor checks it), so index arithmetic on a
//! board never overflows.

use crate::engine::Control;
use crate::error::{CountError, InputError, SearchError};
use crate::memory;
use crate::symmetry::Symmetry;

/// The seed article's move order, `(row offset, col offset)`.  Enumeration
/// follows it, so `tours()` lists tours in the order the article finds them.
pub const MOVES: [(i32, i32); 8] = [
    (2, 1),
    (1, 2),
    (-2, 1),
    (-1, 2),
    (2, -1),
    (1, -2),
    (-2, -1),
    (-1, -2),
];

/// The exact search keeps the board in one 64-bit word.
pub const MAX_SEARCH_SQUARES: usize = 64;

/// Boards larger than this are refused by the heuristic finder (memory).
pub const MAX_FIND_SQUARES: usize = 100_000_000;

/// A rectangular grid of `rows x cols` cells, some of which may be missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) present: Vec<bool>,
}

impl Board {
    /// The full `rows x cols` board (1 byte a cell: `Err(Memory)` if even
    /// that cannot be had).
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, CountError> {
        let cells = Self::checked_cells(rows, cols)?;
        let mut present = memory::try_with_capacity(cells, "the board")?;
        present.resize(cells, true);
        Ok(Board {
            rows,
            cols,
            present,
        })
    }

    /// A shaped board: `present[row * cols + col]` tells whether the cell is a square.
    pub fn from_mask(rows: usize, cols: usize, present: Vec<bool>) -> Result<Board, InputError> {
        let cells = Self::checked_cells(rows, cols)?;
        if present.len() != cells {
            return Err(InputError(format!(
                "the mask has {} cells, but a {rows}x{cols} board has {cells}",
                present.len()
            )));
        }
        Ok(Board {
            rows,
            cols,
            present,
        })
    }

    fn checked_cells(rows: usize, cols: usize) -> Result<usize, InputError> {
        if rows == 0 || cols == 0 {
            return Err(InputError(format!(
                "a board needs at least one row and one column, got {rows}x{cols}"
            )));
        }
        match rows.checked_mul(cols) {
            Some(cells) if cells <= MAX_FIND_SQUARES => Ok(cells),
            _ => Err(InputError(format!(
                "a {rows}x{cols} board has more than {MAX_FIND_SQUARES} cells, the largest supported"
            ))),
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn cells(&self) -> usize {
        self.present.len()
    }

    /// Number of squares (present cells).
    pub fn squares(&self) -> usize {
        self.present.iter().filter(|&&p| p).count()
    }

    pub fn is_square(&self, index: usize) -> bool {
        self.present.get(index).copied().unwrap_or(false)
    }

    /// `Err` naming the cell if `start` is not a square of the board.
    pub fn check_start(&self, start: usize) -> Result<(), InputError> {
        if self.is_square(start) {
            return Ok(());
        }
        Err(InputError(format!(
            "the start ({}, {}) is not a square of the board",
            start / self.cols,
            start % self.cols
        )))
    }

    /// The square a knight reaches from `index` with move `m` of [`MOVES`].
    #[inline]
    pub fn jump(&self, index: usize, m: usize) -> Option<usize> {
        let (dr, dc) = MOVES[m];
        let r = (index / self.cols) as i64 + dr as i64;
        let c = (index % self.cols) as i64 + dc as i64;
        if r < 0 || c < 0 || r >= self.rows as i64 || c >= self.cols as i64 {
            return None;
        }
        let to = r as usize * self.cols + c as usize;
        self.present[to].then_some(to)
    }

    /// The knight moves from `index`, in the seed's order.
    pub fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        (0..8).filter_map(move |m| self.jump(index, m))
    }

    pub fn is_knight_move(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = ((a / self.cols) as i64, (a % self.cols) as i64);
        let (rb, cb) = ((b / self.cols) as i64, (b % self.cols) as i64);
        let (dr, dc) = ((ra - rb).abs(), (ca - cb).abs());
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// The symmetries of the rectangle (4, or 8 when square) that map the
    /// set of present cells onto itself, as index permutations.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.rows, self.cols);
        // A transposing symmetry maps the square onto itself, so `cols` is
        // also the width of every image.
        Symmetry::of_rectangle(rows, cols)
            .iter()
            .map(|s| {
                (0..self.cells())
                    .map(|i| {
                        let (r, c) = s.map(i / cols, i % cols, rows, cols);
                        r * cols + c
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|perm| (0..self.cells()).all(|i| self.present[i] == self.present[perm[i]]))
            .collect()
    }

    /// `true` if every square can reach every other by knight moves.  On
    /// the largest boards this takes seconds, so it polls `ctl`.
    pub fn is_connected(&self, ctl: &Control) -> Result<bool, SearchError> {
        let Some(first) = (0..self.cells()).find(|&i| self.present[i]) else {
            return Ok(false);
        };
        let squares = self.squares();
        let mut seen: Vec<bool> = memory::try_zeroed(self.cells(), "a connectivity check")?;
        // Each square is pushed at most once: the stack never reallocates.
        let mut stack: Vec<u32> = memory::try_with_capacity(squares, "a connectivity check")?;
        stack.push(first as u32);
        seen[first] = true;
        let mut reached = 1;
        while let Some(v) = stack.pop() {
            if reached % (1 << 16) == 0 && ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            for u in self.neighbours(v as usize) {
                if !seen[u] {
                    seen[u] = true;
                    reached += 1;
                    stack.push(u as u32);
                }
            }
        }
        Ok(reached == squares)
    }

    /// `(light, dark)` square counts of the chessboard colouring.
    pub fn colour_counts(&self) -> (usize, usize) {
        let light = (0..self.cells())
            .filter(|&i| self.present[i] && Self::is_light(i, self.cols))
            .count();
        (light, self.squares() - light)
    }

    pub fn is_light(index: usize, cols: usize) -> bool {
        (index / cols + index % cols) % 2 == 0
    }

    /// A cheap, exact "no tour from `start`" test: a disconnected knight graph,
    /// or colour counts a path (or cycle) from `start` cannot have.
    pub fn tour_impossible(
        &self,
        start: usize,
        closed: bool,
        ctl: &Control,
    ) -> Result<bool, SearchError> {
        let n = self.squares();
        if n == 1 || (n == 2 && closed) {
            // A cycle needs three squares (two would use one move twice).
            return Ok(closed);
        }
        if !self.is_connected(ctl)? {
            return Ok(true);
        }
        let (light, dark) = self.colour_counts();
        let (same, other) = if Self::is_light(start, self.cols) {
            (light, dark)
        } else {
            (dark, light)
        };
        // A path from `start` alternates colours: start's colour holds ceil(n/2).
        if same != n.div_ceil(2) || other != n / 2 {
            return Ok(true);
        }
        if !closed && self.four_wide_inner(start) {
            return Ok(true);
        }
        Ok(closed && (n % 2 == 1 || self.schwenk_excludes_cycle()))
    }

    /// On a full rectangle 4 squares wide, a start on one of the two inner
    /// lines: no open tour begins there.  An outer square's moves all lead to
    /// inner squares, and there are as many of each; a path covering the
    /// board has both classes "outer of one colour + inner of the other" to
    /// join, which takes an inner-inner move in each, so each needs an end
    /// on an outer square of its own colour: both ends are outer.
    pub(super) fn four_wide_inner(&self, start: usize) -> bool {
        if self.present.iter().any(|&p| !p) {
            return false;
        }
        let (r, c) = (start / self.cols, start % self.cols);
        if self.rows == 4 && self.cols > 4 {
            return matches!(r, 1 | 2);
        }
        if self.cols == 4 && self.rows > 4 {
            return matches!(c, 1 | 2);
        }
        false
    }

    /// Schwenk's theorem (1991): an `m x n` board, `m <= n`, has a closed tour
    /// unless `m` and `n` are both odd, `m` is 1, 2 or 4, or `m = 3` and `n` is
    /// 4, 6 or 8.  Only for full rectangles.
    pub(super) fn schwenk_excludes_cycle(&self) -> bool {
        if self.present.iter().any(|&p| !p) {
            return false;
        }
        !rectangle_has_tours(self.rows, self.cols, true)
    }
}

/// Whether the full `rows x cols` rectangle has a knight's tour at all
/// (`closed`: a closed one), by theorem, in constant time:
///
/// * closed (Schwenk 1991): an `m x n` board, `m <= n`, has one unless `m`
///   and `n` are both odd, `m` is 1, 2 or 4, or `m = 3` and `n` is 4, 6 or 8
///   (a single square is no cycle);
/// * open (Cull and De Curtins 1978; Conrad, Hindrichs, Morsy and Wegener
///   1994): unless `m = 1 < n`, `m = 2`, `m = 3` and `n` is 3, 5 or 6, or
///   `m = n = 4`.
///
/// The counts answer 0 from here without sweeping or searching (a 1 x 10^7
/// board has no tour, and the frontier would otherwise sweep it).
pub fn rectangle_has_tours(rows: usize, cols: usize, closed: bool) -> bool {
    let (m, n) = (rows.min(cols), rows.max(cols));
    if closed {
        !((m % 2 == 1 && n % 2 == 1)
            || matches!(m, 1 | 2 | 4)
            || (m == 3 && matches!(n, 4 | 6 | 8)))
    } else {
        !((m == 1 && n > 1) || m == 2 || (m == 3 && matches!(n, 3 | 5 | 6)) || (m == 4 && n == 4))
    }
}

/// Whether no tour of the full `rows x cols` rectangle starts on `start`
/// (`None`: on any square), by [`rectangle_has_tours`] and colours: on a
/// board of an odd number of squares a path alternates colours, so it starts
/// on the colour of the corners, which has one square more.
pub fn rectangle_rules_out(
    rows: usize,
    cols: usize,
    start: Option<(usize, usize)>,
    closed: bool,
) -> bool {
    if !rectangle_has_tours(rows, cols, closed) {
        return true;
    }
    let odd = rows % 2 == 1 && cols % 2 == 1;
    matches!(start, Some((r, c)) if odd && (r + c) % 2 == 1)
}

/// The smallest rectangle of a board that holds all its squares: the exact
/// search runs there, so a shape drawn inside a large grid still fits in 64
/// bits.  Maps square indices between the two boards.
#[derive(Debug, Clone)]
pub struct Window {
    small: Board,
    top: usize,
    left: usize,
    cols: usize,
}

impl Window {
    /// The window of `board` (a copy of its squares' rectangle: `Err(Memory)`
    /// if that cannot be had).
    pub fn of(board: &Board) -> Result<Window, SearchError> {
        let squares = (0..board.cells()).filter(|&i| board.is_square(i));
        let (mut top, mut bottom, mut left, mut right) = (usize::MAX, 0, usize::MAX, 0);
        for i in squares {
            let (r, c) = (i / board.cols, i % board.cols);
            (top, bottom) = (top.min(r), bottom.max(r));
            (left, right) = (left.min(c), right.max(c));
        }
        let (top, bottom, left, right) = if top == usize::MAX {
            // No squares: keep the board as it is (every search finds nothing).
            (0, board.rows - 1, 0, board.cols - 1)
        } else {
            (top, bottom, left, right)
        };
        let (rows, cols) = (bottom - top + 1, right - left + 1);
        let mut present = memory::try_with_capacity(rows * cols, "the board's window")?;
        present.extend(
            (0..rows * cols)
                .map(|i| board.is_square((top + i / cols) * board.cols + left + i % cols)),
        );
        Ok(Window {
            small: Board {
                rows,
                cols,
                present,
            },
            top,
            left,
            cols: board.cols,
        })
    }

    pub fn board(&self) -> &Board {
        &self.small
    }

    /// The window's index of a square of the full board (which must be a square).
    pub fn inward(&self, index: usize) -> usize {
        let (r, c) = (index / self.cols, index % self.cols);
        (r - self.top) * self.small.cols + (c - self.left)
    }

    /// The full board's index of a square of the window.
    pub fn outward(&self, index: usize) -> u32 {
        let (r, c) = (index / self.small.cols, index % self.small.cols);
        ((r + self.top) * self.cols + c + self.left) as u32
    }
}

/// Why a sequence of squares (indices `row * cols + col`) is not a knight's
/// tour, or `Ok(None)` if it is one; `Err(Memory)` if its bookkeeping (a
/// byte a cell) cannot be had.
pub fn tour_defect(
    board: &Board,
    path: &[u32],
    closed: bool,
) -> Result<Option<String>, SearchError> {
    let squares = board.squares();
    if path.len() != squares {
        return Ok(Some(format!(
            "a tour visits all {squares} squares, this sequence has {}",
            path.len()
        )));
    }
    let mut seen: Vec<bool> = memory::try_zeroed(board.cells(), "checking a tour")?;
    for (step, &sq) in path.iter().enumerate() {
        let sq = sq as usize;
        if !board.is_square(sq) {
            return Ok(Some(format!("step {step} is not a square of the board")));
        }
        if seen[sq] {
            let (r, c) = (sq / board.cols, sq % board.cols);
            return Ok(Some(format!("step {step} revisits square ({r}, {c})")));
        }
        seen[sq] = true;
        if step > 0 && !board.is_knight_move(path[step - 1] as usize, sq) {
            return Ok(Some(format!(
                "steps {} and {step} are not a knight's move apart",
                step - 1
            )));
        }
    }
    let closes = |last: u32, first: u32| board.is_knight_move(last as usize, first as usize);
    if closed && path.len() < 3 {
        // Two squares a move apart make no cycle: it would use one edge twice.
        return Ok(Some(
            "a closed tour needs at least three squares (a cycle)".into(),
        ));
    }
    if closed && !closes(path[path.len() - 1], path[0]) {
        return Ok(Some(
            "the last square is not a knight's move from the first".into(),
        ));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_without_squares_has_no_tour_and_no_panic() {
        let board = Board::from_mask(2, 2, vec![false; 4]).unwrap();
        // A closed tour needs at least two squares.
        assert!(tour_defect(&board, &[], true).unwrap().is_some());
        assert!(!board.is_connected(&Control::new()).unwrap());
    }

    #[test]
    fn symmetries_keep_the_shape() {
        assert_eq!(Board::rectangle(3, 4).unwrap().symmetries().len(), 4);
        assert_eq!(Board::rectangle(5, 5).unwrap().symmetries().len(), 8);
        // Three cells of a 2x2 grid, (1, 1) missing: of the 8 maps only the
        // identity and the transpose fix that cell.
        let board = Board::from_mask(2, 2, vec![true, true, true, false]).unwrap();
        assert_eq!(board.symmetries(), vec![vec![0, 1, 2, 3], vec![0, 2, 1, 3]]);
    }
}
