//! The contract between a puzzle family and the engine: [`SubtreeSearch`]
//! (split a node, count below it, visit its solutions in order), and
//! [`count_by_visiting`] for families with no faster way to count.

use super::Stop;
use crate::error::SearchError;

/// A search tree that the engine can split, count, search and stream.
pub trait SubtreeSearch: Sync {
    /// A node of the search tree: an independent subproblem.
    type Task: Send + Sync;
    /// One solution, as produced by [`SubtreeSearch::visit`].
    type Solution: Send;
    /// Per-worker scratch memory (caches, stacks) reused across tasks.
    type Scratch: Send;

    /// A worker's scratch; `Err(Memory)` if it cannot be allocated, and
    /// `Err(Cancelled)` if `stop` is set while a large one is being built.
    fn scratch(&self, stop: &Stop) -> Result<Self::Scratch, SearchError>;

    /// Push the children of `task`, in search order, onto `out` and return
    /// `true`; or return `false` if `task` cannot be split (it is a solution
    /// itself).  Children that provably lead nowhere may be left out.
    fn split(&self, task: &Self::Task, out: &mut Vec<Self::Task>) -> bool;

    /// The number of solutions below `task` (weighted as the family needs).
    /// Must poll `stop` (through a [`Ticker`](super::Ticker)) and return `Err(Cancelled)` when set.
    fn count(
        &self,
        task: &Self::Task,
        scratch: &mut Self::Scratch,
        stop: &Stop,
    ) -> Result<u128, SearchError>;

    /// Call `emit` on every solution below `task`, in search order, until it
    /// returns `false`.  Returns `Ok(false)` if `emit` asked to stop.
    fn visit(
        &self,
        task: &Self::Task,
        stop: &Stop,
        emit: &mut dyn FnMut(Self::Solution) -> bool,
    ) -> Result<bool, SearchError>;
}

/// The number of solutions below `task`, one [`SubtreeSearch::visit`] at a
/// time: the `count` of searches that have no faster way to count.
pub fn count_by_visiting<S: SubtreeSearch + ?Sized>(
    search: &S,
    task: &S::Task,
    stop: &Stop,
) -> Result<u128, SearchError> {
    let mut n = 0u128;
    search.visit(task, stop, &mut |_| {
        n += 1;
        true
    })?;
    Ok(n)
}
