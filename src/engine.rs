//! The generic parallel subtree engine shared by every puzzle family.
//!
//! A family describes its search tree through [`SubtreeSearch`]: how to split a
//! node into its children, how to count the solutions below a node, and how to
//! visit them in order.  The engine does the rest, identically for every family:
//!
//! * [`plan`] expands the roots breadth-first, level by level, until there are
//!   enough independent subproblems ("tasks") to keep every thread busy.  The
//!   expansion keeps the search order, so tasks are listed in the order a plain
//!   depth-first search would reach them.  It polls the cancel flag, and its
//!   task list grows by fallible allocation (a huge plan is a `MemoryError`).
//! * [`count`] counts every task on a rayon pool built for this call with the
//!   requested number of threads.  Rayon's work stealing balances the very
//!   uneven subtrees; the per-task counts are summed with checked `u128`
//!   arithmetic, so an overflow is reported, never wrapped.  With one thread,
//!   or a tree too small to split into two tasks per thread, the tasks run in
//!   order on the calling thread: building a pool would cost more.
//! * [`find_first`] stops every thread as soon as one finds a solution (or, in
//!   deterministic mode, as soon as no earlier task can still produce one).
//! * [`stream`] visits the tasks in order on a producer thread and hands the
//!   solutions over a bounded channel, so memory stays constant however many
//!   solutions there are.
//!
//! Every mode polls the shared [`Control`]: setting its cancel flag stops the
//! search within a few thousand nodes, and its counters report progress.
//!
//! Only per-call pools ([`with_pool`]) run rayon work: nothing here touches
//! rayon's global pool, whose threads would otherwise idle for the life of
//! the process (the Python interpreter's).

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use crate::error::InputError;
pub use crate::error::SearchError;
use crate::memory;

/// Shared state between a running search and whoever started it: a cancel
/// flag, and counters of finished and planned units of work (the engine's
/// tasks, the frontier's sweep steps) for progress reports.  Every family
/// reports through it, so the bindings poll every call the same way.
#[derive(Debug, Default)]
pub struct Control {
    cancel: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
}

impl Control {
    pub fn new() -> Self {
        Self::default()
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
    }

