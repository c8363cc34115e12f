//! [`CoverSearch`]: Algorithm C on [`Cells`], as a [`SubtreeSearch`] of
//! the engine (so counting, finding, streaming and plans come from it).
//!
//! A task is the list of options chosen from the root, in the order they
//! were chosen; a worker replays it on its own cells, searches below, and
//! undoes everything, so its cells are back at the root for the next task.
//!
//! The search order (what listing and the deterministic find promise): at
//! each node the primary item with the fewest active options, ties to the
//! first in item order; its options in the order given.  It depends only on
//! the node, never on the threads or on how the tree was split.  A cover is
//! reported as its option indices in ascending order.
//!
//! The loop is iterative (an explicit stack of [`Level`]s: problems can
//! have millions of items, deeper than any thread's stack) and allocates
//! nothing: the stacks are sized in [`Walk::new`] from the problem's bounds.

use super::cells::{cells_bytes, Cells, Mark};
use super::cheapest::Best;
use super::problem::Problem;
use super::walk::{CoverWalk, Outcome, Probe, Run};
use crate::engine::{SearchError, Stop, SubtreeSearch};
use crate::memory;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One branching node on the stack: where to come back to before the
/// node's item was covered (`node`) and after (`branch`, before each of
/// its options), and the item's nodes to try (`choices[cur..end]`).
#[derive(Clone, Copy, Debug)]
struct Level {
    node: Mark,
    branch: Mark,
    start: u32,
    cur: u32,
    end: u32,
}

/// The trail phase of level `d` covering its item (`0`) or choosing one
/// of its options (`1`): each phase saves a size at most once.
#[inline]
fn phase(d: usize, choosing: u32) -> u32 {
    2 * d as u32 + choosing
}

/// A worker's cells with the stacks of a search over them.  Aligned to
/// its own cache lines (and boxed as a scratch): the fields written at
/// every node (stack lengths, the active count) must not share a line
/// with another worker's, or the two cores would trade it back and forth.
#[repr(align(128))]
pub struct Walk {
    cells: Cells,
    levels: Vec<Level>,
    /// `path[d]`: the option chosen at level `d`.
    path: Vec<u32>,
    /// The nodes of every level's item, in order; bounded by the options
    /// (an option listed at one level is hidden below it).
    choices: Vec<u32>,
    /// A priced search's net cost before each level's choice, from the
    /// search's first level.
    spent: Vec<u64>,
    /// A priced search tries a level's options cheapest first: `ranks[j]`
    /// is `choices[j]`'s place among its level's options in search order.
    ranks: Vec<u32>,
    /// A priced search's scratch for that order: net cost, rank, node.
    order: Vec<(u64, u32, u32)>,
}

impl Walk {
    pub fn new(p: &Problem) -> Result<Walk, SearchError> {
        Walk::with_cells(p, Cells::new(p)?)
    }

    /// [`Walk::new`], `Err(Cancelled)` soon after `stop` is set.
    pub fn stoppable(p: &Problem, stop: &Stop) -> Result<Walk, SearchError> {
        Walk::with_cells(p, Cells::stoppable(p, stop)?)
    }

    fn with_cells(p: &Problem, cells: Cells) -> Result<Walk, SearchError> {
        let what = "the search's stacks";
        let depth = p.n_primary() + 1;
        Ok(Walk {
            cells,
            levels: memory::try_with_capacity(depth, what)?,
            path: memory::try_with_capacity(depth, what)?,
            choices: memory::try_zeroed(p.n_options() + 1, what)?,
            spent: Vec::new(),
            ranks: Vec::new(),
            order: Vec::new(),
        })
    }

    /// Choose the options of `task` (a valid path from the root), from the
    /// root: a walk that a stopped search left deep down goes back first.
    fn replay(&mut self, p: &Problem, task: &[u32]) {
        self.reset();
        for &o in task {
            let d = self.levels.len();
            let mark = self.cells.mark();
            self.levels.push(Level {
                node: mark,
                branch: mark,
                start: 0,
                cur: 0,
                end: 0,
            });
            self.path.push(o);
            self.cells.choose_option(p, o, phase(d, 1));
        }
    }

