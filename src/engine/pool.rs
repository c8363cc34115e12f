//! Threads: how many workers a call runs (`threads`, `0` for one per core,
//! fewer under a tight address-space limit), how many tasks keep them busy,
//! and the per-call rayon pool they run on.  Nothing here touches rayon's
//! global pool.

use crate::error::{human_bytes, SearchError};
use crate::memory;
use std::thread::JoinHandle;

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

/// Address space a new thread must find under an address-space limit: its
/// stack (2 MiB) and room for its first allocations.  Not the 64 MiB arena
/// glibc gives it where it can: glibc keeps its arenas after their threads
/// end, for the next ones, and where no new one fits it serves a thread
/// from an existing arena or from `mmap`, so counting arenas would refuse
/// threads for good once a process has held many.
const THREAD_ADDRESS_SPACE: u64 = 4 << 20;

/// Address space kept free beyond a new thread's own, for the small
/// allocations around it (its thread-locals, the channel, the first nodes):
/// one of those failing would abort the process, not raise.
const THREAD_HEADROOM: u64 = 16 << 20;

/// `Ok` when `threads` more threads fit under the address-space limit, if
/// any, with [`THREAD_HEADROOM`] to spare; else the error naming `what`
/// could not be started.  (Starting a thread without the room fails in
/// ways no caller can catch: glibc's "failed to register TLS destructor"
/// and Rust's "memory allocation of N bytes failed" abort the interpreter.)
pub fn check_thread_room(threads: usize, what: &str) -> Result<(), SearchError> {
    let Some(left) = memory::address_space_left() else {
        return Ok(());
    };
    let needed = (threads as u64)
        .saturating_mul(THREAD_ADDRESS_SPACE)
        .saturating_add(THREAD_HEADROOM);
    if left < needed {
        return Err(SearchError::Pool(format!(
            "could not start {what}: the address-space limit (ulimit -v, prlimit --as) leaves \
             {}, and {threads} thread{} need{} about {} (a stack and its first \
             allocations each, and {} to spare)",
            human_bytes(left),
            if threads == 1 { "" } else { "s" },
            if threads == 1 { "s" } else { "" },
            human_bytes(needed - THREAD_HEADROOM),
            human_bytes(THREAD_HEADROOM),
        )));
    }
    Ok(())
}

/// Start a thread named `name` running `f`, after [`check_thread_room`];
/// the system's refusal (`EAGAIN`: no room for its stack, or too many
/// threads) is an error naming `what`, never a panic.
pub fn spawn<F>(name: &str, what: &str, f: F) -> Result<JoinHandle<()>, SearchError>
where
    F: FnOnce() + Send + 'static,
{
    check_thread_room(1, what)?;
    std::thread::Builder::new()
        .name(name.into())
        .spawn(f)
        .map_err(|e| SearchError::Pool(format!("could not start {what}: {e}")))
}

/// A rayon pool of [`workers`]`(threads)` workers (`threads = 0`: one per
/// core), or the error naming why it could not start.
fn build_pool(threads: usize) -> Result<rayon::ThreadPool, SearchError> {
    let workers = workers(threads);
    let what = "the search's worker threads";
    check_thread_room(workers, what)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("solvers-worker-{i}"))
        .build()
        .map_err(|e| SearchError::Pool(format!("could not start {what}: {e}")))
}

/// Run `f` on a rayon pool of [`workers`]`(threads)` workers (`threads = 0`:
/// one per core), built for this call and gone after it.
pub fn with_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, SearchError> {
    Ok(build_pool(threads)?.install(f))
}

/// A pool as [`with_pool`]'s, built the first time work is given to it, so
/// that a job whose steps all stay small never starts a thread.
pub struct LazyPool {
    threads: usize,
    pool: Option<rayon::ThreadPool>,
}

impl LazyPool {
    pub fn new(threads: usize) -> LazyPool {
        LazyPool {
            threads,
            pool: None,
        }
    }

    /// Run `f` on the pool, starting it if need be.
    pub fn install<R: Send>(&mut self, f: impl FnOnce() -> R + Send) -> Result<R, SearchError> {
        let pool = match &mut self.pool {
            Some(pool) => pool,
            empty => empty.insert(build_pool(self.threads)?),
        };
        Ok(pool.install(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
