//! Counting knight's tours by a frontier (transfer-matrix) DP: the count is
//! the same as [`crate::knights::count_tours`], but no tour is visited, so
//! boards far beyond any backtracker (7x7: 165,575,218,320 open tours) and
//! long boards of any length (3xn, 4xn, ...) can be counted.
//!
//! This module owns the entry point [`count_paths`] and the layer loop (one
//! sweep step after another, each built in parallel).  The parts:
//!
//! * `sweep.rs`: the precomputation: the order of the squares, each step's
//!   earlier neighbours, the squares it finalizes, the colour caps on the
//!   tour's ends, worked out one step at a time (the ring `Recent`).
//! * `state.rs`: a state as a `u64` key; one step's children of a key
//!   (join the fragments, finalize, prune, renumber).
//! * `residual.rs`: whether the rest of the board can give a closed
//!   count's state the edges it needs (near the board's end).
//! * `code.rs`: a frontier's codes in a machine word, and packed in a key.
//! * `growth.rs`: how much a step is expected to grow the layer (the
//!   size of its tables, the states its memory is planned for).
//! * `layer.rs`: a layer of states in packed shards, with counts of the
//!   narrowest type that holds them; the tables that build it, the count
//!   types and the parallel step are the layer engine's ([`crate::layers`]).
//! * `row.rs`: a row of a table (`h x 1 ... h x n`) read off one sweep.
//! * `pairs.rs`: open tours as a plan of counts with both ends pinned, one
//!   per pair of squares up to symmetry (for executors and checkpoints).
//! * `saved.rs`: the checkpoint directory: a layer saved after each step,
//!   and where a count called again goes on from.
//!
//! # Counting
//!
//! The DP counts undirected Hamiltonian paths (cycles); they convert to the
//! directed tours of `count_tours`: `2 P` over all starts, `P_s` (paths with
//! an end at `s`) from a start `s`, `2 C` closed from a start, `2 n C` closed
//! over all starts.
//!
//! # Layers
//!
//! A layer (the states after one step) is kept in `SHARDS` (64) packed
//! shards; the next layer is built in parallel (rayon) into sharded
//! open-addressing tables ([`crate::layers::accumulate`]), which are then
//! packed in place into the next layer.  Counts are `u64` while the layer's
//! total times the branching cannot reach 2^64, `u128` beyond, then 256
//! bits (checked: an overflow is an error).  A shard table grows alone, so
//! growing costs a 64th of the table, and the memory peak is the old layer
//! plus the new tables.
//!
//! # Checkpoints
//!
//! With a checkpoint directory ([`Storage::checkpoint`]) each finished layer
//! is saved there (`layers::checkpoint`: synced, the manifest replaced
//! atomically), and a count called again the same way goes on from the last
//! saved layer: the sweep's ring of recent squares is worked out again (it
//! depends only on the board), the layer is read back from the file as the
//! spilled layers are, and the steps after it run as before.  A layer is
//! the same for every thread count and memory budget, so a resumed run may
//! use others than the first.

mod code;
mod growth;
mod layer;
mod pairs;
mod residual;
mod round;
mod row;
mod saved;
mod state;
mod sweep;

use crate::engine::{with_pool, Control};
use crate::error::{grouped, human_bytes, CountError, InputError, SearchError};
use crate::knights::{Board, Window};
use crate::layers::{
    accumulate_some, check_ahead, mix, Checksum, Count, Entries, Feed, Packed, Spill, Spilling,
    Stored,
};
use growth::Growth;
use layer::{finished, Layer, Width};
use saved::Resume;
use std::marker::PhantomData;
use std::path::Path;
use std::time::Instant;
use sweep::{Recent, Step, Sweep};

pub use crate::layers::U256;
pub use pairs::{Pair, PairPlan};
pub use round::{round, steps, Piece, RoundOut};
pub use row::{count_row, CountedRow, MAX_ROW_COLS};