    /// Back to the root: nothing chosen.  Done when a walk is used again,
    /// not when its search ends: a search stopped two million levels deep
    /// (a huge problem's timeout) would take a second to undo them all,
    /// for a walk that is then dropped.
    fn reset(&mut self) {
        self.cells.unforce();
        if let Some(first) = self.levels.first() {
            self.cells.restore(first.node);
        }
        self.levels.clear();
        self.path.clear();
    }

    /// The active nodes of item `m` in option order, written at
    /// `choices[at..]`; their number.
    fn list_nodes(&mut self, m: u32, at: usize) -> usize {
        let active = self.cells.active(m);
        let out = &mut self.choices[at..at + active.len()];
        // A handful of values: a plain loop beats a call to memmove.
        for (slot, &x) in out.iter_mut().zip(active) {
            *slot = x;
        }
        // Usually a handful (the fewest): insertion sort, no allocation.
        if out.len() <= 16 {
            for i in 1..out.len() {
                let v = out[i];
                let mut j = i;
                while j > 0 && out[j - 1] > v {
                    out[j] = out[j - 1];
                    j -= 1;
                }
                out[j] = v;
            }
        } else {
            out.sort_unstable();
        }
        active.len()
    }

    /// Order the `n` options of a priced search's new level (at `top` of
    /// `choices`, in search order) cheapest first, ties in search order,
    /// keeping each one's rank in search order.  The cheap covers come
    /// first, so the bound falls sooner, and the first option the bound
    /// does not admit ends the level (DLX5 sorts its options by cost too).
    fn cheapest_first(&mut self, p: &Problem, run: &Run, top: usize, n: usize) {
        let choices = &mut self.choices[top..top + n];
        self.order.clear();
        for (rank, &x) in choices.iter().enumerate() {
            let net = run.net(self.cells.option_of(p, x));
            self.order.push((net, rank as u32, x));
        }
        self.order.sort_unstable();
        for (j, &(_, rank, x)) in self.order.iter().enumerate() {
            choices[j] = x;
            self.ranks[top + j] = rank;
        }
    }

    /// The key in search order of the node whose choices are the current
    /// ones of the levels from `base` (see [`Place`](super::cheapest::Place)).
    fn key(&self, base: usize) -> Vec<u32> {
        self.levels[base..]
            .iter()
            .map(|level| self.ranks[level.cur as usize - 1])
            .collect()
    }

