//! Peg solitaire: the kernel of the layer-by-layer board DP.
//!
//! A position is a `u64` with one bit per hole (set: a peg).  A jump is
//! `from` over `over` into the empty `to`; it needs pegs on `from` and `over`
//! and flips all three bits.  Every jump removes one peg, so the positions
//! after `k` jumps form a layer, and the number of jump sequences reaching a
//! position is the sum over its parents in the previous layer.  The Python
//! layer (`python/solvers/peg.py`) drives the layers; [`expand`] computes one
//! layer from the previous with rayon, [`meet`] joins two searches.
//!
//! **Symmetry.**  Positions are stored once per orbit of a group of board
//! symmetries (those fixing the start, and the finish if there is one), as
//! the least image.  The value stored for an orbit is the number of
//! sequences reaching *any* of its positions; expanding the representative
//! and adding its value to each child's orbit gives exactly those totals.
//!
//! **Meeting in the middle.**  Reversing a jump is a jump on the complemented
//! board, so the sequences from position `p` to a single peg at `f` are the
//! sequences from "every hole full but `f`" to the complement of `p`.  Two
//! forward searches, from the start and from the finish, meet at a middle
//! layer, and only positions both can reach contribute.
//!
//! **Splitting across tasks.**  For a run spread over processes or machines
//! (`python/solvers/_peg_dist.py`) a layer is split into parts by a fixed
//! hash of each key ([`owner_of`]): [`expand_split`] expands one part and
//! splits its children by owner, [`merge`] sums the pieces that several
//! tasks sent to one owner, and [`Layer::to_bytes`] / [`Layer::from_bytes`]
//! carry layers between processes.  A search from the finish splits its
//! keys by the owner of the position they stand for (the complement), so
//! two searches meet owner by owner.  Expanding and merging share one
//! routine that sums `(position, count)` pairs into sharded tables.

use crate::engine::{with_pool, Control};
use crate::error::{CountError, InputError, SearchError};
use crate::memory::{advise_huge, bytes_of, prefetch, try_with_capacity, try_zeroed};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

pub mod stream;

/// Positions live in 64 bits.
pub const MAX_HOLES: usize = 64;

#[derive(Debug, Clone, Copy)]
struct Jump {
    /// `from | over`: both must hold pegs.
    need: u64,
    /// The landing hole: must be empty.
    to: u64,
    /// `from | over | to`.
    flip: u64,
}

