//! The exact search for directed knight's tours on a board of at most 64
//! cells ([`TourSearch`], a [`SubtreeSearch`] of the shared engine): pruned
//! bitboard backtracking that counts (with the tail memo) or lists tours in
//! the seed article's move order.
//!
//! Invariants of a [`TourTask`]: `path` is a knight's path whose squares are
//! exactly the squares not in `unvisited`; `end` is empty or the one
//! unvisited square that can only be entered last; `home` is the start's bit
//! for closed tours, else 0.  Pruning (`step`) only cuts positions from which
//! no tour follows, so counts are exact and the listing order is the order of
//! plain backtracking.

use super::graph::KnightGraph;
use super::memo::{self, TailMemo};
use crate::engine::{Control, Stop, SubtreeSearch, Ticker};
use crate::error::{CountError, SearchError};

/// A subproblem of the tour search: a path prefix and what it leaves.
#[derive(Debug, Clone)]
pub struct TourTask {
    /// The squares visited so far, in order; the last one is the knight.
    pub path: Vec<u8>,
    /// Squares not yet visited.
    pub(super) unvisited: u64,
    /// The unvisited square (at most one) that can only be the tour's end.
    end: u64,
    /// For closed tours, the start square the tour must return to; else 0.
    home: u64,
    /// How many tours each tour below this task stands for (symmetry).
    weight: u64,
}

/// Squares whose tails are memoised: a tail is the number of ways to finish
/// from a knight square through a set of unvisited squares, which depends on
/// nothing else, and the same tails recur under many different prefixes.
const MEMO_MIN: u32 = 4;
const MEMO_MAX: u32 = 24;
/// The largest memo table, `2^MEMO_BITS` slots.
const MEMO_BITS: u32 = 16;
/// Connectivity of the unvisited squares is checked while at least this many
/// remain (enumeration; counting checks only near the root, see `new`).
const CONNECT_MIN: u32 = 6;

/// Directed knight's tours (Hamiltonian paths of the knight graph), open or
/// closed, from chosen start squares.
pub struct TourSearch {
    graph: KnightGraph,
    roots: Vec<TourTask>,
    memo_bits: u32,
    count_connect_min: u32,
    /// This search's number: memo entries are shared by its calls only.
    generation: u64,
}

impl TourSearch {
    /// Tours from each of `starts` (`(square, weight)`); `closed` asks for
    /// tours that end a knight's move from their start.
    pub fn new(
        graph: KnightGraph,
        starts: &[(usize, u64)],
        closed: bool,
    ) -> Result<TourSearch, CountError> {
        let mut roots = Vec::new();
        for &(start, weight) in starts {
            graph.board.check_start(start)?;
            if let Some(task) = Self::root(&graph, start, closed, weight)? {
                roots.push(task);
            }
        }
        // A small table that stays in L2 beats a big one that misses to DRAM
        // (measured: 2^16 slots beat 2^18 and 2^20 on 5x7 and 6x6).
        let squares = graph.board.squares() as u32;
        let bits = squares.saturating_sub(12).clamp(10, MEMO_BITS);
        // While counting, the memo already makes a split-off part cheap, so the
        // connectivity fill pays only near the root (measured on 4x7..6x6).
        let count_connect_min = squares.saturating_sub(8).max(CONNECT_MIN);
        Ok(TourSearch {
            graph,
            roots,
            memo_bits: bits,
            count_connect_min,
            generation: memo::new_owner(),
        })
    }

    /// Every square as a start, each with weight 1 (for enumeration).
    pub fn all_starts(graph: &KnightGraph) -> Vec<(usize, u64)> {
        (0..graph.board.cells())
            .filter(|&i| graph.board.is_square(i))
            .map(|i| (i, 1))
            .collect()
    }

