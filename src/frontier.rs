//! Counting knight's tours by a frontier (transfer-matrix) DP: the count is
//! the same as [`crate::knights::count_tours`], but no tour is visited, so
//! boards far beyond any backtracker (7x7: 165,575,218,320 open tours) and
//! long boards of any length (3xn, 4xn, ...) can be counted.
//!
//! # The sweep
//!
//! The board is cropped to the rectangle holding its squares and swept
//! along its longer side, one square at a time: with `h` the shorter side,
//! square `(r, c)` of the sweep (`c` along the long side) is step
//! `c * h + r`.  A knight move spans at most two sweep columns, so the
//! earlier neighbours of step `k` lie among steps `k - 2h - 1 .. k` and a
//! square has no neighbours after step `+ 2h + 1`: the *frontier* is the last
//! `2h + 1` squares.
//!
//! A *state* is what the frontier squares know about the edges chosen so
//! far (a partial set of tour edges among swept squares): each frontier
//! square is unused (degree 0), finished (degree 2, or finalized, or not a
//! square), or a loose end (degree 1) of a path fragment, labelled so that
//! the two ends of one fragment share a label; a label seen once is a
//! fragment whose other end is one of the tour's two ends and has already
//! left.  Labels are renumbered in order of first appearance, so equal
//! frontiers give equal states; a state packs into a `u64` (4 bits a square,
//! 15 squares, and 4 bits for the ends already fixed), which caps the
//! shorter side at [`MAX_FRONTIER_SIDE`].  Processing square `k` chooses which
//! of its edges to earlier squares are used (none, one or two), joins the
//! fragments (joining both ends of one fragment closes a cycle: allowed only
//! as the very last edge of a closed count), and *finalizes* every square
//! whose last neighbour is `k`: degree 0 is a dead state, degree 1 makes it
//! an end of the tour.  States with equal keys are merged, counts added.
//!
//! # Pruning
//!
//! * A tour has at most two ends (none when closed), a pinned start is one
//!   of them, and their colours are fixed by the two-colouring: with as many
//!   light as dark squares the ends differ in colour, with one more of a
//!   colour both ends have it.  An unused square with one unswept neighbour
//!   left must become an end, so it counts as one already.
//! * A path that is complete (both its ends fixed) before the last square
//!   leaves squares uncovered.
//!
//! The DP counts undirected Hamiltonian paths (cycles); they convert to the
//! directed tours of `count_tours`: `2 P` over all starts, `P_s` (paths with
//! an end at `s`) from a start `s`, `2 C` closed from a start, `2 n C` closed
//! over all starts.
//!
//! # Tables
//!
//! A layer (the states after one step) is kept in [`SHARDS`] vectors of
//! `(key, count)`; the next layer is built in parallel (rayon) into sharded
//! open-addressing tables, which are then compacted in place into the next
//! layer.  Counts are `u64` while the layer's total times the branching
//! cannot reach 2^64, `u128` beyond (checked: an overflow is an error).  A
//! shard table grows alone, so growing costs a 64th of the table, and the
//! memory peak is the old layer plus the new tables.

use crate::engine::{with_pool, Control};
use crate::error::{CountError, InputError, SearchError};
use crate::knights::{Board, Window};
use crate::memory::{self, advise_huge, prefetch, Zeroable};
use rayon::prelude::*;
use std::sync::Mutex;

/// The frontier count takes boards whose squares fit in a rectangle whose
/// shorter side is at most this (the long side may be any length).
pub const MAX_FRONTIER_SIDE: usize = 7;

/// Output shards of a step, by the top bits of the key's hash.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;
/// Parent states per task (and between two looks at the cancel flag).
const CHUNK: usize = 4096;
/// Children buffered per shard before taking its lock.
const BATCH: usize = 64;

/// Codes of a frontier square; labels of loose ends are `2..`.
const UNUSED: u8 = 0;
const DONE: u8 = 1;
/// The label of a fragment made in this step (renumbered before packing).
const FRESH: u8 = 15;

/// What a frontier count found: the number of directed tours, and the
/// states in the widest layer (what the count cost; the benches report it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    pub tours: U256,
    pub widest: u64,
}

