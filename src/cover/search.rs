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

use super::cells::{Cells, Mark};
use super::problem::Problem;
use crate::engine::{SearchError, Stop, SubtreeSearch, Ticker};
use crate::memory;
use std::sync::{Arc, Mutex};

/// One branching node on the stack: where to come back to, and the options
/// to try (`choices[cur..end]`).
#[derive(Clone, Copy, Debug)]
struct Level {
    mark: Mark,
    start: u32,
    cur: u32,
    end: u32,
}

/// A worker's cells with the stacks of a search over them.
pub struct Walk {
    cells: Cells,
    levels: Vec<Level>,
    /// `path[d]`: the option chosen at level `d`.
    path: Vec<u32>,
    /// The options of every level's item, in order; bounded by the options
    /// (an option listed at one level is hidden below it).
    choices: Vec<u32>,
}

impl Walk {
    pub fn new(p: &Problem) -> Result<Walk, SearchError> {
        let what = "the search's stacks";
        let depth = p.n_primary() + 1;
        Ok(Walk {
            cells: Cells::new(p)?,
            levels: memory::try_with_capacity(depth, what)?,
            path: memory::try_with_capacity(depth, what)?,
            choices: memory::try_zeroed(p.n_options() + 1, what)?,
        })
    }

    /// Choose the options of `task` (a valid path from the root).
    fn replay(&mut self, p: &Problem, task: &[u32]) {
        for &o in task {
            self.push_choice(p, o);
        }
    }

    fn push_choice(&mut self, p: &Problem, o: u32) {
        let level = self.levels.len() as u32;
        self.levels.push(Level {
            mark: self.cells.mark(),
            start: 0,
            cur: 0,
            end: 0,
        });
        self.path.push(o);
        self.cells.apply(p, o, level);
    }

    /// Back to the root: nothing chosen.
    fn reset(&mut self) {
        if let Some(first) = self.levels.first() {
            self.cells.restore(first.mark);
        }
        self.levels.clear();
        self.path.clear();
    }

    /// The options of item `m` in option order, written at `choices[at..]`.
    fn list_options(&mut self, p: &Problem, m: u32, at: usize) -> usize {
        let active = self.cells.active(m);
        let out = &mut self.choices[at..at + active.len()];
        for (slot, &x) in out.iter_mut().zip(active) {
            *slot = p.opt[x as usize];
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

    /// Search below the current node (the replayed task), counting
    /// (`COUNT`) or calling `emit` on each cover's options (in the order
    /// chosen) until it returns `false`.  Returns `Ok(false)` if `emit`
    /// stopped it.  The caller resets.
    fn run<const COUNT: bool>(
        &mut self,
        p: &Problem,
        count: &mut u128,
        stop: &Stop,
        emit: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Result<bool, SearchError> {
        let base = self.levels.len();
        let mut ticker = Ticker::new();
        let mut top = 0usize; // choices in use
        loop {
            ticker.tick(stop)?;
            // The node: a cover, a dead end, or a level to push.
            if self.cells.np == 0 {
                if COUNT {
                    *count = count.checked_add(1).ok_or(SearchError::Overflow)?;
                } else if !emit(&self.path) {
                    return Ok(false);
                }
            } else {
                let (m, size) = self.cells.choose();
                if size > 0 {
                    if COUNT && self.cells.np == 1 {
                        // The last item: each of its active options covers it.
                        *count = count
                            .checked_add(size as u128)
                            .ok_or(SearchError::Overflow)?;
                    } else {
                        let n = self.list_options(p, m, top);
                        self.levels.push(Level {
                            mark: self.cells.mark(),
                            start: top as u32,
                            cur: top as u32,
                            end: (top + n) as u32,
                        });
                        top += n;
                    }
                }
            }
            // The next option to try, backtracking past finished levels.
            loop {
                let depth = self.levels.len();
                if depth == base {
                    return Ok(true);
                }
                let level = self.levels[depth - 1];
                self.cells.restore(level.mark);
                if level.cur == level.end {
                    top = level.start as usize;
                    self.levels.pop();
                    self.path.truncate(depth - 1);
                    continue;
                }
                let o = self.choices[level.cur as usize];
                self.levels[depth - 1].cur += 1;
                self.path.truncate(depth - 1);
                self.path.push(o);
                self.cells.apply(p, o, (depth - 1) as u32);
                break;
            }
        }
    }
}

/// Algorithm C over a shared problem, for the engine.
pub struct CoverSearch {
    problem: Arc<Problem>,
    /// Spare walks for `split` and `visit`, which get no scratch.
    spare: Mutex<Vec<Walk>>,
}

impl CoverSearch {
    pub fn new(problem: Arc<Problem>) -> CoverSearch {
        CoverSearch {
            problem,
            spare: Mutex::new(Vec::new()),
        }
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The root: nothing chosen.
    pub fn roots(&self) -> Vec<Vec<u32>> {
        vec![Vec::new()]
    }

    /// Run `f` on a spare walk (made if none is spare), returned after.
    fn with_walk<R>(&self, f: impl FnOnce(&mut Walk) -> R) -> Result<R, SearchError> {
        let spare = self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut walk = match spare {
            Some(w) => w,
            None => Walk::new(&self.problem)?,
        };
        let r = f(&mut walk);
        walk.reset();
        self.spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(walk);
        Ok(r)
    }
}

/// `options` in ascending order: how a cover is reported.
fn sorted(options: &[u32]) -> Vec<u32> {
    let mut v = options.to_vec();
    v.sort_unstable();
    v
}

impl SubtreeSearch for CoverSearch {
    type Task = Vec<u32>;
    type Solution = Vec<u32>;
    type Scratch = Walk;

    fn scratch(&self) -> Result<Walk, SearchError> {
        Walk::new(&self.problem)
    }

    fn split(&self, task: &Vec<u32>, out: &mut Vec<Vec<u32>>) -> bool {
        let p = &*self.problem;
        let children = self.with_walk(|w| {
            w.replay(p, task);
            if w.cells.np == 0 {
                return None;
            }
            let (m, size) = w.cells.choose();
            let n = if size == 0 {
                0
            } else {
                w.list_options(p, m, 0)
            };
            Some(w.choices[..n].to_vec())
        });
        match children {
            // No memory for a walk: leave the task whole, it is still valid.
            Err(_) => false,
            Ok(None) => false,
            Ok(Some(options)) => {
                for o in options {
                    let mut child = Vec::with_capacity(task.len() + 1);
                    child.extend_from_slice(task);
                    child.push(o);
                    out.push(child);
                }
                true
            }
        }
    }

    fn count(&self, task: &Vec<u32>, walk: &mut Walk, stop: &Stop) -> Result<u128, SearchError> {
        let p = &*self.problem;
        walk.replay(p, task);
        let mut n = 0u128;
        let r = walk.run::<true>(p, &mut n, stop, &mut |_| true);
        walk.reset();
        r.map(|_| n)
    }

    fn visit(
        &self,
        task: &Vec<u32>,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u32>) -> bool,
    ) -> Result<bool, SearchError> {
        let p = &*self.problem;
        self.with_walk(|w| {
            w.replay(p, task);
            let mut n = 0u128;
            w.run::<false>(p, &mut n, stop, &mut |path| emit(sorted(path)))
        })?
    }
}
