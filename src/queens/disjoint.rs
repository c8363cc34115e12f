//! Counting disjoint pairs: `#{(a, b) in A x B : a & b == 0}` for two lists
//! of bit patterns, the inner loop of the quarter-board join.
//!
//! * Bits set in no pattern of one side cannot clash, so both sides are
//!   first compressed to the bits both use.
//! * Few bits left: a subset-sum (zeta) transform of one side's counts over
//!   all `2^k` masks answers each pattern of the other side with one lookup.
//! * Otherwise bit slicing: the larger side is cut into blocks of 512
//!   patterns; each block is transposed into one 512-bit plane per key bit
//!   ("these patterns lack bit j"), and the planes of every 5-bit chunk are
//!   combined in advance for all 32 values of the chunk.  A query then ANDs
//!   one precombined plane per chunk and counts the bits left: a handful of
//!   word operations tests 512 pairs.  Each block's tables (a few KiB) stay
//!   in L1 while every query of the other side passes over them.

use crate::cpu::extract_bits;
use crate::engine::Stop;
use crate::error::SearchError;
use crate::memory;

/// What the lists' copies are called in a `MemoryError`.
const LISTS: &str = "the join's half lists";

/// 64-bit words per plane: 512 patterns per block.
const LANES: usize = 8;
type Plane = [u64; LANES];
const CHUNK: usize = 6;
const CHUNK_VALUES: usize = 1 << CHUNK;
/// Operations per pair of the plain pair-by-pair count.
/// (Measured: 0.3 is best on n = 17 and 18 among 0.1 to 2; always pairing
/// costs n = 18 most.)
const DIRECT: f64 = 0.3;
/// The most index bits of a sieve (64 buckets).
const MAX_SIEVE_BITS: usize = 6;
/// Compressed keys of at most this many bits use the subset-sum transform
/// when it is cheaper.
const MAX_ZETA_BITS: u32 = 22;
/// A query's weight lives in its top four bits; the key below.
pub const WEIGHT_SHIFT: u32 = 60;
pub const KEY_MASK: u64 = (1 << WEIGHT_SHIFT) - 1;

/// Reusable buffers of [`count_disjoint`].
#[derive(Default)]
pub struct Planes {
    table: Vec<u64>,
    queries: Vec<u64>,
    tables: Vec<Plane>,
    zeta: Vec<u32>,
    sorted_table: Vec<u64>,
    sorted_queries: Vec<u64>,
    table_starts: Vec<usize>,
    query_starts: Vec<usize>,
}

/// `sum of weight(q) * #{t in table : t & q == 0}` over the `queries`, each
/// a key below [`KEY_MASK`] with its weight (1 to 15) above.
#[inline(always)]
pub fn count_disjoint<const FAST: bool>(
    table: &[u64],
    queries: &[u64],
    buf: &mut Planes,
    stop: &Stop,
) -> Result<u64, SearchError> {
    let used =
        table.iter().fold(0, |m, &x| m | x) & queries.iter().fold(0, |m, &x| m | x) & KEY_MASK;
    if used == 0 {
        let weights: u64 = queries.iter().map(|&q| q >> WEIGHT_SHIFT).sum();
        return Ok(table.len() as u64 * weights);
    }
    // Pair by pair (four to a vector instruction) while that is cheaper
    // than transposing the table: about 40 operations a pattern and 1000 a
    // block to build the planes, then 30 per query and block.
    let blocks = table.len().div_ceil(64 * LANES) as f64;
    let sliced = 40.0 * table.len() as f64 + blocks * (1000.0 + 30.0 * queries.len() as f64);
    if DIRECT * (table.len() as f64) * (queries.len() as f64) <= sliced {
        let mut total = 0;
        for &q in queries {
            let key = q & KEY_MASK;
            let hits: u64 = table.iter().map(|&t| (t & key == 0) as u64).sum();
            total += hits * (q >> WEIGHT_SHIFT);
        }
        return Ok(total);
    }
    let Planes {
        table: t,
        queries: q,
        tables,
        zeta,
        sorted_table,
        sorted_queries,
        table_starts,
        query_starts,
    } = buf;
    // Squeeze out the bits that cannot clash (with pext where the CPU has
    // it; the portable loop only pays when it saves a chunk).
    let width = 64 - used.leading_zeros();
    let bits = used.count_ones();
    let squeeze = FAST || (width as usize).div_ceil(CHUNK) > (bits as usize).div_ceil(CHUNK);
    t.clear();
    q.clear();
    memory::try_reserve(t, table.len(), LISTS)?;
    memory::try_reserve(q, queries.len(), LISTS)?;
    let bits = if squeeze {
        t.extend(table.iter().map(|&x| extract_bits::<FAST>(x, used)));
        q.extend(
            queries
                .iter()
                .map(|&x| extract_bits::<FAST>(x, used) | (x >> WEIGHT_SHIFT) << WEIGHT_SHIFT),
        );
        bits
    } else {
        t.extend(table.iter().map(|&x| x & used));
        q.extend(queries.iter().map(|&x| x & (used | !KEY_MASK)));
        width
    };
    let pairs = table.len() as f64 * queries.len() as f64;
    let zeta_cost = (bits as f64 + 1.0) * (1u64 << bits.min(40)) as f64;
    let sliced_cost = pairs * (bits as usize).div_ceil(CHUNK) as f64 / 64.0;
    if bits <= MAX_ZETA_BITS && zeta_cost < sliced_cost {
        return by_subset_sums(t, q, bits, zeta);
    }
    let index = sieve_index(t, q, bits);
    if index != 0 {
        let sorted = Sorted {
            table: sorted_table,
            queries: sorted_queries,
            table_starts,
            query_starts,
        };
        return by_sieve::<FAST>(t, q, bits, index, sorted, tables, stop);
    }
    by_planes::<FAST>(t, q, bits as usize, tables, stop)
}

