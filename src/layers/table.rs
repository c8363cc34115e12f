//! The one hash table of the layered DPs: [`ShardTable`], an open-addressing
//! table that sums the counts of equal keys, one per shard of a layer, and
//! [`Packed`], the same entries moved to the front of the table's own memory
//! once it is complete (a layer kept for the next step).
//!
//! Invariants:
//! * key 0 marks a free slot: the DPs never make key 0 (a peg position has a
//!   peg, a frontier state has its nonzero marker bits);
//! * a key's shard is the top [`SHARD_BITS`] bits of [`mix`]`(key)` and its
//!   home slot is given by the bits below them, so the tables of a layer's
//!   shards each see well-spread homes;
//! * a slot is `[key, count]`, 16 bytes, four to a cache line; a count of
//!   [`WIDE`] or more (rare: mid-layer counts are small) is marked `WIDE`
//!   and kept in the table's `wide` map;
//! * every addition is checked and every allocation fallible
//!   (`SearchError::Overflow`, `SearchError::Memory`);
//! * a table grows alone (a 64th of a layer at a time) and *sequentially*:
//!   it grows under its shard's lock, where rayon work could deadlock.

use super::count::{Count, WIDE};
use crate::error::SearchError;
use crate::memory::{advise_huge, bytes_of, prefetch, try_zeroed};
use rayon::prelude::*;
use std::collections::HashMap;

/// The shards of a layer, by the top bits of the key's hash.
pub const SHARD_BITS: u32 = 6;
pub const SHARDS: usize = 1 << SHARD_BITS;

