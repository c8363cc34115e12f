//! The working form of a frontier (one 4-bit code a square, in a machine
//! word) and how it packs into the low 60 bits of a `u64` key.
//!
//! A frontier of up to 15 squares works in a `u64` (a working frontier is
//! the frontier and the new square: 16 nibbles) and packs as it is.  The
//! frontier of a shorter side of 8 has 17 squares (18 working slots, 72
//! bits), or 18 taken from the outside in, so it works in a `u128` and
//! packs denser: a square's code is one of 11 values (unused, done, or one
//! of at most 9 labels: see [`Codes::pack`]), so two squares take 7 bits
//! (121 <= 128 values): 17 squares take 56 + 4 bits, under the 4 bits of
//! the tour ends fixed, and 18 squares take 63 bits, which only a closed
//! count (no tour ends) can spare.  Keys stay `u64`, so the layer engine,
//! its files and its memory per state are the same for every board.

use std::ops::{BitAnd, BitOr, BitXor, Mul, Not, Shl, Shr, Sub};

/// A working frontier: nibble `i` is slot `i`'s code.
pub(super) trait Codes:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Mul<Output = Self>
    + Sub<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    /// Bit `4i` of every nibble.
    const ONES: Self;
    /// A small value (a code, a mask of a few nibbles).
    fn small(x: u64) -> Self;
    /// The low bits of a mask of slots (bit `4i` for slot `i`).
    fn from_mask(x: u128) -> Self;
    fn trailing_zeros(self) -> u32;
    fn count_ones(self) -> u32;
    /// The low nibble.
    fn low_nibble(self) -> u8;
    /// The same bits in a `u128`.
    fn wide(self) -> u128;
    /// The codes of a state (its frontier, not the working one) in the low
    /// 60 bits of a key (63 for a frontier of 18 squares).
    fn pack(self) -> u64;
    /// The codes in the low bits of `key` (the bits above them cleared).
    fn unpack(key: u64) -> Self;
}

/// The low 60 bits of a key: the frontier's codes (up to 17 squares).
pub(super) const CODES_MASK: u64 = (1 << 60) - 1;

/// The low 63 bits of a key: the codes of a frontier of 18 squares (a
/// closed count's: the key's top bit only marks it as not free).
pub(super) const WIDE_CODES_MASK: u64 = (1 << 63) - 1;

/// The [`Codes`] methods that are the integer's own, alike for `u64` and
/// `u128`.
macro_rules! integer_codes {
    ($t:ty) => {
        #[inline]
        fn trailing_zeros(self) -> u32 {
            <$t>::trailing_zeros(self)
        }

        #[inline]
        fn count_ones(self) -> u32 {
            <$t>::count_ones(self)
        }

        #[inline]
        fn low_nibble(self) -> u8 {
            self as u8 & 15
        }
    };
}

impl Codes for u64 {
    const ONES: u64 = 0x1111_1111_1111_1111;

    #[inline]
    fn small(x: u64) -> u64 {
        x
    }

    #[inline]
    fn from_mask(x: u128) -> u64 {
        x as u64
    }

    integer_codes!(u64);

    #[inline]
    fn wide(self) -> u128 {
        self as u128
    }

    /// 15 squares at most, as they are.
    #[inline]
    fn pack(self) -> u64 {
        debug_assert_eq!(self & !CODES_MASK, 0);
        self
    }

    #[inline]
    fn unpack(key: u64) -> u64 {
        key & CODES_MASK
    }
}

impl Codes for u128 {
    const ONES: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;

    #[inline]
    fn small(x: u64) -> u128 {
        x as u128
    }

    #[inline]
    fn from_mask(x: u128) -> u128 {
        x
    }

    integer_codes!(u128);

    #[inline]
    fn wide(self) -> u128 {
        self
    }

    /// 18 squares at most: squares `2i, 2i + 1` in the 7 bits at `7i`
    /// (`i < 9`), so square 16 alone takes the 4 bits at 56 and 17 squares
    /// stay in 60 bits.  A code is below 11: a frontier of 17 squares has
    /// at most 9 labels (a label marks two loose ends of one fragment, or
    /// one whose other end is one of the tour's two ends: `2 * 8 + 1` or
    /// `2 * 7 + 2` squares), numbered from 2, and so does one of 18 in a
    /// closed count (every label twice).
    ///
    /// Worked on all eight bytes of the low word at once (a byte of
    /// nibbles `a + 16 b` is the pair's code `a + 11 b` less `5 b`), then
    /// the 7-bit codes closed up in three halvings, in place of a table
    /// lookup a pair (the same speed within the noise of the machine here).
    #[inline]
    fn pack(self) -> u64 {
        debug_assert_eq!(self >> 72, 0);
        let lo = self as u64;
        let top = (self >> 64) as u64;
        debug_assert!((0..9).all(|i| {
            let byte = (self >> (8 * i)) as u8;
            byte & 15 < 11 && byte >> 4 < 11
        }));
        // Each byte `a + 16 b` becomes `a + 11 b` (< 121, 7 bits).
        let pairs = lo - 5 * (lo >> 4 & BYTE_LOW_NIBBLES);
        let top = top - 5 * (top >> 4);
        // Close up the 7-bit codes: 8 x 7 -> 4 x 14 -> 2 x 28 -> 56 bits.
        let x = pairs & 0x007f_007f_007f_007f | (pairs >> 8 & 0x007f_007f_007f_007f) << 7;
        let x = x & 0x0000_3fff_0000_3fff | (x >> 16 & 0x0000_3fff_0000_3fff) << 14;
        let x = x & 0x0fff_ffff | (x >> 32 & 0x0fff_ffff) << 28;
        x | top << 56
    }

