//! Running a plan: [`count`] and [`count_each`] (checked sums, one scratch
//! per worker), [`find_first`] (deterministic or first-come) on a per-call
//! pool, and [`stream`] (one producer thread, a bounded channel).  Each
//! reports progress to and stops on the shared [`Control`].

use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use super::{with_pool, workers, Control, Stop, SubtreeSearch};
use crate::error::SearchError;

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
/// deterministic [`plan`](super::plan), and the counts add up to the whole.
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
        let stop = Stop::new(ctl);
        let mut scratch = search.scratch(&stop)?;
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
                    empty => empty.insert(search.scratch(&stop)?),
                };
                let n = search.count(&tasks[i], mine, &stop)?;
                finished(i, n);
                ctl.finish_one();
                Ok(n)
            })
            .collect()
    })?
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
    super::pool::spawn("solvers-stream", "the stream's thread", move || {
        let stop = Stop::new(&ctl);
        for task in &tasks {
            let mut emit = |solution| tx.send(solution).is_ok();
            match search.visit(task, &stop, &mut emit) {
                Ok(true) => ctl.finish_one(),
                Ok(false) | Err(_) => return,
            }
        }
    })?;
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fixture::{fib, NoAdjacentOnes};
    use crate::engine::plan;

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
    fn a_cancelled_count_reports_cancellation() {
        let search = NoAdjacentOnes { n: 20 };
        let tasks = plan(&search, vec![vec![]], 100, 64, &Control::new()).unwrap();
        let ctl = Control::new();
        ctl.cancel();
        assert_eq!(count(&search, &tasks, 2, &ctl), Err(SearchError::Cancelled));
    }

    #[test]
    fn a_count_stopping_after_some_tasks_is_cancelled_there() {
        let search = NoAdjacentOnes { n: 20 };
        let tasks = plan(&search, vec![vec![]], 100, 64, &Control::new()).unwrap();
        let ctl = Control::stopping_after(5);
        assert_eq!(count(&search, &tasks, 1, &ctl), Err(SearchError::Cancelled));
        assert_eq!(ctl.progress(), (5, tasks.len() as u64));
        // Stopping after every task is no stop.
        let ctl = Control::stopping_after(tasks.len() as u64);
        assert_eq!(count(&search, &tasks, 2, &ctl), Ok(fib(20)));
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
            fn scratch(&self, _: &Stop) -> Result<(), SearchError> {
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
