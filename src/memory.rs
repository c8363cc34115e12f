//! Memory of the big tables: fallible allocation, the check against the
//! memory the machine has, huge-page advice and prefetching.
//!
//! **No allocation abort.**  A failed allocation in Rust's `Vec` aborts the
//! whole process (the interpreter with it).  Every table whose size grows
//! with the input (layer tables, frontier tables, memo tables, huge found
//! paths) is allocated here instead: [`try_zeroed`] and [`try_with_capacity`]
//! return [`SearchError::Memory`] naming the table and its size, which the
//! bindings raise as `MemoryError`.
//!
//! **No OOM killer.**  Linux overcommits: a zeroed allocation far bigger than
//! the machine usually succeeds and the process is killed later, when the
//! pages are touched.  So a request of [`CHECKED_BYTES`] or more is refused
//! up front when it is larger than the memory the kernel says is available
//! (`MemAvailable + SwapFree` in `/proc/meminfo`), or than the room left
//! under an address-space limit (`prlimit --as`, `ulimit -v`).  Where the
//! check cannot see a limit, the allocation itself fails, and that is
//! caught too.

use crate::error::{human_bytes, InputError, SearchError};
use std::alloc::Layout;

/// Types for which the all-zero bit pattern is a valid value, so a table of
/// them can come zeroed from the allocator (lazily mapped by the kernel).
///
/// # Safety
/// Implement only for types whose every field is an integer (or an array of
/// them): all-zero bytes must be a valid value.
pub unsafe trait Zeroable: Copy {}

// SAFETY: plain integers and arrays of them are valid when all bytes are zero.
unsafe impl Zeroable for u8 {}
unsafe impl Zeroable for u16 {}
unsafe impl Zeroable for u32 {}
unsafe impl Zeroable for u64 {}
unsafe impl Zeroable for u128 {}
unsafe impl Zeroable for usize {}
// SAFETY: the zero byte is `false`.
unsafe impl Zeroable for bool {}
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}
// SAFETY: every field is zero-valid; padding bytes may hold anything.
unsafe impl<A: Zeroable, B: Zeroable> Zeroable for (A, B) {}

/// Requests of this many bytes or more are checked against the memory the
/// machine has before they are made (smaller ones cannot exhaust it alone).
pub const CHECKED_BYTES: u64 = 64 << 20;

/// The bytes `n` values of `T` take, or `u64::MAX` when that overflows.
pub fn bytes_of<T>(n: usize) -> u64 {
    (n as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// The memory a new allocation can use without swapping to death: the
/// kernel's `MemAvailable` plus free swap, and no more than this process's
/// address-space limit leaves (`ulimit -v`, `prlimit --as`), or `None`
/// where unknown.
pub fn available_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let machine =
            kib_field(&info, "MemAvailable:")? + kib_field(&info, "SwapFree:").unwrap_or(0);
        Some(match address_space_left() {
            Some(left) => machine.min(left),
            None => machine,
        })
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The share of the available memory that `memory="auto"` takes: half
/// leaves room for the interpreter, the other process on the machine and
/// the layer being read while the next is written.
pub const AUTO_SHARE: f64 = 0.5;

/// The smallest budget `memory="auto"` gives (1 MiB), however little is free.
pub const MIN_BUDGET: u64 = 1 << 20;

/// The budget of `memory="auto"` when the machine has `available` bytes
/// (`None`: the platform does not tell): [`AUTO_SHARE`] of it, at least
/// [`MIN_BUDGET`].  Where nothing tells, a user who asked for `"auto"`
/// (`asked`) gets an error; the default (no `memory=` given) has no budget.
pub fn auto_budget(asked: bool, available: Option<u64>) -> Result<Option<u64>, InputError> {
    match available {
        Some(available) => Ok(Some(
            ((available as f64 * AUTO_SHARE) as u64).max(MIN_BUDGET),
        )),
        None if asked => Err(InputError(
            "memory='auto' needs the machine's available memory, which this platform does not \
             tell: give a size such as '4GB'"
                .to_string(),
        )),
        None => Ok(None),
    }
}

/// A `NAME:  123 kB` line of a `/proc` file, in bytes.
#[cfg(target_os = "linux")]
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// What the address-space limit leaves: the limit less the address space
/// this process already holds (`VmSize`, reserved thread stacks and
/// allocator arenas included, as the limit counts them); `None` when
/// there is no limit.
#[cfg(target_os = "linux")]
pub fn address_space_left() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let held = kib_field(&status, "VmSize:")?;
    // `rlim_t` is `u64` here but not on every target.
    #[allow(clippy::unnecessary_cast)]
    let limit = limit.rlim_cur as u64;
    Some(limit.saturating_sub(held))
}

/// No address-space limit is known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn address_space_left() -> Option<u64> {
    None
}

/// The memory available now when a request of `bytes` is checked and does
/// not fit it; `None` when it fits, is too small to check, or nothing is known.
fn shortfall(bytes: u64) -> Option<u64> {
    if bytes < CHECKED_BYTES {
        return None;
    }
    available_bytes().filter(|&free| bytes > free)
}

/// `Err(Memory)` when `bytes` for `what` is more than the machine has now.
pub fn check_available(bytes: u64, what: &str) -> Result<(), SearchError> {
    match shortfall(bytes) {
        Some(free) => Err(SearchError::Memory {
            what: format!("{what} (only {} available)", human_bytes(free)),
            bytes,
        }),
        None => Ok(()),
    }
}