    /// One more unit of the job is done.
    pub fn finish_one(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}

/// What a search polls to learn whether it should give up: the caller's
/// cancel flag, and in find-first mode whether an earlier task already found.
pub struct Stop<'a> {
    ctl: &'a Control,
    found: Option<(&'a AtomicUsize, usize, bool)>,
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

/// A search tree that the engine can split, count, search and stream.
pub trait SubtreeSearch: Sync {
    /// A node of the search tree: an independent subproblem.
    type Task: Send + Sync;
    /// One solution, as produced by [`SubtreeSearch::visit`].
    type Solution: Send;
    /// Per-worker scratch memory (caches, stacks) reused across tasks.
    type Scratch: Send;

    /// A worker's scratch; `Err(Memory)` if it cannot be allocated.
    fn scratch(&self) -> Result<Self::Scratch, SearchError>;

    /// Push the children of `task`, in search order, onto `out` and return
    /// `true`; or return `false` if `task` cannot be split (it is a solution
    /// itself).  Children that provably lead nowhere may be left out.
    fn split(&self, task: &Self::Task, out: &mut Vec<Self::Task>) -> bool;

    /// The number of solutions below `task` (weighted as the family needs).
    /// Must poll `stop` (through a [`Ticker`]) and return `Err(Cancelled)` when set.
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

/// The most subproblems a plan may be asked for: a plan is held in memory
/// (and each subproblem is an object on the Python side).
pub const MAX_PLAN_TASKS: usize = 1 << 24;

/// `Err` if a plan of `min_tasks` subproblems is more than a plan may hold
/// (every family's `plan_*` checks this before planning).
pub fn check_plan_size(min_tasks: usize) -> Result<(), InputError> {
    if min_tasks > MAX_PLAN_TASKS {
        return Err(InputError(format!(
            "a plan holds at most {MAX_PLAN_TASKS} subproblems, {min_tasks} were asked for"
        )));
    }
    Ok(())
}

/// Room kept free in a plan's next level before each split: more than any
/// family's children of one task (8 knight moves, at most 64 queen columns).
const SPLIT_ROOM: usize = 64;

/// Splits between two looks at the cancel flag while planning.
const PLAN_POLL: usize = 256;

/// Expand `roots` level by level until there are at least `min_tasks` tasks,
/// nothing can be split further, or `max_depth` levels were expanded.
/// Polls `ctl` (`Err(Cancelled)`), and a level too large for memory is
/// `Err(Memory)`, never an abort.
pub fn plan<S: SubtreeSearch>(
    search: &S,
    roots: Vec<S::Task>,
    min_tasks: usize,
    max_depth: usize,
    ctl: &Control,
) -> Result<Vec<S::Task>, SearchError> {
    let mut tasks = roots;
    for _ in 0..max_depth {
        if tasks.len() >= min_tasks || tasks.is_empty() {
            break;
        }
        let what = "the subproblems of a plan";
        let mut next = memory::try_with_capacity(tasks.len().saturating_mul(4), what)?;
        let mut changed = false;
        for (i, task) in tasks.into_iter().enumerate() {
            if i % PLAN_POLL == 0 && ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            // Grow by doubling, fallibly: `split` pushes without asking.
            if next.capacity() - next.len() < SPLIT_ROOM {
                let more = next.len().max(SPLIT_ROOM);
                memory::try_reserve(&mut next, more, what)?;
            }
            let before = next.len();
            if search.split(&task, &mut next) {
                changed = true;
            } else {
                next.truncate(before);
                next.push(task);
            }
        }
        tasks = next;
        if !changed {
            break;
        }
    }
    Ok(tasks)
}

/// The workers asked for by `threads`: itself, or for `threads = 0` what
/// rayon picks for such a pool (`RAYON_NUM_THREADS`, else one per core),
/// found without `rayon::current_num_threads`, which would start rayon's
/// global pool.
pub fn wanted_threads(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}

/// A task count that keeps `threads` workers busy despite uneven subtrees.
pub fn tasks_for(threads: usize) -> usize {
    (wanted_threads(threads) * 64).max(256)
}

/// Address space a pool worker takes, as an address-space limit counts it:
/// its stack, and the 64 MiB arena glibc reserves for a new thread's
/// allocations.
const WORKER_ADDRESS_SPACE: u64 = 72 << 20;

/// The workers to run for `threads` (`0`: one per core, see [`wanted_threads`]): that many,
/// or fewer when the process runs under an address-space limit (`ulimit
/// -v`, `prlimit --as`) too tight for them: the workers may take half the
/// address space left, the rest is for the search's tables.  Each worker
/// reserves address space such a limit counts, and a search that runs out
/// of it on a small allocation would abort the process; no result depends
/// on the worker count, only the speed.
pub fn workers(threads: usize) -> usize {
    let wanted = wanted_threads(threads);
    match memory::address_space_left() {
        Some(left) => {
            let fit = left / 2 / WORKER_ADDRESS_SPACE;
            wanted.min(fit.max(1) as usize)
        }
        None => wanted,
    }
}

/// Run `f` on a rayon pool of [`workers`]`(threads)` workers (`threads = 0`:
/// one per core), built for this call and gone after it.
pub fn with_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, SearchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers(threads))
        .thread_name(|i| format!("solvers-worker-{i}"))
        .build()
        .map_err(|e| SearchError::Pool(e.to_string()))?;
    Ok(pool.install(f))
}

/// Count the solutions below every task on `threads` workers, summing with
/// checked arithmetic.
pub fn count<S: SubtreeSearch>(
    search: &S,
    tasks: &[S::Task],
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let all: Vec<usize> = (0..tasks.len()).collect();
    count_each(search, tasks, &all, threads, ctl, &|_, _| {})?
        .into_iter()
        .try_fold(0u128, |a, b| a.checked_add(b).ok_or(SearchError::Overflow))
}

/// The number of solutions below `tasks[i]` for each `i` in `which`, in that
/// order, counted on `threads` workers; `finished(i, count)` hears of each
/// as it is done (from the worker threads).  This is how a count is split
/// across processes or machines: each counts some tasks of the same
/// deterministic [`plan`], and the counts add up to the whole.
pub fn count_each<S: SubtreeSearch>(
    search: &S,
    tasks: &[S::Task],
    which: &[usize],
    threads: usize,
    ctl: &Control,
    finished: &(dyn Fn(usize, u128) + Sync),
) -> Result<Vec<u128>, SearchError> {
    ctl.start(which.len());
    let threads = workers(threads);
    // A tree that splits into fewer tasks than two per worker is tiny:
    // building a pool would cost more than the search.
    if threads == 1 || which.len() < 2 * threads.max(2) {
        // No pool to build: one thread does it all, in order.
        let mut scratch = search.scratch()?;
        let stop = Stop::new(ctl);
        let mut counts = Vec::with_capacity(which.len());
        for &i in which {
            let n = search.count(&tasks[i], &mut scratch, &stop)?;
            finished(i, n);
            counts.push(n);
            ctl.finish_one();
        }
        return Ok(counts);
    }
    with_pool(threads, || {
        // One scratch per worker, reused by every task that worker runs (a
        // `map_init` state would be rebuilt for every stolen task).
        let scratch: Vec<Mutex<Option<S::Scratch>>> = (0..rayon::current_num_threads())
            .map(|_| Mutex::new(None))
            .collect();
        which
            .par_iter()
            .with_max_len(1)
            .map(|&i| {
                let stop = Stop::new(ctl);
                if stop.now() {
                    return Err(SearchError::Cancelled);
                }
                let worker = rayon::current_thread_index().unwrap_or(0) % scratch.len();
                let mut slot = scratch[worker].lock().unwrap_or_else(|p| p.into_inner());
                let mine = match &mut *slot {
                    Some(mine) => mine,
                    empty => empty.insert(search.scratch()?),
                };
                let n = search.count(&tasks[i], mine, &stop)?;
                finished(i, n);
                ctl.finish_one();
                Ok(n)
            })
            .collect()
    })?
}

/// A count split into independent subproblems: a search and its tasks from
/// [`plan`].  The plan depends only on the search and `min_tasks`, so any
/// process that builds the same search gets the same tasks in the same
/// order, and a subproblem can travel as its index.
pub struct Planned<S: SubtreeSearch> {
    pub search: S,
    pub tasks: Vec<S::Task>,
}

impl<S: SubtreeSearch> Planned<S> {
    /// The plan of `search` (see [`plan`]); polls `ctl`.
    pub fn new(
        search: S,
        roots: Vec<S::Task>,
        min_tasks: usize,
        max_depth: usize,
        ctl: &Control,
    ) -> Result<Self, SearchError> {
        let tasks = plan(&search, roots, min_tasks, max_depth, ctl)?;
        Ok(Planned { search, tasks })
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The counts of the subproblems `which` (indices into the plan).
    pub fn count_each(
        &self,
        which: &[usize],
        threads: usize,
        ctl: &Control,
        finished: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, SearchError> {
        count_each(&self.search, &self.tasks, which, threads, ctl, finished)
    }
}

/// Find one solution on `threads` workers.  With `deterministic`, the result
/// is the first solution in search order whatever the thread count; otherwise
/// it is whichever a thread reaches first, and every other thread stops then.
pub fn find_first<S: SubtreeSearch>(
    search: &S,
    tasks: &[S::Task],
    threads: usize,
    ctl: &Control,
    deterministic: bool,
) -> Result<Option<S::Solution>, SearchError> {
    ctl.start(tasks.len());
    let threads = workers(threads);
    if threads == 1 || tasks.len() < 2 * threads.max(2) {
        let stop = Stop::new(ctl);
        for task in tasks {
            let mut first = None;
            search.visit(task, &stop, &mut |solution| {
                first = Some(solution);
                false
            })?;
            ctl.finish_one();
            if first.is_some() {
                return Ok(first);
            }
        }
        return Ok(None);
    }
    let best = AtomicUsize::new(usize::MAX);
    let found: Mutex<Option<(usize, S::Solution)>> = Mutex::new(None);
    let outcome: Result<(), SearchError> = with_pool(threads, || {
        tasks
            .par_iter()
            .with_max_len(1)
            .enumerate()
            .try_for_each(|(index, task)| {
                let stop = Stop {
                    ctl,
                    found: Some((&best, index, deterministic)),
                };
                if stop.now() {
                    return if ctl.is_cancelled() {
                        Err(SearchError::Cancelled)
                    } else {
                        Ok(())
                    };
                }
                let mut first = None;
                let result = search.visit(task, &stop, &mut |solution| {
                    first = Some(solution);
                    false
                });
                ctl.finish_one();
                match result {
                    Err(SearchError::Cancelled) if !ctl.is_cancelled() => return Ok(()),
                    Err(e) => return Err(e),
                    Ok(_) => {}
                }
                if let Some(solution) = first {
                    let mut slot = found.lock().unwrap_or_else(|p| p.into_inner());
                    if slot.as_ref().is_none_or(|(i, _)| index < *i) {
                        *slot = Some((index, solution));
                    }
                    best.fetch_min(index, Ordering::Relaxed);
                }
                Ok(())
            })
    })?;
    outcome?;
    let slot = found.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(slot.map(|(_, solution)| solution))
}

/// Visit every task in order on a producer thread and return the receiving
/// end of a channel holding at most `capacity` solutions.  The producer stops
/// when the receiver is dropped or `ctl` is cancelled; the channel then closes.
pub fn stream<S>(
    search: Arc<S>,
    tasks: Vec<S::Task>,
    ctl: Arc<Control>,
    capacity: usize,
) -> Result<Receiver<S::Solution>, SearchError>
where
    S: SubtreeSearch + Send + 'static,
    S::Task: 'static,
    S::Solution: 'static,
{
    let (tx, rx) = sync_channel(capacity);
    ctl.start(tasks.len());
    std::thread::Builder::new()
        .name("solvers-stream".into())
        .spawn(move || {
            let stop = Stop::new(&ctl);
            for task in &tasks {
                let mut emit = |solution| tx.send(solution).is_ok();
                match search.visit(task, &stop, &mut emit) {
                    Ok(true) => ctl.finish_one(),
                    Ok(false) | Err(_) => return,
                }
            }
        })
        .map_err(|e| SearchError::Pool(format!("could not start the stream thread: {e}")))?;
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Binary strings of length `n` with no two adjacent ones: Fibonacci many.
    struct NoAdjacentOnes {
        n: usize,
    }

    impl SubtreeSearch for NoAdjacentOnes {
        type Task = Vec<u8>;
        type Solution = Vec<u8>;
        type Scratch = ();

        fn scratch(&self) -> Result<(), SearchError> {
            Ok(())
        }

        fn split(&self, task: &Vec<u8>, out: &mut Vec<Vec<u8>>) -> bool {
            if task.len() == self.n {
                return false;
            }
            for bit in [0, 1] {
                if bit == 1 && task.last() == Some(&1) {
                    continue;
                }
                let mut child = task.clone();
                child.push(bit);
                out.push(child);
            }
            true
        }

        fn count(&self, task: &Vec<u8>, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
            count_by_visiting(self, task, stop)
        }

        fn visit(
            &self,
            task: &Vec<u8>,
            stop: &Stop,
            emit: &mut dyn FnMut(Vec<u8>) -> bool,
        ) -> Result<bool, SearchError> {
            if stop.now() {
                return Err(SearchError::Cancelled);
            }
            let mut children = Vec::new();
            if !self.split(task, &mut children) {
                return Ok(emit(task.clone()));
            }
            for child in &children {
                if !self.visit(child, stop, emit)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }

    fn fib(n: usize) -> u128 {
        let (mut a, mut b) = (1u128, 2u128);
        for _ in 0..n {
            (a, b) = (b, a + b);
        }
        a
    }

    #[test]
    fn counts_agree_with_fibonacci_for_any_thread_count() {
        let search = NoAdjacentOnes { n: 16 };
        for min_tasks in [1, 7, 100, 5000] {
            let tasks = plan(&search, vec![vec![]], min_tasks, 64, &Control::new()).unwrap();
            for threads in [1, 2, 3, 8] {
                let ctl = Control::new();
                assert_eq!(count(&search, &tasks, threads, &ctl).unwrap(), fib(16));
                assert_eq!(ctl.progress(), (tasks.len() as u64, tasks.len() as u64));
            }
        }
    }

    #[test]
    fn plan_keeps_search_order() {
        let search = NoAdjacentOnes { n: 6 };
        let tasks = plan(&search, vec![vec![]], 10, 64, &Control::new()).unwrap();
        let mut flat = Vec::new();
        for t in &tasks {
            search
                .visit(t, &Stop::new(&Control::new()), &mut |s| {
                    flat.push(s);
                    true
                })
                .unwrap();
        }
        let mut sorted = flat.clone();
        sorted.sort();
        assert_eq!(flat, sorted);
        assert_eq!(flat.len() as u128, fib(6));
    }

    #[test]
    fn deterministic_find_returns_the_first_solution() {
        let search = NoAdjacentOnes { n: 12 };
        let tasks = plan(&search, vec![vec![]], 50, 64, &Control::new()).unwrap();
        for threads in [1, 2, 8] {
            let got = find_first(&search, &tasks, threads, &Control::new(), true).unwrap();
            assert_eq!(got, Some(vec![0; 12]));
            let any = find_first(&search, &tasks, threads, &Control::new(), false).unwrap();
            assert_eq!(any.map(|s| s.len()), Some(12));
        }
    }

    #[test]
    fn a_cancelled_plan_stops() {
        let search = NoAdjacentOnes { n: 30 };
        let ctl = Control::new();
        ctl.cancel();
        let plan = plan(&search, vec![vec![]], 1 << 20, 64, &ctl);
        assert!(matches!(plan, Err(SearchError::Cancelled)));
    }

    #[test]
    fn worker_counts_need_no_global_pool() {
        assert!(wanted_threads(0) >= 1);
        assert_eq!(wanted_threads(5), 5);
        assert_eq!(tasks_for(0), (wanted_threads(0) * 64).max(256));
        for threads in [1, 2, 7] {
            // Fewer only under an address-space limit, never none.
            assert!((1..=threads).contains(&workers(threads)));
        }
    }

    #[test]
    fn a_cancelled_count_reports_cancellation() {
        let search = NoAdjacentOnes { n: 20 };
        let tasks = plan(&search, vec![vec![]], 100, 64, &Control::new()).unwrap();
        let ctl = Control::new();
        ctl.cancel();
        assert_eq!(count(&search, &tasks, 2, &ctl), Err(SearchError::Cancelled));
    }

    #[test]
    fn stream_yields_in_order_and_stops_when_dropped() {
        let search = Arc::new(NoAdjacentOnes { n: 10 });
        let tasks = plan(&*search, vec![vec![]], 20, 64, &Control::new()).unwrap();
        let rx = stream(search, tasks, Arc::new(Control::new()), 4).unwrap();
        let all: Vec<_> = rx.iter().collect();
        assert_eq!(all.len() as u128, fib(10));
        assert!(all.windows(2).all(|w| w[0] < w[1]));

        let search = Arc::new(NoAdjacentOnes { n: 30 });
        let tasks = plan(&*search, vec![vec![]], 20, 64, &Control::new()).unwrap();
        let rx = stream(search, tasks, Arc::new(Control::new()), 4).unwrap();
        assert_eq!(rx.iter().take(3).count(), 3);
        drop(rx); // the producer notices the closed channel and ends
    }

    #[test]
    fn overflow_is_reported() {
        struct Huge;
        impl SubtreeSearch for Huge {
            type Task = u8;
            type Solution = ();
            type Scratch = ();
            fn scratch(&self) -> Result<(), SearchError> {
                Ok(())
            }
            fn split(&self, _: &u8, _: &mut Vec<u8>) -> bool {
                false
            }
            fn count(&self, _: &u8, _: &mut (), _: &Stop) -> Result<u128, SearchError> {
                Ok(u128::MAX / 2 + 1)
            }
            fn visit(
                &self,
                _: &u8,
                _: &Stop,
                _: &mut dyn FnMut(()) -> bool,
            ) -> Result<bool, SearchError> {
                Ok(true)
            }
        }
        let ctl = Control::new();
        assert_eq!(count(&Huge, &[0, 1], 2, &ctl), Err(SearchError::Overflow));
    }
}