/// A board's holes, jumps and a group of its symmetries.
pub struct PegGeometry {
    holes: usize,
    full: u64,
    jumps: Vec<Jump>,
    /// For every symmetry but the identity: the image of each byte of a
    /// position, byte by byte (8 lookups map a whole position).
    maps: Vec<Box<[[u64; 256]; 8]>>,
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
    fn image(map: &[[u64; 256]; 8], position: u64) -> u64 {
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

    /// Call `f` with the canonical form of every position one jump away.
    #[inline]
    fn for_each_child(&self, position: u64, f: impl FnMut(u64)) {
        self.for_each_jump_image(position, position, f);
    }

    /// For every jump legal in `position`: the canonical form of `base` with
    /// the jump's three holes flipped.  (`base` is `position` for its
    /// children, its complement for the complements of its children.)
    #[inline]
    fn for_each_jump_image(&self, position: u64, base: u64, mut f: impl FnMut(u64)) {
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
    fn orbit_size(&self, position: u64) -> u64 {
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

/// Children are sorted into this many shards by hash, merged one shard per task.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;
/// Parents per task (and between two looks at the cancel flag).
const CHUNK: usize = 2048;

/// What the summing tables are, in a memory error.
const TABLES: &str = "the peg layer tables";

/// Bytes between two writes of [`touch_pages`]: the smallest page size.
const PAGE: usize = 4096;

/// A zeroed table of `n` slots for `what`, advised onto huge pages.  Its
/// pages come lazily mapped from the allocator (calloc-style) and are
/// touched here, page by page in order: first touches in random order, by
/// hash, made building an index 3x slower.  `parallel` touches them with
/// rayon (in the current pool); it must be `false` wherever a lock is held,
/// see [`ShardTable::grow`].
///
/// What the huge pages bring, measured with `benches/peg_bench.py`-style
/// runs with and without them (`PR_SET_THP_DISABLE`), 2 threads on a shared
/// 2-core machine: 10 to 20% less CPU time (the English board centre to
/// centre 4.6 s against 5.6 s, (2,4) to (2,4) 29 s against 37 s, medians),
/// most of it kernel time in page faults (a third less) and the rest fewer
/// TLB misses; and up to 14% more resident memory (2 MiB pages only partly
/// used).  Wall times moved the same way but within the noise of that machine.
fn zeroed_slots(n: usize, what: &str, parallel: bool) -> Result<Vec<[u64; 2]>, SearchError> {
    let mut slots = try_zeroed::<[u64; 2]>(n, what)?;
    advise_huge(&slots);
    if parallel {
        slots.par_chunks_mut(1 << 16).for_each(touch_pages);
    } else {
        touch_pages(&mut slots);
    }
    Ok(slots)
}

/// Map every page of `slots` (already zero) by writing a zero into it.
/// The writes are volatile: the compiler knows the memory is zero and would
/// drop plain ones.
fn touch_pages(slots: &mut [[u64; 2]]) {
    for slot in slots
        .iter_mut()
        .step_by(PAGE / std::mem::size_of::<[u64; 2]>())
    {
        // SAFETY: `slot` is a valid, exclusive reference into the table.
        unsafe { std::ptr::write_volatile(slot, [0; 2]) };
    }
}

#[inline]
fn mix(key: u64) -> u64 {
    (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The owner of a position among `parts` when a layer is split across
/// tasks (or machines): a fixed hash of its canonical key, the same in every
/// process and on every machine (never a randomly seeded hasher), and
/// unrelated to [`mix`], which places keys in the tables.  The hash is the
/// finalizer of splitmix64, in arithmetic modulo 2^64:
///
/// ```text
/// z = key
/// z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
/// z = (z ^ (z >> 27)) * 0x94d049bb133111eb
/// z = z ^ (z >> 31)
/// owner = z % parts
/// ```
pub fn owner_of(key: u64, parts: usize) -> usize {
    let mut z = key;
    z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % parts.max(1) as u64) as usize
}

/// At most this many parts when splitting a layer.
pub const MAX_PARTS: usize = 1 << 16;

/// How an accumulating pass turns one input position into the positions
/// that receive its count.
trait Feed: Sync {
    fn feed(&self, position: u64, emit: impl FnMut(u64));
}

/// Expanding: every child of the position, canonical.
struct Children<'a>(&'a PegGeometry);

impl Feed for Children<'_> {
    #[inline]
    fn feed(&self, position: u64, emit: impl FnMut(u64)) {
        self.0.for_each_child(position, emit);
    }
}

/// Merging: the position itself.
struct Same;

impl Feed for Same {
    #[inline]
    fn feed(&self, position: u64, mut emit: impl FnMut(u64)) {
        emit(position);
    }
}

/// The next layer: every jump from every position of `layer`.
pub fn expand(
    geometry: &PegGeometry,
    layer: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<Layer, SearchError> {
    let mut parts = expand_split(geometry, layer, 1, false, threads, ctl)?;
    Ok(parts.pop().unwrap_or_default())
}

/// The next layer split into `parts` layers by owner ([`PegGeometry::owner`],
/// with `complement` for a search from the finish): the children of `layer`
/// are summed once and drained straight into the parts, never into one
/// whole layer first.
pub fn expand_split(
    geometry: &PegGeometry,
    layer: &Layer,
    parts: usize,
    complement: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    let parts = parts.clamp(1, MAX_PARTS);
    with_pool(threads, || {
        let expected = expected_children(layer) / SHARDS;
        let tables = accumulate(chunks_of(&[layer])?, expected, &Children(geometry), ctl)?;
        let pegs = layer.pegs.saturating_sub(1);
        drain(
            tables,
            (pegs, layer.len()),
            parts,
            |key| geometry.owner(key, parts, complement),
            &format!("the next layer of {pegs} pegs"),
            ctl,
        )
    })?
}

/// One layer from `pieces` of the same layer (what several tasks sent to
/// one owner): a position found in several pieces gets the (checked) sum of
/// its counts.  The pieces must all have the same number of pegs.
pub fn merge(pieces: &[&Layer], threads: usize, ctl: &Control) -> Result<Layer, SearchError> {
    let pegs = pieces.first().map_or(0, |piece| piece.pegs);
    debug_assert!(pieces.iter().all(|piece| piece.pegs == pegs));
    // The merged layer is at least as big as the largest piece and at most
    // as big as all of them (tables grow if this guess is low).
    let total: usize = pieces.iter().map(|piece| piece.len()).sum();
    let largest = pieces.iter().map(|piece| piece.len()).max().unwrap_or(0);
    let expected = largest.max(total / 2) / SHARDS;
    let parents = pieces.iter().map(|piece| piece.parents).max().unwrap_or(0);
    with_pool(threads, || {
        let tables = accumulate(chunks_of(pieces)?, expected, &Same, ctl)?;
        let what = format!("the merged layer of {pegs} pegs");
        let mut merged = drain(tables, (pegs, parents), 1, |_| 0, &what, ctl)?;
        Ok(merged.pop().unwrap_or_default())
    })?
}

/// `layer` split into `parts` layers by owner ([`PegGeometry::owner`]), the
/// positions and their counts unchanged.
pub fn split(
    geometry: &PegGeometry,
    layer: &Layer,
    parts: usize,
    complement: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    let parts = parts.clamp(1, MAX_PARTS);
    let what = format!("the parts of the layer of {} pegs", layer.pegs);
    with_pool(threads, || {
        let mut owners = try_zeroed::<u32>(layer.len(), &what)?;
        (owners.par_chunks_mut(CHUNK))
            .zip(layer.keys.par_chunks(CHUNK))
            .try_for_each(|(owners, keys)| {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                for (owner, &key) in owners.iter_mut().zip(keys) {
                    *owner = geometry.owner(key, parts, complement) as u32;
                }
                Ok(())
            })?;
        let mut sizes = try_zeroed::<usize>(parts, &what)?;
        for &owner in &owners {
            sizes[owner as usize] += 1;
        }
        let mut out: Vec<Layer> = try_with_capacity(parts, &what)?;
        for &size in &sizes {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            out.push(Layer {
                pegs: layer.pegs,
                keys: try_with_capacity(size, &what)?,
                counts: try_with_capacity(size, &what)?,
                parents: layer.parents,
            });
        }
        for ((&key, &count), &owner) in (layer.keys.iter()).zip(&layer.counts).zip(&owners) {
            let part = &mut out[owner as usize];
            part.keys.push(key);
            part.counts.push(count);
        }
        Ok(out)
    })?
}

/// The entries of `layers`, in chunks of [`CHUNK`].
fn chunks_of<'a>(layers: &[&'a Layer]) -> Result<Vec<Chunk<'a>>, SearchError> {
    let n = layers.iter().map(|layer| layer.len().div_ceil(CHUNK)).sum();
    let mut chunks = try_with_capacity(n, "the list of a layer's chunks")?;
    chunks.extend(
        (layers.iter()).flat_map(|layer| layer.keys.chunks(CHUNK).zip(layer.counts.chunks(CHUNK))),
    );
    Ok(chunks)
}

/// Up to [`CHUNK`] positions of a layer and their counts.
type Chunk<'a> = (&'a [u64], &'a [u128]);

/// Sum per position the counts that `feed` sends from every entry of
/// `chunks` (an entry's count goes to each position it emits), in
/// parallel, into SHARDS tables.  Runs inside a pool.
fn accumulate(
    chunks: Vec<Chunk<'_>>,
    expected: usize,
    feed: &impl Feed,
    ctl: &Control,
) -> Result<Vec<ShardTable>, SearchError> {
    // Positions go to one of SHARDS tables by the top bits of their hash,
    // through small per-task buffers, so a lock is taken once per batch.
    // Every phase looks at the cancel flag at least once per shard or chunk:
    // allocating and draining the tables of a wide layer take about a second.
    let tables: Vec<Mutex<ShardTable>> = (0..SHARDS)
        .map(|_| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            // A memory error names all the tables, not the one that failed.
            let slots = ShardTable::slots_for(expected).unwrap_or(usize::MAX);
            let all = bytes_of::<[u64; 2]>(slots).saturating_mul(SHARDS as u64);
            let table = ShardTable::with_capacity(expected).map_err(|e| needing(e, all))?;
            Ok(Mutex::new(table))
        })
        .collect::<Result<_, _>>()?;
    let flush = |shard: usize, batch: &mut Vec<(u64, u128)>| -> Result<(), SearchError> {
        let mut table = tables[shard].lock().unwrap_or_else(|e| e.into_inner());
        let added = table.add_all(batch);
        batch.clear();
        added
    };
    chunks.into_par_iter().try_for_each(|(keys, counts)| {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let mut batches: Vec<Vec<(u64, u128)>> =
            (0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect();
        let mut result = Ok(());
        for (&position, &count) in keys.iter().zip(counts) {
            feed.feed(position, |child| {
                let shard = (mix(child) >> (64 - SHARD_BITS)) as usize;
                let batch = &mut batches[shard];
                batch.push((child, count));
                if batch.len() == BATCH && result.is_ok() {
                    result = flush(shard, batch);
                }
            });
        }
        for (shard, batch) in batches.iter_mut().enumerate() {
            if result.is_ok() {
                result = flush(shard, batch);
            }
        }
        result
    })?;
    Ok((tables.into_iter())
        .map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect())
}

/// Move the entries of `tables` into `parts` layers of `pegs` pegs (`what`
/// they are, in a memory error; `parents` their size hint), each position
/// into layer `owner(position)`.  Every table drains straight into its own
/// stretch of each part, in parallel (the pages of a fresh zeroed vector are
/// only mapped when touched).  Runs inside a pool.
fn drain(
    tables: Vec<ShardTable>,
    (pegs, parents): (u32, usize),
    parts: usize,
    owner: impl Fn(u64) -> usize + Sync,
    what: &str,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    // The part of each entry, table by table in slot order (one part: none).
    let owners: Vec<Vec<u32>> = (tables.par_iter())
        .map(|table| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if parts == 1 {
                return Ok(Vec::new());
            }
            let mut owners = try_with_capacity(table.used, what)?;
            owners.extend(table.keys().map(|key| owner(key) as u32));
            Ok(owners)
        })
        .collect::<Result<_, _>>()?;
    // sizes[table][part]
    let mut sizes: Vec<Vec<usize>> = Vec::with_capacity(tables.len());
    for (table, owners) in tables.iter().zip(&owners) {
        let mut sizes_here = try_zeroed::<usize>(parts, what)?;
        if parts == 1 {
            sizes_here[0] = table.used;
        } else {
            for &part in owners {
                sizes_here[part as usize] += 1;
            }
        }
        sizes.push(sizes_here);
    }
    let mut out: Vec<Layer> = try_with_capacity(parts, what)?;
    for part in 0..parts {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let size = sizes.iter().map(|sizes| sizes[part]).sum();
        // A memory error names the bytes of the positions and the counts.
        let whole = |e| needing(e, bytes_of::<(u64, [u64; 2])>(size));
        let layer = Layer {
            pegs,
            keys: try_zeroed(size, what).map_err(whole)?,
            counts: try_zeroed(size, what).map_err(whole)?,
            parents,
        };
        advise_huge(&layer.keys);
        advise_huge(&layer.counts);
        out.push(layer);
    }
    let mut targets: Vec<Vec<Target>> = Vec::with_capacity(tables.len());
    for _ in 0..tables.len() {
        targets.push(try_with_capacity(parts, what)?);
    }
    for (part, layer) in out.iter_mut().enumerate() {
        let (mut keys, mut counts) = (&mut layer.keys[..], &mut layer.counts[..]);
        for (sizes, targets) in sizes.iter().zip(&mut targets) {
            let (k, rest_k) = std::mem::take(&mut keys).split_at_mut(sizes[part]);
            let (c, rest_c) = std::mem::take(&mut counts).split_at_mut(sizes[part]);
            (keys, counts) = (rest_k, rest_c);
            targets.push((k, c));
        }
    }
    (tables.into_par_iter())
        .zip(targets)
        .zip(owners)
        .try_for_each(|((table, mut targets), owners)| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            table.drain_into(&mut targets, &owners, what)
        })?;
    Ok(out)
}