/// A key's hash: the shard and the home slot are taken from it.  (The
/// finalizer of a 64-bit mixer: every key bit reaches the top bits.)
#[inline]
pub fn mix(key: u64) -> u64 {
    (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The shard of `key`.
#[inline]
pub fn shard_of(key: u64) -> usize {
    (mix(key) >> (64 - SHARD_BITS)) as usize
}

/// The owner of a key among `parts` when a layer is split across tasks
/// (or machines): a peg position, a frontier state: a fixed hash of its canonical key, the same in every
/// process and on every machine (never a randomly seeded hasher), and
/// unrelated to [`mix`], which places keys in the
/// tables.  The hash is the finalizer of splitmix64, in arithmetic modulo
/// 2^64:
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

/// Where `key` starts probing in `len` slots: a hash of its own, scaled to
/// `len` (any length, not only powers of two).
///
/// Not the bits of [`mix`] below the shard bits: `mix` is one multiply, so
/// keys that differ in a few bits (a peg position and its children, which
/// flip three) have `mix` values a few fixed offsets apart.  Keys arriving
/// in the order of their parents' slots then landed in runs of neighbouring
/// slots, and the linear probes grew long (a spilled French-board step spent
/// its time probing).  This finalizer (MurmurHash3's) mixes every bit into
/// every bit.
#[inline]
fn home(key: u64, len: usize) -> usize {
    let mut z = key;
    z = (z ^ z >> 33).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z = (z ^ z >> 33).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    z ^= z >> 33;
    ((z as u128 * len as u128) >> 64) as usize
}

/// Hashes keys with [`mix`] in the `wide` maps and other key sets (std's
/// default hasher is several times slower on `u64` keys).
#[derive(Default, Clone, Copy)]
pub struct MixHasher;

impl std::hash::BuildHasher for MixHasher {
    type Hasher = MixHash;
    fn build_hasher(&self) -> MixHash {
        MixHash(0)
    }
}

/// See [`MixHasher`].
pub struct MixHash(u64);

impl std::hash::Hasher for MixHash {
    fn finish(&self) -> u64 {
        mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The counts past 64 bits, by key.
pub type WideMap<W> = HashMap<u64, W, MixHasher>;

/// What the `wide` maps are, in a memory error.
const WIDE_COUNTS: &str = "the layer counts past 64 bits";

/// Bytes between two writes of [`touch_pages`]: the smallest page size.
const PAGE: usize = 4096;

/// `n` zeroed slots for `what`, advised onto huge pages.  The pages come
/// lazily mapped from the allocator (calloc-style) and are touched here,
/// page by page in order: first touches in hash order cost twice the page
/// faults (the frontier, 5% slower on 6x6) and made building the peg's
/// meeting index 3x slower.  `parallel` touches them with rayon (in the
/// current pool); it must be `false` wherever a lock is held (see
/// [`ShardTable::add_all`]).
///
/// What the huge pages bring, measured with `benches/peg_bench.py`-style
/// runs with and without them (`PR_SET_THP_DISABLE`), 2 threads on a shared
/// 2-core machine: 10 to 20% less CPU time (the English board centre to
/// centre 4.6 s against 5.6 s, (2,4) to (2,4) 29 s against 37 s, medians),
/// most of it kernel time in page faults (a third less) and the rest fewer
/// TLB misses; and up to 14% more resident memory (2 MiB pages only partly
/// used).  Wall times moved the same way but within the noise of that machine.
pub fn zeroed_slots(n: usize, what: &str, parallel: bool) -> Result<Vec<[u64; 2]>, SearchError> {
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

/// `e` with `bytes` as what it needed, if it is a memory error: the whole
/// of what was being built, rather than the one piece that failed.
pub fn needing(e: SearchError, bytes: u64) -> SearchError {
    match e {
        SearchError::Memory { what, .. } => SearchError::Memory { what, bytes },
        e => e,
    }
}

/// What a slot holds for `key`'s `count`: the count itself below [`WIDE`],
/// else `WIDE`, with the count kept in `wide`.
fn slot_count<W: Count>(wide: &mut WideMap<W>, key: u64, count: W) -> Result<u64, SearchError> {
    if let Some(narrow) = count.narrow() {
        return Ok(narrow);
    }
    wide.try_reserve(1)
        .map_err(|_| SearchError::memory(WIDE_COUNTS, bytes_of::<(u64, W)>(wide.len() + 1)))?;
    wide.insert(key, count);
    Ok(WIDE)
}

/// Sum a batch of `(key, count)` into `slots` (wide counts into `wide`),
/// prefetching its home slots first; the number of new keys.  The caller
/// made room: `slots` never fills up.
fn add_into<W: Count>(
    slots: &mut [[u64; 2]],
    wide: &mut WideMap<W>,
    batch: &[(u64, W)],
) -> Result<usize, SearchError> {
    let len = slots.len();
    for &(key, _) in batch {
        prefetch(&slots[home(key, len)]);
    }
    let mut added = 0;
    for &(key, count) in batch {
        let mut slot = home(key, len);
        loop {
            let [k, n] = slots[slot];
            if k == key || k == 0 {
                let sum = match (k == 0, n) {
                    (true, _) => Some(count),
                    (false, WIDE) => wide[&key].checked_add(count),
                    (false, n) => W::from_narrow(n).checked_add(count),
                }
                .ok_or(SearchError::Overflow)?;
                added += (k == 0) as usize;
                slots[slot] = [key, slot_count(wide, key, sum)?];
                break;
            }
            slot += 1;
            if slot == len {
                slot = 0;
            }
        }
    }
    Ok(added)
}

/// The count a slot `[key, n]` holds: `n` itself, or from `wide` where
/// `n` is [`WIDE`] (see [`slot_count`]).
#[inline]
fn slot_value<W: Count>(wide: &WideMap<W>, [key, n]: [u64; 2]) -> W {
    match n {
        WIDE => wide[&key],
        n => W::from_narrow(n),
    }
}

/// The count of `key` in `slots` (wide counts in `wide`), zero if absent.
#[inline]
fn find<W: Count>(slots: &[[u64; 2]], wide: &WideMap<W>, key: u64) -> W {
    let len = slots.len();
    let mut slot = home(key, len);
    loop {
        let k = slots[slot][0];
        if k == key {
            return slot_value(wide, slots[slot]);
        }
        if k == 0 {
            return W::default();
        }
        slot += 1;
        if slot == len {
            slot = 0;
        }
    }
}

/// Where the layer engine's step sums its pairs: a [`ShardTable`] (which
/// grows), or a [`Region`] of a [`Frozen`] table (sized in advance).
pub trait Sum<W: Count>: Send {
    /// See [`ShardTable::add_all`]: runs under the shard's lock.
    fn add_all(&mut self, batch: &[(u64, W)], what: &str) -> Result<(), SearchError>;
}

impl<W: Count> Sum<W> for ShardTable<W> {
    fn add_all(&mut self, batch: &[(u64, W)], what: &str) -> Result<(), SearchError> {
        ShardTable::add_all(self, batch, what)
    }
}

/// One shard's slots inside a [`Frozen`] table being built: sized for all
/// the keys the shard will get, so it never grows.
pub struct Region<'a, W: Count> {
    slots: &'a mut [[u64; 2]],
    wide: WideMap<W>,
}

impl<W: Count> Region<'_, W> {
    /// The counts past 64 bits that went into this region.
    pub fn into_wide(self) -> WideMap<W> {
        self.wide
    }
}

impl<W: Count> Sum<W> for Region<'_, W> {
    fn add_all(&mut self, batch: &[(u64, W)], _: &str) -> Result<(), SearchError> {
        add_into(self.slots, &mut self.wide, batch).map(|_| ())
    }
}

/// An open-addressing table summing counts of type `W` per key (see the
/// module doc for the slot layout).
pub struct ShardTable<W: Count> {
    slots: Vec<[u64; 2]>,
    used: usize,
    wide: WideMap<W>,
}

impl<W: Count> ShardTable<W> {
    /// The slots of a table for `n` keys: 60% full when the guess is right
    /// (grown by half at 75%), so a key costs about 27 bytes.
    pub fn slots_for(n: usize) -> Option<usize> {
        Some((n.checked_mul(5)? / 3).max(64))
    }

    /// The bytes of a table for `n` keys.
    pub fn bytes_for(n: usize) -> u64 {
        Self::slots_for(n).map_or(u64::MAX, bytes_of::<[u64; 2]>)
    }

    /// A table for about `n` keys (it grows past that); `parallel`: touch
    /// its pages with rayon (only outside any lock, see [`zeroed_slots`]).
    pub fn with_capacity(n: usize, what: &str, parallel: bool) -> Result<Self, SearchError> {
        let size = Self::slots_for(n)
            .ok_or_else(|| SearchError::memory(what, bytes_of::<[u64; 2]>(n).saturating_mul(2)))?;
        Ok(ShardTable {
            slots: zeroed_slots(size, what, parallel)?,
            used: 0,
            wide: WideMap::default(),
        })
    }

    /// The number of keys in the table.
    pub fn len(&self) -> usize {
        self.used
    }

    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Add a batch of `(key, count)`, prefetching its slots first.  Called
    /// under the shard's lock, so nothing here may run rayon work: a worker
    /// waiting here for a nested parallel job may steal another task whose
    /// flush needs this same lock, and then waits on itself (rayon's
    /// deadlock pattern).  A failed growth leaves the table as it was.
    pub fn add_all(&mut self, batch: &[(u64, W)], what: &str) -> Result<(), SearchError> {
        let need = self.used + batch.len();
        if 4 * need > 3 * self.slots.len() {
            self.grow(need, what)?;
        }
        self.used += add_into(&mut self.slots, &mut self.wide, batch)?;
        Ok(())
    }

    /// Half as many slots again (or room for `need` keys, if more), touched
    /// sequentially (see [`Self::add_all`]).
    fn grow(&mut self, need: usize, what: &str) -> Result<(), SearchError> {
        let len = (self.slots.len() + self.slots.len() / 2).max(need / 3 * 4 + 4);
        let old = std::mem::replace(&mut self.slots, zeroed_slots(len, what, false)?);
        for entry in old {
            if entry[0] != 0 {
                let mut slot = home(entry[0], len);
                while self.slots[slot][0] != 0 {
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

    /// Prefetch the home slot of `key`, ahead of a [`Self::get`].
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[home(key, self.slots.len())]);
    }

    /// The count of `key`, zero if absent.
    #[inline]
    pub fn get(&self, key: u64) -> W {
        find(&self.slots, &self.wide, key)
    }

    /// The keys, in slot order.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        (self.slots.iter())
            .map(|slot| slot[0])
            .filter(|&key| key != 0)
    }

    /// The entries, in slot order.
    pub fn entries(&self) -> Entries<'_, W> {
        Entries {
            slots: &self.slots,
            wide: &self.wide,
        }
    }

    /// The entries packed to the front of the table's own memory, in slot
    /// order (no second copy of the layer is made).
    pub fn pack(self) -> Packed<W> {
        let mut slots = self.slots;
        let mut w = 0;
        for i in 0..slots.len() {
            if slots[i][0] != 0 {
                slots[w] = slots[i];
                w += 1;
            }
        }
        slots.truncate(w);
        slots.shrink_to_fit();
        Packed {
            slots,
            wide: self.wide,
        }
    }
}

/// A table of a complete layer, for lookups only (the peg's meeting index):
/// the shards' slots one after another in one allocation, each shard's
/// region sized in advance for its keys.  A lookup in 64 separate tables of
/// a few MiB each misses the TLB as well as the cache (each table is too
/// small for many 2 MiB pages); in one region on huge pages it only misses
/// the cache.
pub struct Frozen<W: Count> {
    slots: Vec<[u64; 2]>,
    /// Where each shard's slots begin in `slots`, and where the last ends.
    starts: Vec<usize>,
    wide: WideMap<W>,
}

impl<W: Count> Frozen<W> {
    /// An empty table for shards of at most `sizes[s]` keys: each region at
    /// most a quarter full, which keeps the probes for absent keys short.
    pub fn with_shard_sizes(sizes: &[usize], what: &str) -> Result<Self, SearchError> {
        debug_assert_eq!(sizes.len(), SHARDS);
        let mut starts = Vec::with_capacity(SHARDS + 1);
        let mut at = 0usize;
        for &size in sizes {
            starts.push(at);
            let slots = size.checked_mul(4).map(|n| n.max(16));
            at = slots.and_then(|n| at.checked_add(n)).unwrap_or(usize::MAX);
        }
        starts.push(at);
        Ok(Frozen {
            slots: zeroed_slots(at, what, true)?,
            starts,
            wide: WideMap::default(),
        })
    }

    /// The regions of the shards, to fill with the layer engine's step.
    pub fn regions(&mut self) -> Vec<Region<'_, W>> {
        let mut rest = &mut self.slots[..];
        let mut out = Vec::with_capacity(SHARDS);
        for w in self.starts.windows(2) {
            let (slots, tail) = std::mem::take(&mut rest).split_at_mut(w[1] - w[0]);
            rest = tail;
            out.push(Region {
                slots,
                wide: WideMap::default(),
            });
        }
        out
    }

    /// Keep the wide counts of the filled regions.
    pub fn absorb(&mut self, wides: Vec<WideMap<W>>) -> Result<(), SearchError> {
        for wide in wides {
            self.wide
                .try_reserve(wide.len())
                .map_err(|_| SearchError::memory(WIDE_COUNTS, bytes_of::<(u64, W)>(wide.len())))?;
            self.wide.extend(wide);
        }
        Ok(())
    }

    #[inline]
    fn region(&self, key: u64) -> &[[u64; 2]] {
        let shard = shard_of(key);
        &self.slots[self.starts[shard]..self.starts[shard + 1]]
    }

    /// Prefetch the home slot of `key`, ahead of a [`Self::get`].
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let region = self.region(key);
        prefetch(&region[home(key, region.len())]);
    }

    /// The count of `key`, zero if absent.
    #[inline]
    pub fn get(&self, key: u64) -> W {
        find(self.region(key), &self.wide, key)
    }
}