/// The frontier count takes boards whose squares fit in a rectangle whose
/// shorter side is at most this (the long side may be any length).
pub const MAX_FRONTIER_SIDE: usize = 8;

/// Parent states per task (and between two looks at the cancel flag).
const CHUNK: usize = 4096;

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
    let storage = Storage {
        spill: &Spill::unlimited(),
        checkpoint: None,
    };
    count_paths_within(board, start, closed, threads, storage, ctl)
}

/// Where a count keeps its layers beyond memory.
#[derive(Clone, Copy)]
pub struct Storage<'a> {
    /// The memory budget, and where layers past it spill.
    pub spill: &'a Spill,
    /// A directory where each finished layer is saved, and from whose last
    /// layer (or answer) a count called again goes on (see "Checkpoints").
    pub checkpoint: Option<&'a Path>,
}

/// [`count_paths`] within `storage`'s memory budget (a step whose layers
/// would not fit goes through files in the spill directory: the answer is
/// the same; the bytes written are in [`Spill::written`]), saving each
/// layer to its checkpoint directory, if any, and resuming from it.
pub fn count_paths_within(
    board: &Board,
    start: Option<usize>,
    closed: bool,
    threads: usize,
    storage: Storage<'_>,
    ctl: &Control,
) -> Result<Counted, CountError> {
    count_paths_of(board, (start, None), closed, threads, storage, ctl)
}

/// The directed open tours from `start` to `end` (Hamiltonian paths with
/// both ends fixed), by the frontier DP within `storage`, as
/// [`count_paths_within`] counts them from one end.
pub fn count_paths_between(
    board: &Board,
    (start, end): (usize, usize),
    threads: usize,
    storage: Storage<'_>,
    ctl: &Control,
) -> Result<Counted, CountError> {
    board.check_start(end)?;
    let ends = (Some(start), Some(end));
    count_paths_of(board, ends, false, threads, storage, ctl)
}

/// The tours from `start` to `end` (each `None` for any square), by the
/// frontier DP within `storage`: [`count_paths_within`] and
/// [`count_paths_between`].
fn count_paths_of(
    board: &Board,
    (start, end): (Option<usize>, Option<usize>),
    closed: bool,
    threads: usize,
    storage: Storage<'_>,
    ctl: &Control,
) -> Result<Counted, CountError> {
    let run =
        |sweep: &Sweep<'_>, problem| with_pool(threads, || sweep.run(problem, storage, ctl, None));
    let (found, widest) = match prepared(board, (start, end), closed, run)? {
        Err(tours) => return Ok(Counted { tours, widest: 0 }),
        Ok(run) => run??,
    };
    // A path with both ends fixed is one tour, from its start.
    let tours = match end {
        Some(_) => found,
        None => tours_from_paths(board, start, closed, found)?,
    };
    Ok(Counted { tours, widest })
}