/// `e` with `bytes` as what it needed, if it is a memory error: the whole
/// of what was being built, rather than the one piece that failed.
fn needing(e: SearchError, bytes: u64) -> SearchError {
    match e {
        SearchError::Memory { what, .. } => SearchError::Memory { what, bytes },
        e => e,
    }
}

/// Where a table drains its entries for one part: keys and counts.
type Target<'a> = (&'a mut [u64], &'a mut [u128]);

/// About how many distinct children `layer` has: its size times the growth
/// of the step before (layers grow and then shrink smoothly), or twice its
/// size for a first step.  Tables grow when this is too low; too high costs
/// the time to clear and scan the unused slots.
fn expected_children(layer: &Layer) -> usize {
    let n = layer.len();
    if layer.parents == 0 {
        return (2 * n).max(64 * SHARDS);
    }
    let growth = (n as f64 / layer.parents as f64).clamp(0.25, 8.0);
    ((n as f64 * growth * 1.1) as usize).max(64 * SHARDS)
}

/// Positions whose probes are prefetched together when meeting.
const PROBE_BLOCK: usize = 8;

/// Children buffered per shard before taking its lock.
const BATCH: usize = 32;

/// An open-addressing table summing counts per position (0 marks a free
/// slot: a position always has a peg).  A slot is `[key, count]`, 16 bytes,
/// four to a cache line; a count that outgrows 64 bits (rare: mid-game
/// counts are small) is marked `WIDE` and summed in `wide` instead.
struct ShardTable {
    slots: Vec<[u64; 2]>,
    used: usize,
    wide: HashMap<u64, u128>,
}