/// A complete shard of a layer: its entries, packed, for the next step.
pub struct Packed<W: Count> {
    slots: Vec<[u64; 2]>,
    wide: WideMap<W>,
}

impl<W: Count> Packed<W> {
    /// An empty shard with room for `n` entries (`what` it is, in a memory error).
    pub fn with_capacity(n: usize, what: &str) -> Result<Self, SearchError> {
        let slots = crate::memory::try_with_capacity(n, what)?;
        // A shard read back from disk is fresh memory, first touched in
        // order: a fault a page cost about as much as decoding the shard.
        advise_huge(&slots);
        Ok(Packed {
            slots,
            wide: WideMap::default(),
        })
    }

    /// Add an entry (its key not in the shard yet, and not 0).
    pub fn push(&mut self, key: u64, count: W) -> Result<(), SearchError> {
        crate::memory::try_reserve(&mut self.slots, 1, "a layer shard")?;
        let count = slot_count(&mut self.wide, key, count)?;
        self.slots.push([key, count]);
        Ok(())
    }

    /// Add an entry whose count is `narrow` as a slot holds it (below
    /// [`WIDE`]; its key not in the shard yet, and not 0).
    #[inline]
    pub(in crate::layers) fn push_narrow(
        &mut self,
        key: u64,
        narrow: u64,
    ) -> Result<(), SearchError> {
        debug_assert!(narrow != WIDE);
        crate::memory::try_reserve(&mut self.slots, 1, "a layer shard")?;
        self.slots.push([key, narrow]);
        Ok(())
    }

