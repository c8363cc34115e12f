//! The next layer, and layers moved between tasks: [`expand`] computes one
//! layer from the previous with rayon, [`expand_split`] expands one part of
//! a split layer and splits its children by owner as it drains them,
//! [`merge`] sums the pieces that several tasks sent to one owner, and
//! [`split`] splits a layer by owner.  Expanding and merging share one
//! routine (`accumulate`, then `drain`) that sums `(position, count)` pairs
//! into sharded open-addressing tables (`ShardTable`); the meeting index
//! reuses their slot layout and hashing.

use super::{Layer, PegGeometry};
use crate::engine::{with_pool, Control};
use crate::error::SearchError;
use crate::memory::{advise_huge, bytes_of, prefetch, try_with_capacity, try_zeroed};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;

/// Children are sorted into this many shards by hash, merged one shard per task.
pub(super) const SHARD_BITS: u32 = 6;
pub(super) const SHARDS: usize = 1 << SHARD_BITS;
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
pub(super) fn zeroed_slots(
    n: usize,
    what: &str,
    parallel: bool,
) -> Result<Vec<[u64; 2]>, SearchError> {
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
pub(super) fn mix(key: u64) -> u64 {
    (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15)
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
pub(super) fn chunks_of<'a>(layers: &[&'a Layer]) -> Result<Vec<Chunk<'a>>, SearchError> {
    let n = layers.iter().map(|layer| layer.len().div_ceil(CHUNK)).sum();
    let mut chunks = try_with_capacity(n, "the list of a layer's chunks")?;
    chunks.extend(
        (layers.iter()).flat_map(|layer| layer.keys.chunks(CHUNK).zip(layer.counts.chunks(CHUNK))),
    );
    Ok(chunks)
}

/// Up to [`CHUNK`] positions of a layer and their counts.
pub(super) type Chunk<'a> = (&'a [u64], &'a [u128]);

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
pub(super) fn home_slot(key: u64, mask: usize) -> usize {
    (mix(key) >> 16) as usize & mask
}

/// Put `entry`, whose key is not in `slots` yet, in the first free slot
/// from its home (linear probing; the table is never full).
pub(super) fn put_new(slots: &mut [[u64; 2]], entry: [u64; 2]) {
    let mask = slots.len() - 1;
    let mut slot = home_slot(entry[0], mask);
    while slots[slot][0] != 0 {
        slot = (slot + 1) & mask;
    }
    slots[slot] = entry;
}

/// The count of a slot whose true count lives in the `wide` map.
pub(super) const WIDE: u64 = u64::MAX;

/// What the `wide` maps are, in a memory error.
pub(super) const WIDE_COUNTS: &str = "the peg counts past 64 bits";

/// `n` as a slot's count, or `None` if it must live in the `wide` map.
#[inline]
pub(super) fn narrow(n: u128) -> Option<u64> {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{grown, rectangle, sorted, IDENTITY};
    use super::*;

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
}
