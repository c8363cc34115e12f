//! Open tours as a sum over their pairs of ends: a plan of independent
//! frontier counts with both ends pinned, one per pair of squares up to the
//! board's symmetries.
//!
//! A sweep with no pinned end carries every start at once and is the
//! widest there is (8x8 open: past the memory of one machine); pinning both
//! ends narrows it, and the pairs are independent, so they run anywhere
//! (an executor, a checkpointed run) and add up.  This is how Chernov and
//! Stertenbrink counted the 8x8 open tours (2014): a weighted sum of 136
//! counts with both ends fixed.
//!
//! A pair `{s, t}` stands for its class under the symmetries that map the
//! board onto itself (the canonical pair is the least image); its *weight*
//! is the size of the class.  With every start, the directed open tours are
//! twice the sum over classes of weight times the paths between the pair;
//! from one start `s`, the ends `t` are taken up to the symmetries that fix
//! `s`, and the sum is the tours from `s`.  Pairs whose colours no tour can
//! have (see `state.rs`, "Pruning") are left out.

use super::sweep::{end_caps, Sweep};
use super::{count_paths_between, Storage};
use crate::engine::{Control, Each, Splittable};
use crate::error::{CountError, InputError, SearchError};
use crate::knights::{Board, Window};
use crate::layers::Spill;
use std::path::PathBuf;

/// One subproblem: the paths from `start` to `end` (board cells), for
/// `weight` ordered-start pairs of its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub start: usize,
    pub end: usize,
    pub weight: u64,
}

/// The pairs of a count of open tours, in order of their cells.
pub struct PairPlan {
    board: Board,
    pairs: Vec<Pair>,
    /// Every start (the sum counts each path once: the tours are twice it,
    /// except on a board of one square, whose one tour is its own reverse).
    every_start: bool,
    /// Each pair's memory budget and where its layers spill.
    budget: Option<u64>,
    spill: Option<PathBuf>,
}