    /// The inverse of [`Self::pack`]: the codes spread back to a byte each,
    /// and each byte `c = a + 11 b` made `a + 16 b = c + 5 b`, where
    /// `b = c / 11 = (187 c) >> 11` for `c < 121`, worked in 16-bit lanes.
    #[inline]
    fn unpack(key: u64) -> u128 {
        let x = key & ((1 << 56) - 1);
        let x = x & 0x0fff_ffff | (x >> 28 & 0x0fff_ffff) << 32;
        let x = x & 0x0000_3fff_0000_3fff | (x >> 14 & 0x0000_3fff_0000_3fff) << 16;
        let x = x & 0x007f_007f_007f_007f | (x >> 7 & 0x007f_007f_007f_007f) << 8;
        let lanes = 0x00ff_00ff_00ff_00ff;
        // A quotient is at most 10: 5 bits of its lane (the bits above them
        // came down from the next lane).
        let fives = 0x001f_001f_001f_001f;
        let even = (((x & lanes) * 187) >> 11) & fives;
        let odd = (((x >> 8 & lanes) * 187) >> 11) & fives;
        let lo = x + 5 * (even | odd << 8);
        let top = key >> 56 & 127;
        let top = top + 5 * ((top * 187) >> 11);
        (lo as u128) | (top as u128) << 64
    }
}

/// The low nibble of every byte.
const BYTE_LOW_NIBBLES: u64 = 0x0f0f_0f0f_0f0f_0f0f;

#[cfg(test)]
mod tests {
    use super::*;

    /// Code `a + 11 b` of a pair of squares (codes `a`, `b`) from the byte
    /// `a + 16 b` of their nibbles, for `a, b < 11`.
    const PAIR: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            let (a, b) = (i % 16, i / 16);
            if a < 11 && b < 11 {
                t[i] = (a + 11 * b) as u8;
            }
            i += 1;
        }
        t
    };

    /// The inverse of [`PAIR`]: the byte of nibbles of code `c < 121`.
    const UNPAIR: [u8; 128] = {
        let mut t = [0u8; 128];
        let mut c = 0;
        while c < 121 {
            t[c] = ((c % 11) + 16 * (c / 11)) as u8;
            c += 1;
        }
        t
    };

    #[test]
    fn dense_keys_are_the_codes_and_fit_60_or_63_bits() {
        // Every pair of codes in every position; 17 squares in 60 bits
        // (under the tour ends), 18 in 63.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for squares in [17, 18] {
            let mask = if squares == 17 {
                CODES_MASK
            } else {
                WIDE_CODES_MASK
            };
            for round in 0..20_000u32 {
                let mut codes = 0u128;
                for i in 0..squares {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let c = match round {
                        0 => 10,
                        1 => 0,
                        _ => seed % 11,
                    };
                    codes |= (c as u128) << (4 * i);
                }
                let key = codes.pack();
                assert_eq!(key, by_table(codes));
                assert_eq!(key & !mask, 0);
                let marked = key | !mask & (9 << 60);
                assert_eq!(u128::unpack(marked & mask), codes);
            }
        }
        for (c, &byte) in UNPAIR.iter().enumerate().take(121) {
            assert_eq!(PAIR[byte as usize] as usize, c);
        }
        // Each pair code in each of the nine places, the others all 10.
        for place in 0..9 {
            for &pair in &UNPAIR[..121] {
                let mut codes = 0u128;
                for p in 0..9 {
                    let byte = if p == place { pair } else { 0xaa };
                    codes |= (byte as u128) << (8 * p);
                }
                assert_eq!(codes.pack(), by_table(codes));
                assert_eq!(u128::unpack(codes.pack()), codes);
            }
        }
    }

    /// The key of `codes` a pair at a time, by [`PAIR`].
    fn by_table(codes: u128) -> u64 {
        (0..9).fold(0, |key, i| {
            key | (PAIR[(codes >> (8 * i)) as u8 as usize] as u64) << (7 * i)
        })
    }
}