    /// A shard of the given entries (keys distinct and nonzero).
    pub fn from_entries(entries: &[(u64, W)]) -> Self {
        let mut wide = WideMap::default();
        let slots = (entries.iter())
            .map(|&(key, count)| {
                let narrow = count.narrow();
                if narrow.is_none() {
                    wide.insert(key, count);
                }
                [key, narrow.unwrap_or(WIDE)]
            })
            .collect();
        Packed { slots, wide }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The entries, in order.
    pub fn entries(&self) -> Entries<'_, W> {
        Entries {
            slots: &self.slots,
            wide: &self.wide,
        }
    }

    /// Whether the entries are in increasing order of key (as a record on
    /// disk holds them, `spill/format.rs`).
    pub fn is_sorted(&self) -> bool {
        self.slots.is_sorted_by(|a, b| a[0] < b[0])
    }

    /// Put the entries in increasing order of key, in place (the counts
    /// past 64 bits stay in the side map, found by key).
    pub fn sort(&mut self) {
        if !self.is_sorted() {
            self.slots.sort_unstable_by_key(|slot| slot[0]);
        }
    }

    /// A copy of the shard sorted by key.
    pub fn sorted(&self) -> Result<Self, SearchError> {
        let mut slots = crate::memory::try_with_capacity(self.slots.len(), "a sorted layer shard")?;
        slots.extend_from_slice(&self.slots);
        // The counts past 64 bits, copied as fallibly as the slots.
        let mut wide = WideMap::default();
        wide.try_reserve(self.wide.len())
            .map_err(|_| SearchError::memory(WIDE_COUNTS, bytes_of::<(u64, W)>(self.wide.len())))?;
        wide.extend(self.wide.iter().map(|(&key, &count)| (key, count)));
        let mut copy = Packed { slots, wide };
        copy.sort();
        Ok(copy)
    }

