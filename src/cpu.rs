//! Runtime CPU-feature dispatch.
//!
//! The wheel is built for baseline x86-64 so that it runs on any x86-64
//! machine, but the hot loops want `popcnt`, `pext` (BMI2) and 256-bit AVX2.
//! A kernel is written once as an `#[inline(always)]` function generic over
//! a `const FAST: bool`, and instantiated twice: plainly, and inside a
//! `#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]` wrapper that
//! runs only when [`fast`] says the CPU has those features (an x86-64-v3
//! machine: Haswell, Zen and later).  Everything the wrapper inlines is
//! compiled with the features, so `count_ones` becomes `popcnt` and the
//! 512-bit plane operations become AVX2.
//!
//! `SOLVERS_CPU=baseline` in the environment forces the plain path (to test
//! it and to measure what the features give).

use std::sync::atomic::{AtomicU8, Ordering};

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// Whether the x86-64-v3 kernels may run here (checked once).
#[inline]
pub fn fast() -> bool {
    match LEVEL.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let yes = detect();
            LEVEL.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

/// The name of the kernels [`fast`] selects, for benchmarks and reports.
pub fn level() -> &'static str {
    if fast() {
        "x86-64-v3 (avx2, bmi2, popcnt)"
    } else {
        "baseline"
    }
}

fn detect() -> bool {
    if std::env::var("SOLVERS_CPU").is_ok_and(|v| v.eq_ignore_ascii_case("baseline")) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A kernel method `$with::<FAST>` (an `#[inline(always)]` method generic
/// over `const FAST: bool`) instantiated twice, with the dispatch between
/// them: `$plain` is the baseline copy, `$v3` (x86-64 only) the copy
/// compiled with the x86-64-v3 features, and `$name` runs the best one the
/// CPU allows.  A recursive kernel calls `$v3` or `$plain`, as its `FAST`
/// says, to stay within its own copy.
macro_rules! kernels {
    (
        $(#[$doc:meta])*
        fn $name:ident / $plain:ident / $v3:ident = $with:ident(
            $($arg:ident: $ty:ty),* $(,)?
        ) -> $ret:ty
    ) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        fn $name(&self, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if $crate::cpu::fast() {
                // SAFETY: the CPU has every feature the wrapper enables.
                return unsafe { self.$v3($($arg),*) };
            }
            self.$plain($($arg),*)
        }

        #[allow(clippy::too_many_arguments)]
        fn $plain(&self, $($arg: $ty),*) -> $ret {
            self.$with::<false>($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $v3(&self, $($arg: $ty),*) -> $ret {
            self.$with::<true>($($arg),*)
        }
    };
}
pub(crate) use kernels;

/// Gather the bits of `x` selected by `mask` into the low bits (`pext`).
#[inline(always)]
pub fn extract_bits<const FAST: bool>(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST code runs only inside a `target_feature(enable =
        // "bmi2")` function called after `fast()` returned true.
        return unsafe { std::arch::x86_64::_pext_u64(x, mask) };
    }
    let mut out = 0;
    let mut k = 0;
    let mut m = mask;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        out |= ((x & bit != 0) as u64) << k;
        k += 1;
        m ^= bit;
    }
    out
}