/// Count directed knight's tours exactly as [`crate::knights::count_tours`]
/// does (from `start`, or from every square with `None`; `closed`: tours
/// ending a knight's move from their start), by the frontier DP.  Progress
/// goes to `ctl` as sweep steps done of the steps planned.
pub fn count_paths(
    board: &Board,
    start: Option<usize>,
    closed: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Counted, CountError> {
    if let Some(s) = start {
        board.check_start(s)?;
    }
    let n = board.squares() as u64;
    if n <= 1 {
        // One square: one (open) tour of no moves; no closed tour.
        let tours = U256::from(if n == 1 && !closed { 1 } else { 0 });
        return Ok(Counted { tours, widest: 0 });
    }
    let window = Window::of(board)?;
    let sweep = Sweep::new(window.board(), start.map(|s| window.inward(s)), closed)?;
    let (found, widest) = match sweep.caps {
        None => (U256::default(), 0),
        Some(_) => with_pool(threads, || sweep.run(ctl))??,
    };
    let times = |x: U256, m: u64| x.checked_mul_small(m).ok_or(SearchError::Overflow);
    let tours = match (start, closed) {
        (None, false) => times(found, 2)?,
        (Some(_), false) => found,
        (Some(_), true) => times(found, 2)?,
        (None, true) => times(times(found, 2)?, n)?,
    };
    Ok(Counted { tours, widest })
}

/// What happens at one step of the sweep.  "Slots" index the step's
/// working frontier: slot `i` is square `k - 2h - 1 + i`, slot `2h + 1` the
/// square `k` itself; after the step slot 0 leaves.
#[derive(Debug, Clone, Default)]
struct Step {
    present: bool,
    /// Slots of the present earlier neighbours of square `k`.
    earlier: Vec<usize>,
    /// Slots whose last neighbour (or themselves) is square `k`.
    finalize: u32,
    /// Slots that are light squares.
    light: u32,
    /// After the shift (bit `4i` for slot `i` of the new frontier): present
    /// squares, not the start, with exactly one unswept neighbour, by colour.
    forced_light: u64,
    forced_dark: u64,
    /// The start's slot, if in the working frontier.
    start_slot: Option<usize>,
    /// The start has been finalized by the end of this step.
    start_done: bool,
    /// The last square of the board.
    last: bool,
}

/// The board as the DP sweeps it.  The steps are worked out one at a time
/// as the sweep reaches them (from the board, a few squares around the
/// step), so a board of any length costs no memory per square beyond the
/// board itself.
struct Sweep<'a> {
    board: &'a Board,
    /// The shorter side: squares per sweep column.
    h: usize,
    /// Slots of the frontier after a step.
    width: usize,
    /// Bit `4i` for each of them.
    ones: u64,
    /// The last present square's sweep index: the sweep has `last + 1` steps.
    last: usize,
    /// The pinned start's sweep index and its last neighbour's.
    start: Option<(usize, usize)>,
    closed: bool,
    pinned: bool,
    /// Tour ends still allowed per colour (light, dark), the pinned start's
    /// taken out; `None`: the colour counts rule out every tour.
    caps: Option<(u32, u32)>,
}

/// A square's neighbours as sweep indices, ascending (at most 8).
#[derive(Clone, Copy, Default)]
struct Neighbours {
    at: [usize; 8],
    len: usize,
}

impl Neighbours {
    fn all(&self) -> &[usize] {
        &self.at[..self.len]
    }
}

/// What a step needs to know of a square of its working frontier.
#[derive(Clone, Copy, Default)]
struct SquareInfo {
    present: bool,
    light: bool,
    /// The step at which the square is finalized.
    last: usize,
    nbrs: Neighbours,
}

/// The working frontier's squares (at most 16), each worked out once, when
/// the sweep reaches it: square `j` in slot `j % 16`.
struct Recent([SquareInfo; 16]);

// A working frontier (the `2h + 1` squares and the new one) fits in `Recent`.
const _: () = assert!(2 * MAX_FRONTIER_SIDE + 2 <= 16);

