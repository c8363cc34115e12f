//! One layer of the peg DP ([`Layer`]): the orbits of the positions with
//! a given number of pegs and the number of sequences reaching each, and the
//! checked byte format that carries a layer between processes or machines
//! ([`Layer::to_bytes`], [`Layer::from_bytes`]: a header, the entries and a
//! checksum).

use super::MAX_HOLES;
use crate::error::{CountError, InputError, SearchError};
use crate::memory::try_with_capacity;

/// One layer: the orbits of the positions with `pegs` pegs (their least
/// images, in no particular order) and the number of sequences reaching each orbit.
#[derive(Debug, Clone, Default)]
pub struct Layer {
    pub pegs: u32,
    pub keys: Vec<u64>,
    pub counts: Vec<u128>,
    /// The size of the layer this one was expanded from (0: none), which
    /// predicts the size of the next one.
    pub parents: usize,
}

impl Layer {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The number of sequences reaching any position of the layer.
    pub fn total(&self) -> Result<u128, SearchError> {
        self.counts
            .iter()
            .try_fold(0u128, |sum, &c| sum.checked_add(c))
            .ok_or(SearchError::Overflow)
    }
}

/// The first bytes of a layer written by [`Layer::to_bytes`].
pub const LAYER_MAGIC: [u8; 4] = *b"PEGL";
/// The version of the format [`Layer::to_bytes`] writes (and the only one
/// [`Layer::from_bytes`] reads).
pub const LAYER_FORMAT: u16 = 1;
/// Bytes before the entries: see [`Layer::to_bytes`].
const LAYER_HEADER: usize = 40;

/// A checksum of 64-bit words: each step is a bijection of the running
/// value, so changing any one word always changes the result.
fn checksum(words: impl Iterator<Item = u64>) -> u64 {
    words.fold(0x243f_6a88_85a3_08d3, |sum, word| {
        (sum ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(27)
    })
}

/// The little-endian 64-bit words of `bytes` (a multiple of 8 long).
fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    (bytes.chunks_exact(8)).map(|word| u64::from_le_bytes(word.try_into().unwrap_or_default()))
}

impl Layer {
    /// The layer as bytes, to send it to another process or machine.
    /// Format version 1, every number little-endian:
    ///
    /// ```text
    /// offset  size  field
    ///      0     4  magic "PEGL"
    ///      4     2  format version (1)
    ///      6     1  bytes per count: 8 (every count below 2^64) or 16
    ///      7     1  0
    ///      8     4  pegs
    ///     12     4  0
    ///     16     8  n, the number of positions
    ///     24     8  parents (the size hint, see `Layer::parents`)
    ///     32     8  checksum of bytes 0..32 and 40.. as 64-bit words
    ///     40   8 n  the positions (u64 each)
    ///        w * n  their counts (u64 or u128 each)
    /// ```
    ///
    /// `Err(Memory)` when there is no room for the bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, SearchError> {
        let wide = self.counts.iter().any(|&count| count > u64::MAX as u128);
        let width: usize = if wide { 16 } else { 8 };
        let n = self.len();
        let what = format!("the bytes of a layer of {n} positions");
        let size = (n.checked_mul(8 + width))
            .and_then(|body| body.checked_add(LAYER_HEADER))
            .ok_or_else(|| SearchError::memory(&what, u64::MAX))?;
        let mut out = try_with_capacity(size, &what)?;
        out.extend_from_slice(&LAYER_MAGIC);
        out.extend_from_slice(&LAYER_FORMAT.to_le_bytes());
        out.extend_from_slice(&[width as u8, 0]);
        out.extend_from_slice(&self.pegs.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        out.extend_from_slice(&(self.parents as u64).to_le_bytes());
        out.extend_from_slice(&[0; 8]); // the checksum, below
        for key in &self.keys {
            out.extend_from_slice(&key.to_le_bytes());
        }
        for &count in &self.counts {
            if wide {
                out.extend_from_slice(&count.to_le_bytes());
            } else {
                out.extend_from_slice(&(count as u64).to_le_bytes());
            }
        }
        let sum = checksum(words(&out[..32]).chain(words(&out[LAYER_HEADER..])));
        out[32..40].copy_from_slice(&sum.to_le_bytes());
        Ok(out)
    }