    /// Search below the current node (the replayed task), counting
    /// (`COUNT`) or calling `emit` on each cover's options (in the order
    /// chosen) until it returns `false`.  Returns `Ok(false)` if `emit`
    /// stopped it.  The caller resets.  (The tests' listing; the engine's
    /// calls go through [`CoverWalk::run_within`].)
    #[cfg(test)]
    fn run<const COUNT: bool>(
        &mut self,
        p: &Problem,
        stop: &Stop,
        emit: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Result<bool, SearchError> {
        let mut run = Run::new(stop, emit, Probe::whole());
        self.search::<COUNT, false>(p, &mut run)
            .map(|done| done == Some(true))
    }

    /// The search below the current node, each node and cover through `run`;
    /// with `PRICED` (a priced `run`), every cover goes to the run's best
    /// instead, and a choice whose net cost it does not admit is not tried.
    fn search<const COUNT: bool, const PRICED: bool>(
        &mut self,
        p: &Problem,
        run: &mut Run,
    ) -> Outcome {
        // The net cost of the options chosen (a priced search's).
        let Some(mut cost) = run.start_cost(&self.path) else {
            return Ok(Some(true));
        };
        let base = self.levels.len();
        let mut top = 0usize; // choices in use
        if PRICED {
            self.spent.clear();
            let depth = p.n_primary() + 1;
            let what = "the search's stacks";
            memory::try_reserve(&mut self.spent, depth, what)?;
            if self.ranks.len() < self.choices.len() {
                let more = self.choices.len() - self.ranks.len();
                memory::try_reserve(&mut self.ranks, more, what)?;
                self.ranks.resize(self.choices.len(), 0);
                memory::try_reserve(&mut self.order, self.choices.len(), what)?;
            }
        }
        loop {
            if let Some(outcome) = run.node()? {
                return Ok(outcome);
            }
            // The node: a cover, a dead end, or a level to push.
            if self.cells.np == 0 {
                if PRICED {
                    let key = self.key(base);
                    run.offer(cost, Some(key), &self.path);
                } else if let Some(outcome) = run.cover::<COUNT>(&self.path)? {
                    return Ok(outcome);
                }
            } else {
                let (m, size) = match self.cells.forced() {
                    Some(forced) => forced,
                    None => self.cells.choose(),
                };
                if size > 0 {
                    if COUNT && self.cells.np == 1 {
                        // The last item: each of its active options covers it.
                        if let Some(outcome) = run.covers(size as u128)? {
                            return Ok(outcome);
                        }
                    } else {
                        let node = self.cells.mark();
                        let n = self.list_nodes(m, top);
                        if PRICED {
                            self.cheapest_first(p, run, top, n);
                        }
                        self.cells.branch_on(m, phase(self.levels.len(), 0));
                        self.levels.push(Level {
                            node,
                            branch: self.cells.mark(),
                            start: top as u32,
                            cur: top as u32,
                            end: (top + n) as u32,
                        });
                        if PRICED {
                            self.spent.push(cost);
                        }
                        top += n;
                    }
                }
            }
            // The next option to try, backtracking past finished levels.
            loop {
                let depth = self.levels.len();
                if depth == base {
                    return Ok(Some(true));
                }
                let level = self.levels[depth - 1];
                self.cells.unforce();
                self.cells.restore(level.branch);
                if level.cur == level.end {
                    self.cells.restore(level.node);
                    top = level.start as usize;
                    self.levels.pop();
                    if PRICED {
                        self.spent.pop();
                    }
                    self.path.truncate(depth - 1);
                    continue;
                }
                let x = self.choices[level.cur as usize];
                self.levels[depth - 1].cur += 1;
                self.path.truncate(depth - 1);
                let o = self.cells.option_of(p, x);
                if PRICED {
                    let then = self.spent[depth - 1 - base] + run.net(o);
                    if !run.affords(then, || Some(self.key(base))) {
                        // The options after it cost as much or more, and
                        // come later in search order among equals: none
                        // is admitted either.
                        self.levels[depth - 1].cur = level.end;
                        continue;
                    }
                    cost = then;
                }
                self.path.push(o);
                let fits = if p.coloured {
                    self.cells.choose_rest_coloured(p, x, phase(depth - 1, 1))
                } else {
                    self.cells.choose_rest(x, phase(depth - 1, 1))
                };
                if fits {
                    break;
                }
            }
        }
    }
}

impl CoverWalk for Walk {
    fn bytes(p: &Problem) -> u64 {
        cells_bytes(p)
    }

    fn max_depth(p: &Problem) -> usize {
        p.n_primary() + 1
    }

    fn new(p: &Problem, stop: Option<&Stop>) -> Result<Walk, SearchError> {
        match stop {
            Some(stop) => Walk::stoppable(p, stop),
            None => Walk::new(p),
        }
    }

    fn reset(&mut self) {
        Walk::reset(self);
    }

    fn replay(&mut self, p: &Problem, task: &[u32]) {
        Walk::replay(self, p, task);
    }

    fn children(&mut self, p: &Problem) -> Option<Vec<Vec<u32>>> {
        if self.cells.np == 0 {
            return None;
        }
        let (m, size) = self.cells.choose();
        let n = if size == 0 { 0 } else { self.list_nodes(m, 0) };
        Some(
            self.choices[..n]
                .iter()
                .map(|&x| vec![self.cells.option_of(p, x)])
                .collect(),
        )
    }

