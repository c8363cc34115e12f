//! A row of a table in one sweep: the tours of every board `h x 1`,
//! `h x 2`, ..., `h x n`, read off the sweep of `h x n` as each column
//! ends (as Knuth's DYNAHAM reads the terms of `8 x n`).
//!
//! The sweep runs down columns of `h` squares, each from the top.  After
//! the last square of column `c`, the states whose edges make one path (one
//! cycle) through every square swept are the tours of `h x (c + 1)`: an
//! open count's, with no frontier square unused and two tour ends in all,
//! fixed or loose; a closed count's, the cycle the column's last square
//! closes, as a single board's last square closes it.  Their counts go to
//! the key `TERM | c` (`state.rs`), which every later step carries as it
//! is, so the last layer holds the whole row, and so does a checkpoint's
//! layer; the last column's term is the finished states', as for one board.
//!
//! Only rules true of every board the sweep may still end prune a state:
//! the colour caps are the largest over those boards, with at most two
//! tour ends in all; a cycle may close at each column's last square; an
//! unswept square counts as starved only within its own column; the test
//! of the rest of the board (`residual.rs`) is off.  The mirror merges
//! states as for one board: every board of the row is symmetric under it.

use super::layer::{Done, Layer};
use super::state::TERM;
use super::sweep::{end_caps, Sweep};
use super::{fingerprint, Storage, Swept, MAX_FRONTIER_SIDE};
use crate::engine::{with_pool, Control};
use crate::error::{grouped_digits, CountError, InputError, SearchError};
use crate::knights::Board;
use crate::layers::{mix, shard_of, Count, Packed, Stored, U256};

/// The most columns a row count reads: each term is a key that every
/// later layer carries.
pub const MAX_ROW_COLS: usize = 1024;

/// What a row count found: the directed tours of `h x c` for each `c`
/// from 1 up, and the states in the widest layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountedRow {
    pub tours: Vec<U256>,
    pub widest: u64,
}

/// The directed knight's tours of every board `rows x 1 ... rows x cols`
/// (over every start; `closed`: ending a knight's move from the start), as
/// [`super::count_paths_within`] counts each of them, from one sweep of
/// `rows x cols` within `storage` (its checkpoint holds the row so far).
pub fn count_row(
    rows: usize,
    cols: usize,
    closed: bool,
    threads: usize,
    storage: Storage<'_>,
    ctl: &Control,
) -> Result<CountedRow, CountError> {
    if !(1..=MAX_FRONTIER_SIDE).contains(&rows) || !(1..=MAX_ROW_COLS).contains(&cols) {
        return Err(InputError(format!(
            "a row count takes boards of 1 to {MAX_FRONTIER_SIDE} rows and 1 to \
             {MAX_ROW_COLS} columns; this one asks for {rows}x1 to {rows}x{cols}"
        ))
        .into());
    }
    let board = Board::rectangle(rows, cols)?;
    let mut sweep = Sweep::ordered(&board, (None, None), closed, true, false)?;
    sweep.row = true;
    sweep.caps = row_caps(rows, cols, closed);
    sweep.ends_cap = if closed { 0 } else { 2 };
    // Another rule for the last layers (and other keys): another problem.
    let problem = mix(fingerprint(&board, (None, None), closed) ^ 0x726f_7773_2d6f_6e65);
    let mut paths = vec![U256::default(); cols];
    let mut widest = 0;
    if sweep.caps.is_some() {
        let run = || sweep.sweep_all(problem, storage, ctl, None);
        let layer = match with_pool(threads, run)?? {
            Swept::Layer(layer, w) => {
                widest = w;
                layer
            }
            Swept::Done(..) => {
                let dir = storage.checkpoint.map(|d| d.display().to_string());
                return Err(SearchError::Corrupt(format!(
                    "the checkpoint in {} holds a finished count of one board, not a row",
                    dir.unwrap_or_default()
                ))
                .into());
            }
        };
        let done = sweep.done();
        paths = match &layer {
            Layer::Narrow(l) => terms(l, done, cols),
            Layer::Wide(l) => terms(l, done, cols),
            Layer::Huge(l) => terms(l, done, cols),
        }?;
    }
    let tours = (paths.iter().enumerate())
        .map(|(c, &p)| directed(rows * (c + 1), closed, p))
        .collect::<Result<_, _>>()?;
    Ok(CountedRow { tours, widest })
}

impl Sweep<'_> {
    /// What a row count's notes say after column `c` ends (`layer`, the
    /// layer then): that board's directed tours.
    pub(super) fn term_note(&self, layer: &Layer, c: u64) -> Result<String, SearchError> {
        let key = TERM | c;
        let paths = match layer {
            Layer::Narrow(l) => term_in(l, key),
            Layer::Wide(l) => term_in(l, key),
            Layer::Huge(l) => term_in(l, key),
        }?;
        let (rows, cols) = (self.column(), c as usize + 1);
        let tours = directed(rows * cols, self.closed, paths)?;
        let tours = grouped_digits(&tours.to_string());
        Ok(format!("; {rows}x{cols}: {tours} tours"))
    }
}

