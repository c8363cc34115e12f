//! Threads handed from one call to the next: a call's job runs on a thread
//! of its own, and a thread whose job is done waits [`LINGER`] for the next
//! call's before it exits.  A loop of small calls (a thousand Sudokus, one
//! count each) then starts one thread, not one a call; a program that makes
//! one call has no thread left a moment after it.
//!
//! A process forked while a thread waits has no such thread: the waiting
//! threads are listed with the process id that started them, and a child
//! neither uses nor touches that list (whose lock another thread of the
//! parent may have held at the fork), so it starts a thread a call.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;

use super::pool::spawn;
use crate::error::SearchError;

/// How long a thread whose job is done waits for another.
pub const LINGER: Duration = Duration::from_millis(100);

type Job = Box<dyn FnOnce() + Send>;

/// The threads waiting for a job, each by the number of its wait and the
/// sending end of its channel.
static WAITING: Mutex<Vec<(u64, Sender<Job>)>> = Mutex::new(Vec::new());

/// The process whose threads [`WAITING`] lists (0: none started yet).
static OWNER: AtomicU32 = AtomicU32::new(0);

/// Whether this process is the one whose threads [`WAITING`] lists,
/// claiming the list for it if no process has yet.
fn owned() -> bool {
    let me = std::process::id();
    match OWNER.compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => true,
        Err(owner) => owner == me,
    }
}

/// Run `job` on a waiting thread, or on a new one named `name` (its
/// refusal an error naming `what`, as [`spawn`]'s).  The caller learns of
/// the job's end from the job itself (a channel it sends its answer on):
/// by then everything the job held is dropped.
pub fn run_on_thread(
    name: &str,
    what: &str,
    job: impl FnOnce() + Send + 'static,
) -> Result<(), SearchError> {
    let mut job: Job = Box::new(job);
    if owned() {
        loop {
            let waiting = WAITING.lock().ok().and_then(|mut list| list.pop());
            let Some((_, to)) = waiting else { break };
            // A thread taken from the list always receives; a send can fail
            // only if it died, and then the next one is tried.
            match to.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(back)) => job = back,
            }
        }
    }
    let reuse = owned();
    spawn(name, what, move || {
        let mut job = job;
        loop {
            job();
            if !reuse {
                return;
            }
            match wait_for_job() {
                Some(next) => job = next,
                None => return,
            }
        }
    })
    .map(drop)
}

/// List this thread as waiting and wait [`LINGER`] for a job; `None` to
/// exit.
fn wait_for_job() -> Option<Job> {
    static WAITS: AtomicU64 = AtomicU64::new(0);
    let wait = WAITS.fetch_add(1, Ordering::Relaxed);
    let (to, from): (Sender<Job>, Receiver<Job>) = mpsc::channel();
    WAITING.lock().ok()?.push((wait, to));
    match from.recv_timeout(LINGER) {
        Ok(job) => Some(job),
        Err(RecvTimeoutError::Disconnected) => None,
        Err(RecvTimeoutError::Timeout) => {
            let mut list = WAITING.lock().ok()?;
            if let Some(at) = list.iter().position(|(listed, _)| *listed == wait) {
                list.swap_remove(at);
                return None;
            }
            drop(list);
            // A caller took this thread off the list: its job is on the way.
            from.recv().ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Instant;

    #[test]
    fn calls_in_a_row_share_a_thread_and_it_goes_after_a_while() {
        let (to, from) = channel();
        let mut seen = Vec::new();
        for k in 0..20 {
            let to = to.clone();
            run_on_thread("solvers-handoff-test", "a test thread", move || {
                to.send((k, std::thread::current().id())).unwrap();
            })
            .unwrap();
            seen.push(from.recv().unwrap());
        }
        assert!(seen.iter().enumerate().all(|(k, s)| s.0 == k));
        // (Another test's jobs may take a thread waiting between two of
        // these; a row of twenty still reuses one.)
        let mut threads: Vec<_> = seen.iter().map(|s| s.1).collect();
        threads.dedup();
        assert!(threads.len() < seen.len(), "{threads:?}");
        // After its linger no thread waits (this test's or another's).
        let deadline = Instant::now() + Duration::from_secs(10);
        while !WAITING.lock().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "a thread still waits after 10 s");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn jobs_at_once_each_get_a_thread() {
        let (to, from) = channel();
        let (go, wait) = channel::<()>();
        let wait = std::sync::Arc::new(Mutex::new(wait));
        for k in 0..4 {
            let (to, wait) = (to.clone(), wait.clone());
            run_on_thread("solvers-handoff-test", "a test thread", move || {
                to.send(k).unwrap();
                // Each job holds its thread until released.
                let _ = wait.lock().unwrap().recv();
            })
            .unwrap();
        }
        let mut got: Vec<i32> = (0..4).map(|_| from.recv().unwrap()).collect();
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 3]);
        for _ in 0..4 {
            go.send(()).unwrap();
        }
    }
}
