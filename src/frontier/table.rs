//! The storage of the DP's layers: the count types (`u64`, `u128` and
//! [`U256`], chosen per layer as the narrowest that surely holds the next
//! layer's counts), the layers of `(key, count)` in shards, and the
//! open-addressing tables that sum the counts of equal keys.
//!
//! Invariants: key 0 marks a free slot (keys are never 0, see `state.rs`);
//! a key's shard is the top [`SHARD_BITS`] bits of its hash and its home
//! slot the bits below, so a shard's table sees well-spread homes; every
//! addition of counts is checked (an overflow is `SearchError::Overflow`);
//! the tables' memory is asked for fallibly (`SearchError::Memory`).

use super::state::CODES_MASK;
use crate::error::SearchError;
use crate::memory::{self, advise_huge, prefetch, Zeroable};

/// Output shards of a step, by the top bits of the key's hash.
pub(super) const SHARD_BITS: u32 = 6;
pub(super) const SHARDS: usize = 1 << SHARD_BITS;

#[inline]
pub(super) fn mix(key: u64) -> u64 {
    let k = (key ^ (key >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (k ^ (k >> 32)).wrapping_mul(0x94d0_49bb_1331_11eb)
}

/// A state count: `u64` while it surely fits, `u128` beyond, [`U256`] past
/// that (long thin boards: 3x100 has about 10^53 tours).
pub(super) trait Count: Copy + Send + Sync + Default + Zeroable + 'static {
    fn checked_add(self, other: Self) -> Option<Self>;
    fn from_wide(n: U256) -> Option<Self>;
    fn to_wide(self) -> U256;
}

impl Count for u64 {
    fn checked_add(self, other: Self) -> Option<Self> {
        u64::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        u64::try_from(n.to_u128()?).ok()
    }
    fn to_wide(self) -> U256 {
        U256::from(self as u128)
    }
}

impl Count for u128 {
    fn checked_add(self, other: Self) -> Option<Self> {
        u128::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        n.to_u128()
    }
    fn to_wide(self) -> U256 {
        U256::from(self)
    }
}

impl Count for U256 {
    fn checked_add(self, other: Self) -> Option<Self> {
        U256::checked_add(self, other)
    }
    fn from_wide(n: U256) -> Option<Self> {
        Some(n)
    }
    fn to_wide(self) -> U256 {
        self
    }
}

/// An unsigned 256-bit integer, `hi * 2^128 + lo`: only what the counts need
/// (checked addition, multiplication by a small factor, decimal printing).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct U256 {
    pub hi: u128,
    pub lo: u128,
}

// SAFETY: two integers; all-zero bytes are the number 0.
unsafe impl Zeroable for U256 {}

impl From<u128> for U256 {
    fn from(lo: u128) -> Self {
        U256 { hi: 0, lo }
    }
}

impl U256 {
    pub fn checked_add(self, other: U256) -> Option<U256> {
        let (lo, carry) = self.lo.overflowing_add(other.lo);
        let hi = self.hi.checked_add(other.hi)?.checked_add(carry as u128)?;
        Some(U256 { hi, lo })
    }

    /// `self * m` for `m < 2^64`, or `None` past 256 bits.
    pub fn checked_mul_small(self, m: u64) -> Option<U256> {
        let m = m as u128;
        let (lo_lo, lo_hi) = (self.lo as u64 as u128 * m, (self.lo >> 64) * m);
        // lo * m = lo_hi * 2^64 + lo_lo, split across the two halves
        let (lo, carry) = lo_lo.overflowing_add(lo_hi << 64);
        let hi = self
            .hi
            .checked_mul(m)?
            .checked_add(lo_hi >> 64)?
            .checked_add(carry as u128)?;
        Some(U256 { hi, lo })
    }

    pub fn to_u128(self) -> Option<u128> {
        (self.hi == 0).then_some(self.lo)
    }