    /// The entries of `self` and `other`, both sorted by key, in one shard
    /// sorted by key: the counts of a key in both summed (checked:
    /// `SearchError::Overflow`); `what` it is, in a memory error.  One pass
    /// over each, in order (no table, no sort).
    pub fn merge(self, other: Packed<W>, what: &str) -> Result<Packed<W>, SearchError> {
        debug_assert!(self.is_sorted() && other.is_sorted());
        if other.is_empty() {
            return Ok(self);
        }
        if self.is_empty() {
            return Ok(other);
        }
        let mut out = Packed::with_capacity(self.len() + other.len(), what)?;
        let (a, b) = (&self.slots, &other.slots);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            let (key, count) = match x[0].cmp(&y[0]) {
                std::cmp::Ordering::Less => {
                    i += 1;
                    (x[0], slot_value(&self.wide, x))
                }
                std::cmp::Ordering::Greater => {
                    j += 1;
                    (y[0], slot_value(&other.wide, y))
                }
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                    let sum = slot_value(&self.wide, x).checked_add(slot_value(&other.wide, y));
                    (x[0], sum.ok_or(SearchError::Overflow)?)
                }
            };
            out.push(key, count)?;
        }
        for &x in &a[i..] {
            out.push(x[0], slot_value(&self.wide, x))?;
        }
        for &y in &b[j..] {
            out.push(y[0], slot_value(&other.wide, y))?;
        }
        Ok(out)
    }

    /// The entries in runs of at most `n` (the tasks of a step).
    pub fn chunks(&self, n: usize) -> impl Iterator<Item = Entries<'_, W>> + '_ {
        (self.slots.chunks(n)).map(|slots| Entries {
            slots,
            wide: &self.wide,
        })
    }
}

/// Some entries of a table or of a packed shard: `(key, count)` in slot
/// order, free slots skipped.
#[derive(Clone, Copy)]
pub struct Entries<'a, W: Count> {
    slots: &'a [[u64; 2]],
    wide: &'a WideMap<W>,
}

impl<'a, W: Count> Entries<'a, W> {
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = (u64, W)> + 'a {
        let wide = self.wide;
        (self.slots.iter())
            .filter(|slot| slot[0] != 0)
            .map(move |&slot| (slot[0], slot_value(wide, slot)))
    }
}

#[cfg(test)]
mod tests;
