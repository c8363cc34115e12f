//! [`CoverWalk`]: what [`CoverSearch`](super::CoverSearch) needs of a
//! worker's search, so that one set of calls (count, find, stream, plans)
//! serves Algorithm C ([`Walk`](super::Walk)) and Algorithm M, the problems
//! with bounds ([`MultiWalk`](super::multi::MultiWalk)).
//!
//! A task is a list of `u32` decisions from the root, whatever the walk
//! makes of them; a walk replays one, searches below it, and is reset to
//! the root before its next task.

use super::cheapest::{Best, Priced};
use super::problem::Problem;
use crate::engine::{Stop, Ticker};
use crate::error::SearchError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a search below a node ended: `Some(finished)` (`finished` false when
/// it was asked to stop early: enough covers), or `None` when the probe's
/// budget ran out first.
pub type Outcome = Result<Option<bool>, SearchError>;

/// Nodes between two looks at the clock of a [`Probe`].
const PROBE_CLOCK: u64 = 1024;

/// How much of a search to try before giving up: at most `nodes` nodes,
/// and (looked at every [`PROBE_CLOCK`] nodes) until `until`.  A count
/// also stops, as finished, once it reaches `most` covers or (looked at
/// with the clock) `enough` is set.
#[derive(Clone, Copy, Debug)]
pub struct Probe<'a> {
    pub nodes: u64,
    pub until: Option<Instant>,
    pub most: u128,
    pub enough: Option<&'a AtomicBool>,
}

impl Probe<'_> {
    /// No limit: the whole search.
    pub fn whole() -> Probe<'static> {
        Probe {
            nodes: u64::MAX,
            until: None,
            most: u128::MAX,
            enough: None,
        }
    }
}

/// A search below one node under way: the covers it counts (`count`, with
/// `COUNT`) or hands to `emit` (until it returns `false`), the probe's
/// budget left, and the stop it polls.  Every walk calls [`Run::node`] at
/// each node and [`Run::cover`] at each cover, so a budget, a limit and a
/// cancel mean the same whichever walk searches.
pub struct Run<'r> {
    /// The covers counted so far.
    pub count: u128,
    stop: &'r Stop<'r>,
    emit: &'r mut dyn FnMut(&[u32]) -> bool,
    probe: Probe<'r>,
    left: u64,
    ticker: Ticker,
    /// A search for the cheapest covers: its covers go here, with prices.
    priced: Option<Priced<'r>>,
}

impl<'r> Run<'r> {
    pub fn new(
        stop: &'r Stop<'r>,
        emit: &'r mut dyn FnMut(&[u32]) -> bool,
        probe: Probe<'r>,
    ) -> Run<'r> {
        Run {
            count: 0,
            stop,
            emit,
            left: probe.nodes,
            probe,
            ticker: Ticker::new(),
            priced: None,
        }
    }

    /// A search below task number `task` of a plan that hands its covers
    /// to `best` with their net costs, trying only what `best` admits.
    pub fn priced(
        stop: &'r Stop<'r>,
        emit: &'r mut dyn FnMut(&[u32]) -> bool,
        best: &'r Best,
        task: u64,
    ) -> Run<'r> {
        Run {
            priced: Some(Priced::new(best, task)),
            ..Run::new(stop, emit, Probe::whole())
        }
    }

    /// Whether this search prices its covers (see [`Run::priced`]).
    pub fn is_priced(&self) -> bool {
        self.priced.is_some()
    }

    /// The net cost of `path` if a search below it may still find one of
    /// the best covers (`Some(0)` for a search that does not price).
    pub fn start_cost(&self, path: &[u32]) -> Option<u64> {
        self.priced.as_ref().map_or(Some(0), |pr| pr.start(path))
    }

    /// Option `o`'s net cost (0 for a search that does not price).
    #[inline]
    pub fn net(&self, o: u32) -> u64 {
        self.priced.as_ref().map_or(0, |pr| pr.best.net(o))
    }

    /// Whether a choice that brings the net cost to `cost` may be tried:
    /// its key in search order (see [`Place`](super::cheapest::Place)) is
    /// made by `key` where the cost ties the bound (`None`: after every
    /// cover offered so far, for a walk that tries choices in search order).
    #[inline]
    pub fn affords(&self, cost: u64, key: impl FnOnce() -> Option<Vec<u32>>) -> bool {
        self.priced.as_ref().is_none_or(|pr| pr.admits(cost, key))
    }

    /// A priced cover of net cost `cost`, its options in the order chosen,
    /// at key `key` (as for [`Run::affords`]).
    pub fn offer(&mut self, cost: u64, key: Option<Vec<u32>>, path: &[u32]) {
        if let Some(pr) = self.priced.as_mut() {
            pr.offer(cost, key, path);
        }
    }

    /// The nodes this run has been through.
    pub fn nodes(&self) -> u64 {
        self.probe.nodes - self.left
    }

    /// One more node: `Some` of the outcome where the search must end here
    /// (cancelled: `Err`; the budget spent; enough covers elsewhere).
    #[inline(always)]
    pub fn node(&mut self) -> Result<Option<Option<bool>>, SearchError> {
        self.ticker.tick(self.stop)?;
        if self.left == 0 {
            return Ok(Some(None));
        }
        self.left -= 1;
        if self.left % PROBE_CLOCK == 0 {
            if self.probe.until.is_some_and(|t| Instant::now() >= t) {
                return Ok(Some(None));
            }
            if self.probe.enough.is_some_and(|e| e.load(Ordering::Relaxed)) {
                return Ok(Some(Some(false))); // other tasks found the covers asked for
            }
        }
        Ok(None)
    }

    /// A cover, its options in the order chosen: counted, or handed to
    /// `emit`; `Some` of the outcome where the search must end here.
    #[inline(always)]
    pub fn cover<const COUNT: bool>(
        &mut self,
        path: &[u32],
    ) -> Result<Option<Option<bool>>, SearchError> {
        if COUNT {
            self.covers(1)
        } else if (self.emit)(path) {
            Ok(None)
        } else {
            Ok(Some(Some(false)))
        }
    }

    /// `n` covers at once (a count only).
    #[inline(always)]
    pub fn covers(&mut self, n: u128) -> Result<Option<Option<bool>>, SearchError> {
        self.count = self.count.checked_add(n).ok_or(SearchError::Overflow)?;
        Ok((self.count >= self.probe.most).then_some(Some(false)))
    }
}

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

    /// The subtrees of the replayed node in search order, each as the
    /// decisions that lead to it from the node: none for a dead end, `None`
    /// for a cover (it cannot be split).  The walk may be left anywhere.
    fn children(&mut self, p: &Problem) -> Option<Vec<Vec<u32>>>;

    /// Search below the replayed node, each node and cover through `run`
    /// (counted with `COUNT`).  The caller resets.
    /// A priced `run` ([`Run::priced`]) hands every cover to its best with
    /// the net cost, and does not try a choice whose net cost it does not
    /// admit.
    fn run_within<const COUNT: bool>(&mut self, p: &Problem, run: &mut Run) -> Outcome;
}