    /// One start per symmetry class of squares, weighted by the class size:
    /// the count from a square equals the count from its image.
    pub fn start_classes(graph: &KnightGraph) -> Vec<(usize, u64)> {
        let syms = graph.board.symmetries();
        let mut classes = Vec::new();
        for i in 0..graph.board.cells() {
            if !graph.board.is_square(i) {
                continue;
            }
            let mut orbit: Vec<usize> = syms.iter().map(|p| p[i]).collect();
            orbit.sort_unstable();
            orbit.dedup();
            if orbit[0] == i {
                classes.push((i, orbit.len() as u64));
            }
        }
        classes
    }

    pub fn graph(&self) -> &KnightGraph {
        &self.graph
    }

    pub fn roots(&self) -> Vec<TourTask> {
        self.roots.clone()
    }

    /// The task at the start, or `None` if the board rules out every tour.
    fn root(
        graph: &KnightGraph,
        start: usize,
        closed: bool,
        weight: u64,
    ) -> Result<Option<TourTask>, SearchError> {
        let sbit = 1u64 << start;
        let unvisited = graph.all & !sbit;
        let home = if closed { sbit } else { 0 };
        let mut task = TourTask {
            path: vec![start as u8],
            unvisited,
            end: 0,
            home,
            weight,
        };
        if unvisited == 0 {
            return Ok(Some(task));
        }
        // At most 64 squares: too quick to need the caller's cancel flag.
        if graph
            .board
            .tour_impossible(start, closed, &Control::new())?
        {
            return Ok(None);
        }
        let avail = unvisited | sbit;
        let mut rest = unvisited;
        while rest != 0 {
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let degree = (graph.nbr[u] & avail).count_ones();
            if degree == 0 || (degree == 1 && closed) {
                return Ok(None);
            }
            if degree == 1 {
                task.end |= 1 << u;
            }
        }
        if task.end.count_ones() > 1 {
            return Ok(None);
        }
        Ok(Some(task))
    }

    /// Move the knight from `head` to `to`: the `end` square of the new
    /// position, or `None` if no tour can follow.  The rules:
    /// * an unvisited square with no way in, or (open tours) one way in and no
    ///   way out, while another square already has to be the end;
    /// * the forced end on the wrong colour for the remaining path length;
    /// * unvisited squares the knight can no longer reach.
    #[inline(always)]
    fn step(
        &self,
        head: usize,
        unvisited: u64,
        end: u64,
        home: u64,
        to: usize,
        connect_min: u32,
    ) -> Option<u64> {
        let g = &self.graph;
        let to_bit = 1u64 << to;
        let left = unvisited & !to_bit;
        if left == 0 {
            return Some(0);
        }
        let avail = left | to_bit | home;
        if home != 0 && g.nbr[home.trailing_zeros() as usize] & (left | to_bit) == 0 {
            return None;
        }
        let mut new_end = end & left;
        // Only the old head's neighbours lost an exit.
        let mut touched = g.nbr[head] & left;
        while touched != 0 {
            let u = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let degree = (g.nbr[u] & avail).count_ones();
            if degree <= 1 {
                if degree == 0 || home != 0 {
                    return None;
                }
                new_end |= 1 << u;
            }
        }
        if new_end != 0 {
            if new_end & (new_end - 1) != 0 {
                return None;
            }
            let e = new_end.trailing_zeros() as usize;
            let remaining = left.count_ones();
            // Colours alternate: the end has the knight's colour iff an even
            // number of squares remains.
            let same = ((g.light >> to) ^ (g.light >> e)) & 1 == 0;
            if same != (remaining % 2 == 0) {
                return None;
            }
            if remaining > 1 && g.nbr[e] & avail == to_bit {
                return None;
            }
        }
        if left.count_ones() >= connect_min && g.reach(to_bit, left) & left != left {
            return None;
        }
        Some(new_end)
    }

    #[inline]
    fn candidates(&self, head: usize, unvisited: u64, end: u64) -> u64 {
        let moves = self.graph.nbr[head] & unvisited;
        // The forced end may only be entered last.
        if end != 0 && unvisited != end {
            moves & !end
        } else {
            moves
        }
    }

    #[inline]
    fn closes(&self, head: usize, home: u64) -> bool {
        home == 0 || self.graph.nbr[head] & home != 0
    }