    /// `(self / d, self % d)` for a nonzero `d < 2^64`.
    fn div_rem_small(self, d: u64) -> (U256, u64) {
        let d = d as u128;
        let mut rem = 0u128;
        let mut limbs = [
            (self.hi >> 64) as u64,
            self.hi as u64,
            (self.lo >> 64) as u64,
            self.lo as u64,
        ];
        for limb in &mut limbs {
            let cur = (rem << 64) | *limb as u128;
            *limb = (cur / d) as u64;
            rem = cur % d;
        }
        let q = U256 {
            hi: (limbs[0] as u128) << 64 | limbs[1] as u128,
            lo: (limbs[2] as u128) << 64 | limbs[3] as u128,
        };
        (q, rem as u64)
    }
}

impl std::fmt::Display for U256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(n) = self.to_u128() {
            return write!(f, "{n}");
        }
        // 19 decimal digits at a time, least significant first
        let mut parts = Vec::new();
        let mut n = *self;
        while n.hi != 0 || n.lo >= 10u128.pow(19) {
            let (q, r) = n.div_rem_small(10u64.pow(19));
            parts.push(r);
            n = q;
        }
        write!(f, "{}", n.lo)?;
        for part in parts.iter().rev() {
            write!(f, "{part:019}")?;
        }
        Ok(())
    }
}

/// The states after a step, in shards.
pub(super) enum Layer {
    Narrow(Vec<Vec<(u64, u64)>>),
    Wide(Vec<Vec<(u64, u128)>>),
    Huge(Vec<Vec<(u64, U256)>>),
}

/// Which count type the next layer needs.
#[derive(Clone, Copy)]
pub(super) enum Width {
    Narrow,
    Wide,
    Huge,
}

/// The total count of the states whose codes are `done` (every square finished).
pub(super) fn finished<C: Count>(l: &[Vec<(u64, C)>], done: u64) -> Result<U256, SearchError> {
    l.iter()
        .flatten()
        .filter(|(key, _)| key & CODES_MASK == done)
        .try_fold(U256::default(), |s, &(_, c)| s.checked_add(c.to_wide()))
        .ok_or(SearchError::Overflow)
}

fn states<C: Count>(l: &[Vec<(u64, C)>]) -> usize {
    l.iter().map(Vec::len).sum()
}

fn sum<C: Count>(l: &[Vec<(u64, C)>]) -> Option<U256> {
    l.iter()
        .flatten()
        .try_fold(U256::default(), |s, &(_, c)| s.checked_add(c.to_wide()))
}

impl Layer {
    pub(super) fn len(&self) -> usize {
        match self {
            Layer::Narrow(l) => states(l),
            Layer::Wide(l) => states(l),
            Layer::Huge(l) => states(l),
        }
    }

    /// The sum of the counts, `None` past 256 bits.
    fn total(&self) -> Option<U256> {
        match self {
            Layer::Narrow(l) => sum(l),
            Layer::Wide(l) => sum(l),
            Layer::Huge(l) => sum(l),
        }
    }

    /// Every child count is at most the layer's total times the (at most
    /// 11) ways a state goes on: the narrowest type that surely holds that.
    pub(super) fn next_width(&self) -> Width {
        match self.total() {
            Some(t) if t <= U256::from((u64::MAX / 16) as u128) => Width::Narrow,
            Some(t) if t <= U256::from(u128::MAX / 16) => Width::Wide,
            _ => Width::Huge,
        }
    }
}

/// `n` free slots for `what` (`Err(Memory)` if they cannot be had), advised
/// onto 2 MiB pages and then zeroed here, in order.  (Zeroed by `calloc`
/// and left to the kernel instead, the pages are first touched in hash
/// order: measured twice the page faults and 5% slower on 6x6.)  The memory
/// is reserved before it is written, so the zeroing never reallocates.
fn zeroed<C: Count>(n: usize, what: &str) -> Result<Vec<(u64, C)>, SearchError> {
    let mut slots = memory::try_with_capacity(n, what)?;
    advise_huge(&slots);
    slots.resize(n, (0, C::default()));
    Ok(slots)
}

/// An open-addressing table summing counts per key (key 0: a free slot).
pub(super) struct Table<C: Count> {
    slots: Vec<(u64, C)>,
    used: usize,
}