    fn run_within<const COUNT: bool>(&mut self, p: &Problem, run: &mut Run) -> Outcome {
        if run.is_priced() {
            self.search::<false, true>(p, run)
        } else {
            self.search::<COUNT, false>(p, run)
        }
    }
}

/// A count that stops at `most` covers (`count_covers(limit=)`): the
/// covers the finished tasks found, and `enough` once they reach `most`,
/// which every task in flight sees within [`PROBE_CLOCK`] nodes.  Each task
/// stops at `most` covers of its own too, so the total of the tasks is at
/// least `most` when any stopped early: the answer, `min(total, most)`, is
/// the same for every thread count and split.
#[derive(Debug)]
struct Limit {
    most: u128,
    found: Mutex<u128>,
    enough: AtomicBool,
}

/// A search over a shared problem, for the engine: Algorithm C's
/// ([`Walk`], the default) or another [`CoverWalk`]'s.
pub struct CoverSearch<W: CoverWalk = Walk> {
    problem: Arc<Problem>,
    /// Spare walks for `split` and `visit`, which get no scratch.
    spare: Mutex<Vec<W>>,
    /// The count's limit, if any.
    limit: Option<Limit>,
}

impl<W: CoverWalk> CoverSearch<W> {
    pub fn new(problem: Arc<Problem>) -> CoverSearch<W> {
        CoverSearch {
            problem,
            spare: Mutex::new(Vec::new()),
            limit: None,
        }
    }

    /// The search whose counts stop at `most` covers (see [`Limit`]).
    pub fn up_to(problem: Arc<Problem>, most: u128) -> CoverSearch<W> {
        let limit = Limit {
            most,
            found: Mutex::new(0),
            enough: AtomicBool::new(false),
        };
        CoverSearch {
            limit: Some(limit),
            ..CoverSearch::new(problem)
        }
    }

    /// The most covers a count goes to (`u128::MAX`: all).
    pub fn most(&self) -> u128 {
        self.limit.as_ref().map_or(u128::MAX, |l| l.most)
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The root: nothing chosen.
    pub fn roots(&self) -> Vec<Vec<u32>> {
        vec![Vec::new()]
    }

    /// Run `f` on a spare walk (made if none is spare, polling `stop`
    /// while it is), returned after.
    pub(super) fn with_walk<R>(
        &self,
        stop: Option<&Stop>,
        f: impl FnOnce(&mut W) -> R,
    ) -> Result<R, SearchError> {
        let spare = self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut walk = match spare {
            Some(w) => w,
            None => W::new(&self.problem, stop)?,
        };
        walk.reset();
        let r = f(&mut walk);
        self.spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(walk);
        Ok(r)
    }
}

impl<W: CoverWalk> CoverSearch<W> {
    /// The whole count on this thread if it fits the `probe` (small
    /// problems need no plan and no pool), else `None`.
    pub fn count_small(&self, probe: Probe, stop: &Stop) -> Result<Option<u128>, SearchError> {
        let p = &*self.problem;
        let probe = Probe {
            most: self.most(),
            ..probe
        };
        self.with_walk(Some(stop), |w| {
            let mut each = |_: &[u32]| true;
            let mut run = Run::new(stop, &mut each, probe);
            let done = w.run_within::<true>(p, &mut run)?;
            Ok(done.map(|_| run.count))
        })?
    }

    /// The first `k` covers in search order (fewer where there are fewer),
    /// each sorted, by one walk on this thread: "the solution, and is it
    /// the only one?" in one search.
    pub fn first(&self, k: usize, stop: &Stop) -> Result<Vec<Vec<u32>>, SearchError> {
        let p = &*self.problem;
        let mut found = Vec::new();
        if k == 0 {
            return Ok(found);
        }
        self.with_walk(Some(stop), |w| {
            let mut keep = |path: &[u32]| {
                found.push(sorted(path));
                found.len() < k
            };
            w.run_within::<false>(p, &mut Run::new(stop, &mut keep, Probe::whole()))
        })??;
        Ok(found)
    }

