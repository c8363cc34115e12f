//! The plain search: rows top to bottom, columns left to right, so its
//! solutions come in the lexicographic order of their column lists (what
//! listing and the deterministic find need); a unique listing keeps the
//! least placement of each symmetry class.  A board is a bitmask in a
//! `u64`, hence [`MAX_SEARCH_N`], the limit every search of a board checks.

use super::images::is_least_image;
use crate::engine::{self, Stop, SubtreeSearch, Ticker};
use crate::error::{InputError, SearchError};
use crate::symmetry::Symmetry;

/// Boards are bitmasks in a `u64`.
pub const MAX_SEARCH_N: usize = 64;

/// `Err` unless a board of `n` queens fits the searches' bitmasks.
pub(super) fn check_search_n(n: usize) -> Result<(), InputError> {
    if n == 0 || n > MAX_SEARCH_N {
        return Err(InputError(format!(
            "n must be between 1 and {MAX_SEARCH_N} for counting and listing, got {n}"
        )));
    }
    Ok(())
}

/// A subproblem of the plain search: rows `0..placed.len()` are filled.
/// Diagonals are bit masks indexed by `row + col` (`up`) and
/// `col - row + n - 1` (`down`).
#[derive(Debug, Clone)]
pub struct QueenTask {
    cols: u64,
    up: u128,
    down: u128,
    placed: Vec<u8>,
}

/// The plain search: rows top to bottom, columns left to right, so solutions
/// come in lexicographic order (enumeration, finding).
pub struct QueenSearch {
    n: usize,
    full: u64,
    /// Keep only the least placement of each symmetry class (what a unique
    /// listing streams).
    unique: bool,
}

impl QueenSearch {
    /// The search of every placement of `n` queens, or with `unique` of
    /// the least of each symmetry class.
    pub(super) fn new(n: usize, unique: bool) -> QueenSearch {
        QueenSearch {
            n,
            full: full_mask(n),
            unique,
        }
    }

    pub(super) fn roots(&self) -> Vec<QueenTask> {
        vec![QueenTask {
            cols: 0,
            up: 0,
            down: 0,
            placed: Vec::new(),
        }]
    }

    /// The columns still open in `row`.
    #[inline]
    fn options(&self, row: usize, cols: u64, up: u128, down: u128) -> u64 {
        let diagonals = (up >> row) as u64 | (down >> (self.n - 1 - row)) as u64;
        self.full & !(cols | diagonals)
    }

    /// Place a queen at `(row, col)`.
    #[inline]
    fn place(&self, row: usize, col: u32, cols: u64, up: u128, down: u128) -> (u64, u128, u128) {
        (
            cols | 1 << col,
            up | 1 << (row + col as usize),
            down | 1 << (col as usize + self.n - 1 - row),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn visit_below(
        &self,
        placed: &mut Vec<u8>,
        cols: u64,
        up: u128,
        down: u128,
        ticker: &mut Ticker,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let row = placed.len();
        if row == self.n {
            return Ok(emit(placed.clone()));
        }
        ticker.tick(stop)?;
        let mut options = self.options(row, cols, up, down);
        while options != 0 {
            let col = options.trailing_zeros();
            options &= options - 1;
            let (c, u, d) = self.place(row, col, cols, up, down);
            placed.push(col as u8);
            let go = self.visit_below(placed, c, u, d, ticker, stop, emit)?;
            placed.pop();
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl SubtreeSearch for QueenSearch {
    type Task = QueenTask;
    type Solution = Vec<u8>;
    type Scratch = ();

    fn scratch(&self, _: &Stop) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, task: &QueenTask, out: &mut Vec<QueenTask>) -> bool {
        let row = task.placed.len();
        if row == self.n {
            return false;
        }
        let mut options = self.options(row, task.cols, task.up, task.down);
        while options != 0 {
            let col = options.trailing_zeros();
            options &= options - 1;
            let (cols, up, down) = self.place(row, col, task.cols, task.up, task.down);
            let mut placed = task.placed.clone();
            placed.push(col as u8);
            out.push(QueenTask {
                cols,
                up,
                down,
                placed,
            });
        }
        true
    }

    fn count(&self, task: &QueenTask, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
        engine::count_by_visiting(self, task, stop)
    }

    fn visit(
        &self,
        task: &QueenTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        // A unique listing hands on only the least placement of each class.
        let mut least;
        let emit: &mut dyn FnMut(Vec<u8>) -> bool = if self.unique {
            least = |cols: Vec<u8>| !is_least_image(&cols, Symmetry::non_identity()) || emit(cols);
            &mut least
        } else {
            emit
        };
        let mut placed = task.placed.clone();
        let mut ticker = Ticker::new();
        self.visit_below(
            &mut placed,
            task.cols,
            task.up,
            task.down,
            &mut ticker,
            stop,
            emit,
        )
    }
}