impl<C: Count> Table<C> {
    /// The slots of a table for `n` states: any size (not a power of two),
    /// 60% full when the guess is right, grown by half at 75%: 16-byte slots
    /// cost about 27 bytes a state.
    pub(super) fn slots_for(n: usize) -> usize {
        (n + n * 2 / 3).max(64)
    }

    pub(super) fn with_capacity(n: usize, what: &str) -> Result<Self, SearchError> {
        Ok(Table {
            slots: zeroed(Self::slots_for(n), what)?,
            used: 0,
        })
    }

    /// Where `key` starts probing in `len` slots: the hash bits below the
    /// shard bits, scaled to `len`.
    #[inline]
    fn home(key: u64, len: usize) -> usize {
        (((mix(key) << SHARD_BITS) as u128 * len as u128) >> 64) as usize
    }

    pub(super) fn add_all(&mut self, batch: &[(u64, C)], what: &str) -> Result<(), SearchError> {
        if 4 * (self.used + batch.len()) > 3 * self.slots.len() {
            self.grow(what)?;
        }
        let len = self.slots.len();
        for &(key, _) in batch {
            prefetch(&self.slots[Self::home(key, len)]);
        }
        for &(key, count) in batch {
            let mut slot = Self::home(key, len);
            loop {
                let entry = &mut self.slots[slot];
                if entry.0 == key {
                    entry.1 = entry.1.checked_add(count).ok_or(SearchError::Overflow)?;
                    break;
                }
                if entry.0 == 0 {
                    *entry = (key, count);
                    self.used += 1;
                    break;
                }
                slot += 1;
                if slot == len {
                    slot = 0;
                }
            }
        }
        Ok(())
    }

    /// Half as many slots again (`Err(Memory)` if they cannot be had: the
    /// table is then left as it was).
    fn grow(&mut self, what: &str) -> Result<(), SearchError> {
        let len = self.slots.len() * 3 / 2;
        let old = std::mem::replace(&mut self.slots, zeroed(len, what)?);
        for entry in old {
            if entry.0 != 0 {
                let mut slot = Self::home(entry.0, len);
                while self.slots[slot].0 != 0 {
                    slot += 1;
                    if slot == len {
                        slot = 0;
                    }
                }
                self.slots[slot] = entry;
            }
        }
        Ok(())
    }

    /// The entries, packed to the front of the table's own memory.
    pub(super) fn compact(self) -> Vec<(u64, C)> {
        let mut slots = self.slots;
        let mut w = 0;
        for i in 0..slots.len() {
            if slots[i].0 != 0 {
                slots[w] = slots[i];
                w += 1;
            }
        }
        slots.truncate(w);
        slots.shrink_to_fit();
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u256_arithmetic_and_printing() {
        let max = U256::from(u128::MAX);
        let two128 = max.checked_add(U256::from(1)).unwrap();
        assert_eq!((two128.hi, two128.lo), (1, 0));
        assert_eq!(
            two128.to_string(),
            "340282366920938463463374607431768211456"
        );
        let big = two128.checked_mul_small(1_000_000_007).unwrap();
        assert_eq!(
            big.to_string(),
            "340282369302915031909943851675390463478377480192"
        );
        let top = U256 {
            hi: u128::MAX,
            lo: u128::MAX,
        };
        assert_eq!(top.checked_add(U256::from(1)), None);
        assert_eq!(top.checked_mul_small(2), None);
        assert_eq!(U256::from(12).checked_mul_small(3), Some(U256::from(36)));
        assert_eq!(
            U256::from(10u128.pow(19)).to_string(),
            "10000000000000000000"
        );
        let two200 = U256 { hi: 1 << 72, lo: 0 };
        assert_eq!(
            two200.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
    }

    #[test]
    fn an_impossible_table_is_a_memory_error() {
        let err = Table::<u64>::with_capacity(usize::MAX / 64, "a test table");
        assert!(matches!(err, Err(SearchError::Memory { .. })));
    }
}