/// Where `key` starts probing in a table of `mask + 1` slots: bits below
/// the shard bits of its hash, so positions spread within a shard.
#[inline]
fn home_slot(key: u64, mask: usize) -> usize {
    (mix(key) >> 16) as usize & mask
}

/// Put `entry`, whose key is not in `slots` yet, in the first free slot
/// from its home (linear probing; the table is never full).
fn put_new(slots: &mut [[u64; 2]], entry: [u64; 2]) {
    let mask = slots.len() - 1;
    let mut slot = home_slot(entry[0], mask);
    while slots[slot][0] != 0 {
        slot = (slot + 1) & mask;
    }
    slots[slot] = entry;
}

/// The count of a slot whose true count lives in the `wide` map.
const WIDE: u64 = u64::MAX;

/// What the `wide` maps are, in a memory error.
const WIDE_COUNTS: &str = "the peg counts past 64 bits";

/// `n` as a slot's count, or `None` if it must live in the `wide` map.
#[inline]
fn narrow(n: u128) -> Option<u64> {
    u64::try_from(n).ok().filter(|&n| n != WIDE)
}

impl ShardTable {
    /// A table for about `n` entries.  Runs in the pool, outside any lock:
    /// its pages are touched in parallel.
    fn with_capacity(n: usize) -> Result<ShardTable, SearchError> {
        let size = Self::slots_for(n).ok_or_else(|| {
            SearchError::memory(TABLES, bytes_of::<[u64; 2]>(n).saturating_mul(2))
        })?;
        Ok(ShardTable {
            slots: zeroed_slots(size, TABLES, true)?,
            used: 0,
            wide: HashMap::new(),
        })
    }

    /// The slots of a table for `n` entries: at most half full.
    fn slots_for(n: usize) -> Option<usize> {
        let size = n.checked_mul(2)?.checked_next_power_of_two()?;
        Some(size.max(16))
    }

    /// Add a batch of `(position, count)`, prefetching its slots first.
    /// Called under the shard's lock: nothing here may run rayon work.
    fn add_all(&mut self, batch: &[(u64, u128)]) -> Result<(), SearchError> {
        if 10 * (self.used + batch.len()) > 7 * self.slots.len() {
            self.grow()?;
        }
        let mask = self.slots.len() - 1;
        for &(key, _) in batch {
            prefetch(&self.slots[home_slot(key, mask)]);
        }
        for &(key, count) in batch {
            let mut slot = home_slot(key, mask);
            loop {
                let [k, n] = self.slots[slot];
                if k == key || k == 0 {
                    let sum = match (k == 0, n) {
                        (true, _) => Some(count),
                        (false, WIDE) => self.wide[&key].checked_add(count),
                        (false, n) => (n as u128).checked_add(count),
                    }
                    .ok_or(SearchError::Overflow)?;
                    let narrow = narrow(sum);
                    if narrow.is_none() {
                        self.wide.try_reserve(1).map_err(|_| {
                            SearchError::memory(
                                WIDE_COUNTS,
                                bytes_of::<(u64, u128)>(self.wide.len() + 1),
                            )
                        })?;
                        self.wide.insert(key, sum);
                    }
                    self.used += (k == 0) as usize;
                    self.slots[slot] = [key, narrow.unwrap_or(WIDE)];
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        Ok(())
    }

    /// Double the table.  This runs under the shard's lock (inside `flush`),
    /// so it must not run rayon work: a worker waiting here for a nested
    /// parallel job may steal another chunk of the expansion whose flush
    /// needs this same lock, and then waits on itself (rayon's deadlock
    /// pattern).  So the new table is touched sequentially; only tables made
    /// outside any lock ([`ShardTable::with_capacity`], the index) are
    /// touched in parallel.
    fn grow(&mut self) -> Result<(), SearchError> {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, zeroed_slots(size, TABLES, false)?);
        for entry in old {
            if entry[0] != 0 {
                put_new(&mut self.slots, entry);
            }
        }
        Ok(())
    }

    /// The keys of the filled slots, in slot order.
    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots
            .iter()
            .map(|slot| slot[0])
            .filter(|&key| key != 0)
    }

    /// Move the entries into `targets`: the `i`th filled slot into
    /// `targets[owners[i]]`, or all into `targets[0]` when `owners` is empty.
    /// Each target is exactly as long as what it receives.
    fn drain_into(
        self,
        targets: &mut [Target<'_>],
        owners: &[u32],
        what: &str,
    ) -> Result<(), SearchError> {
        let filled = self.slots.iter().filter(|slot| slot[0] != 0);
        if owners.is_empty() {
            let (keys, counts) = &mut targets[0];
            for ((key, count), &[k, n]) in keys.iter_mut().zip(counts.iter_mut()).zip(filled) {
                *key = k;
                *count = if n == WIDE { self.wide[&k] } else { n as u128 };
            }
            return Ok(());
        }
        let mut next = try_zeroed::<usize>(targets.len(), what)?;
        for (&[k, n], &part) in filled.zip(owners) {
            let part = part as usize;
            let (keys, counts) = &mut targets[part];
            keys[next[part]] = k;
            counts[next[part]] = if n == WIDE { self.wide[&k] } else { n as u128 };
            next[part] += 1;
        }
        Ok(())
    }
}

/// The number of sequences through the middle: `from_start` holds the
/// layers reached from the start, `from_finish` those reached from the
/// complement of the finish, with complementary peg counts.  Both must use
/// this geometry's group.
pub fn meet(
    geometry: &PegGeometry,
    from_start: &Layer,
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    meet_pieces(geometry, &[from_start], from_finish, threads, ctl)
}

/// [`meet`] with `from_start` given as pieces of one layer, not merged: a
/// position found in several pieces counts with the sum of its counts, as
/// it would after merging (the join is linear in this side).  Either search
/// may play either part (the join is symmetric), but only `from_finish`
/// must hold each position once, with its full count.
pub fn meet_pieces(
    geometry: &PegGeometry,
    from_start: &[&Layer],
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    with_pool(threads, || {
        let index = KeyIndex::new(geometry, from_finish, ctl)?;
        sum_by_chunks(chunks_of(from_start)?, ctl, |keys, counts| {
            let mut sum = 0u128;
            for (&position, &count) in keys.iter().zip(counts) {
                let other = geometry.canonical(!position & geometry.full);
                // count (the orbit's) times the sequences from one complement.
                let term = count.checked_mul(index.get(other));
                sum = term
                    .and_then(|t| sum.checked_add(t))
                    .ok_or(SearchError::Overflow)?;
            }
            Ok(sum)
        })
    })?
}

/// The checked sum of `per_chunk` over `chunks`, in parallel
/// (inside a pool), watching the cancel flag between chunks.
fn sum_by_chunks(
    chunks: Vec<Chunk<'_>>,
    ctl: &Control,
    per_chunk: impl Fn(&[u64], &[u128]) -> Result<u128, SearchError> + Sync,
) -> Result<u128, SearchError> {
    chunks
        .into_par_iter()
        .map(|(keys, counts)| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            per_chunk(keys, counts)
        })
        .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(SearchError::Overflow))
}

