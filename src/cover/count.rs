//! The calls: [`count_covers`], [`find_cover`], [`stream_covers`] and
//! [`plan_covers`], each checking the memory first and running the search
//! (or the memo) on the engine.

use super::bits::{bits_fit, BitWalk};
use super::memo;
use super::method::Method;
use super::multi::MultiWalk;
use super::problem::Problem;
use super::search::{CoverSearch, Walk};
use super::walk::{CoverWalk, Probe};
use crate::engine::{self, Control, Planned, Splittable, Stop};
use crate::error::CountError;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Refuse (a `MemoryError` naming the estimate), before anything is
/// allocated, a search whose `workers` working copies are more than the
/// machine has.
pub(super) fn check_memory<W: CoverWalk>(p: &Problem, workers: usize) -> Result<(), CountError> {
    let need = W::bytes(p).saturating_mul(workers as u64 + 1);
    crate::memory::check_available(
        need,
        &format!("searching this exact cover problem on {workers} thread(s)"),
    )?;
    Ok(())
}

/// Run `$call::<W>(args)` with the walk of `$p`'s kind: Algorithm M's for
/// a problem with bounds; else Algorithm C's over bitsets where they fit
/// the search on `$threads` threads ([`bits_fit`], which says in `$ctl`'s
/// notes when the memory keeps it off them), over the dancing cells
/// otherwise.  The covers and their order are the same on either.
macro_rules! by_walk {
    ($p:expr, $threads:expr, $ctl:expr, $call:ident($($arg:expr),* $(,)?)) => {
        by_walk!($p, $threads, None, $ctl, $call($($arg),*))
    };
    ($p:expr, $threads:expr, $budget:expr, $ctl:expr, $call:ident($($arg:expr),* $(,)?)) => {
        if $p.bounded() {
            $call::<MultiWalk>($($arg),*)
        } else if bits_fit(&$p, engine::workers($threads) + 1, $budget, &$ctl) {
            $call::<BitWalk>($($arg),*)
        } else {
            $call::<Walk>($($arg),*)
        }
    };
}

/// The subtrees a count or find on `threads` shares out: the roots
/// expanded until there are enough to keep every worker busy.
pub(super) fn plan_tasks<W: CoverWalk>(
    search: &CoverSearch<W>,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Vec<u32>>, CountError> {
    let depth = W::max_depth(search.problem());
    let tasks_wanted = engine::tasks_for(threads);
    Ok(engine::plan(
        search,
        search.roots(),
        tasks_wanted,
        depth,
        ctl,
    )?)
}

/// The number of covers of `p`, by `method`, on `threads` threads, or
/// `limit` if there are more: the search stops once it has found that
/// many.  The memo's tables take at most `budget` bytes (`None`: half the
/// memory available), and the search's bitset tables too (past it, the
/// search runs on the dancing cells; `None`: see `bits::bits_fit`).  The
/// answer is the same for every method and thread count.
pub fn count_covers(
    p: Arc<Problem>,
    method: Method,
    threads: usize,
    limit: Option<u128>,
    budget: Option<u64>,
    ctl: &Control,
) -> Result<u128, CountError> {
    let most = limit.unwrap_or(u128::MAX);
    if method.resolve(&p) == Method::Memo {
        // The memo counts what recurs at once, so it has no search to cut short.
        let budget = budget.unwrap_or_else(memo::default_budget);
        return Ok(memo::count_memo(&p, budget, threads, ctl)?.min(most));
    }
    by_walk!(p, threads, budget, ctl, counted(p, limit, threads, ctl)).map(|n| n.min(most))
}

fn counted<W: CoverWalk>(
    p: Arc<Problem>,
    limit: Option<u128>,
    threads: usize,
    ctl: &Control,
) -> Result<u128, CountError> {
    let search = match limit {
        Some(most) => CoverSearch::<W>::up_to(p, most),
        None => CoverSearch::<W>::new(p),
    };
    search_count(search, threads, ctl, SMALL_TIME)
}

/// The search count, trying the calling thread alone for `small` first
/// (unless `threads` is one: then no plan at all).
pub(super) fn search_count<W: CoverWalk>(
    search: CoverSearch<W>,
    threads: usize,
    ctl: &Control,
    small: Duration,
) -> Result<u128, CountError> {
    let workers = engine::workers(threads);
    check_memory::<W>(search.problem(), workers)?;
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
    by_walk!(
        p,
        threads,
        ctl,
        found(p, threads, deterministic, ctl, SMALL_TIME)
    )
}

/// [`find_cover`] with walk `W`, trying the calling thread alone for
/// `small` first.
pub(super) fn found<W: CoverWalk>(
    p: Arc<Problem>,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
    small: Duration,
) -> Result<Option<Vec<u32>>, CountError> {
    let workers = engine::workers(threads);
    check_memory::<W>(&p, workers)?;
    let search = CoverSearch::<W>::new(p);
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
    by_walk!(p, 1, ctl, first(p, k, ctl))
}

fn first<W: CoverWalk>(
    p: Arc<Problem>,
    k: usize,
    ctl: &Control,
) -> Result<Vec<Vec<u32>>, CountError> {
    check_memory::<W>(&p, 1)?;
    let search = CoverSearch::<W>::new(p);
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
    by_walk!(p, 1, ctl, stream_with(p, ctl))
}

pub(super) fn stream_with<W: CoverWalk>(
    p: Arc<Problem>,
    ctl: Arc<Control>,
) -> Result<CoverReceiver, CountError> {
    check_memory::<W>(&p, 1)?;
    let search = Arc::new(CoverSearch::<W>::new(p));
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
) -> Result<Arc<dyn Splittable>, CountError> {
    // The dancing cells' plan, never the bitsets': a plan is the same on
    // every machine, and the bitsets are taken by the memory available.
    if p.bounded() {
        shared_plan::<MultiWalk>(p, min_tasks, ctl)
    } else {
        shared_plan::<Walk>(p, min_tasks, ctl)
    }
}

fn shared_plan<W: CoverWalk>(
    p: Arc<Problem>,
    min_tasks: usize,
    ctl: &Control,
) -> Result<Arc<dyn Splittable>, CountError> {
    Ok(Arc::new(planned::<W>(p, min_tasks, ctl)?))
}

/// [`plan_covers`] by the walk `W`, its tasks and search in view.
pub(super) fn planned<W: CoverWalk>(
    p: Arc<Problem>,
    min_tasks: usize,
    ctl: &Control,
) -> Result<Planned<CoverSearch<W>>, CountError> {
    engine::check_plan_size(min_tasks)?;
    check_memory::<W>(&p, 1)?;
    let depth = W::max_depth(&p);
    let search = CoverSearch::<W>::new(p);
    let roots = search.roots();
    Ok(Planned::new(search, roots, min_tasks, depth, ctl)?)
}