    crate::cpu::kernels! {
        /// The tours below a node, on the CPU's best kernels: the recursion
        /// is compiled twice (see `crate::cpu`), and each copy calls itself.
        fn count_below / count_below_plain / count_below_v3 = count_below_with(
            head: usize, unvisited: u64, end: u64, home: u64,
            memo: &mut TailMemo, ticker: &mut Ticker, stop: &Stop,
        ) -> Result<u64, SearchError>
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn count_below_with<const FAST: bool>(
        &self,
        head: usize,
        unvisited: u64,
        end: u64,
        home: u64,
        memo: &mut TailMemo,
        ticker: &mut Ticker,
        stop: &Stop,
    ) -> Result<u64, SearchError> {
        if unvisited == 0 {
            return Ok(self.closes(head, home) as u64);
        }
        ticker.tick(stop)?;
        let remaining = unvisited.count_ones();
        let memoised = (MEMO_MIN..=MEMO_MAX).contains(&remaining);
        let tag = (head as u64 + 1) | ((home.trailing_zeros() as u64 & 0x7F) << 7);
        if memoised {
            if let Some(n) = memo.get(unvisited, tag) {
                return Ok(n);
            }
        }
        let mut moves = self.candidates(head, unvisited, end);
        let mut total = 0u64;
        while moves != 0 {
            let to = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            if let Some(new_end) = self.step(head, unvisited, end, home, to, self.count_connect_min)
            {
                let rest = unvisited & !(1 << to);
                #[cfg(target_arch = "x86_64")]
                let below = if FAST {
                    // SAFETY: FAST runs only inside count_below_v3.
                    unsafe { self.count_below_v3(to, rest, new_end, home, memo, ticker, stop)? }
                } else {
                    self.count_below_plain(to, rest, new_end, home, memo, ticker, stop)?
                };
                #[cfg(not(target_arch = "x86_64"))]
                let below = self.count_below_plain(to, rest, new_end, home, memo, ticker, stop)?;
                total = total.checked_add(below).ok_or(SearchError::Overflow)?;
            }
        }
        if memoised {
            memo.put(unvisited, tag, total);
        }
        Ok(total)
    }

    #[allow(clippy::too_many_arguments)]
    fn visit_below(
        &self,
        path: &mut Vec<u8>,
        unvisited: u64,
        end: u64,
        home: u64,
        ticker: &mut Ticker,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let head = *path.last().expect("a task holds its start") as usize;
        if unvisited == 0 {
            return Ok(!self.closes(head, home) || emit(path.clone()));
        }
        ticker.tick(stop)?;
        let moves = self.candidates(head, unvisited, end);
        for &to in &self.graph.order[head] {
            if moves >> to & 1 == 0 {
                continue;
            }
            let to = to as usize;
            if let Some(new_end) = self.step(head, unvisited, end, home, to, CONNECT_MIN) {
                path.push(to as u8);
                let go = self.visit_below(
                    path,
                    unvisited & !(1 << to),
                    new_end,
                    home,
                    ticker,
                    stop,
                    emit,
                )?;
                path.pop();
                if !go {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

impl SubtreeSearch for TourSearch {
    type Task = TourTask;
    type Solution = Vec<u8>;
    type Scratch = TailMemo;

    fn scratch(&self, _: &Stop) -> Result<TailMemo, SearchError> {
        TailMemo::new(self.memo_bits, self.generation)
    }

    fn split(&self, task: &TourTask, out: &mut Vec<TourTask>) -> bool {
        if task.unvisited == 0 {
            return false;
        }
        let head = *task.path.last().expect("a task holds its start") as usize;
        let moves = self.candidates(head, task.unvisited, task.end);
        for &to in &self.graph.order[head] {
            if moves >> to & 1 == 0 {
                continue;
            }
            let to = to as usize;
            if let Some(end) = self.step(head, task.unvisited, task.end, task.home, to, CONNECT_MIN)
            {
                let mut path = task.path.clone();
                path.push(to as u8);
                out.push(TourTask {
                    path,
                    unvisited: task.unvisited & !(1 << to),
                    end,
                    home: task.home,
                    weight: task.weight,
                });
            }
        }
        true
    }

    fn count(
        &self,
        task: &TourTask,
        memo: &mut TailMemo,
        stop: &Stop,
    ) -> Result<u128, SearchError> {
        let head = *task.path.last().expect("a task holds its start") as usize;
        let mut ticker = Ticker::new();
        let n = self.count_below(
            head,
            task.unvisited,
            task.end,
            task.home,
            memo,
            &mut ticker,
            stop,
        )?;
        (n as u128)
            .checked_mul(task.weight as u128)
            .ok_or(SearchError::Overflow)
    }

    fn visit(
        &self,
        task: &TourTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let mut path = task.path.clone();
        let mut ticker = Ticker::new();
        self.visit_below(
            &mut path,
            task.unvisited,
            task.end,
            task.home,
            &mut ticker,
            stop,
            emit,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Board;
    use super::*;
    use crate::engine;

    #[test]
    fn enumeration_follows_the_seed_order() {
        let graph = KnightGraph::new(Board::rectangle(3, 4).unwrap()).unwrap();
        let search = TourSearch::new(graph, &[(8, 1)], false).unwrap();
        let mut tours = Vec::new();
        for task in engine::plan(&search, search.roots(), 5, 64, &Control::new()).unwrap() {
            search
                .visit(&task, &Stop::new(&Control::new()), &mut |t| {
                    tours.push(t);
                    true
                })
                .unwrap();
        }
        assert_eq!(
            tours,
            vec![
                vec![8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4],
                vec![8, 6, 0, 9, 7, 1, 10, 4, 2, 11, 5, 3],
            ]
        );
    }

    #[test]
    fn schwenk_theorem_agrees_with_exact_search() {
        for rows in 1..=6 {
            for cols in rows..=8 {
                if rows * cols > 36 {
                    continue;
                }
                let board = Board::rectangle(rows, cols).unwrap();
                let graph = KnightGraph::new(board.clone()).unwrap();
                // Bypass `tour_impossible` (which uses the theorem): search directly.
                let search = TourSearch {
                    roots: Vec::new(),
                    ..TourSearch::new(graph, &[], true).unwrap()
                };
                let sbit = 1u64;
                let root = TourTask {
                    path: vec![0],
                    unvisited: search.graph.all & !sbit,
                    end: 0,
                    home: sbit,
                    weight: 1,
                };
                let tasks = engine::plan(&search, vec![root], 16, 64, &Control::new()).unwrap();
                let cycles = engine::count(&search, &tasks, 2, &Control::new()).unwrap();
                let exists = rows * cols > 1 && cycles > 0;
                assert_eq!(exists, !board.schwenk_excludes_cycle(), "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn open_tour_theorem_agrees_with_exact_counts() {
        // The frontier counts every start at once; the theorem says where it is 0.
        let (most_rows, most_cols) = (5, 9);
        for rows in 1..=most_rows {
            for cols in rows..=most_cols {
                let board = Board::rectangle(rows, cols).unwrap();
                let ctl = Control::new();
                let n =
                    crate::knights::frontier::count_paths(&board, None, false, 2, &ctl).unwrap();
                let exists = n.tours.to_u128().unwrap() > 0;
                assert_eq!(
                    exists,
                    crate::knights::rectangle_has_tours(rows, cols, false),
                    "{rows}x{cols}"
                );
                assert_eq!(
                    exists,
                    crate::knights::rectangle_has_tours(cols, rows, false),
                    "{cols}x{rows}"
                );
            }
        }
    }

    #[test]
    fn start_classes_cover_every_square_once() {
        for (rows, cols) in [(3, 4), (5, 5), (4, 6)] {
            let graph = KnightGraph::new(Board::rectangle(rows, cols).unwrap()).unwrap();
            let classes = TourSearch::start_classes(&graph);
            let total: u64 = classes.iter().map(|&(_, w)| w).sum();
            assert_eq!(total, (rows * cols) as u64, "{rows}x{cols}");
        }
    }
}