    /// The first cover in search order, or that there is none, if the
    /// search fits the `probe`; else `None`.
    pub fn find_small(
        &self,
        probe: Probe,
        stop: &Stop,
    ) -> Result<Option<Option<Vec<u32>>>, SearchError> {
        let p = &*self.problem;
        self.with_walk(Some(stop), |w| {
            let mut first = None;
            let mut keep = |path: &[u32]| {
                first = Some(sorted(path));
                false
            };
            let done = w.run_within::<false>(p, &mut Run::new(stop, &mut keep, probe))?;
            Ok(done.map(|_| first))
        })?
    }
}

impl<W: CoverWalk> CoverSearch<W> {
    /// Hand every cover below `task` (number `index` of the plan) that
    /// `best` admits to it, each with its net cost, cutting the choices it
    /// does not admit.
    pub fn priced_below(
        &self,
        task: &[u32],
        best: &Best,
        index: u64,
        stop: &Stop,
    ) -> Result<(), SearchError> {
        let p = &*self.problem;
        self.with_walk(Some(stop), |w| {
            w.replay(p, task);
            let mut none = |_: &[u32]| true;
            let mut run = Run::priced(stop, &mut none, best, index);
            w.run_within::<false>(p, &mut run).map(|_| ())
        })?
    }
}

/// Every cover below `task` in search order, each sorted, by a walk that
/// chooses its items by the tree (`tree`) or by the scan, whatever the
/// problem's size: the tests hold the two to the same order.
#[cfg(test)]
pub(super) fn listed_below(p: &Problem, task: &[u32], tree: bool) -> Vec<Vec<u32>> {
    let mut w = Walk::with_cells(p, Cells::with_tree(p, tree, None).unwrap()).unwrap();
    let ctl = crate::engine::Control::new();
    let mut out = Vec::new();
    w.replay(p, task);
    w.run::<false>(p, &Stop::new(&ctl), &mut |path| {
        out.push(sorted(path));
        true
    })
    .unwrap();
    w.reset();
    // The walk is back at the root: a second listing from there agrees.
    if task.is_empty() {
        let mut again = Vec::new();
        w.run::<false>(p, &Stop::new(&ctl), &mut |path| {
            again.push(sorted(path));
            true
        })
        .unwrap();
        assert_eq!(again, out);
    }
    out
}

/// `options` in ascending order: how a cover is reported.
fn sorted(options: &[u32]) -> Vec<u32> {
    let mut v = options.to_vec();
    v.sort_unstable();
    v
}

impl<W: CoverWalk> SubtreeSearch for CoverSearch<W> {
    type Task = Vec<u32>;
    type Solution = Vec<u32>;
    type Scratch = Box<W>;

    fn scratch(&self, stop: &Stop) -> Result<Box<W>, SearchError> {
        Ok(Box::new(W::new(&self.problem, Some(stop))?))
    }

    fn split(&self, task: &Vec<u32>, out: &mut Vec<Vec<u32>>) -> bool {
        let p = &*self.problem;
        let children = self.with_walk(None, |w| {
            w.replay(p, task);
            w.children(p)
        });
        match children {
            // No memory for a walk: leave the task whole, it is still valid.
            Err(_) => false,
            Ok(None) => false,
            Ok(Some(children)) => {
                for decisions in children {
                    let mut child = Vec::with_capacity(task.len() + decisions.len());
                    child.extend_from_slice(task);
                    child.extend_from_slice(&decisions);
                    out.push(child);
                }
                true
            }
        }
    }

    fn count(&self, task: &Vec<u32>, walk: &mut Box<W>, stop: &Stop) -> Result<u128, SearchError> {
        let p = &*self.problem;
        let probe = match &self.limit {
            None => Probe::whole(),
            Some(limit) if limit.enough.load(Ordering::Relaxed) => return Ok(0),
            Some(limit) => Probe {
                most: limit.most,
                enough: Some(&limit.enough),
                ..Probe::whole()
            },
        };
        walk.replay(p, task);
        let mut each = |_: &[u32]| true;
        let mut run = Run::new(stop, &mut each, probe);
        walk.run_within::<true>(p, &mut run)?;
        let n = run.count;
        if let Some(limit) = &self.limit {
            let mut found = limit.found.lock().unwrap_or_else(|e| e.into_inner());
            *found = found.saturating_add(n);
            if *found >= limit.most {
                limit.enough.store(true, Ordering::Relaxed);
            }
        }
        Ok(n)
    }

    fn visit(
        &self,
        task: &Vec<u32>,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u32>) -> bool,
    ) -> Result<bool, SearchError> {
        let p = &*self.problem;
        self.with_walk(Some(stop), |w| {
            w.replay(p, task);
            let mut each = |path: &[u32]| emit(sorted(path));
            let done = w.run_within::<false>(p, &mut Run::new(stop, &mut each, Probe::whole()))?;
            Ok(done == Some(true))
        })?
    }
}