impl PairPlan {
    /// The plan of the open tours of `board` from `start` (every square if
    /// `None`), each pair counted within `budget` bytes (spilling to
    /// `spill`, the system's temporary directory if `None`).
    pub fn new(
        board: Board,
        start: Option<usize>,
        budget: Option<u64>,
        spill: Option<PathBuf>,
    ) -> Result<PairPlan, CountError> {
        if let Some(s) = start {
            board.check_start(s)?;
        }
        // Refused up front (too wide) rather than in every pair.
        let window = Window::of(&board)?;
        Sweep::new(window.board(), (None, None), false)?;
        let pairs = pairs(&board, start);
        Ok(PairPlan {
            board,
            pairs,
            every_start: start.is_none(),
            budget,
            spill,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }
}

impl Splittable for PairPlan {
    fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The weighted count of each pair in `which`, in that order, one after
    /// another on `threads` threads; `finished` gets each as it is done.
    fn count_each(&self, each: &Each<'_>, ctl: &Control) -> Result<Vec<u128>, CountError> {
        let Each {
            which,
            threads,
            finished,
        } = *each;
        let spill = Spill::new(self.budget.unwrap_or(u64::MAX), self.spill.as_deref());
        let storage = Storage {
            spill: &spill,
            checkpoint: None,
        };
        let mut counts = Vec::with_capacity(which.len());
        for &i in which {
            let pair = self.pairs.get(i).ok_or_else(|| {
                InputError(format!(
                    "subproblem {i} is not in this plan of {}",
                    self.len()
                ))
            })?;
            let paths = if pair.start == pair.end {
                // The one square of a one-square board: one tour, no sweep.
                Some(1)
            } else {
                let ends = (pair.start, pair.end);
                count_paths_between(&self.board, ends, threads, storage, ctl)?
                    .tours
                    .to_u128()
            };
            let weighted = paths
                .and_then(|n| n.checked_mul(pair.weight as u128))
                .ok_or(SearchError::Overflow)?;
            finished(i, weighted);
            counts.push(weighted);
        }
        Ok(counts)
    }

    /// The tours from the sum of every pair's weighted count.
    fn total(&self, sum: u128, _: &Control) -> Result<u128, CountError> {
        match self.every_start && self.board.squares() > 1 {
            true => Ok(sum.checked_mul(2).ok_or(SearchError::Overflow)?),
            false => Ok(sum),
        }
    }
}

/// The canonical pairs of `board`'s open tours from `start` (or every
/// square), with their weights.
fn pairs(board: &Board, start: Option<usize>) -> Vec<Pair> {
    let syms = board.symmetries();
    let squares: Vec<usize> = (0..board.cells()).filter(|&i| board.is_square(i)).collect();
    let colours = board.colour_counts();
    let is_light = |i: usize| Board::is_light(i, board.cols());
    // Whether a tour may end on both (see `state.rs`, "Pruning").
    let colours_allow =
        |s: usize, t: usize| end_caps(colours, false, &[is_light(s), is_light(t)]).is_some();
    if let [only] = squares[..] {
        // A path from a square to itself: the tour of a one-square board.
        return vec![Pair {
            start: only,
            end: only,
            weight: 1,
        }];
    }
    let mut out = Vec::new();
    match start {
        None => {
            for (a, &s) in squares.iter().enumerate() {
                for &t in &squares[a + 1..] {
                    if !colours_allow(s, t) {
                        continue;
                    }
                    let mut images: Vec<(usize, usize)> = (syms.iter())
                        .map(|g| (g[s].min(g[t]), g[s].max(g[t])))
                        .collect();
                    images.sort_unstable();
                    images.dedup();
                    if images[0] == (s, t) {
                        let weight = images.len() as u64;
                        out.push(Pair {
                            start: s,
                            end: t,
                            weight,
                        });
                    }
                }
            }
        }
        Some(s) => {
            let fixing: Vec<&Vec<usize>> = syms.iter().filter(|g| g[s] == s).collect();
            for &t in squares.iter().filter(|&&t| t != s && colours_allow(s, t)) {
                let mut images: Vec<usize> = fixing.iter().map(|g| g[t]).collect();
                images.sort_unstable();
                images.dedup();
                if images[0] == t {
                    let weight = images.len() as u64;
                    out.push(Pair {
                        start: s,
                        end: t,
                        weight,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(plan: &PairPlan, threads: usize) -> u128 {
        let all: Vec<usize> = (0..plan.len()).collect();
        let each = Each {
            which: &all,
            threads,
            finished: &|_, _| {},
        };
        let counts = plan.count_each(&each, &Control::new());
        plan.total(counts.unwrap().iter().sum(), &Control::new())
            .unwrap()
    }

    #[test]
    fn the_pairs_add_up_to_the_tours() {
        let ctl = Control::new();
        for (rows, cols) in [(3, 4), (4, 4), (5, 5), (3, 7), (5, 6)] {
            let board = Board::rectangle(rows, cols).unwrap();
            let want = |start| {
                let n = super::super::count_paths(&board, start, false, 1, &ctl).unwrap();
                n.tours.to_u128().unwrap()
            };
            let plan = PairPlan::new(board.clone(), None, None, None).unwrap();
            // Every unordered pair of allowed colours, once, by weight.
            let n = board.squares() as u64;
            let weights: u64 = plan.pairs().iter().map(|p| p.weight).sum();
            let (l, d) = board.colour_counts();
            let allowed = match l.abs_diff(d) {
                0 => (l * d) as u64,
                1 => (l.max(d) * (l.max(d) - 1) / 2) as u64,
                _ => 0,
            };
            assert_eq!(weights, allowed, "{rows}x{cols}: {n} squares");
            assert_eq!(sum(&plan, 2), want(None), "{rows}x{cols}");
            for s in [0, board.cells() / 2] {
                let plan = PairPlan::new(board.clone(), Some(s), None, None).unwrap();
                assert_eq!(sum(&plan, 1), want(Some(s)), "{rows}x{cols} from {s}");
            }
        }
    }

    #[test]
    fn a_board_of_one_square_has_one_tour() {
        let one = Board::rectangle(1, 1).unwrap();
        assert_eq!(
            sum(&PairPlan::new(one.clone(), None, None, None).unwrap(), 1),
            1
        );
        assert_eq!(sum(&PairPlan::new(one, Some(0), None, None).unwrap(), 1), 1);
        let shaped = Board::from_mask(1, 3, vec![false, true, false]).unwrap();
        assert_eq!(
            sum(&PairPlan::new(shaped.clone(), None, None, None).unwrap(), 2),
            1
        );
        assert_eq!(
            sum(&PairPlan::new(shaped, Some(1), None, None).unwrap(), 2),
            1
        );
    }

    #[test]
    fn a_square_board_has_fewer_classes() {
        // 8x8: 32 x 32 pairs of unlike colours fall into 136 classes
        // (the 136 counts of Chernov and Stertenbrink).
        let board = Board::rectangle(8, 8).unwrap();
        let plan = PairPlan::new(board, None, None, None).unwrap();
        assert_eq!(plan.len(), 136);
        assert_eq!(plan.pairs().iter().map(|p| p.weight).sum::<u64>(), 32 * 32);
    }

    #[test]
    fn refused_up_front() {
        let wide = Board::rectangle(9, 9).unwrap();
        assert!(PairPlan::new(wide, None, None, None).is_err());
        let board = Board::rectangle(4, 4).unwrap();
        assert!(PairPlan::new(board, Some(16), None, None).is_err());
    }
}