/// The index bits of the sieve ([`by_sieve`]), or 0 for none.  Each index
/// bit set in a fraction `p` of the table and `q` of the queries skips a
/// fraction `pq` of the pairs, but doubles the buckets, whose last blocks
/// are part empty: a table gets as many index bits as keep a full block per
/// bucket on average (measured best: n = 20 counts in 103 s against 197 s
/// with two blocks per bucket, and n = 18 is no slower), taken in order of
/// `pq` on a sample.
#[inline(always)]
fn sieve_index(t: &[u64], q: &[u64], bits: u32) -> u64 {
    const PER_BUCKET: usize = 64 * LANES;
    let most = (bits as usize).saturating_sub(CHUNK).min(MAX_SIEVE_BITS);
    let mut k = 0;
    while k < most && t.len() >> (k + 1) >= PER_BUCKET {
        k += 1;
    }
    if k == 0 {
        return 0;
    }
    let density = |keys: &[u64]| {
        let mut counts = [0u32; 64];
        for &x in keys.iter().step_by((keys.len() / 64).max(1)) {
            let mut rest = x & KEY_MASK;
            while rest != 0 {
                counts[rest.trailing_zeros() as usize] += 1;
                rest &= rest - 1;
            }
        }
        counts
    };
    let (dt, dq) = (density(t), density(q));
    let mut order: Vec<usize> = (0..bits as usize).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(dt[j] * dq[j]));
    order[..k].iter().fold(0, |m, &j| m | 1 << j)
}