/// `f` of the sweep of a count of `board` (tours from `start` to `end`,
/// each `None` for any square) and the tag of its files; or, for a count
/// that needs no sweep, its answer (`Err`: one square, a start that is the
/// end, or a board whose colours rule out every tour).
fn prepared<R>(
    board: &Board,
    (start, end): (Option<usize>, Option<usize>),
    closed: bool,
    f: impl FnOnce(&Sweep<'_>, u64) -> R,
) -> Result<Result<R, U256>, CountError> {
    if let Some(s) = start {
        board.check_start(s)?;
    }
    if end.is_some() && (start.is_none() || closed) {
        return Err(
            InputError("an end square needs a start square and an open tour".into()).into(),
        );
    }
    let n = board.squares();
    if n <= 1 {
        // One square: one (open) tour of no moves; no closed tour.
        return Ok(Err(U256::from(if n == 1 && !closed { 1 } else { 0 })));
    }
    if end.is_some() && end == start {
        return Ok(Err(U256::default())); // a path's two ends differ
    }
    let window = Window::of(board)?;
    let inward = start.map(|s| window.inward(s));
    let inward_end = end.map(|s| window.inward(s));
    let sweep = Sweep::new(window.board(), (inward, inward_end), closed)?;
    if sweep.caps.is_none() {
        return Ok(Err(U256::default()));
    }
    let mut problem = fingerprint(window.board(), (inward, inward_end), closed);
    if sweep.outside_in {
        // Another order of the squares, other layers: another problem.
        problem = mix(problem ^ 0x6f75_7473_6964_6520);
    }
    Ok(Ok(f(&sweep, problem)))
}

/// The directed tours of a count that found `paths` undirected paths (or
/// cycles): see "Counting" above.
pub fn tours_from_paths(
    board: &Board,
    start: Option<usize>,
    closed: bool,
    paths: U256,
) -> Result<U256, SearchError> {
    let times = |x: U256, m: u64| x.checked_mul_small(m).ok_or(SearchError::Overflow);
    match (start, closed) {
        (None, false) => times(paths, 2),
        (Some(_), false) => Ok(paths),
        (Some(_), true) => times(paths, 2),
        (None, true) => times(times(paths, 2)?, board.squares() as u64),
    }
}

/// The states of each layer of a count of `board` (tours from `start`, or
/// from every square; `closed` or open), in memory on `threads` threads,
/// with the directed tours found; `mirror: false` turns off the merging of
/// states with their mirror images (`sweep.rs`, `Mirror`), and
/// `outside_in` (if given) chooses the order of the squares in a sweep
/// column (`Sweep::oriented`), neither of which changes the answer.  For
/// the benches and the tests, which compare them; empty for a count that
/// needs no sweep.
#[doc(hidden)]
pub fn layer_sizes(
    board: &Board,
    start: Option<usize>,
    closed: bool,
    how: (bool, Option<bool>),
    threads: usize,
    ctl: &Control,
) -> Result<(U256, Vec<u64>), CountError> {
    layer_sizes_within(board, start, closed, how, threads, &Spill::unlimited(), ctl)
}

/// [`layer_sizes`] within `spill`'s budget (the benches' runs of boards
/// whose layers do not fit in memory).
#[doc(hidden)]
pub fn layer_sizes_within(
    board: &Board,
    start: Option<usize>,
    closed: bool,
    (mirror, outside_in): (bool, Option<bool>),
    threads: usize,
    spill: &Spill,
    ctl: &Control,
) -> Result<(U256, Vec<u64>), CountError> {
    let storage = Storage {
        spill,
        checkpoint: None,
    };
    let mut sizes = Vec::new();
    let run = |sweep: &Sweep<'_>, problem| {
        let mut sweep = match outside_in {
            Some(outside_in) => sweep.reordered(outside_in)?,
            None => sweep.clone(),
        };
        if !mirror {
            sweep = sweep.unmirrored();
        }
        let sizes = Some(&mut sizes);
        let run = || sweep.run(problem, storage, ctl, sizes);
        Ok::<_, CountError>(with_pool(threads, run)??)
    };
    let paths = match prepared(board, (start, None), closed, run)? {
        Err(tours) => return Ok((tours, sizes)),
        Ok(run) => run?.0,
    };
    Ok((tours_from_paths(board, start, closed, paths)?, sizes))
}