/// A hash index of a layer: position -> sequences reaching that one
/// position (its orbit's count divided by the orbit's size).  Slots as in
/// [`ShardTable`]: `[key, count]`, a count past 64 bits marked `WIDE` and
/// kept in `wide`.  Key 0 marks a free slot: a position always has a peg.
struct KeyIndex {
    /// `SHARDS` regions of `1 << bits` slots, a position in the region given
    /// by the top bits of its hash (so the regions are built in parallel).
    slots: Vec<[u64; 2]>,
    bits: u32,
    wide: HashMap<u64, u128>,
}

/// What the index is, in a memory error.
const INDEX: &str = "the meeting index";

impl KeyIndex {
    /// Runs inside the pool, and looks at the cancel flag between phases
    /// (building the index of a wide layer takes about a second).
    fn new(geometry: &PegGeometry, layer: &Layer, ctl: &Control) -> Result<KeyIndex, SearchError> {
        let cancelled = || match ctl.is_cancelled() {
            true => Err(SearchError::Cancelled),
            false => Ok(()),
        };
        let mut entries: Vec<(u64, u128)> = try_with_capacity(layer.len(), INDEX)?;
        // Into the room just reserved: an indexed parallel extend writes in
        // place and never reallocates.
        entries.par_extend(
            (layer.keys.par_iter())
                .zip(&layer.counts)
                .map(|(&key, &count)| (key, count / geometry.orbit_size(key) as u128)),
        );
        cancelled()?;
        entries.par_sort_unstable_by_key(|&(key, _)| mix(key) >> (64 - SHARD_BITS));
        cancelled()?;
        let mut starts = vec![0; SHARDS + 1];
        for (region, start) in starts.iter_mut().enumerate().skip(1) {
            *start = entries
                .partition_point(|&(k, _)| ((mix(k) >> (64 - SHARD_BITS)) as usize) < region);
        }
        starts[SHARDS] = entries.len();
        // Every region at most half full, however unevenly the hash spreads.
        let fullest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let per_region = (2 * fullest).next_power_of_two().max(16);
        let bits = per_region.trailing_zeros();
        let slots_needed = per_region
            .checked_mul(SHARDS)
            .ok_or_else(|| SearchError::memory(INDEX, u64::MAX))?;
        let mut slots = zeroed_slots(slots_needed, INDEX, true)?;
        cancelled()?;
        slots
            .par_chunks_mut(per_region)
            .enumerate()
            .try_for_each(|(region, area)| {
                cancelled()?;
                for &(key, n) in &entries[starts[region]..starts[region + 1]] {
                    let n = narrow(n);
                    put_new(area, [key, n.unwrap_or(WIDE)]);
                }
                Ok(())
            })?;
        let wide_entries = entries.iter().filter(|&&(_, n)| narrow(n).is_none());
        let mut wide = HashMap::new();
        let count = wide_entries.clone().count();
        wide.try_reserve(count)
            .map_err(|_| SearchError::memory(WIDE_COUNTS, bytes_of::<(u64, u128)>(count)))?;
        wide.extend(wide_entries.copied());
        Ok(KeyIndex { slots, bits, wide })
    }

    #[inline]
    fn region(&self, key: u64) -> &[[u64; 2]] {
        let region = (mix(key) >> (64 - SHARD_BITS)) as usize;
        &self.slots[region << self.bits..(region + 1) << self.bits]
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        let region = self.region(key);
        prefetch(&region[home_slot(key, region.len() - 1)]);
    }