/// `keys` sorted by their `index` bits into `out` (bucket `b` is
/// `out[starts[b]..starts[b + 1]]`), each squeezed to its `rest` bits and
/// keeping its weight.
#[inline(always)]
fn bucket<const FAST: bool>(
    keys: &[u64],
    (index, rest): (u64, u64),
    out: &mut Vec<u64>,
    starts: &mut Vec<usize>,
) -> Result<(), SearchError> {
    let buckets = 1usize << index.count_ones();
    starts.clear();
    starts.resize(buckets + 1, 0);
    for &x in keys {
        starts[extract_bits::<FAST>(x, index) as usize + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    out.clear();
    memory::try_reserve(out, keys.len(), LISTS)?;
    out.resize(keys.len(), 0);
    // starts[b] serves as bucket b's cursor, and ends at bucket b + 1's start.
    for &x in keys {
        let b = extract_bits::<FAST>(x, index) as usize;
        out[starts[b]] = extract_bits::<FAST>(x, rest) | x & !KEY_MASK;
        starts[b] += 1;
    }
    for b in (1..=buckets).rev() {
        starts[b] = starts[b - 1];
    }
    starts[0] = 0;
    Ok(())
}

/// Buffers of [`by_sieve`].
struct Sorted<'a> {
    table: &'a mut Vec<u64>,
    queries: &'a mut Vec<u64>,
    table_starts: &'a mut Vec<usize>,
    query_starts: &'a mut Vec<usize>,
}

/// Bit slicing after a sieve on `k` index bits: both sides are bucketed by
/// their index bits, and a table bucket meets only the query buckets whose
/// index bits it lacks.  With index bits set in a fraction `p` of the
/// table and `q` of the queries, that skips `1 - (1 - pq)^k` of the pairs;
/// the index bits are those with the largest `pq` in a sample.
#[inline(always)]
fn by_sieve<const FAST: bool>(
    t: &[u64],
    q: &[u64],
    bits: u32,
    index: u64,
    sorted: Sorted,
    tables: &mut Vec<Plane>,
    stop: &Stop,
) -> Result<u64, SearchError> {
    let full = (1u64 << bits) - 1;
    let k = index.count_ones();
    let rest = full & !index;
    let buckets = 1usize << k;
    let Sorted {
        table,
        queries,
        table_starts,
        query_starts,
    } = sorted;
    bucket::<FAST>(t, (index, rest), table, table_starts)?;
    bucket::<FAST>(q, (index, rest), queries, query_starts)?;
    let chunks = ((bits - k) as usize).div_ceil(CHUNK);
    tables.clear();
    tables.resize(chunks * CHUNK_VALUES, [0; LANES]);
    let mask = (buckets - 1) as u32;
    let mut total = 0u64;
    for y in 0..buckets {
        let keys = &table[table_starts[y]..table_starts[y + 1]];
        for block in keys.chunks(64 * LANES) {
            if stop.now() {
                return Err(SearchError::Cancelled);
            }
            build_block(block, chunks, tables);
            let free = mask & !(y as u32);
            let mut x = free;
            loop {
                let qs = &queries[query_starts[x as usize]..query_starts[x as usize + 1]];
                total += query_block::<FAST>(tables, chunks, qs);
                if x == 0 {
                    break;
                }
                x = (x - 1) & free;
            }
        }
    }
    Ok(total)
}

/// Counts by a subset-sum transform of the table over `bits` bits.
#[inline(always)]
fn by_subset_sums(
    table: &[u64],
    queries: &[u64],
    bits: u32,
    zeta: &mut Vec<u32>,
) -> Result<u64, SearchError> {
    let size = 1usize << bits;
    zeta.clear();
    memory::try_reserve(zeta, size, "the join's subset sums")?;
    zeta.resize(size, 0);
    for &x in table {
        zeta[x as usize] += 1;
    }
    // zeta[m] = #{x in table : x is a submask of m}
    for bit in 0..bits {
        let step = 1usize << bit;
        for m in 0..size {
            if m & step != 0 {
                zeta[m] += zeta[m ^ step];
            }
        }
    }
    let full = (size - 1) as u64;
    Ok(queries
        .iter()
        .map(|&y| zeta[(full & !y) as usize] as u64 * (y >> WEIGHT_SHIFT))
        .sum())
}

/// Counts by bit slicing the table in blocks of 512 against every query.
#[inline(always)]
fn by_planes<const FAST: bool>(
    table: &[u64],
    queries: &[u64],
    bits: usize,
    tables: &mut Vec<Plane>,
    stop: &Stop,
) -> Result<u64, SearchError> {
    let chunks = bits.div_ceil(CHUNK);
    tables.clear();
    tables.resize(chunks * CHUNK_VALUES, [0; LANES]);
    let mut total = 0u64;
    for block in table.chunks(64 * LANES) {
        if stop.now() {
            return Err(SearchError::Cancelled);
        }
        build_block(block, chunks, tables);
        total += query_block::<FAST>(tables, chunks, queries);
    }
    Ok(total)
}

/// The precombined planes of one block: `tables[c * 32 + v]` marks the
/// patterns that have none of the bits `v` in chunk `c`.
#[inline(always)]
fn build_block(block: &[u64], chunks: usize, tables: &mut [Plane]) {
    // Planes of "has bit j", one per key bit.
    let mut has = [[0u64; LANES]; 64];
    for (i, &x) in block.iter().enumerate() {
        let (lane, bit) = (i / 64, i % 64);
        let mut rest = x;
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            has[j][lane] |= 1 << bit;
        }
    }
    // Lanes past the block's end are not patterns: chunk 0 rules them out.
    let mut valid = [0u64; LANES];
    for (lane, v) in valid.iter_mut().enumerate() {
        let here = block.len().saturating_sub(64 * lane).min(64);
        *v = if here == 64 { !0 } else { (1u64 << here) - 1 };
    }
    for c in 0..chunks {
        let t = &mut tables[c * CHUNK_VALUES..(c + 1) * CHUNK_VALUES];
        t[0] = if c == 0 { valid } else { [!0; LANES] };
        for v in 1..CHUNK_VALUES {
            let low = v.trailing_zeros() as usize;
            let j = c * CHUNK + low;
            let prev = t[v & (v - 1)];
            let plane = if j < 64 { has[j] } else { [0; LANES] };
            let mut out = [0u64; LANES];
            for l in 0..LANES {
                out[l] = prev[l] & !plane[l];
            }
            t[v] = out;
        }
    }
}

