//! The memo's hash tables: a layer is [`SHARDS`] of them, each mapping
//! states (keys of a fixed number of words, stored flat) to a count, with
//! open addressing at most half full.  Every table of a count charges its
//! bytes to one [`Budget`], so the memo as a whole stays within `memory`.

use crate::error::{human_bytes, SearchError};
use crate::memory;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// The shard of a key's hash (its top bits; the slot takes the low ones).
pub(super) fn shard_of(h: u64) -> usize {
    (h >> 58) as usize % SHARDS
}

/// Bytes a state takes in a table: its key, its count, and two slots.
pub(super) fn entry_bytes(words: usize) -> u64 {
    8 * words as u64 + 16 + 8
}

/// The bytes every table of one count may take together, and those taken.
pub(super) struct Budget {
    limit: u64,
    used: AtomicU64,
    words: usize,
}

impl Budget {
    pub fn new(limit: u64, words: usize) -> Budget {
        Budget {
            limit,
            used: AtomicU64::new(0),
            words,
        }
    }

    /// Take `bytes` more, or the `MemoryError` naming what was asked.
    pub fn take(&self, bytes: u64) -> Result<(), SearchError> {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        let need = before.saturating_add(bytes);
        if need > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            let states = before / entry_bytes(self.words);
            return Err(SearchError::memory(
                format!(
                    "the memo's tables of method='memo' (about {states} subproblems held, a \
                     budget of {}; method='search' needs no table)",
                    human_bytes(self.limit)
                ),
                need,
            ));
        }
        Ok(())
    }

    pub fn give(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// One table: states and their counts.
#[derive(Default)]
pub(super) struct Shard {
    pub keys: Vec<u64>,
    pub counts: Vec<u128>,
    slots: Vec<u32>,
    /// The bytes charged to the budget for this table.
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
                self.keys.extend_from_slice(key);
                self.counts.push(count);
                self.slots[at] = n as u32;
            }
        }
        Ok(())
    }

    /// Double the slots (and room for as many entries), within the budget.
    fn grow(&mut self, words: usize, budget: &Budget) -> Result<(), SearchError> {
        let next = (self.slots.len() * 2).max(64);
        if next > EMPTY as usize {
            return Err(SearchError::memory(
                "a memo table past 2**31 subproblems",
                (next as u64 / 2).saturating_mul(entry_bytes(words)),
            ));
        }
        let bytes = (next as u64 / 2) * entry_bytes(words);
        budget.take(bytes - self.charged)?;
        self.charged = bytes;
        let what = "the memo's tables";
        let mut slots: Vec<u32> = memory::try_with_capacity(next, what)?;
        slots.resize(next, EMPTY);
        let mask = next - 1;
        for e in 0..self.counts.len() {
            let mut at = hash(self.key(e, words)) as usize & mask;
            while slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            slots[at] = e as u32;
        }
        self.slots = slots;
        let room = next / 2 - self.counts.len();
        memory::try_reserve(&mut self.counts, room, what)?;
        memory::try_reserve(&mut self.keys, room * words, what)?;
        Ok(())
    }

    /// Give this table's bytes back to `budget` (it is being dropped).
    pub fn release(&mut self, budget: &Budget) {
        budget.give(std::mem::take(&mut self.charged));
    }
}