/// `Err(InputError)` when `what` is estimated to need `bytes` and that is
/// more than the machine has now: the up-front refusal of a call whose
/// memory is predictable (a huge `find_tour`, `find_queens`), naming the
/// estimate and the limit, before anything is allocated.
pub fn refuse_beyond_available(bytes: u64, what: &str) -> Result<(), InputError> {
    match shortfall(bytes) {
        Some(free) => Err(InputError(format!(
            "{what} needs about {}, more than the {} available (the machine's free \
             memory and swap, within this process's address-space limit)",
            human_bytes(bytes),
            human_bytes(free)
        ))),
        None => Ok(()),
    }
}

/// A vector of `n` zero values for `what`, or `Err(Memory)`: never an abort.
/// The pages come from the allocator zeroed and are mapped when first
/// touched, as with `vec![0; n]`.
pub fn try_zeroed<T: Zeroable>(n: usize, what: &str) -> Result<Vec<T>, SearchError> {
    let bytes = bytes_of::<T>(n);
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    check_available(bytes, what)?;
    let layout = Layout::array::<T>(n).map_err(|_| SearchError::memory(what, bytes))?;
    // SAFETY: the layout has a non-zero size (n > 0 and T is not zero-sized).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if ptr.is_null() {
        return Err(SearchError::memory(what, bytes));
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of
    // `[T; n]` (what `Vec<T>` uses for capacity `n`), and all-zero bytes are
    // `n` valid values of `T` (`Zeroable`).
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// An empty vector with room for `n` values, for `what`, or `Err(Memory)`.
pub fn try_with_capacity<T>(n: usize, what: &str) -> Result<Vec<T>, SearchError> {
    let mut v = Vec::new();
    try_reserve(&mut v, n, what)?;
    Ok(v)
}

/// Room for `additional` more values in `v`, for `what`, or `Err(Memory)`.
/// The check that there is room already is inlined (hot loops call this
/// with the room nearly always there); growing is not.
#[inline]
pub fn try_reserve<T>(v: &mut Vec<T>, additional: usize, what: &str) -> Result<(), SearchError> {
    if v.capacity() - v.len() >= additional {
        return Ok(());
    }
    grow(v, additional, what)
}

#[cold]
#[inline(never)]
fn grow<T>(v: &mut Vec<T>, additional: usize, what: &str) -> Result<(), SearchError> {
    let bytes = bytes_of::<T>(v.len().saturating_add(additional));
    check_available(bytes, what)?;
    v.try_reserve_exact(additional)
        .map_err(|_| SearchError::memory(what, bytes))
}

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

/// The size of a transparent huge page on x86_64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 << 20;

/// Ask the kernel to back a big buffer with 2 MiB pages before it is first
/// touched (fewer page faults and TLB misses on tables filled in random
/// order).  `madvise` needs a page-aligned start, and only whole huge pages
/// can be huge, so the advice covers the 2 MiB-aligned interior of the
/// buffer.  Returns whether the kernel took the advice: `false` for small
/// buffers, on systems without transparent huge pages (or with them set to
/// `never`), and off Linux.  It is only advice: the contents never change.
pub fn advise_huge<T>(buffer: &Vec<T>) -> bool {
    #[cfg(target_os = "linux")]
    {
        let start = buffer.as_ptr() as usize;
        let end = start + buffer.capacity() * std::mem::size_of::<T>();
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end / HUGE_PAGE * HUGE_PAGE;
        if last <= first {
            return false;
        }
        // SAFETY: [first, last) lies inside the buffer's allocation and is
        // page aligned; the advice changes only how the kernel backs it.
        let rc = unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            )
        };
        rc == 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (buffer, HUGE_PAGE);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_automatic_budget_is_a_share_of_what_is_available() {
        assert_eq!(auto_budget(true, Some(8 << 30)), Ok(Some(4 << 30)));
        assert_eq!(auto_budget(false, Some(1000)), Ok(Some(MIN_BUDGET)));
        // The platform does not tell: the default has no budget, "auto" asked is refused.
        assert_eq!(auto_budget(false, None), Ok(None));
        let refused = auto_budget(true, None).unwrap_err();
        assert!(refused.to_string().contains("give a size such as '4GB'"));
    }

    #[test]
    fn zeroed_tables_are_zero_and_sized() {
        let v: Vec<[u64; 2]> = try_zeroed(1000, "a test table").unwrap();
        assert_eq!(v.len(), 1000);
        assert!(v.iter().all(|&x| x == [0, 0]));
        let empty: Vec<u128> = try_zeroed(0, "nothing").unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn an_impossible_request_is_an_error_not_an_abort() {
        let huge = usize::MAX / 16;
        let e = try_zeroed::<u128>(huge, "an impossible table").unwrap_err();
        assert!(
            matches!(e, SearchError::Memory { ref what, .. } if what.contains("an impossible table"))
        );
        let e = try_with_capacity::<u64>(huge, "an impossible list").unwrap_err();
        assert!(matches!(e, SearchError::Memory { .. }));
        // Larger than the machine, but a valid layout: refused by the check.
        if let Some(free) = available_bytes() {
            let n = (free / 8 + (1 << 30)) as usize;
            assert!(try_zeroed::<u64>(n, "more than the machine").is_err());
        }
    }

    #[test]
    fn huge_page_advice_is_taken_where_the_kernel_offers_it() {
        let v: Vec<u64> = try_zeroed(8 << 20, "a 64 MiB table").unwrap();
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if let Ok(mode) = mode {
            // "[never]" is the only setting under which the advice is refused.
            assert_eq!(advise_huge(&v), !mode.contains("[never]"));
        }
        let small: Vec<u64> = vec![0; 16];
        assert!(!advise_huge(&small));
    }
}