impl<'a> Sweep<'a> {
    fn new(board: &'a Board, start: Option<usize>, closed: bool) -> Result<Sweep<'a>, InputError> {
        let (rows, cols) = (board.rows(), board.cols());
        let h = rows.min(cols);
        if h > MAX_FRONTIER_SIDE {
            return Err(InputError(format!(
                "the frontier count works on boards whose squares fit in a rectangle with a \
                 shorter side of at most {MAX_FRONTIER_SIDE} (the longer side may be any \
                 length); this one needs {rows}x{cols}"
            )));
        }
        let mut sweep = Sweep {
            board,
            h,
            width: 2 * h + 1,
            ones: ONES >> (64 - 4 * (2 * h + 1)),
            last: 0,
            start: None,
            closed,
            pinned: false,
            caps: None,
        };
        let len = rows * cols;
        // Every cycle passes through every square: a closed count needs no
        // pinned start (the conversion to directed tours does the rest).
        let start = if closed {
            None
        } else {
            start.map(|s| sweep.to_sweep(s))
        };
        sweep.start = start.map(|s| (s, sweep.last_neighbour(s, &sweep.neighbours(s))));
        sweep.pinned = start.is_some();
        sweep.last = (0..len).rev().find(|&k| sweep.present(k)).unwrap_or(0);

        let (mut light_n, mut dark_n) = (0u32, 0u32);
        for k in 0..len {
            if sweep.present(k) {
                if sweep.light(k) {
                    light_n += 1;
                } else {
                    dark_n += 1;
                }
            }
        }
        sweep.caps = if closed {
            (light_n == dark_n).then_some((0, 0))
        } else {
            let caps = if light_n == dark_n {
                Some((1u32, 1u32))
            } else if light_n == dark_n + 1 {
                Some((2, 0))
            } else if dark_n == light_n + 1 {
                Some((0, 2))
            } else {
                None
            };
            match (caps, start) {
                (Some((l, d)), Some(s)) => {
                    if sweep.light(s) {
                        l.checked_sub(1).map(|l| (l, d))
                    } else {
                        d.checked_sub(1).map(|d| (l, d))
                    }
                }
                (caps, _) => caps,
            }
        };
        Ok(sweep)
    }

    /// The sweep index of board cell `i`.
    fn to_sweep(&self, i: usize) -> usize {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let (r, c) = (i / cols, i % cols);
        if rows <= cols {
            c * self.h + r
        } else {
            r * self.h + c
        }
    }

    /// The board cell of sweep index `k`.
    fn cell(&self, k: usize) -> usize {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let (r, c) = if rows <= cols {
            (k % self.h, k / self.h)
        } else {
            (k / self.h, k % self.h)
        };
        r * cols + c
    }

    fn present(&self, k: usize) -> bool {
        self.board.is_square(self.cell(k))
    }

    fn light(&self, k: usize) -> bool {
        let i = self.cell(k);
        let cols = self.board.cols();
        (i / cols + i % cols) % 2 == 0
    }

    /// The neighbours of sweep square `k` (none if it is not a square).
    fn neighbours(&self, k: usize) -> Neighbours {
        let mut n = Neighbours { at: [0; 8], len: 0 };
        if self.present(k) {
            for u in self.board.neighbours(self.cell(k)) {
                n.at[n.len] = self.to_sweep(u);
                n.len += 1;
            }
            n.at[..n.len].sort_unstable();
        }
        n
    }

    /// The step at which square `k` is finalized: its last neighbour's, or its own.
    fn last_neighbour(&self, k: usize, n: &Neighbours) -> usize {
        n.all().last().copied().unwrap_or(k).max(k)
    }

    /// What a step needs to know of square `k`.
    fn info(&self, k: usize) -> SquareInfo {
        let nbrs = self.neighbours(k);
        SquareInfo {
            present: self.present(k),
            light: self.light(k),
            last: self.last_neighbour(k, &nbrs),
            nbrs,
        }
    }

    /// What happens at step `k` (square `k` of the sweep); `recent` holds
    /// the squares before `k` and gets `k`'s.
    fn step_at(&self, k: usize, recent: &mut Recent) -> Step {
        recent.0[k % 16] = self.info(k);
        let width = self.width;
        // Slot i of the working frontier is square k + i - width.
        let square = |i: usize| (k + i).checked_sub(width);
        let mut step = Step {
            present: recent.0[k % 16].present,
            last: k == self.last,
            start_done: self.start.is_some_and(|(_, done)| done <= k),
            ..Step::default()
        };
        let start = self.start.map(|(s, _)| s);
        for i in 0..=width {
            let Some(j) = square(i) else { continue };
            let SquareInfo {
                present,
                light,
                last,
                ref nbrs,
            } = recent.0[j % 16];
            if present && light {
                step.light |= 1 << i;
            }
            if present && last == k {
                step.finalize |= 1 << i;
            }
            if Some(j) == start {
                step.start_slot = Some(i);
            }
            if i == 0 || !present || Some(j) == start {
                continue;
            }
            let unswept = nbrs.all().iter().filter(|&&u| u > k).count();
            if unswept == 1 {
                if light {
                    step.forced_light |= 1 << (4 * (i - 1));
                } else {
                    step.forced_dark |= 1 << (4 * (i - 1));
                }
            }
        }
        if step.present {
            step.earlier = (recent.0[k % 16].nbrs.all().iter())
                .filter(|&&u| u < k)
                .map(|&u| u + width - k)
                .collect();
        }
        step
    }

    /// The first layer: every frontier slot before the board, nothing fixed.
    fn first_key(&self) -> u64 {
        pack(&[DONE; 16][..self.width], 0, 0)
    }

    /// Run every step, counting them in `ctl`'s progress; the number of
    /// undirected paths (cycles when closed), from the pinned start if any,
    /// and the states in the widest layer.
    fn run(&self, ctl: &Control) -> Result<(U256, u64), SearchError> {
        let steps = self.last + 1;
        ctl.start(steps);
        let mut widest = 0u64;
        let mut layer = Layer::Narrow(vec![vec![(self.first_key(), 1u64)]]);
        let mut growth = 2.0f64;
        let mut recent = Recent([SquareInfo::default(); 16]);
        for k in 0..steps {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let step = &self.step_at(k, &mut recent);
            let before = layer.len().max(1);
            // Tables sized for the growth of the step before; they grow if
            // that is too little (a shard at a time, so growing is cheap).
            let expected = (before as f64 * growth.min(2.0)) as usize;
            let width = layer.next_width();
            let what = format!(
                "the frontier count's tables at step {} of {steps}, after {before} states",
                k + 1
            );
            let next = NextLayer {
                step,
                expected,
                what: &what,
            };
            layer = match &layer {
                Layer::Narrow(l) => self.step_to(width, &next, l, ctl)?,
                Layer::Wide(l) => self.step_to(width, &next, l, ctl)?,
                Layer::Huge(l) => self.step_to(width, &next, l, ctl)?,
            };
            let after = layer.len();
            growth = (after as f64 / before as f64).clamp(0.25, 8.0);
            widest = widest.max(after as u64);
            ctl.finish_one();
        }
        // The finished states: every frontier square done.
        let done = pack(&[DONE; 16][..self.width], 0, 0) & CODES_MASK;
        let paths = match &layer {
            Layer::Narrow(l) => finished(l, done),
            Layer::Wide(l) => finished(l, done),
            Layer::Huge(l) => finished(l, done),
        }?;
        Ok((paths, widest))
    }

    /// One step into a layer of counts of `width`.
    fn step_to<I: Count>(
        &self,
        width: Width,
        next: &NextLayer,
        layer: &[Vec<(u64, I)>],
        ctl: &Control,
    ) -> Result<Layer, SearchError> {
        Ok(match width {
            Width::Narrow => Layer::Narrow(self.step(next, layer, ctl)?),
            Width::Wide => Layer::Wide(self.step(next, layer, ctl)?),
            Width::Huge => Layer::Huge(self.step(next, layer, ctl)?),
        })
    }

    /// One step: the next layer from `layer`, inside the pool.  The tables
    /// are allocated fallibly, and all of them together are first checked
    /// against the memory the machine has (the old layer is already in
    /// memory, so what is left is what the kernel reports).
    fn step<I: Count, O: Count>(
        &self,
        next: &NextLayer,
        layer: &[Vec<(u64, I)>],
        ctl: &Control,
    ) -> Result<Vec<Vec<(u64, O)>>, SearchError> {
        let NextLayer {
            step,
            expected,
            what,
        } = *next;
        let per_shard = expected / SHARDS;
        let bytes = memory::bytes_of::<(u64, O)>(Table::<O>::slots_for(per_shard) * SHARDS);
        memory::check_available(bytes, what)?;
        let tables = (0..SHARDS)
            .map(|_| Table::with_capacity(per_shard, what).map(Mutex::new))
            .collect::<Result<Vec<Mutex<Table<O>>>, SearchError>>()?;
        let flush = |shard: usize, batch: &mut Vec<(u64, O)>| -> Result<(), SearchError> {
            let mut table = tables[shard].lock().unwrap_or_else(|e| e.into_inner());
            let added = table.add_all(batch, what);
            batch.clear();
            added
        };
        let chunks: Vec<&[(u64, I)]> = layer.iter().flat_map(|s| s.chunks(CHUNK)).collect();
        chunks.into_par_iter().try_for_each_init(
            || -> Vec<Vec<(u64, O)>> { (0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect() },
            |batches, chunk| -> Result<(), SearchError> {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                let mut result = Ok(());
                for &(key, count) in chunk {
                    let count = O::from_wide(count.to_wide()).ok_or(SearchError::Overflow)?;
                    self.expand(step, key, &mut |child| {
                        let shard = (mix(child) >> (64 - SHARD_BITS)) as usize;
                        let batch = &mut batches[shard];
                        batch.push((child, count));
                        if batch.len() == BATCH && result.is_ok() {
                            result = flush(shard, batch);
                        }
                    });
                    std::mem::replace(&mut result, Ok(()))?;
                }
                for (shard, batch) in batches.iter_mut().enumerate() {
                    if !batch.is_empty() {
                        flush(shard, batch)?;
                    }
                }
                Ok(())
            },
        )?;
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        Ok(tables
            .into_par_iter()
            .map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner()).compact())
            .collect())
    }

