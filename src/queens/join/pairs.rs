//! The join's inner kernel: pair one north placement with every south
//! placement of a quarter cell that it does not clash with, writing the
//! window keys (plain, and four at a time on AVX2).

/// One quarter cell's placements on the board, as parallel lists of their
/// down and up diagonal masks (the up mask carries a mark in bit 63).
#[derive(Default)]
pub struct Part {
    pub(super) down: Vec<u64>,
    pub(super) up: Vec<u64>,
}

/// The window keys of the north placement `(dn, un)` with every placement of
/// `south` it does not clash with, written to `out` (which has room for
/// `south`'s length plus 4); returns how many.  A key carries `tags[marks]`
/// and is kept only if `keep[marks]`, `marks` the two placements' marks.
#[inline(always)]
pub(super) fn pair_up<const FAST: bool>(
    (dn, un): (u64, u64),
    south: &Part,
    (lo, window, len_bits): (usize, u64, usize),
    (tags, keep): ([u64; 3], [bool; 3]),
    out: &mut [std::mem::MaybeUninit<u64>],
) -> usize {
    let mut kept = 0;
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST code runs only inside the AVX2 wrappers; `out` has
        // room for every pair plus one vector's spill.
        unsafe {
            (i, kept) = pair_up_avx2((dn, un), south, (lo, window, len_bits), (tags, keep), out);
        }
    }
    for (&ds, &us) in south.down[i..].iter().zip(&south.up[i..]) {
        let clash = dn & ds | (un & us) << 1;
        let d = ((dn | ds) >> lo) & window;
        let u = ((un | us) >> lo) & window;
        let marks = ((un >> 63) + (us >> 63)) as usize;
        out[kept].write(d | u << len_bits | tags[marks]);
        kept += (clash == 0 && keep[marks]) as usize;
    }
    kept
}

/// [`pair_up`] four south placements at a time: the kept keys are packed
/// to the front of the vector by a permutation chosen by the kept-lanes
/// mask (AVX2 has no compress-store).  Returns `(pairs done, keys kept)`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn pair_up_avx2(
    (dn, un): (u64, u64),
    south: &Part,
    (lo, window, len_bits): (usize, u64, usize),
    (tags, keep): ([u64; 3], [bool; 3]),
    out: &mut [std::mem::MaybeUninit<u64>],
) -> (usize, usize) {
    use std::arch::x86_64::*;
    /// For each 4-bit mask of kept lanes, the 32-bit lanes that move them
    /// to the front.
    const PACK: [[i32; 8]; 16] = {
        let mut table = [[0i32; 8]; 16];
        let mut mask = 0;
        while mask < 16 {
            let mut at = 0;
            let mut lane = 0;
            while lane < 4 {
                if mask & 1 << lane != 0 {
                    table[mask][2 * at] = 2 * lane;
                    table[mask][2 * at + 1] = 2 * lane + 1;
                    at += 1;
                }
                lane += 1;
            }
            mask += 1;
        }
        table
    };
    let n = south.down.len() / 4 * 4;
    let marked = (un >> 63) as usize;
    let (tag_a, tag_b) = (tags[marked], tags[(marked + 1).min(2)]);
    let (keep_a, keep_b) = (keep[marked], keep[(marked + 1).min(2)]);
    let all = |yes: bool| _mm256_set1_epi64x(if yes { -1 } else { 0 });
    let zero = _mm256_setzero_si256();
    let vdn = _mm256_set1_epi64x(dn as i64);
    let vun = _mm256_set1_epi64x(un as i64);
    let vwin = _mm256_set1_epi64x(window as i64);
    let (vtag_a, vtag_b) = (
        _mm256_set1_epi64x(tag_a as i64),
        _mm256_set1_epi64x(tag_b as i64),
    );
    let (vkeep_a, vkeep_b) = (all(keep_a), all(keep_b));
    let shift_lo = _mm_cvtsi64_si128(lo as i64);
    let shift_len = _mm_cvtsi64_si128(len_bits as i64);
    let dst = out.as_mut_ptr() as *mut u64;
    let mut kept = 0;
    let mut i = 0;
    while i < n {
        let ds = _mm256_loadu_si256(south.down.as_ptr().add(i) as *const __m256i);
        let us = _mm256_loadu_si256(south.up.as_ptr().add(i) as *const __m256i);
        let clash = _mm256_or_si256(
            _mm256_and_si256(ds, vdn),
            _mm256_slli_epi64(_mm256_and_si256(us, vun), 1),
        );
        // The south mark is the sign bit of its up mask.
        let south_marked = _mm256_cmpgt_epi64(zero, us);
        let good = _mm256_and_si256(
            _mm256_cmpeq_epi64(clash, zero),
            _mm256_blendv_epi8(vkeep_a, vkeep_b, south_marked),
        );
        let d = _mm256_and_si256(_mm256_srl_epi64(_mm256_or_si256(ds, vdn), shift_lo), vwin);
        let u = _mm256_and_si256(_mm256_srl_epi64(_mm256_or_si256(us, vun), shift_lo), vwin);
        let key = _mm256_or_si256(
            _mm256_or_si256(d, _mm256_sll_epi64(u, shift_len)),
            _mm256_blendv_epi8(vtag_a, vtag_b, south_marked),
        );
        let mask = _mm256_movemask_pd(_mm256_castsi256_pd(good)) as usize;
        let order = _mm256_loadu_si256(PACK[mask].as_ptr() as *const __m256i);
        _mm256_storeu_si256(
            dst.add(kept) as *mut __m256i,
            _mm256_permutevar8x32_epi32(key, order),
        );
        kept += mask.count_ones() as usize;
        i += 4;
    }
    (i, kept)
}
