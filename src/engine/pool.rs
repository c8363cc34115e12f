//! Threads: how many workers a call runs (`threads`, `0` for one per core,
//! fewer under a tight address-space limit), how many tasks keep them busy,
//! and the per-call rayon pool they run on.  Nothing here touches rayon's
//! global pool.

use crate::error::SearchError;
use crate::memory;

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