    /// Every state that `key` goes on to at `step`, passed to `emit`.
    ///
    /// The working frontier is a `u64` of nibbles, slot `i` in bits `4i..`:
    /// the key's codes, and the new square in slot `width` (16 slots at most).
    #[inline]
    fn expand(&self, step: &Step, key: u64, emit: &mut impl FnMut(u64)) {
        let w = self.width;
        let codes = key & CODES_MASK;
        let ends = (key >> 60) as u32 - 1;
        let (tl, td) = (ends / 3, ends % 3);
        if !step.present {
            self.finish(step, codes | (DONE as u64) << (4 * w), tl, td, emit);
            return;
        }
        self.finish(step, codes, tl, td, emit);
        for (a, &ya) in step.earlier.iter().enumerate() {
            let Some(one) = self.join(step, codes, ya) else {
                continue;
            };
            self.finish(step, one, tl, td, emit);
            for &yb in &step.earlier[a + 1..] {
                if let Some(two) = self.join(step, one, yb) {
                    self.finish(step, two, tl, td, emit);
                }
            }
        }
    }

    /// Add the edge from the new square (slot `width`) to slot `y`; `None`
    /// if the edge cannot be a tour edge here.
    #[inline]
    fn join(&self, step: &Step, codes: u64, y: usize) -> Option<u64> {
        let x = self.width;
        let (cx, cy) = (nibble(codes, x), nibble(codes, y));
        if cy == DONE || (step.start_slot == Some(y) && cy != UNUSED) {
            return None;
        }
        if step.start_slot == Some(x) && cx != UNUSED {
            return None;
        }
        let set = |codes: u64, cx: u8, cy: u8| {
            let cleared = codes & !(15 << (4 * x)) & !(15 << (4 * y));
            cleared | (cx as u64) << (4 * x) | (cy as u64) << (4 * y)
        };
        Some(match (cx, cy) {
            (UNUSED, UNUSED) => set(codes, FRESH, FRESH),
            (UNUSED, l) => set(codes, l, DONE),
            (l, UNUSED) => set(codes, DONE, l),
            (l, m) if l == m => {
                // Both ends of one fragment: a cycle, the very last edge only.
                if !(self.closed && step.last) {
                    return None;
                }
                set(codes, DONE, DONE)
            }
            (l, m) => {
                // The other ends of the two fragments now end one fragment.
                let joined = set(codes, DONE, DONE);
                let at_m = zero_nibbles(joined ^ (m as u64 * ONES)) * 15;
                joined ^ (at_m & ((l ^ m) as u64 * ONES))
            }
        })
    }