    /// The per-position count of `key`, 0 if absent.
    #[inline]
    fn get(&self, key: u64) -> u128 {
        let region = self.region(key);
        let mask = region.len() - 1;
        let mut slot = home_slot(key, mask);
        loop {
            let [k, n] = region[slot];
            if k == key {
                return if n == WIDE {
                    self.wide[&key]
                } else {
                    n as u128
                };
            }
            if k == 0 {
                return 0;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// Like [`meet`], but across one jump: `from_start` and `from_finish` are
/// one jump apart (their peg counts add up to the holes plus one), and every
/// jump out of a position of `from_start` is joined with the sequences from
/// its complement.  This spares the widest layer, and is symmetric: either
/// side may play `from_start`.
pub fn meet_across(
    geometry: &PegGeometry,
    from_start: &Layer,
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let full = geometry.full;
    with_pool(threads, || {
        let index = KeyIndex::new(geometry, from_finish, ctl)?;
        sum_by_chunks(chunks_of(&[from_start])?, ctl, |keys, counts| {
            let mut sum = 0u128;
            // Probes for a block of positions are prefetched together, so
            // their memory latencies overlap.
            let mut found: Vec<u64> = Vec::new();
            let mut ends: Vec<usize> = Vec::new();
            for (keys, counts) in keys.chunks(PROBE_BLOCK).zip(counts.chunks(PROBE_BLOCK)) {
                found.clear();
                ends.clear();
                for &position in keys {
                    geometry.for_each_jump_image(position, !position & full, |least| {
                        index.prefetch(least);
                        found.push(least);
                    });
                    ends.push(found.len());
                }
                let mut begin = 0;
                for (&count, &end) in counts.iter().zip(&ends) {
                    // Sequences after each jump: sum of per-position counts.
                    let after = found[begin..end]
                        .iter()
                        .try_fold(0u128, |after, &least| after.checked_add(index.get(least)));
                    begin = end;
                    sum = after
                        .and_then(|after| count.checked_mul(after))
                        .and_then(|term| sum.checked_add(term))
                        .ok_or(SearchError::Overflow)?;
                }
            }
            Ok(sum)
        })
    })?
}

/// For a layer of one-peg positions: the number of sequences ending with
/// the peg in each hole (every hole of each orbit gets its share).
pub fn finish_counts(geometry: &PegGeometry, layer: &Layer) -> Vec<(usize, u128)> {
    let mut out = Vec::new();
    for (&key, &count) in layer.keys.iter().zip(&layer.counts) {
        let mut images: Vec<u64> = geometry
            .maps
            .iter()
            .map(|map| PegGeometry::image(map, key))
            .collect();
        images.push(key);
        images.sort_unstable();
        images.dedup();
        let each = count / images.len() as u128;
        for image in images {
            out.push((image.trailing_zeros() as usize, each));
        }
    }
    out.sort_unstable();
    out
}

/// One solution by depth-first search, jumps tried in their listed order:
/// the jump indices from `start` to `finish` (a position; `None`: any
/// single peg), or `None` when there is none: the first solution of
/// [`stream::visit`].  Positions proved dead are remembered by their least
/// image, so the group here should fix the finish (deadness is then
/// symmetric).  Exhaustive, so `None` is certain.
pub fn solve(
    geometry: &PegGeometry,
    start: u64,
    finish: Option<u64>,
    ctl: &Control,
) -> Result<Option<Vec<usize>>, SearchError> {
    let mut first = None;
    stream::visit(geometry, start, finish, usize::MAX, ctl, &mut |path| {
        first = Some(path.to_vec());
        false
    })?;
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `rows x cols` rectangle with orthogonal jumps, and the symmetries
    /// `(flip rows, flip columns)` listed in `kinds`.
    pub(super) fn rectangle(rows: usize, cols: usize, kinds: &[(bool, bool)]) -> PegGeometry {
        let at = |r: usize, c: usize| r * cols + c;
        let mut jumps = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 2 < cols {
                    jumps.push((at(r, c), at(r, c + 1), at(r, c + 2)));
                    jumps.push((at(r, c + 2), at(r, c + 1), at(r, c)));
                }
                if r + 2 < rows {
                    jumps.push((at(r, c), at(r + 1, c), at(r + 2, c)));
                    jumps.push((at(r + 2, c), at(r + 1, c), at(r, c)));
                }
            }
        }
        let mut syms = Vec::new();
        for &(flip_r, flip_c) in kinds {
            let mut perm = vec![0; rows * cols];
            for r in 0..rows {
                for c in 0..cols {
                    let r2 = if flip_r { rows - 1 - r } else { r };
                    let c2 = if flip_c { cols - 1 - c } else { c };
                    perm[at(r, c)] = at(r2, c2);
                }
            }
            syms.push(perm);
        }
        PegGeometry::new(rows * cols, &jumps, &syms).unwrap()
    }

    const IDENTITY: &[(bool, bool)] = &[(false, false)];

    fn forward_to_one_peg(g: &PegGeometry, start: usize) -> Layer {
        let ctl = Control::new();
        let mut layer = g.start(&[start]).unwrap();
        while layer.pegs > 1 && !layer.is_empty() {
            layer = expand(g, &layer, 2, &ctl).unwrap();
        }
        layer
    }

    #[test]
    fn meeting_in_the_middle_agrees_with_going_all_the_way() {
        let ctl = Control::new();
        let mut solvable = 0;
        for (rows, cols) in [(2, 4), (3, 3), (3, 4)] {
            let g = rectangle(rows, cols, IDENTITY);
            let n = rows * cols;
            for start in 0..n {
                let ends = finish_counts(&g, &forward_to_one_peg(&g, start));
                for finish in 0..n {
                    let want = ends
                        .iter()
                        .find(|&&(h, _)| h == finish)
                        .map_or(0, |&(_, c)| c);
                    let mut a = g.start(&[start]).unwrap();
                    let mut b = g.start(&[finish]).unwrap();
                    let mut jumps = 0;
                    while jumps < n - 2 {
                        if jumps == n - 3 {
                            // One jump short: meet across the last jump, from either side.
                            assert_eq!(meet_across(&g, &a, &b, 1, &ctl).unwrap(), want);
                            assert_eq!(meet_across(&g, &b, &a, 2, &ctl).unwrap(), want);
                        }
                        if a.len() <= b.len() {
                            a = expand(&g, &a, 1, &ctl).unwrap();
                        } else {
                            b = expand(&g, &b, 1, &ctl).unwrap();
                        }
                        jumps += 1;
                    }
                    assert_eq!(
                        meet(&g, &a, &b, 1, &ctl).unwrap(),
                        want,
                        "{start}->{finish}"
                    );
                    solvable += (want > 0) as usize;
                }
            }
        }
        assert!(
            solvable > 10,
            "only {solvable} solvable problems: a weak test"
        );
    }

    #[test]
    fn symmetry_does_not_change_counts() {
        // On boards of odd width the left-right mirror fixes the middle column.
        let mut solvable = 0;
        for (rows, cols) in [(3, 3), (4, 3), (3, 5), (4, 5)] {
            let plain = rectangle(rows, cols, IDENTITY);
            let mirrored = rectangle(rows, cols, &[(false, false), (false, true)]);
            for start in (0..rows).map(|r| r * cols + cols / 2) {
                let ends = finish_counts(&plain, &forward_to_one_peg(&plain, start));
                let reduced = finish_counts(&mirrored, &forward_to_one_peg(&mirrored, start));
                assert_eq!(ends, reduced, "{rows}x{cols} start {start}");
                solvable += ends.iter().filter(|&&(_, c)| c > 0).count();
            }
        }
        assert!(solvable > 0, "no solvable start: a weak test");
        // Meeting under a group: 3 x 5 with all four mirrors, start = finish
        // in the middle; elsewhere without symmetry.
        let mirrored = rectangle(
            3,
            5,
            &[(false, false), (false, true), (true, false), (true, true)],
        );
        let plain = rectangle(3, 5, IDENTITY);
        let ctl = Control::new();
        let mut checked = 0;
        for start in [2, 5, 7, 12] {
            let g = if start == 7 { &mirrored } else { &plain };
            let want = finish_counts(g, &forward_to_one_peg(g, start))
                .iter()
                .filter(|&&(h, _)| h == start)
                .map(|&(_, c)| c)
                .sum::<u128>();
            let mut a = g.start(&[start]).unwrap();
            for _ in 0..6 {
                a = expand(g, &a, 2, &ctl).unwrap();
            }
            // 13 jumps in all: 6 + 6 and one across.
            assert_eq!(
                meet_across(g, &a, &a, 2, &ctl).unwrap(),
                want,
                "start {start}"
            );
            checked += (want > 0) as usize;
        }
        assert!(
            checked > 0,
            "no solvable single-vacancy problem: a weak test"
        );
    }

    #[test]
    fn solutions_replay_and_none_is_certain() {
        let g = rectangle(3, 4, IDENTITY);
        let ctl = Control::new();
        let jumps: Vec<_> = g.jumps.clone();
        for start in 0..12 {
            let ends = finish_counts(&g, &forward_to_one_peg(&g, start));
            for finish in 0..12 {
                let count = ends.iter().find(|e| e.0 == finish).map_or(0, |e| e.1);
                let found = solve(&g, g.full & !(1 << start), Some(1 << finish), &ctl).unwrap();
                assert_eq!(found.is_some(), count > 0, "{start}->{finish}");
                if let Some(path) = found {
                    let mut position = g.full & !(1 << start);
                    for j in path {
                        let jump = jumps[j];
                        assert_eq!(position & jump.need, jump.need);
                        assert_eq!(position & jump.to, 0);
                        position ^= jump.flip;
                    }
                    assert_eq!(position, 1 << finish);
                }
            }
        }
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        // A row of five holes: {0, 1} and {3, 4} both jump into {2}.
        let g = rectangle(1, 5, IDENTITY);
        let layer = Layer {
            pegs: 2,
            keys: vec![0b00011, 0b11000],
            counts: vec![u128::MAX, 1],
            parents: 0,
        };
        let ctl = Control::new();
        assert_eq!(
            expand(&g, &layer, 2, &ctl).unwrap_err(),
            SearchError::Overflow
        );
        let fine = Layer {
            counts: vec![u128::MAX - 1, 1],
            ..layer
        };
        let next = expand(&g, &fine, 2, &ctl).unwrap();
        assert_eq!((next.keys, next.counts), (vec![0b00100], vec![u128::MAX]));
    }

    #[test]
    fn counts_past_64_bits_are_kept_exactly() {
        // Sums crossing 2^64 (and landing on the marker value itself) in the
        // tables, and wide counts in the index.
        let g = rectangle(1, 5, IDENTITY);
        let ctl = Control::new();
        for (a, b) in [
            (u64::MAX as u128, 1),
            (u64::MAX as u128 - 1, 1),
            (1 << 70, 5),
        ] {
            let layer = Layer {
                pegs: 2,
                keys: vec![0b00011, 0b11000],
                counts: vec![a, b],
                parents: 0,
            };
            let next = expand(&g, &layer, 2, &ctl).unwrap();
            assert_eq!(next.counts, vec![a + b]);
            let index = KeyIndex::new(&g, &layer, &ctl).unwrap();
            assert_eq!((index.get(0b00011), index.get(0b11000)), (a, b));
            assert_eq!(index.get(0b00100), 0);
        }
    }

    #[test]
    fn every_phase_stops_when_cancelled() {
        let g = rectangle(4, 5, IDENTITY);
        let layer = grown(&g, 7, 4);
        let other = grown(&g, 7, 18 - 4);
        let ctl = Control::new();
        ctl.cancel();
        let cancelled = Err(SearchError::Cancelled);
        assert_eq!(expand(&g, &layer, 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(
            expand_split(&g, &layer, 3, false, 2, &ctl).map(|_| ()),
            cancelled
        );
        assert_eq!(split(&g, &layer, 3, false, 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(merge(&[&layer, &layer], 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(meet(&g, &layer, &other, 2, &ctl).map(|_| ()), cancelled);
        let across = grown(&g, 7, 18 - 5);
        assert_eq!(
            meet_across(&g, &layer, &across, 2, &ctl).map(|_| ()),
            cancelled
        );
        let start = g.full & !(1 << 7);
        assert_eq!(solve(&g, start, None, &ctl), Err(SearchError::Cancelled));
    }

    #[test]
    fn impossible_tables_are_memory_errors_not_aborts() {
        let is_memory = |e: SearchError| matches!(e, SearchError::Memory { .. });
        assert!(ShardTable::with_capacity(usize::MAX / 2).is_err_and(is_memory));
        assert!(ShardTable::with_capacity(usize::MAX / 64).is_err_and(is_memory));
        assert!(zeroed_slots(usize::MAX / 64, "a test table", false).is_err_and(is_memory));
        // A table that is fine, for contrast (so the error above is the size's).
        let mut table = ShardTable::with_capacity(100).unwrap();
        for key in 1..1000u64 {
            table.add_all(&[(key, 1)]).unwrap();
        }
        assert_eq!(table.used, 999);
        let message = SearchError::memory(TABLES, 3 << 30).to_string();
        assert!(message.contains("the peg layer tables"), "{message}");
    }

    #[test]
    fn bad_geometry_is_refused() {
        assert!(PegGeometry::new(65, &[], &[]).is_err());
        assert!(PegGeometry::new(3, &[(0, 1, 3)], &[]).is_err());
        assert!(PegGeometry::new(3, &[(0, 1, 2)], &[vec![2, 1, 0]]).is_err());
    }

    fn sorted(layer: &Layer) -> Vec<(u64, u128)> {
        let mut items: Vec<_> = layer
            .keys
            .iter()
            .copied()
            .zip(layer.counts.iter().copied())
            .collect();
        items.sort_unstable();
        items
    }

    /// `layer` grown `jumps` times from `start`.
    fn grown(g: &PegGeometry, start: usize, jumps: usize) -> Layer {
        let ctl = Control::new();
        let mut layer = g.start(&[start]).unwrap();
        for _ in 0..jumps {
            layer = expand(g, &layer, 2, &ctl).unwrap();
        }
        layer
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
    fn split_expand_split_and_merge_agree_with_expand() {
        let g = rectangle(
            4,
            5,
            &[(false, false), (false, true), (true, false), (true, true)],
        );
        let ctl = Control::new();
        let layer = grown(&g, 7, 5);
        assert!(layer.len() > 100, "a weak test: {} positions", layer.len());
        let next = expand(&g, &layer, 2, &ctl).unwrap();
        for parts in [1, 2, 3, 7] {
            for complement in [false, true] {
                let pieces = split(&g, &layer, parts, complement, 2, &ctl).unwrap();
                assert_eq!(pieces.len(), parts);
                for (owner, piece) in pieces.iter().enumerate() {
                    assert_eq!(piece.pegs, layer.pegs);
                    assert!(piece
                        .keys
                        .iter()
                        .all(|&k| g.owner(k, parts, complement) == owner));
                }
                let refs: Vec<&Layer> = pieces.iter().collect();
                assert_eq!(sorted(&merge(&refs, 2, &ctl).unwrap()), sorted(&layer));
                // Expanding each piece, split by owner; regrouped per owner and merged.
                let mut by_owner: Vec<Vec<Layer>> = (0..parts).map(|_| Vec::new()).collect();
                for piece in &pieces {
                    let children = expand_split(&g, piece, parts, complement, 1, &ctl).unwrap();
                    for (owner, child) in children.into_iter().enumerate() {
                        assert!(child
                            .keys
                            .iter()
                            .all(|&k| g.owner(k, parts, complement) == owner));
                        by_owner[owner].push(child);
                    }
                }
                let mut all = Vec::new();
                for pieces in &by_owner {
                    let refs: Vec<&Layer> = pieces.iter().collect();
                    let merged = merge(&refs, 2, &ctl).unwrap();
                    assert_eq!(merged.pegs, layer.pegs - 1);
                    all.extend(sorted(&merged));
                }
                all.sort_unstable();
                assert_eq!(all, sorted(&next), "{parts} parts");
            }
        }
    }

    #[test]
    fn meeting_is_local_to_each_owner() {
        // A position has the same owner in the search from the start and (as
        // a complement) in the search from the finish.
        // 3 x 5 with the left-right mirror, which fixes the middle column
        // (solvable from (0, 2) to itself); 4 x 4 from (0, 1) to (0, 2) and (3, 2).
        let mirrored = rectangle(3, 5, &[(false, false), (false, true)]);
        let plain = rectangle(4, 4, IDENTITY);
        let ctl = Control::new();
        let mut checked = 0;
        for (g, s, f) in [
            (&mirrored, 2, 2),
            (&mirrored, 12, 7),
            (&plain, 1, 2),
            (&plain, 1, 14),
        ] {
            let steps = g.holes - 2;
            for ja in [steps / 2, steps / 2 + 1, 4] {
                let jb = steps - ja;
                let (a, b) = (grown(g, s, ja), grown(g, f, jb));
                let want = meet(g, &a, &b, 2, &ctl).unwrap();
                for parts in [2, 3, 7] {
                    let pa = split(g, &a, parts, false, 1, &ctl).unwrap();
                    let pb = split(g, &b, parts, true, 1, &ctl).unwrap();
                    let sum: u128 = (pa.iter().zip(&pb))
                        .map(|(x, y)| meet(g, x, y, 1, &ctl).unwrap())
                        .sum();
                    assert_eq!(sum, want, "{s}->{f}, {ja}+{jb} jumps, {parts} parts");
                    // Unmerged pieces of one side (the children of each part
                    // of its previous layer) join as well as the merged layer.
                    let before = split(g, &grown(g, s, ja - 1), parts, false, 1, &ctl).unwrap();
                    let mut sum = 0;
                    for (owner, finish_part) in pb.iter().enumerate() {
                        let pieces: Vec<Layer> = (before.iter())
                            .map(|part| expand_split(g, part, parts, false, 1, &ctl).unwrap())
                            .map(|mut children| children.swap_remove(owner))
                            .collect();
                        let refs: Vec<&Layer> = pieces.iter().collect();
                        sum += meet_pieces(g, &refs, finish_part, 2, &ctl).unwrap();
                        // and with the roles swapped
                        let other = meet_pieces(
                            g,
                            &[finish_part],
                            &merge(&refs, 1, &ctl).unwrap(),
                            1,
                            &ctl,
                        );
                        assert_eq!(
                            other.unwrap(),
                            meet(g, &pa[owner], finish_part, 1, &ctl).unwrap()
                        );
                    }
                    assert_eq!(
                        sum, want,
                        "pieces: {s}->{f}, {ja}+{jb} jumps, {parts} parts"
                    );
                }
                checked += (want > 0) as usize;
            }
        }
        assert!(checked >= 6, "only {checked} solvable cases: a weak test");
    }

    #[test]
    fn merging_overflows_as_an_error() {
        let ctl = Control::new();
        let piece = |count| Layer {
            pegs: 2,
            keys: vec![0b11, 0b110],
            counts: vec![count, 1],
            parents: 0,
        };
        let (a, b) = (piece(u128::MAX), piece(1));
        assert_eq!(
            merge(&[&a, &b], 2, &ctl).unwrap_err(),
            SearchError::Overflow
        );
        let (a, b) = (piece(u128::MAX - 1), piece(1));
        let merged = merge(&[&a, &b], 2, &ctl).unwrap();
        assert_eq!(sorted(&merged), vec![(0b11, u128::MAX), (0b110, 2)]);
    }

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
