//! The memo's hash tables: a layer is [`SHARDS`] of them, each mapping
//! states (keys of a fixed number of words, stored flat) to a count, with
//! open addressing at most half full.  Every table of a count charges its
//! bytes to one [`Budget`], so the memo as a whole stays within `memory`.

use crate::error::{human_bytes, SearchError};
use crate::memory;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Tables per layer: enough that two to sixteen threads adding to one
/// layer rarely wait on each other's locks.
pub(super) const SHARDS: usize = 64;

const EMPTY: u32 = u32::MAX;

pub(super) fn hash(key: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in key {
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^ (h >> 29)
}

/// `key` appended to `keys`, keys of one or two words without the call to
/// `memcpy` that copying a slice of unknown length makes (a few
/// nanoseconds, on every child of a tiling's memo).
#[inline(always)]
pub(super) fn append(keys: &mut Vec<u64>, key: &[u64]) {
    match *key {
        [a] => keys.push(a),
        [a, b] => keys.extend([a, b]),
        _ => keys.extend_from_slice(key),
    }
}

/// The shard of a key's hash (its top bits; the slot takes the low ones).
pub(super) fn shard_of(h: u64) -> usize {
    (h >> 58) as usize % SHARDS
}

/// Bytes a state takes in a table: its key, its count, and two slots.
pub(super) fn entry_bytes(words: usize) -> u64 {
    8 * words as u64 + 16 + 8
}

/// The bytes every table of one count may take together, and those taken,
/// with the spare tables: the memory of tables that have grown or whose
/// layer is done, kept (and still charged) for the tables made later, in
/// classes by their number of slots.  A count makes and drops tables of
/// the same few sizes layer after layer; given back to the allocator,
/// their memory went back to the kernel and came again as fresh pages,
/// and on two threads each unmapping stopped the other core to flush its
/// address translations (docs/performance.md).
pub(super) struct Budget {
    limit: u64,
    used: AtomicU64,
    words: usize,
    spare: Mutex<Vec<Vec<Shard>>>,
}

impl Budget {
    pub fn new(limit: u64, words: usize) -> Budget {
        Budget {
            limit,
            used: AtomicU64::new(0),
            words,
            spare: Mutex::new(Vec::new()),
        }
    }

    /// Take `bytes` more (the spare tables given up first if they stand in
    /// the way), or the `MemoryError` naming what was asked.
    pub fn take(&self, bytes: u64) -> Result<(), SearchError> {
        if self.try_take(bytes) {
            return Ok(());
        }
        self.drop_spares();
        if self.try_take(bytes) {
            return Ok(());
        }
        let need = self.used.load(Ordering::Relaxed).saturating_add(bytes);
        let states = (need - bytes) / entry_bytes(self.words);
        Err(SearchError::memory(
            format!(
                "the memo's tables of method='memo' (about {states} subproblems held, a \
                 budget of {}; method='search' needs no table)",
                human_bytes(self.limit)
            ),
            need,
        ))
    }

    fn try_take(&self, bytes: u64) -> bool {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        true
    }

    pub fn give(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn spares(&self) -> MutexGuard<'_, Vec<Vec<Shard>>> {
        // Only emptied tables are kept here; one a panicking worker left is
        // as good as any.
        self.spare.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keep `shard`'s memory for a later table (emptied; still charged).
    pub fn put_back(&self, mut shard: Shard) {
        if shard.charged == 0 {
            return;
        }
        shard.keys.clear();
        shard.counts.clear();
        shard.slots.clear();
        let class = shard.room.trailing_zeros() as usize;
        let mut spares = self.spares();
        if spares.len() <= class {
            spares.resize_with(class + 1, Vec::new);
        }
        spares[class].push(shard);
    }

    /// An empty table with room for `slots` slots and as many keys of
    /// `words` words (layers' keys differ in length), kept by
    /// [`Self::put_back`].
    fn spare(&self, slots: usize, words: usize) -> Option<Shard> {
        let mut spares = self.spares();
        let class = spares.get_mut(slots.trailing_zeros() as usize)?;
        let fits = class
            .iter()
            .rposition(|s| s.keys.capacity() >= slots / 2 * words)?;
        Some(class.swap_remove(fits))
    }

    /// Give every spare table's memory back (to the allocator and to this
    /// budget): when a count ends, or when they stand in the way of a table
    /// in use.
    pub fn drop_spares(&self) {
        let spares = std::mem::take(&mut *self.spares());
        for shard in spares.into_iter().flatten() {
            self.give(shard.charged);
        }
    }
}

/// One table: states and their counts.
#[derive(Default)]
pub(super) struct Shard {
    pub keys: Vec<u64>,
    pub counts: Vec<u128>,
    slots: Vec<u32>,
    /// The slots this table's memory was made for (a power of two; 0 for
    /// a table not yet added to), and the bytes charged to the budget for
    /// it.
    room: usize,
    charged: u64,
}

impl Shard {
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// The key of entry `e`.
    pub fn key(&self, e: usize, words: usize) -> &[u64] {
        &self.keys[e * words..(e + 1) * words]
    }

    fn find(&self, key: &[u64], h: u64, words: usize) -> Result<u32, usize> {
        if self.slots.is_empty() {
            return Err(0);
        }
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        loop {
            let e = self.slots[at];
            if e == EMPTY {
                return Err(at);
            }
            // A loop, not `==` on slices: keys are a few words, and the
            // slice comparison calls `memcmp`.
            let k = self.key(e as usize, words);
            if (0..words).all(|w| k[w] == key[w]) {
                return Ok(e);
            }
            at = (at + 1) & mask;
        }
    }

    /// The entry of `key` (hashed `h`), if it is here.
    pub fn get(&self, key: &[u64], h: u64, words: usize) -> Option<usize> {
        self.find(key, h, words).ok().map(|e| e as usize)
    }

    /// Add `count` to `key`'s count (hashed `h`), entering it at 0 first if
    /// new; checked, and within `budget`.
    pub fn add(
        &mut self,
        key: &[u64],
        h: u64,
        count: u128,
        budget: &Budget,
    ) -> Result<(), SearchError> {
        let words = key.len();
        match self.find(key, h, words) {
            Ok(e) => {
                let c = &mut self.counts[e as usize];
                *c = c.checked_add(count).ok_or(SearchError::Overflow)?;
            }
            Err(_) => {
                let n = self.counts.len();
                if 2 * (n + 1) > self.slots.len() {
                    self.grow(words, budget)?;
                }
                let Err(at) = self.find(key, h, words) else {
                    unreachable!("a key missing before growing is missing after")
                };
                append(&mut self.keys, key);
                self.counts.push(count);
                self.slots[at] = n as u32;
            }
        }
        Ok(())
    }

    /// Double the slots (and room for as many entries), within the budget:
    /// the entries move to a spare table's memory, or to new memory, and
    /// this table's goes to the spares.
    fn grow(&mut self, words: usize, budget: &Budget) -> Result<(), SearchError> {
        let next = (self.slots.len() * 2).max(64);
        if next > EMPTY as usize {
            return Err(SearchError::memory(
                "a memo table past 2**31 subproblems",
                (next as u64 / 2).saturating_mul(entry_bytes(words)),
            ));
        }
        let mut to = match budget.spare(next, words) {
            Some(spare) => spare,
            None => Shard::with_room(next, words, budget)?,
        };
        to.keys.extend_from_slice(&self.keys);
        to.counts.extend_from_slice(&self.counts);
        to.slots.resize(next, EMPTY);
        let mask = next - 1;
        for e in 0..to.counts.len() {
            let mut at = hash(to.key(e, words)) as usize & mask;
            while to.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            to.slots[at] = e as u32;
        }
        budget.put_back(std::mem::replace(self, to));
        Ok(())
    }

    /// An empty table with memory for `slots` slots and half as many
    /// entries, charged to `budget`.
    fn with_room(slots: usize, words: usize, budget: &Budget) -> Result<Shard, SearchError> {
        let bytes = (slots as u64 / 2) * entry_bytes(words);
        budget.take(bytes)?;
        let what = "the memo's tables";
        let made = (|| {
            Ok(Shard {
                keys: memory::try_with_capacity(slots / 2 * words, what)?,
                counts: memory::try_with_capacity(slots / 2, what)?,
                slots: memory::try_with_capacity(slots, what)?,
                room: slots,
                charged: bytes,
            })
        })();
        if made.is_err() {
            budget.give(bytes);
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use super::{entry_bytes, hash, Budget, Shard};

    fn fill(shard: &mut Shard, n: u64, budget: &Budget) {
        for k in 0..n {
            let key = [k, !k];
            shard.add(&key, hash(&key), 1, budget).unwrap();
        }
    }

    #[test]
    fn spare_tables_are_reused_and_give_way_to_tables_in_use() {
        let each = entry_bytes(2);
        let budget = Budget::new(1100 * each, 2);
        let mut first = Shard::default();
        fill(&mut first, 200, &budget);
        // 200 entries take 512 slots, room for 256; the smaller rooms it
        // grew through (32, 64 and 128 entries) are spare, still charged.
        let held = budget.used.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(held, (32 + 64 + 128 + 256) * each);
        budget.put_back(first);
        let mut second = Shard::default();
        fill(&mut second, 200, &budget);
        assert_eq!(budget.used.load(std::sync::atomic::Ordering::Relaxed), held);
        for k in 0..200 {
            let key = [k, !k];
            let e = second.get(&key, hash(&key), 2).expect("every key kept");
            assert_eq!(second.counts[e], 1);
        }
        // What the spares hold is given up for the tables in use: growing
        // to 512 entries beside its own 256 and the second's 256, the
        // third fits in 1100 only without them.
        let mut third = Shard::default();
        fill(&mut third, 300, &budget);
        assert_eq!(third.len(), 300);
        assert!(budget.take(1100 * each).is_err());
        budget.drop_spares();
        let used = budget.used.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(used, (256 + 512) * each);
    }

    #[test]
    fn a_spare_table_holds_keys_as_long_as_those_of_its_new_layer() {
        let budget = Budget::new(1 << 30, 2);
        let mut short = Shard::default();
        for k in 0..100u64 {
            short.add(&[k], hash(&[k]), 1, &budget).unwrap();
        }
        budget.put_back(short);
        let mut long = Shard::default();
        fill(&mut long, 100, &budget);
        // Rooms for 32, 64 and 128 entries each, the one-word keys' tables
        // all spare (none holds 32, 64 or 128 keys of two words).
        let used = budget.used.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(used, (32 + 64 + 128) * (entry_bytes(1) + entry_bytes(2)));
        for k in 0..100 {
            let key = [k, !k];
            assert!(long.get(&key, hash(&key), 2).is_some());
        }
    }
}