    /// Finalize, prune, shift and pack a state after its edges are chosen.
    #[inline]
    fn finish(
        &self,
        step: &Step,
        mut codes: u64,
        mut tl: u32,
        mut td: u32,
        emit: &mut impl FnMut(u64),
    ) {
        let Some((cap_l, cap_d)) = self.caps else {
            return;
        };
        let mut fin = step.finalize;
        while fin != 0 {
            let i = fin.trailing_zeros() as usize;
            fin &= fin - 1;
            match nibble(codes, i) {
                UNUSED => return,
                DONE => {}
                c => {
                    if step.start_slot != Some(i) {
                        if step.light >> i & 1 == 1 {
                            tl += 1;
                        } else {
                            td += 1;
                        }
                    }
                    codes ^= ((c ^ DONE) as u64) << (4 * i);
                }
            }
        }
        if tl > cap_l || td > cap_d {
            return;
        }
        debug_assert_eq!(nibble(codes, 0), DONE);
        let codes = codes >> 4;
        let ones = self.ones;
        let unused = zero_nibbles(codes) & ones;
        let forced_l = (unused & step.forced_light).count_ones();
        let forced_d = (unused & step.forced_dark).count_ones();
        if tl + forced_l > cap_l || td + forced_d > cap_d {
            return;
        }
        let mut labels = (codes >> 1 | codes >> 2 | codes >> 3) & ones;
        if !self.closed && labels == 0 && !step.last {
            // Both tour ends fixed and no loose end: the path is complete
            // (or there is none yet, if no end is fixed).
            let fixed = tl + td + (self.pinned && step.start_done) as u32;
            if fixed == 2 {
                return;
            }
        }
        // Renumber labels in order of first appearance.
        // `map` holds the new label of label `c` in nibble `c` (kept in a
        // register: an array on the stack made this loop a third slower).
        let mut map = 0u64;
        let mut next = 2u64;
        let mut out = codes;
        while labels != 0 {
            let at = labels.trailing_zeros();
            labels &= labels - 1;
            let c = (codes >> at) & 15;
            let mut to = (map >> (4 * c)) & 15;
            if to == 0 {
                to = next;
                map |= next << (4 * c);
                next += 1;
            }
            out ^= (c ^ to) << at;
        }
        debug_assert!(next <= 15);
        emit(out | ((tl * 3 + td + 1) as u64) << 60);
    }
}

