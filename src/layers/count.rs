//! The counts of a layered DP: `u64`, `u128` and [`U256`] behind one
//! [`Count`] trait, so a DP picks per layer the narrowest type that surely
//! holds the next layer's counts, and every addition is checked (an
//! overflow is `SearchError::Overflow`, never a wrap).
//!
//! A table slot holds a count below [`WIDE`] in 64 bits; the rare wider
//! count is marked `WIDE` and kept beside the table (see `table.rs`), so a
//! slot is 16 bytes whatever the count type.

/// The count of a slot whose true count lives in the table's `wide` map.
pub const WIDE: u64 = u64::MAX;

/// A state count: `u64` while it surely fits, `u128` beyond, [`U256`] past
/// that (long thin boards: 3x100 has about 10^53 tours).
pub trait Count: Copy + Send + Sync + Default + PartialEq + std::fmt::Debug + 'static {
    fn checked_add(self, other: Self) -> Option<Self>;
    fn from_wide(n: U256) -> Option<Self>;
    fn to_wide(self) -> U256;
    /// The count as a table slot holds it: `None` from [`WIDE`] up, which
    /// the slot marks and keeps in its table's side map instead.
    fn narrow(self) -> Option<u64>;
    fn from_narrow(n: u64) -> Self;
    /// The bytes of a count in a spill file (little-endian), and its tag
    /// there (which type the file holds).
    const BYTES: usize;
    const TAG: u8;
    fn put(self, out: &mut Vec<u8>);
    /// The bytes of [`Count::put`] up to the last nonzero one (0 for 0):
    /// what a spill file writes of the count.
    fn used_bytes(self) -> usize;
    /// The count in `bytes` (exactly [`Count::BYTES`] long).
    fn take(bytes: &[u8]) -> Self;
}

/// The [`Count`] items a primitive count has alike: checked addition, and
/// its little-endian bytes in a spill file, tagged `$tag`.
macro_rules! primitive_count {
    ($t:ty, $tag:expr) => {
        fn checked_add(self, other: Self) -> Option<Self> {
            <$t>::checked_add(self, other)
        }
        const BYTES: usize = std::mem::size_of::<$t>();
        const TAG: u8 = $tag;
        fn put(self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.to_le_bytes());
        }
        #[inline]
        fn used_bytes(self) -> usize {
            (<$t>::BITS - self.leading_zeros()).div_ceil(8) as usize
        }
        fn take(bytes: &[u8]) -> Self {
            <$t>::from_le_bytes(bytes.try_into().unwrap_or_default())
        }
    };
}

impl Count for u64 {
    primitive_count!(u64, 0);
    fn from_wide(n: U256) -> Option<Self> {
        u64::try_from(n.to_u128()?).ok()
    }
    fn to_wide(self) -> U256 {
        U256::from(self as u128)
    }
    #[inline]
    fn narrow(self) -> Option<u64> {
        (self != WIDE).then_some(self)
    }
    #[inline]
    fn from_narrow(n: u64) -> Self {
        n
    }
}

impl Count for u128 {
    primitive_count!(u128, 1);
    fn from_wide(n: U256) -> Option<Self> {
        n.to_u128()
    }
    fn to_wide(self) -> U256 {
        U256::from(self)
    }
    #[inline]
    fn narrow(self) -> Option<u64> {
        u64::try_from(self).ok().filter(|&n| n != WIDE)
    }
    #[inline]
    fn from_narrow(n: u64) -> Self {
        n as u128
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
    #[inline]
    fn narrow(self) -> Option<u64> {
        self.to_u128()?.narrow()
    }
    #[inline]
    fn from_narrow(n: u64) -> Self {
        U256::from(n as u128)
    }
    const BYTES: usize = 32;
    const TAG: u8 = 2;
    fn put(self, out: &mut Vec<u8>) {
        self.lo.put(out);
        self.hi.put(out);
    }
    #[inline]
    fn used_bytes(self) -> usize {
        if self.hi == 0 {
            self.lo.used_bytes()
        } else {
            16 + self.hi.used_bytes()
        }
    }
    fn take(bytes: &[u8]) -> Self {
        let (lo, hi) = bytes.split_at(16);
        U256 {
            hi: u128::take(hi),
            lo: u128::take(lo),
        }
    }
}

/// An unsigned 256-bit integer, `hi * 2^128 + lo`: only what the counts need
/// (checked addition, multiplication by a small factor, decimal printing).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct U256 {
    pub hi: u128,
    pub lo: u128,
}

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
    fn narrow_counts_stop_below_the_mark() {
        assert_eq!(5u64.narrow(), Some(5));
        assert_eq!(WIDE.narrow(), None);
        assert_eq!((WIDE as u128 - 1).narrow(), Some(WIDE - 1));
        assert_eq!((WIDE as u128).narrow(), None);
        assert_eq!(U256::from(7).narrow(), Some(7));
        assert_eq!(U256 { hi: 1, lo: 0 }.narrow(), None);
        assert_eq!(u128::from_narrow(9), 9);
        assert_eq!(U256::from_narrow(9), U256::from(9));
    }
}
