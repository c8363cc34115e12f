//! Memory helpers of the hash-table kernels (`peg`, `frontier`): their
//! tables are far bigger than the caches and are filled in random order.

/// Ask for the cache line holding `item`: hash tables here are far bigger
/// than the caches, and probing a batch after prefetching it overlaps the
/// memory latencies.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, even on a bad address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(item as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Ask the kernel to back a big buffer (hundreds of MB for the widest
/// layers) with 2 MB pages before it is first touched: with 4 KB pages the
/// page faults alone took a third of a layer's time on this machine.
pub fn advise_huge<T>(buffer: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = buffer.capacity() * std::mem::size_of::<T>();
        if bytes >= 4 << 20 {
            // SAFETY: the range lies inside the buffer's allocation; the advice
            // changes only how the kernel backs it, not its contents.
            unsafe {
                libc::madvise(
                    buffer.as_ptr() as *mut libc::c_void,
                    bytes,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}
