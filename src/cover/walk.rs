//! [`CoverWalk`]: what [`CoverSearch`](super::CoverSearch) needs of a
//! worker's search, so that one set of calls (count, find, stream, plans)
//! serves Algorithm C ([`Walk`](super::Walk)) and Algorithm M, the problems
//! with bounds ([`MultiWalk`](super::multi::MultiWalk)).
//!
//! A task is a list of `u32` decisions from the root, whatever the walk
//! makes of them; a walk replays one, searches below it, and is reset to
//! the root before its next task.

use super::problem::Problem;
use super::search::Probe;
use crate::engine::Stop;
use crate::error::SearchError;

pub trait CoverWalk: Send + Sized + 'static {
    /// Bytes one walk over `p` holds, checked against the memory first.
    fn bytes(p: &Problem) -> u64;

    /// The deepest a task can go (the plan's depth limit).
    fn max_depth(p: &Problem) -> usize;

    /// A walk at the root; with `stop`, `Err(Cancelled)` soon after it is
    /// set while a large one is built.
    fn new(p: &Problem, stop: Option<&Stop>) -> Result<Self, SearchError>;

    /// Back to the root.
    fn reset(&mut self);

    /// Reset, then make the decisions of `task` (a valid path from the root).
    fn replay(&mut self, p: &Problem, task: &[u32]);

    /// The decisions that extend the replayed node, in search order: none
    /// for a dead end, `None` for a cover (it cannot be split).
    fn children(&mut self, p: &Problem) -> Option<Vec<u32>>;

    /// Search below the replayed node, counting (`COUNT`) or calling `emit`
    /// on each cover's options (in the order chosen) until it returns
    /// `false`, within the `probe`'s budget: `Some(finished)`, or `None`
    /// when the budget ran out first.  The caller resets.
    fn run_within<const COUNT: bool>(
        &mut self,
        p: &Problem,
        count: &mut u128,
        stop: &Stop,
        emit: &mut dyn FnMut(&[u32]) -> bool,
        probe: Probe,
    ) -> Result<Option<bool>, SearchError>;
}
