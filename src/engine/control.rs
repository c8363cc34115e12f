//! Control: what a search and whoever started it share.  The caller's side
//! is [`Control`] (cancel it, read its progress); the search's side is
//! [`Stop`] (should this task give up?) polled through a [`Ticker`] (only
//! every 4096 nodes, so the check costs nothing in the hot loops).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::error::SearchError;

/// Shared state between a running search and whoever started it: a cancel
/// flag, and counters of finished and planned units of work (the engine's
/// tasks, the frontier's sweep steps) for progress reports, and the notes a
/// progress bar shows beside them.  Every family reports through it, so
/// the bindings poll every call the same way.
#[derive(Debug, Default)]
pub struct Control {
    cancel: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
    notes: Mutex<VecDeque<String>>,
    /// Cancel once this many units are done (`None`: never).
    stop_after: Option<u64>,
}

/// The most notes kept unread: a reader that polls seldom loses the oldest,
/// never the newest.
const MOST_NOTES: usize = 256;

impl Control {
    pub fn new() -> Self {
        Self::default()
    }

    /// A control that cancels its job once `units` units of work are done
    /// (saved, where the job keeps a checkpoint): a kill at a known point,
    /// where a Ctrl-C or a raising progress callback lands wherever the
    /// clock puts it.  A job resumed past that point is cancelled at once.
    pub fn stopping_after(units: u64) -> Self {
        Self {
            stop_after: Some(units),
            ..Self::default()
        }
    }

    /// Ask the search to stop; it returns [`SearchError::Cancelled`] soon after.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `(finished units, planned units)`.
    pub fn progress(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Begin a job of `total` units (tasks, sweep steps): progress `(0, total)`.
    pub fn start(&self, total: usize) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total as u64, Ordering::Relaxed);
        self.stop_at(0);
    }

    /// Begin a job of `total` units of which `done` are finished already
    /// (a count resumed from a checkpoint).
    pub fn resume(&self, total: usize, done: usize) {
        self.done.store(done as u64, Ordering::Relaxed);
        self.total.store(total as u64, Ordering::Relaxed);
        self.stop_at(done as u64);
    }

    /// One more unit of the job is done.
    pub fn finish_one(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.stop_at(done);
    }

    /// Cancel if `done` units reach [`Control::stopping_after`]'s point.
    fn stop_at(&self, done: u64) {
        if self.stop_after.is_some_and(|units| done >= units) {
            self.cancel();
        }
    }

    /// Say `text` beside the progress (what the units alone do not tell:
    /// the size of the last layer, a projection).  Every note is kept until
    /// read, however fast they come (the last few before an error say why),
    /// up to [`MOST_NOTES`].
    pub fn note(&self, text: String) {
        if let Ok(mut notes) = self.notes.lock() {
            if notes.len() == MOST_NOTES {
                notes.pop_front();
            }
            notes.push_back(text);
        }
    }

    /// The notes said since the last call, oldest first.
    pub fn take_notes(&self) -> Vec<String> {
        self.notes
            .lock()
            .map(|mut notes| notes.drain(..).collect())
            .unwrap_or_default()
    }
}

/// What a search polls to learn whether it should give up: the caller's
/// cancel flag, and in find-first mode whether an earlier task already found.
pub struct Stop<'a> {
    pub(super) ctl: &'a Control,
    pub(super) found: Option<(&'a AtomicUsize, usize, bool)>,
}

impl<'a> Stop<'a> {
    /// A stop that only listens to the cancel flag.
    pub fn new(ctl: &'a Control) -> Self {
        Stop { ctl, found: None }
    }

    /// `true` when the current task's work is no longer wanted.
    #[inline]
    pub fn now(&self) -> bool {
        if self.ctl.is_cancelled() {
            return true;
        }
        match self.found {
            None => false,
            // Deterministic: only a hit in an earlier task makes ours useless.
            Some((best, me, true)) => best.load(Ordering::Relaxed) < me,
            // Any hit will do.
            Some((best, _, false)) => best.load(Ordering::Relaxed) != usize::MAX,
        }
    }
}

/// Polls [`Stop`] every 4096 nodes so the check costs nothing.
pub struct Ticker {
    ticks: u32,
}

const POLL_MASK: u32 = (1 << 12) - 1;

impl Ticker {
    pub fn new() -> Self {
        Ticker { ticks: 0 }
    }

    /// Count one node; `Err(Cancelled)` once in a while if the stop is set.
    #[inline]
    pub fn tick(&mut self, stop: &Stop) -> Result<(), SearchError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks & POLL_MASK == 0 && stop.now() {
            return Err(SearchError::Cancelled);
        }
        Ok(())
    }
}

impl Default for Ticker {
    fn default() -> Self {
        Self::new()
    }
}