impl Sweep<'_> {
    /// Run every step (from the checkpoint's last layer, if any), counting
    /// them in `ctl`'s progress; the number of undirected paths (cycles
    /// when closed), from the pinned start if any, and the states in the
    /// widest layer.  Cancelled through `ctl`, it stops between steps
    /// (the last one saved) with `Cancelled`.  The states of each layer
    /// built go to `sizes`, if given.
    fn run(
        &self,
        problem: u64,
        storage: Storage<'_>,
        ctl: &Control,
        sizes: Option<&mut Vec<u64>>,
    ) -> Result<(U256, u64), SearchError> {
        let (layer, widest) = match self.sweep_all(problem, storage, ctl, sizes)? {
            Swept::Done(paths, widest) => return Ok((paths, widest)),
            Swept::Layer(layer, widest) => (layer, widest),
        };
        let done = self.done();
        let paths = match &layer {
            Layer::Narrow(l) => finished(l, done),
            Layer::Wide(l) => finished(l, done),
            Layer::Huge(l) => finished(l, done),
        }?;
        if let Some(dir) = storage.checkpoint {
            saved::finish(dir, problem, paths, widest)?;
        }
        Ok((paths, widest))
    }

    /// Run every step (from the checkpoint's last layer, if any), as
    /// [`Self::run`] does: the last layer and the states in the widest, or
    /// a finished count's answer from its checkpoint.
    fn sweep_all(
        &self,
        problem: u64,
        storage: Storage<'_>,
        ctl: &Control,
        mut sizes: Option<&mut Vec<u64>>,
    ) -> Result<Swept, SearchError> {
        let steps = self.last + 1;
        let spill = storage.spill;
        // Each layer's files carry the problem and the step.
        let tag = |k: usize| mix(problem ^ k as u64);
        let mut first = 0;
        let mut widest = 0u64;
        let mut layer = Layer::first(self.first_key(), tag(0));
        let mut growth = Growth::new(self.column());
        let mut recent = Recent::new();
        if let Some(dir) = storage.checkpoint {
            // The layer after step k is tagged as the step's output, k + 1.
            match saved::resume(dir, problem, steps, self.column(), |k| tag(k + 1))? {
                None => {}
                Some(Resume::Done { paths, widest }) => {
                    ctl.resume(steps, steps);
                    return Ok(Swept::Done(paths, widest));
                }
                Some(Resume::Layer {
                    step,
                    layer: saved,
                    widest: w,
                    growth: g,
                }) => {
                    // The ring holds the squares up to the saved step.
                    recent = self.recent_before(step + 1);
                    // The layer stays in its files: the next step reads it
                    // back into memory when the step fits the budget.
                    (first, layer, widest, growth) = (step + 1, saved, w, g);
                }
            }
        }
        ctl.resume(steps, first);
        let mut term = String::new();
        // What the last checkpoint took, said with the next steps' notes.
        let mut saving = String::new();
        for k in first..steps {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let step = &self.step_at(k, &mut recent);
            let before = layer.len().max(1);
            let (expected, bound) = growth.plan(k, before);
            let width = layer.next_width()?;
            self.refuse_ahead(k, before, &growth, (&layer, width), spill, true)?;
            let what = format!(
                "the frontier count's tables at step {} of {steps}, after {before} states",
                k + 1
            );
            let next = NextLayer {
                step,
                expected,
                bound,
                what: &what,
                problem: tag(k + 1),
                spill,
            };
            layer = match layer {
                Layer::Narrow(l) => self.step_to(width, &next, l, ctl)?,
                Layer::Wide(l) => self.step_to(width, &next, l, ctl)?,
                Layer::Huge(l) => self.step_to(width, &next, l, ctl)?,
            };
            let after = layer.len();
            growth.record(k, before, after);
            if let Some(c) = step.column_end {
                term = self.term_note(&layer, c)?; // a row count's: each note says the last
            }
            ctl.note(self.outlook(k, &growth, &layer, spill) + &term + &saving);
            widest = widest.max(after as u64);
            if let Some(sizes) = sizes.as_deref_mut() {
                sizes.push(after as u64);
            }
            if let Some(dir) = storage.checkpoint {
                let started = Instant::now();
                let bytes = saved::save(dir, problem, k, &layer, (widest, &growth), ctl)?;
                let (size, secs) = (human_bytes(bytes), started.elapsed().as_secs_f64());
                saving = format!("; checkpoint of step {}: {size} in {secs:.1} s", k + 1);
            }
            ctl.finish_one();
        }
        Ok(Swept::Layer(layer, widest))
    }

    /// The steps after step `k` (from a layer of `before` states) as
    /// `growth` projects them (see [`Growth::ahead`]); none before the
    /// board's middle or into its last columns (see [`Sweep::refuse_ahead`]).
    fn projected(&self, k: usize, before: usize, growth: &Growth) -> Vec<(usize, usize, usize)> {
        let (steps, end) = (self.last + 1, self.pruned_from());
        if 2 * k < steps || k >= end {
            return Vec::new();
        }
        growth.ahead(k, before, (PROJECTED_STEPS, end))
    }

    /// Refuse the count before step `k` (`SearchError::Disk`) where one of
    /// the next [`PROJECTED_STEPS`] steps is projected not to fit the
    /// memory budget and the spill disk, before the steps on the way write
    /// their layers (8x8 open tours here: refused before step 35 after 5
    /// minutes and 20 GB written, not before step 36 after 10 minutes and
    /// 37 GB).  Each step is projected by the growth of its square one
    /// sweep column before ([`Growth::ahead`]), and the count is refused
    /// only where half the projection does not fit, since the growth of
    /// the columns slows down:
    /// * from the board's middle on: before it, a column grows by orders
    ///   of magnitude less than the one before (7x7 open: 528, 509, 14);
    /// * never into the last columns' pruning (`residual.rs`), where the
    ///   layers shrink column by column (7x7 open: 4.2, 0.5);
    /// * a few steps ahead: on a long board the growth of the middle
    ///   columns slows down too (8x11 closed: projected a whole column
    ///   ahead, a step made 2.5 times the widest layer).
    ///
    /// So projected, no step of 6x8, 7x8 and 8x11 closed or 7x7 open went
    /// past 1.54 times the widest layer.  What `layer`'s spill files hold
    /// is free by then.
    ///
    /// With `halved` false the whole of each projection is counted (what
    /// the bar's note warns of).
    fn refuse_ahead(
        &self,
        k: usize,
        before: usize,
        growth: &Growth,
        (layer, width): (&Layer, Width),
        spill: &Spill,
        halved: bool,
    ) -> Result<(), SearchError> {
        let steps = self.last + 1;
        let freed = layer.spilled_bytes();
        let (share, counted) = match halved {
            true => (2, "; half the projection is counted"),
            false => (1, ""),
        };
        for (j, into, made) in self.projected(k, before, growth) {
            let what = format!(
                "the frontier count's tables at step {} of {steps}, projected before step {} to \
                 make about {made} states (each step growing as its square did one sweep \
                 column before{counted})",
                j + 1,
                k + 1
            );
            let (into, made) = (into / share, made / share);
            let how = (Spilling::Runs, what.as_str());
            match width {
                Width::Narrow => check_ahead::<u64>(spill, (into, made), freed, how),
                Width::Wide => check_ahead::<u128>(spill, (into, made), freed, how),
                Width::Huge => check_ahead::<U256>(spill, (into, made), freed, how),
            }?;
        }
        Ok(())
    }

    /// What a progress bar says after step `k`: the states of the layer
    /// it made and, from the board's middle on, the widest of the next
    /// steps as projected, and whether the whole projection fits the
    /// memory budget and the disk (the count is refused where half of it
    /// does not; a count that will not finish says so a few steps early).
    fn outlook(&self, k: usize, growth: &Growth, layer: &Layer, spill: &Spill) -> String {
        let (steps, next, after) = (self.last + 1, k + 1, layer.len().max(1));
        let mut text = format!(
            "{} states after step {next} of {steps}",
            grouped(after as u64)
        );
        let ahead = self.projected(next, after, growth);
        if let Some(&(j, _, made)) = ahead.iter().max_by_key(|&&(_, _, made)| made) {
            text += &format!(
                ", step {} projected at {} states",
                j + 1,
                grouped(made as u64)
            );
            let width = layer.next_width().unwrap_or(Width::Huge);
            let all = self.refuse_ahead(next, after, growth, (layer, width), spill, false);
            if all.is_err() {
                text += ", more than the memory budget and the disk hold: expect a refusal";
            }
        }
        text
    }

    /// One step into a layer of counts of `width`.
    fn step_to<I: Count>(
        &self,
        width: Width,
        next: &NextLayer,
        layer: Stored<I>,
        ctl: &Control,
    ) -> Result<Layer, SearchError> {
        Ok(match width {
            Width::Narrow => Layer::Narrow(self.step(next, layer, ctl)?),
            Width::Wide => Layer::Wide(self.step(next, layer, ctl)?),
            Width::Huge => Layer::Huge(self.step(next, layer, ctl)?),
        })
    }

    /// One step: the next layer from `layer`, inside the pool, on the layer
    /// engine, within the spill budget (the engine checks the tables against
    /// the memory the machine has: the old layer is already in memory, so
    /// what is left is what the kernel reports).
    fn step<I: Count, O: Count>(
        &self,
        next: &NextLayer,
        mut layer: Stored<I>,
        ctl: &Control,
    ) -> Result<Stored<O>, SearchError> {
        let feed = Expand::<I, O> {
            sweep: self,
            step: next.step,
            counts: PhantomData,
        };
        let expand = |shards: &[&Packed<I>], tables| {
            let chunks: Vec<Entries<'_, I>> = shards.iter().flat_map(|s| s.chunks(CHUNK)).collect();
            accumulate_some(chunks, tables, &feed, next.what, ctl)
        };
        let sizes = (next.expected, next.bound);
        let (problem, what) = (next.problem, next.what);
        let how = (Spilling::Runs, what);
        crate::layers::step(&mut layer, sizes, problem, next.spill, expand, how, ctl)
    }
}

