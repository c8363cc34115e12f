//! The board of the peg DP: its holes, its jumps as bit masks, and a group
//! of its symmetries as byte-by-byte lookup maps ([`PegGeometry`]); the
//! canonical form of a position (its least image) and of its children, the
//! owner of a position when a layer is split across tasks ([`owner_of`],
//! [`PegGeometry::owner`]), and the checks on layers that come from elsewhere.
//!
//! **Symmetry.**  Positions are stored once per orbit of a group of board
//! symmetries (those fixing the start, and the finish if there is one), as
//! the least image.  The value stored for an orbit is the number of
//! sequences reaching *any* of its positions; expanding the representative
//! and adding its value to each child's orbit gives exactly those totals.

use super::Layer;
use crate::error::InputError;
pub use crate::layers::owner_of;
use std::collections::HashSet;

/// Positions live in 64 bits.
pub const MAX_HOLES: usize = 64;

#[derive(Debug, Clone, Copy)]
pub(super) struct Jump {
    /// `from | over`: both must hold pegs.
    pub(super) need: u64,
    /// The landing hole: must be empty.
    pub(super) to: u64,
    /// `from | over | to`.
    pub(super) flip: u64,
}

/// A board's holes, jumps and a group of its symmetries.
pub struct PegGeometry {
    pub(super) holes: usize,
    pub(super) full: u64,
    pub(super) jumps: Vec<Jump>,
    /// For every symmetry but the identity: the image of each byte of a
    /// position, byte by byte (8 lookups map a whole position).
    pub(super) maps: Vec<Box<[[u64; 256]; 8]>>,
    /// `jump_images[j * maps.len() + g]`: the image of jump `j`'s three holes
    /// under map `g`.  A child's images are its parent's images with these
    /// flipped, so a child is canonicalised with one xor per symmetry.
    jump_images: Vec<u64>,
}

