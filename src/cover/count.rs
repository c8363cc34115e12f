//! The calls: [`count_covers`], [`find_cover`], [`stream_covers`] and
//! [`plan_covers`], each checking the memory first and running the search
//! (or the memo) on the engine.

use super::cells::cells_bytes;
use super::memo;
use super::method::Method;
use super::problem::Problem;
use super::search::CoverSearch;
use crate::engine::{self, Control, Planned};
use crate::error::CountError;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Refuse, with the estimate, a search whose `workers` working copies are
/// more than the machine has.
fn check_memory(p: &Problem, workers: usize) -> Result<(), CountError> {
    let need = cells_bytes(p).saturating_mul(workers as u64 + 1);
    crate::memory::refuse_beyond_available(
        need,
        &format!("searching this exact cover problem on {workers} thread(s)"),
    )?;
    Ok(())
}

/// The plan's depth limit: one level per primary item at most.
fn max_depth(p: &Problem) -> usize {
    p.n_primary() + 1
}

/// The number of covers of `p`, by `method`, on `threads` threads (the
/// memo runs on one).  The answer is the same for every method and thread
/// count.
pub fn count_covers(
    p: Arc<Problem>,
    method: Method,
    threads: usize,
    ctl: &Control,
) -> Result<u128, CountError> {
    if method.resolve(&p) == Method::Memo {
        return Ok(memo::count_memo(&p, memo::default_budget(), ctl)?);
    }
    check_memory(&p, engine::workers(threads))?;
    let depth = max_depth(&p);
    let search = CoverSearch::new(p);
    let tasks = engine::plan(
        &search,
        search.roots(),
        engine::tasks_for(threads),
        depth,
        ctl,
    )?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
}

/// One cover (option indices ascending) or `None`; with `deterministic`,
/// the first in search order whatever the thread count.
pub fn find_cover(
    p: Arc<Problem>,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, CountError> {
    check_memory(&p, engine::workers(threads))?;
    let depth = max_depth(&p);
    let search = CoverSearch::new(p);
    let tasks = engine::plan(
        &search,
        search.roots(),
        engine::tasks_for(threads),
        depth,
        ctl,
    )?;
    Ok(engine::find_first(
        &search,
        &tasks,
        threads,
        ctl,
        deterministic,
    )?)
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