/// What a sweep's steps leave: the last layer and the states in the
/// widest, or a finished count's undirected paths (and widest layer) read
/// from its checkpoint.
enum Swept {
    Layer(Layer, u64),
    Done(U256, u64),
}

/// How many steps ahead a count is projected (see `Sweep::refuse_ahead`).
const PROJECTED_STEPS: usize = 3;

/// A tag of the problem for the layer files: the board's cells, the start
/// (inward, or none), whether tours are closed, and the end if pinned.
fn fingerprint(board: &Board, (start, end): (Option<usize>, Option<usize>), closed: bool) -> u64 {
    let mut sum = Checksum::default();
    sum.add(board.rows() as u64);
    sum.add(board.cols() as u64);
    for cell in 0..board.cells() {
        sum.add(board.is_square(cell) as u64);
    }
    sum.add(start.map_or(u64::MAX, |s| s as u64));
    sum.add(closed as u64);
    if let Some(end) = end {
        sum.add(end as u64 ^ 0x0065_6e64 << 40); // (none: the tag counts made before ends had)
    }
    sum.value()
}

/// The frontier's rule for the layer engine: a state's count goes to each
/// of its children at the step, as a count of type `O`.
struct Expand<'a, I, O> {
    sweep: &'a Sweep<'a>,
    step: &'a Step,
    counts: PhantomData<fn(I) -> O>,
}

impl<'a, I: Count, O: Count> Feed for Expand<'a, I, O> {
    type Chunk = Entries<'a, I>;
    type Count = O;

    #[inline]
    fn feed(&self, chunk: Self::Chunk, emit: &mut impl FnMut(u64, O)) -> Result<(), SearchError> {
        for (key, count) in chunk.iter() {
            let count = O::from_wide(count.to_wide()).ok_or(SearchError::Overflow)?;
            self.sweep
                .expand(self.step, key, &mut |child| emit(child, count));
        }
        Ok(())
    }
}

/// What a step builds: the step, the states expected after it, the
/// tables' name in a memory error, and the spilling.
struct NextLayer<'a> {
    step: &'a Step,
    expected: usize,
    bound: usize,
    what: &'a str,
    /// The tag of the next layer's files, and where they go.
    problem: u64,
    spill: &'a Spill,
}

#[cfg(test)]
mod tests;