impl PegGeometry {
    /// `jumps` are `(from, over, to)` hole indices; `symmetries` are
    /// permutations (`perm[hole]` is the image) that must map jumps to jumps.
    pub fn new(
        holes: usize,
        jumps: &[(usize, usize, usize)],
        symmetries: &[Vec<usize>],
    ) -> Result<PegGeometry, InputError> {
        if holes == 0 || holes > MAX_HOLES {
            return Err(InputError(format!(
                "a board needs 1 to {MAX_HOLES} holes (positions are stored in 64 bits), got {holes}"
            )));
        }
        let mut seen = HashSet::new();
        for &(a, b, c) in jumps {
            if a >= holes || b >= holes || c >= holes || a == b || b == c || a == c {
                return Err(InputError(format!(
                    "jump ({a}, {b}, {c}) needs three different holes below {holes}"
                )));
            }
            seen.insert((a, b, c));
        }
        let is_perm = |perm: &Vec<usize>| {
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            perm.len() == holes && sorted.iter().enumerate().all(|(i, &p)| i == p)
        };
        let group: HashSet<&Vec<usize>> = symmetries.iter().collect();
        for a in symmetries.iter().filter(|p| is_perm(p)) {
            for b in symmetries.iter().filter(|p| is_perm(p)) {
                let ab: Vec<usize> = (0..holes).map(|i| a[b[i]]).collect();
                if !group.contains(&ab) {
                    return Err(InputError(
                        "the symmetries must form a group (closed under composition)".to_string(),
                    ));
                }
            }
        }
        let mut maps = Vec::new();
        for perm in symmetries {
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            if perm.len() != holes || sorted.iter().enumerate().any(|(i, &p)| i != p) {
                return Err(InputError(format!(
                    "a symmetry must be a permutation of the {holes} holes"
                )));
            }
            if jumps
                .iter()
                .any(|&(a, b, c)| !seen.contains(&(perm[a], perm[b], perm[c])))
            {
                return Err(InputError(
                    "a symmetry must map every jump to a jump".to_string(),
                ));
            }
            if perm.iter().enumerate().all(|(i, &p)| i == p) {
                continue; // the identity
            }
            let mut table = Box::new([[0u64; 256]; 8]);
            for (byte, row) in table.iter_mut().enumerate() {
                for (value, image) in row.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let hole = byte * 8 + bit;
                        if value >> bit & 1 == 1 && hole < holes {
                            *image |= 1 << perm[hole];
                        }
                    }
                }
            }
            maps.push(table);
        }
        if maps.len() > 15 {
            return Err(InputError(format!(
                "at most 16 symmetries are supported, got {}",
                maps.len() + 1
            )));
        }
        let jump_images = jumps
            .iter()
            .flat_map(|&(a, b, c)| {
                let flip = 1u64 << a | 1 << b | 1 << c;
                maps.iter()
                    .map(move |map| Self::image(map, flip))
                    .collect::<Vec<_>>()
            })
            .collect();
        Ok(PegGeometry {
            holes,
            jump_images,
            full: if holes == 64 {
                u64::MAX
            } else {
                (1 << holes) - 1
            },
            jumps: jumps
                .iter()
                .map(|&(a, b, c)| Jump {
                    need: 1 << a | 1 << b,
                    to: 1 << c,
                    flip: 1 << a | 1 << b | 1 << c,
                })
                .collect(),
            maps,
        })
    }

    pub fn holes(&self) -> usize {
        self.holes
    }

    #[inline]
    pub(super) fn image(map: &[[u64; 256]; 8], position: u64) -> u64 {
        let mut out = 0;
        for (byte, table) in map.iter().enumerate() {
            out |= table[(position >> (8 * byte)) as usize & 0xff];
        }
        out
    }

    /// The least image of `position` under the group.
    #[inline]
    pub fn canonical(&self, position: u64) -> u64 {
        self.maps
            .iter()
            .map(|map| Self::image(map, position))
            .fold(position, u64::min)
    }

    /// Whether no jump is legal in `position`: a game that reaches it ends there.
    #[inline]
    pub(super) fn is_stuck(&self, position: u64) -> bool {
        !(self.jumps.iter())
            .any(|jump| ((position & jump.need) ^ jump.need) | (position & jump.to) == 0)
    }

    /// Call `f` with the canonical form of every position one jump away.
    #[inline]
    pub(super) fn for_each_child(&self, position: u64, f: impl FnMut(u64)) {
        self.for_each_jump_image(position, position, f);
    }

    /// For every jump legal in `position`: the canonical form of `base` with
    /// the jump's three holes flipped.  (`base` is `position` for its
    /// children, its complement for the complements of its children.)
    #[inline]
    pub(super) fn for_each_jump_image(&self, position: u64, base: u64, mut f: impl FnMut(u64)) {
        let m = self.maps.len();
        let mut images = [0u64; 16];
        for (image, map) in images.iter_mut().zip(&self.maps) {
            *image = Self::image(map, base);
        }
        // Which jumps are legal, without a branch per jump (a mispredicted
        // branch per jump cost more than the rest of the expansion).
        for (word, jumps) in self.jumps.chunks(64).enumerate() {
            let mut legal = 0u64;
            for (bit, jump) in jumps.iter().enumerate() {
                let blocked = (position & jump.need) ^ jump.need | position & jump.to;
                legal |= ((blocked == 0) as u64) << bit;
            }
            while legal != 0 {
                let j = word * 64 + legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let flips = &self.jump_images[j * m..j * m + m];
                let mut least = base ^ self.jumps[j].flip;
                for (image, flip) in images[..m].iter().zip(flips) {
                    least = least.min(image ^ flip);
                }
                f(least);
            }
        }
    }

    /// The owner of the orbit with least image `key` among `parts` (see
    /// [`owner_of`]).  A search from the finish keeps the complements of
    /// the positions it stands for (see the module notes), so with
    /// `complement` the owner is that of `canonical(!key)`: a position then
    /// has the same owner in both searches, and meeting them is local to
    /// each owner.
    pub fn owner(&self, key: u64, parts: usize, complement: bool) -> usize {
        if parts <= 1 {
            return 0;
        }
        let key = if complement {
            self.canonical(!key & self.full)
        } else {
            key
        };
        owner_of(key, parts)
    }

    /// An error unless every position of `layer` lies on this board and
    /// has the layer's number of pegs (a layer from bytes may come from
    /// another board).
    pub fn check(&self, layer: &Layer) -> Result<(), InputError> {
        match (layer.keys.iter()).find(|&&key| key & !self.full != 0 || key.count_ones() != layer.pegs) {
            None => Ok(()),
            Some(key) => Err(InputError(format!(
                "position {key:#x} of the layer is not a position of {} pegs on this board of {} holes",
                layer.pegs, self.holes
            ))),
        }
    }

    /// The number of distinct images of `position`.
    pub(super) fn orbit_size(&self, position: u64) -> u64 {
        // |orbit| = |group| / |stabiliser| (the maps and the identity form a group).
        let fixed = self
            .maps
            .iter()
            .filter(|map| Self::image(map, position) == position)
            .count();
        ((self.maps.len() + 1) / (fixed + 1)) as u64
    }

    /// The position with a peg in every hole but `empty`.
    pub fn position_with_empty(&self, empty: &[usize]) -> Result<u64, InputError> {
        let mut position = self.full;
        for &hole in empty {
            if hole >= self.holes {
                return Err(InputError(format!(
                    "hole {hole} is not on a board of {} holes",
                    self.holes
                )));
            }
            position &= !(1 << hole);
        }
        Ok(position)
    }

    /// The position with a peg in every hole but `empty`, as a one-orbit layer.
    pub fn start(&self, empty: &[usize]) -> Result<Layer, InputError> {
        let position = self.position_with_empty(empty)?;
        Ok(Layer {
            pegs: position.count_ones(),
            keys: vec![self.canonical(position)],
            counts: vec![1],
            parents: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{grown, rectangle, IDENTITY};
    use super::*;

    #[test]
    fn bad_geometry_is_refused() {
        assert!(PegGeometry::new(65, &[], &[]).is_err());
        assert!(PegGeometry::new(3, &[(0, 1, 3)], &[]).is_err());
        assert!(PegGeometry::new(3, &[(0, 1, 2)], &[vec![2, 1, 0]]).is_err());
    }

    #[test]
    fn the_owner_hash_is_the_documented_one() {
        // splitmix64's finalizer: fixed values, the same on every machine.
        assert_eq!(owner_of(0, 7), 0);
        assert_eq!(owner_of(1, 1 << 40), 0x5692161d100b05e5 % (1 << 40));
        assert_eq!(
            owner_of(0x1234_5678, 1000),
            0x99a5_8465_0fae_6a61_u64 as usize % 1000
        );
        for key in [3u64, 0xffff, u64::MAX] {
            assert_eq!(owner_of(key, 1), 0);
        }
    }

    #[test]
    fn layers_of_another_board_are_caught() {
        let small = rectangle(3, 3, IDENTITY);
        let big = rectangle(3, 4, IDENTITY);
        let layer = grown(&big, 0, 2);
        assert!(big.check(&layer).is_ok());
        assert!(small.check(&layer).is_err());
        let wrong_pegs = Layer {
            pegs: layer.pegs + 1,
            ..layer
        };
        assert!(big.check(&wrong_pegs).is_err());
    }
}