/// Bit `4i` set for every nibble of `x`, `i < 16`.
const ONES: u64 = 0x1111_1111_1111_1111;

/// Bit `4i` set where nibble `i` of `x` is 0.
#[inline]
fn zero_nibbles(x: u64) -> u64 {
    !(x | x >> 1 | x >> 2 | x >> 3) & ONES
}

#[inline]
fn nibble(x: u64, i: usize) -> u8 {
    (x >> (4 * i)) as u8 & 15
}

/// The low 60 bits of a key: the frontier codes.
const CODES_MASK: u64 = (1 << 60) - 1;

/// A key: codes in 4 bits each, the fixed ends `(light, dark)` on top
/// (never 0, so 0 marks a free table slot).
#[inline]
fn pack(codes: &[u8], tl: u32, td: u32) -> u64 {
    let mut key = ((tl * 3 + td + 1) as u64) << 60;
    for (i, &c) in codes.iter().enumerate() {
        key |= (c as u64) << (4 * i);
    }
    key
}

#[inline]
fn mix(key: u64) -> u64 {
    let k = (key ^ (key >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (k ^ (k >> 32)).wrapping_mul(0x94d0_49bb_1331_11eb)
}

/// A state count: `u64` while it surely fits, `u128` beyond, [`U256`] past
/// that (long thin boards: 3x100 has about 10^53 tours).
trait Count: Copy + Send + Sync + Default + Zeroable + 'static {
    fn checked_add(self, other: Self) -> Option<Self>;
    fn from_wide(n: U256) -> Option<Self>;
    fn to_wide(self) -> U256;
}

impl Count for u64 {
    fn checked_add(self, other: Self) -> Option<Self> {
        u64::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        u64::try_from(n.to_u128()?).ok()
    }
    fn to_wide(self) -> U256 {
        U256::from(self as u128)
    }
}

impl Count for u128 {
    fn checked_add(self, other: Self) -> Option<Self> {
        u128::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        n.to_u128()
    }
    fn to_wide(self) -> U256 {
        U256::from(self)
    }
}

impl Count for U256 {
    fn checked_add(self, other: Self) -> Option<Self> {
        U256::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        Some(n)
    }
    fn to_wide(self) -> U256 {
        self
    }
}

/// An unsigned 256-bit integer, `hi * 2^128 + lo`: only what the counts need
/// (checked addition, multiplication by a small factor, decimal printing).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct U256 {
    pub hi: u128,
    pub lo: u128,
}

// SAFETY: two integers; all-zero bytes are the number 0.
unsafe impl Zeroable for U256 {}

impl From<u128> for U256 {
    fn from(lo: u128) -> Self {
        U256 { hi: 0, lo }
    }
}

impl U256 {
    pub fn checked_add(self, other: U256) -> Option<U256> {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        let hi = self.hi.checked_add(other.hi)?.checked_add(carry as u128)?;
        Some(U256 { hi, lo })
    }

    /// `self * m` for `m < 2^64`, or `None` past 256 bits.
    pub fn checked_mul_small(self, m: u64) -> Option<U256> {
        let m = m as u128;
        let (lo_lo, lo_hi) = (self.lo as u64 as u128 * m, (self.lo >> 64) * m);
        // lo * m = lo_hi * 2^64 + lo_lo, split across the two halves
        let (lo, carry) = lo_lo.overflowing_add(lo_hi << 64);
        let hi = self
            .hi
            .checked_mul(m)?
            .checked_add(lo_hi >> 64)?
            .checked_add(carry as u128)?;
        Some(U256 { hi, lo })
    }

    pub fn to_u128(self) -> Option<u128> {
        (self.hi == 0).then_some(self.lo)
    }

    /// `(self / d, self % d)` for a nonzero `d < 2^64`.
    fn div_rem_small(self, d: u64) -> (U256, u64) {
        let d = d as u128;
        let mut rem = 0u128;
        let mut limbs = [
            (self.hi >> 64) as u64,
            self.hi as u64,
            (self.lo >> 64) as u64,
            self.lo as u64,
        ];
        for limb in &mut limbs {
            let cur = (rem << 64) | *limb as u128;
            *limb = (cur / d) as u64;
            rem = cur % d;
        }
        let q = U256 {
            hi: (limbs[0] as u128) << 64 | limbs[1] as u128,
            lo: (limbs[2] as u128) << 64 | limbs[3] as u128,
        };
        (q, rem as u64)
    }
}