    /// A layer written by [`Layer::to_bytes`], checked: the header, the
    /// length, the checksum, and that every position has `pegs` pegs.
    /// Anything else is an input error, never a panic; no room for the
    /// layer is a memory error.
    pub fn from_bytes(data: &[u8]) -> Result<Layer, CountError> {
        let bad = |what: &str| {
            Err(CountError::Input(InputError(format!(
                "not a valid peg layer: {what}"
            ))))
        };
        if data.len() < LAYER_HEADER {
            return bad(&format!(
                "{} bytes, shorter than the {LAYER_HEADER}-byte header",
                data.len()
            ));
        }
        let field = |at: usize| u64::from_le_bytes(data[at..at + 8].try_into().unwrap_or_default());
        if data[..4] != LAYER_MAGIC {
            return bad("it does not start with \"PEGL\"");
        }
        let version = u16::from_le_bytes([data[4], data[5]]);
        if version != LAYER_FORMAT {
            return Err(CountError::Input(InputError(format!(
                "peg layer format version {version} is not supported (this build reads version {LAYER_FORMAT})"
            ))));
        }
        let width = data[6] as usize;
        let pegs = u32::from_le_bytes([data[8], data[9], data[10], data[11]]);
        if !(width == 8 || width == 16) || data[7] != 0 || data[12..16] != [0; 4] {
            return bad("corrupt header");
        }
        if pegs as usize > MAX_HOLES {
            return bad(&format!("{pegs} pegs, more than {MAX_HOLES} holes"));
        }
        let n = field(16);
        let expected = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(8 + width))
            .and_then(|body| body.checked_add(LAYER_HEADER));
        if expected != Some(data.len()) {
            return bad(&format!(
                "{} bytes, but its header announces {n} positions",
                data.len()
            ));
        }
        let sum = checksum(words(&data[..32]).chain(words(&data[LAYER_HEADER..])));
        if sum != field(32) {
            return bad("the checksum does not match (the data is corrupt)");
        }
        let n = n as usize;
        let (keys, counts) = data[LAYER_HEADER..].split_at(8 * n);
        let what = format!("a layer of {n} positions read from bytes");
        let mut keys_read: Vec<u64> = try_with_capacity(n, &what)?;
        keys_read.extend(words(keys));
        if let Some(key) = keys_read.iter().find(|key| key.count_ones() != pegs) {
            return bad(&format!("position {key:#x} does not have {pegs} pegs"));
        }
        let mut counts_read: Vec<u128> = try_with_capacity(n, &what)?;
        if width == 8 {
            counts_read.extend(words(counts).map(u128::from));
        } else {
            counts_read.extend(
                (counts.chunks_exact(16))
                    .map(|count| u128::from_le_bytes(count.try_into().unwrap_or_default())),
            );
        }
        Ok(Layer {
            pegs,
            keys: keys_read,
            counts: counts_read,
            parents: usize::try_from(field(24)).unwrap_or(usize::MAX),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{grown, rectangle, IDENTITY};
    use super::*;

    #[test]
    fn layers_round_trip_through_bytes() {
        let g = rectangle(3, 4, IDENTITY);
        for layer in [
            grown(&g, 0, 4),
            Layer {
                pegs: 5,
                ..Layer::default()
            },
            Layer {
                pegs: 2,
                keys: vec![0b11, 1 << 63 | 1],
                counts: vec![u128::MAX, u64::MAX as u128],
                parents: 9,
            },
        ] {
            let bytes = layer.to_bytes().unwrap();
            let back = Layer::from_bytes(&bytes).unwrap();
            assert_eq!((back.pegs, back.parents), (layer.pegs, layer.parents));
            assert_eq!((&back.keys, &back.counts), (&layer.keys, &layer.counts));
            assert_eq!(back.to_bytes().unwrap(), bytes);
        }
    }

    #[test]
    fn corrupt_bytes_are_refused_never_a_panic() {
        let g = rectangle(3, 4, IDENTITY);
        let bytes = grown(&g, 0, 3).to_bytes().unwrap();
        // Every truncation, every single flipped bit.
        for end in 0..bytes.len() {
            assert!(Layer::from_bytes(&bytes[..end]).is_err(), "{end} bytes");
        }
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert!(Layer::from_bytes(&bad).is_err(), "byte {at} bit {bit}");
            }
        }
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 8]);
        assert!(Layer::from_bytes(&longer).is_err());
        // A later format version is named as such.
        let mut later = bytes;
        later[4] = 2;
        let message = match Layer::from_bytes(&later) {
            Err(CountError::Input(e)) => e.0,
            other => panic!("not an input error: {other:?}"),
        };
        assert!(message.contains("version 2"), "{message}");
        // Huge announced lengths do not overflow.
        let mut huge = Layer::default().to_bytes().unwrap();
        huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Layer::from_bytes(&huge).is_err());
    }
}