/// `sum over queries q of weight(q) * #{patterns of the block disjoint from q}`.
#[inline(always)]
fn query_block<const FAST: bool>(tables: &[Plane], chunks: usize, queries: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST code runs only inside the AVX2 wrappers.
        return unsafe { query_block_avx2(tables, chunks, queries) };
    }
    let mut total = 0u64;
    for &q in queries {
        let acc = and_chunks(tables, chunks, q);
        let hits: u64 = acc.iter().map(|w| w.count_ones() as u64).sum();
        total += hits * (q >> WEIGHT_SHIFT);
    }
    total
}

/// The AND of the precombined planes `q` selects: its patterns disjoint from `q`.
#[inline(always)]
fn and_chunks(tables: &[Plane], chunks: usize, q: u64) -> Plane {
    let mut acc = tables[(q as usize) & (CHUNK_VALUES - 1)];
    for c in 1..chunks {
        let v = (q >> (c * CHUNK)) as usize & (CHUNK_VALUES - 1);
        let t = &tables[c * CHUNK_VALUES + v];
        for l in 0..LANES {
            acc[l] &= t[l];
        }
    }
    acc
}

/// [`query_block`] counting bits with AVX2 byte lookups (`vpshufb`) and
/// summing weighted counts in a vector, instead of eight `popcnt`s and a
/// horizontal sum per query.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn query_block_avx2(tables: &[Plane], chunks: usize, queries: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let zero = _mm256_setzero_si256();
    let mut sum = _mm256_setzero_si256();
    for &q in queries {
        let acc = and_chunks(tables, chunks, q);
        let a = _mm256_loadu_si256(acc.as_ptr() as *const __m256i);
        let b = _mm256_loadu_si256(acc.as_ptr().add(4) as *const __m256i);
        let count = |x: __m256i| {
            let lo = _mm256_and_si256(x, low);
            let hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), low);
            _mm256_add_epi8(
                _mm256_shuffle_epi8(nibbles, lo),
                _mm256_shuffle_epi8(nibbles, hi),
            )
        };
        // Bytes of at most 16: their sums per 64-bit lane, times the weight.
        let bytes = _mm256_add_epi8(count(a), count(b));
        let lanes = _mm256_sad_epu8(bytes, zero);
        let weight = _mm256_set1_epi64x((q >> WEIGHT_SHIFT) as i64);
        sum = _mm256_add_epi64(sum, _mm256_mul_epu32(lanes, weight));
    }
    let mut out = [0u64; 4];
    _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, sum);
    out.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Control;

    fn brute(a: &[u64], b: &[u64]) -> u64 {
        let mut n = 0;
        for &x in a {
            for &y in b {
                n += (x & y & KEY_MASK == 0) as u64 * (y >> WEIGHT_SHIFT);
            }
        }
        n
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn fast_count(
        a: &[u64],
        b: &[u64],
        buf: &mut Planes,
        stop: &Stop,
    ) -> Result<u64, SearchError> {
        count_disjoint::<true>(a, b, buf, stop)
    }

    #[test]
    fn agrees_with_brute_force() {
        let ctl = Control::new();
        let stop = Stop::new(&ctl);
        let mut buf = Planes::default();
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &(na, nb, density) in &[
            (0, 5, 3),
            (1, 1, 2),
            (700, 300, 3),
            (1500, 40, 2),
            (3000, 2000, 3),
            (9000, 3000, 2),
            (40000, 500, 3),
            (5, 4000, 4),
        ] {
            for spread in [12u32, 30, 64] {
                let mask = if spread == 64 {
                    !0
                } else {
                    (1u64 << spread) - 1
                };
                let mut make = |k: usize| -> Vec<u64> {
                    (0..k)
                        .map(|_| {
                            let mut x = mask;
                            for _ in 0..density {
                                x &= next();
                            }
                            x
                        })
                        .collect()
                };
                let a = make(na);
                let b: Vec<u64> = make(nb)
                    .into_iter()
                    .map(|x| x & KEY_MASK | 1 << WEIGHT_SHIFT)
                    .collect();
                let want = brute(&a, &b);
                assert_eq!(
                    count_disjoint::<false>(&a, &b, &mut buf, &stop).unwrap(),
                    want,
                    "{na} x {nb}, density {density}, {spread} bits"
                );
                if crate::cpu::fast() {
                    // SAFETY: the CPU has the features.
                    let fast = unsafe { fast_count(&a, &b, &mut buf, &stop) };
                    assert_eq!(fast.unwrap(), want);
                }
            }
        }
    }
}