impl std::fmt::Display for U256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(n) = self.to_u128() {
            return write!(f, "{n}");
        }
        // 19 decimal digits at a time, least significant first
        let mut parts = Vec::new();
        let mut n = *self;
        while n.hi != 0 || n.lo >= 10u128.pow(19) {
            let (q, r) = n.div_rem_small(10u64.pow(19));
            parts.push(r);
            n = q;
        }
        write!(f, "{}", n.lo)?;
        for part in parts.iter().rev() {
            write!(f, "{part:019}")?;
        }
        Ok(())
    }
}

/// The states after a step, in shards.
enum Layer {
    Narrow(Vec<Vec<(u64, u64)>>),
    Wide(Vec<Vec<(u64, u128)>>),
    Huge(Vec<Vec<(u64, U256)>>),
}

/// Which count type the next layer needs.
#[derive(Clone, Copy)]
enum Width {
    Narrow,
    Wide,
    Huge,
}

/// The total count of the states whose codes are `done` (every square finished).
fn finished<C: Count>(l: &[Vec<(u64, C)>], done: u64) -> Result<U256, SearchError> {
    l.iter()
        .flatten()
        .filter(|(key, _)| key & CODES_MASK == done)
        .try_fold(U256::default(), |s, &(_, c)| s.checked_add(c.to_wide()))
        .ok_or(SearchError::Overflow)
}

fn states<C: Count>(l: &[Vec<(u64, C)>]) -> usize {
    l.iter().map(Vec::len).sum()
}

fn sum<C: Count>(l: &[Vec<(u64, C)>]) -> Option<U256> {
    l.iter()
        .flatten()
        .try_fold(U256::default(), |s, &(_, c)| s.checked_add(c.to_wide()))
}

impl Layer {
    fn len(&self) -> usize {
        match self {
            Layer::Narrow(l) => states(l),
            Layer::Wide(l) => states(l),
            Layer::Huge(l) => states(l),
        }
    }

    /// The sum of the counts, `None` past 256 bits.
    fn total(&self) -> Option<U256> {
        match self {
            Layer::Narrow(l) => sum(l),
            Layer::Wide(l) => sum(l),
            Layer::Huge(l) => sum(l),
        }
    }

    /// Every child count is at most the layer's total times the (at most
    /// 11) ways a state goes on: the narrowest type that surely holds that.
    fn next_width(&self) -> Width {
        match self.total() {
            Some(t) if t <= U256::from((u64::MAX / 16) as u128) => Width::Narrow,
            Some(t) if t <= U256::from(u128::MAX / 16) => Width::Wide,
            _ => Width::Huge,
        }
    }
}

/// What a step builds: the step, the states expected after it, and the
/// tables' name in a memory error.
struct NextLayer<'a> {
    step: &'a Step,
    expected: usize,
    what: &'a str,
}

/// `n` free slots for `what` (`Err(Memory)` if they cannot be had), advised
/// onto 2 MiB pages and then zeroed here, in order.  (Zeroed by `calloc`
/// and left to the kernel instead, the pages are first touched in hash
/// order: measured twice the page faults and 5% slower on 6x6.)  The memory
/// is reserved before it is written, so the zeroing never reallocates.
fn zeroed<C: Count>(n: usize, what: &str) -> Result<Vec<(u64, C)>, SearchError> {
    let mut slots = memory::try_with_capacity(n, what)?;
    advise_huge(&slots);
    slots.resize(n, (0, C::default()));
    Ok(slots)
}

/// An open-addressing table summing counts per key (key 0: a free slot).
struct Table<C: Count> {
    slots: Vec<(u64, C)>,
    used: usize,
}

impl<C: Count> Table<C> {
    /// The slots of a table for `n` states: any size (not a power of two),
    /// 60% full when the guess is right, grown by half at 75%: 16-byte slots
    /// cost about 27 bytes a state.
    fn slots_for(n: usize) -> usize {
        (n + n * 2 / 3).max(64)
    }

    fn with_capacity(n: usize, what: &str) -> Result<Self, SearchError> {
        Ok(Table {
            slots: zeroed(Self::slots_for(n), what)?,
            used: 0,
        })
    }

    /// Where `key` starts probing in `len` slots: the hash bits below the
    /// shard bits, scaled to `len`.
    #[inline]
    fn home(key: u64, len: usize) -> usize {
        (((mix(key) << SHARD_BITS) as u128 * len as u128) >> 64) as usize
    }

    fn add_all(&mut self, batch: &[(u64, C)], what: &str) -> Result<(), SearchError> {
        if 4 * (self.used + batch.len()) > 3 * self.slots.len() {
            self.grow(what)?;
        }
        let len = self.slots.len();
        for &(key, _) in batch {
            prefetch(&self.slots[Self::home(key, len)]);
        }
        for &(key, count) in batch {
            let mut slot = Self::home(key, len);
            loop {
                let entry = &mut self.slots[slot];
                if entry.0 == key {
                    entry.1 = entry.1.checked_add(count).ok_or(SearchError::Overflow)?;
                    break;
                }
                if entry.0 == 0 {
                    *entry = (key, count);
                    self.used += 1;
                    break;
                }
                slot += 1;
                if slot == len {
                    slot = 0;
                }
            }
        }
        Ok(())
    }