/// The count of the term `key` in `l` (one shard read, 0 if absent).
fn term_in<C: Count>(l: &Stored<C>, key: u64) -> Result<U256, SearchError> {
    let found = |p: &Packed<C>| p.entries().iter().find(|&(k, _)| k == key);
    l.with_shard(shard_of(key), |p| {
        found(p).map_or(U256::default(), |(_, c)| c.to_wide())
    })
}

/// The tour ends allowed per colour in any board `rows x 1 ... rows x
/// cols` (the most over them); `None` where every one rules out tours.
fn row_caps(rows: usize, cols: usize, closed: bool) -> Option<(u32, u32)> {
    (1..=cols)
        .filter_map(|c| end_caps(((rows * c).div_ceil(2), rows * c / 2), closed, &[]))
        .reduce(|(l, d), (m, e)| (l.max(m), d.max(e)))
}

/// The undirected paths (cycles) of each board of the row, from the last
/// layer: the term keys' counts, and the finished states' for the last.
fn terms<C: Count>(l: &Stored<C>, done: Done, cols: usize) -> Result<Vec<U256>, SearchError> {
    let read = l.try_fold(vec![U256::default(); cols], |mut terms, key, count| {
        let at = match key & TERM == TERM {
            true => usize::try_from(key & !TERM).ok()?,
            false if key & done.mask == done.codes => cols - 1,
            false => return Some(terms),
        };
        let term = terms.get_mut(at)?;
        *term = term.checked_add(count.to_wide())?;
        Some(terms)
    })?;
    read.ok_or(SearchError::Overflow)
}

/// The directed tours of a board of `squares` squares with `paths`
/// undirected paths (cycles when `closed`) over every start.
fn directed(squares: usize, closed: bool, paths: U256) -> Result<U256, SearchError> {
    let times = |x: U256, m: u64| x.checked_mul_small(m).ok_or(SearchError::Overflow);
    match (squares, closed) {
        (1, false) => Ok(U256::from(1u128)), // one square: one tour of no moves
        (_, false) => times(paths, 2),
        (_, true) => times(times(paths, 2)?, squares as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knights::frontier::count_paths;
    use crate::layers::Spill;

    /// [`count_row`] in memory, with no checkpoint, on `threads` threads.
    fn in_memory(
        (rows, cols): (usize, usize),
        closed: bool,
        threads: usize,
        ctl: &Control,
    ) -> Result<CountedRow, CountError> {
        let spill = Spill::unlimited();
        let storage = Storage {
            spill: &spill,
            checkpoint: None,
        };
        count_row(rows, cols, closed, threads, storage, ctl)
    }

    fn row(rows: usize, cols: usize, closed: bool) -> Vec<U256> {
        in_memory((rows, cols), closed, 2, &Control::new())
            .unwrap()
            .tours
    }

    #[test]
    fn each_term_is_the_count_of_its_board() {
        for (rows, cols) in [(1, 3), (2, 4), (3, 9), (4, 7), (5, 6)] {
            for closed in [false, true] {
                let want: Vec<U256> = (1..=cols)
                    .map(|c| {
                        let board = Board::rectangle(rows, c).unwrap();
                        count_paths(&board, None, closed, 1, &Control::new())
                            .unwrap()
                            .tours
                    })
                    .collect();
                assert_eq!(
                    row(rows, cols, closed),
                    want,
                    "{rows}x{cols} closed {closed}"
                );
            }
        }
    }

    #[test]
    fn the_notes_say_each_term_as_its_column_ends() {
        let ctl = Control::new();
        in_memory((5, 5), false, 1, &ctl).unwrap();
        let notes = ctl.take_notes();
        let board = Board::rectangle(5, 4).unwrap();
        let tours = count_paths(&board, None, false, 1, &Control::new()).unwrap();
        let said = format!("; 5x4: {} tours", tours.tours);
        assert_eq!(said, "; 5x4: 164 tours");
        // a note a step; the last column's term is read from the last layer
        assert_eq!(notes.len(), 25);
        assert!(notes[14].ends_with("states after step 15 of 25; 5x3: 0 tours"));
        assert!(notes[18].ends_with("; 5x3: 0 tours"), "{notes:?}");
        assert!(notes[19].ends_with(&said) && notes[24].ends_with(&said));
    }

    #[test]
    fn sizes_past_the_limits_are_refused() {
        for (rows, cols) in [
            (0, 4),
            (MAX_FRONTIER_SIDE + 1, 4),
            (4, 0),
            (4, MAX_ROW_COLS + 1),
        ] {
            let got = in_memory((rows, cols), false, 1, &Control::new());
            assert!(matches!(got, Err(CountError::Input(_))), "{rows}x{cols}");
        }
    }
}
