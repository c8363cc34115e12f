//! The calls: [`count_covers`], [`find_cover`], [`stream_covers`] and
//! [`plan_covers`], each checking the memory first and running the search
//! (or the memo) on the engine.

use super::cells::cells_bytes;
use super::memo;
use super::method::Method;
use super::problem::Problem;
use super::search::{CoverSearch, Probe};
use crate::engine::{self, Control, Planned, Stop};
use crate::error::CountError;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Refuse (a `MemoryError` naming the estimate), before anything is
/// allocated, a search whose `workers` working copies are more than the
/// machine has.
fn check_memory(p: &Problem, workers: usize) -> Result<(), CountError> {
    let need = cells_bytes(p).saturating_mul(workers as u64 + 1);
    crate::memory::check_available(
        need,
        &format!("searching this exact cover problem on {workers} thread(s)"),
    )?;
    Ok(())
}

/// The plan's depth limit: one level per primary item at most.
fn max_depth(p: &Problem) -> usize {
    p.n_primary() + 1
}

/// The subtrees a count or find on `threads` shares out: the roots
/// expanded until there are enough to keep every worker busy.
fn plan_tasks(
    search: &CoverSearch,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Vec<u32>>, CountError> {
    let depth = max_depth(search.problem());
    let tasks_wanted = engine::tasks_for(threads);
    Ok(engine::plan(
        search,
        search.roots(),
        tasks_wanted,
        depth,
        ctl,
    )?)
}

/// The number of covers of `p`, by `method`, on `threads` threads (the
/// memo runs on one), or `limit` if there are more: the search stops once
/// it has found that many.  The answer is the same for every method and
/// thread count.
pub fn count_covers(
    p: Arc<Problem>,
    method: Method,
    threads: usize,
    limit: Option<u128>,
    ctl: &Control,
) -> Result<u128, CountError> {
    let most = limit.unwrap_or(u128::MAX);
    if method.resolve(&p) == Method::Memo {
        // The memo counts what recurs at once, so it has no search to cut short.
        return Ok(memo::count_memo(&p, memo::default_budget(), ctl)?.min(most));
    }
    let search = match limit {
        Some(most) => CoverSearch::up_to(p, most),
        None => CoverSearch::new(p),
    };
    Ok(search_count(search, threads, ctl, SMALL_TIME)?.min(most))
}

/// The search count, trying the calling thread alone for `small` first
/// (unless `threads` is one: then no plan at all).
pub(super) fn search_count(
    search: CoverSearch,
    threads: usize,
    ctl: &Control,
    small: Duration,
) -> Result<u128, CountError> {
    let workers = engine::workers(threads);
    check_memory(search.problem(), workers)?;
    let stop = Stop::new(ctl);
    if let Some(n) = search.count_small(probe(workers, small), &stop)? {
        ctl.start(1);
        ctl.finish_one();
        return Ok(n);
    }
    let tasks = plan_tasks(&search, threads, ctl)?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
}

/// A search that ends within this time runs on the calling thread before
/// any plan is made (a plan and a pool would cost more than it: a Sudoku,
/// most small puzzles); a bigger one loses at most this much by trying.
/// Only the speed depends on it, never an answer or an order.
pub const SMALL_TIME: Duration = Duration::from_millis(5);

/// The probe of a search on `workers` threads: the whole search on one,
/// else `small` of it (none at all for a zero `small`).
fn probe(workers: usize, small: Duration) -> Probe<'static> {
    if workers == 1 {
        return Probe::whole();
    }
    if small.is_zero() {
        return Probe {
            nodes: 0,
            ..Probe::whole()
        };
    }
    Probe {
        until: Instant::now().checked_add(small),
        ..Probe::whole()
    }
}

/// One cover (option indices ascending) or `None`; with `deterministic`,
/// the first in search order whatever the thread count.
pub fn find_cover(
    p: Arc<Problem>,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, CountError> {
    find_search(p, threads, deterministic, ctl, SMALL_TIME)
}

/// [`find_cover`], trying the calling thread alone for `small` first.
pub(super) fn find_search(
    p: Arc<Problem>,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
    small: Duration,
) -> Result<Option<Vec<u32>>, CountError> {
    let workers = engine::workers(threads);
    check_memory(&p, workers)?;
    let search = CoverSearch::new(p);
    // Small searches, and any on one thread, need no plan: the first
    // cover in search order is then the deterministic answer too.
    if let Some(found) = search.find_small(probe(workers, small), &Stop::new(ctl))? {
        return Ok(found);
    }
    let tasks = plan_tasks(&search, threads, ctl)?;
    Ok(engine::find_first(
        &search,
        &tasks,
        threads,
        ctl,
        deterministic,
    )?)
}

/// The first `k` covers of `p` in search order, by one walk on the
/// calling thread (a Sudoku's solution and whether it is unique, `k = 2`).
pub fn first_covers(p: Arc<Problem>, k: usize, ctl: &Control) -> Result<Vec<Vec<u32>>, CountError> {
    check_memory(&p, 1)?;
    let search = CoverSearch::new(p);
    Ok(search.first(k, &Stop::new(ctl))?)
}

/// Covers arriving from a stream, in search order.
pub struct CoverReceiver {
    rx: Receiver<Vec<u32>>,
}

impl CoverReceiver {
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Vec<u32>, RecvTimeoutError> {
        self.rx.recv_timeout(timeout)
    }
}

/// Every cover of `p` in search order, handed over a bounded channel by a
/// producer thread that stops when `ctl` is cancelled or the receiver goes.
pub fn stream_covers(p: Arc<Problem>, ctl: Arc<Control>) -> Result<CoverReceiver, CountError> {
    check_memory(&p, 1)?;
    let search = Arc::new(CoverSearch::new(p));
    let tasks = search.roots();
    let rx = engine::stream(search, tasks, ctl, 64)?;
    Ok(CoverReceiver { rx })
}

/// The search count of `p` split into at least `min_tasks` subproblems
/// (fewer if the tree is smaller), the same on every machine.
pub fn plan_covers(
    p: Arc<Problem>,
    min_tasks: usize,
    ctl: &Control,
) -> Result<Planned<CoverSearch>, CountError> {
    engine::check_plan_size(min_tasks)?;
    check_memory(&p, 1)?;
    let depth = max_depth(&p);
    let search = CoverSearch::new(p);
    let roots = search.roots();
    Ok(Planned::new(search, roots, min_tasks, depth, ctl)?)
}