    /// Half as many slots again (`Err(Memory)` if they cannot be had: the
    /// table is then left as it was).
    fn grow(&mut self, what: &str) -> Result<(), SearchError> {
        let len = self.slots.len() * 3 / 2;
        let old = std::mem::replace(&mut self.slots, zeroed(len, what)?);
        for entry in old {
            if entry.0 != 0 {
                let mut slot = Self::home(entry.0, len);
                while self.slots[slot].0 != 0 {
                    slot += 1;
                    if slot == len {
                        slot = 0;
                    }
                }
                self.slots[slot] = entry;
            }
        }
        Ok(())
    }

    /// The entries, packed to the front of the table's own memory.
    fn compact(self) -> Vec<(u64, C)> {
        let mut slots = self.slots;
        let mut w = 0;
        for i in 0..slots.len() {
            if slots[i].0 != 0 {
                slots[w] = slots[i];
                w += 1;
            }
        }
        slots.truncate(w);
        slots.shrink_to_fit();
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knights;

    fn both(board: &Board, start: Option<usize>, closed: bool) -> (u128, u128) {
        let ctl = Control::new();
        let f = count_paths(board, start, closed, 1, &ctl)
            .unwrap()
            .tours
            .to_u128()
            .unwrap();
        let s = knights::count_tours(board.clone(), start, closed, 1, &ctl).unwrap();
        (f, s)
    }

    #[test]
    fn agrees_with_search_on_small_rectangles() {
        for (rows, cols) in (1..=5)
            .flat_map(|r| (1..=5).map(move |c| (r, c)))
            .chain([(3, 10), (5, 6)])
        {
            {
                let board = Board::rectangle(rows, cols).unwrap();
                for closed in [false, true] {
                    let (f, s) = both(&board, None, closed);
                    assert_eq!(f, s, "{rows}x{cols} all closed={closed}");
                    for start in 0..rows * cols {
                        let (f, s) = both(&board, Some(start), closed);
                        assert_eq!(f, s, "{rows}x{cols} from {start} closed={closed}");
                    }
                }
            }
        }
    }

    #[test]
    fn published_values() {
        let ctl = Control::new();
        let b = Board::rectangle(3, 16).unwrap();
        assert_eq!(
            count_paths(&b, None, false, 2, &ctl).unwrap().tours,
            U256::from(17_273_760)
        );
    }

    #[test]
    fn u256_arithmetic_and_printing() {
        let max = U256::from(u128::MAX);
        let two128 = max.checked_add(U256::from(1)).unwrap();
        assert_eq!((two128.hi, two128.lo), (1, 0));
        assert_eq!(
            two128.to_string(),
            "340282366920938463463374607431768211456"
        );
        let big = two128.checked_mul_small(1_000_000_007).unwrap();
        assert_eq!(
            big.to_string(),
            "340282369302915031909943851675390463478377480192"
        );
        let top = U256 {
            hi: u128::MAX,
            lo: u128::MAX,
        };
        assert_eq!(top.checked_add(U256::from(1)), None);
        assert_eq!(top.checked_mul_small(2), None);
        assert_eq!(U256::from(12).checked_mul_small(3), Some(U256::from(36)));
        assert_eq!(
            U256::from(10u128.pow(19)).to_string(),
            "10000000000000000000"
        );
        let two200 = U256 { hi: 1 << 72, lo: 0 };
        assert_eq!(
            two200.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
    }

    #[test]
    fn an_impossible_table_is_a_memory_error() {
        let err = Table::<u64>::with_capacity(usize::MAX / 64, "a test table");
        assert!(matches!(err, Err(SearchError::Memory { .. })));
    }

    #[test]
    fn a_long_board_overflows_without_per_square_memory() {
        // 3 x 1,000,000: past 256 bits near column 146; the steps are worked
        // out as the sweep reaches them, so nothing is allocated per square.
        let board = Board::rectangle(3, 1_000_000).unwrap();
        let err = count_paths(&board, None, false, 1, &Control::new()).unwrap_err();
        assert_eq!(err, CountError::Search(SearchError::Overflow));
    }

    #[test]
    fn too_wide_is_refused() {
        let b = Board::rectangle(8, 8).unwrap();
        let err = count_paths(&b, None, false, 1, &Control::new()).unwrap_err();
        assert!(err.to_string().contains("at most 7"), "{err}");
    }
}
