//! The memo of the exact count: tail counts in a lossy direct-mapped table
//! per worker, and a process-wide pool of spare tables so the next count
//! does not pay page faults for fresh memory.
//!
//! Key soundness.  An entry maps a key to the number of ways to finish a
//! tour, and a hit must only ever return the count the search would compute:
//! * The count below a position depends only on the knight's square, the
//!   unvisited set and the home square (closed tours): the forced end square
//!   is a function of those three (the unvisited squares left with at most
//!   one way in), and pruning only cuts branches that hold no tour.  The key
//!   is exactly these: `unvisited` (64 bits, stored whole) and a 14-bit tag
//!   (`head + 1` in bits 0..7, `home`'s index in bits 7..14, 64 for none).
//! * It depends also on the board and on open/closed: those belong to the
//!   search, so every entry is stamped with an epoch (10 bits) that changes
//!   whenever a table passes to another search (see [`new_owner`]), and a
//!   stale stamp is a miss.  When the epoch wraps around the table is
//!   cleared once, so no stamp is ever reused for a different search.
//! * A hit compares the stored key and tag+epoch in full (no hash bits are
//!   trusted), and a count that does not fit the 40 bits beside the tag is
//!   not stored.  The table is lossy (a collision overwrites), never wrong.

use crate::error::SearchError;
use crate::memory;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A lossy direct-mapped table of tail counts, one per worker thread.
///
/// Per worker, not shared: a shared table scaled worse (1.65x instead of
/// 1.85x on two threads, 6x6), its cache lines bouncing between the cores.
/// A slot is `[key, count << TAG_BITS | tag]`; a full slot is overwritten.
///
/// Tables are kept for the next count (first touches of fresh memory cost
/// page faults, ~1.5 us per 4 KiB here).  Entries are stamped with an epoch
/// that changes whenever a table passes to another search, so entries of
/// other searches are misses and no clearing is needed; a search that counts
/// its subproblems in several calls (`engine::count_each`) keeps its entries.
pub struct TailMemo {
    table: Option<MemoTable>,
    shift: u32,
    epoch: u64,
}

struct MemoTable {
    slots: Box<[u64]>,
    epoch: u64,
    /// The search (see [`new_owner`]) whose entries the table holds.
    owner: u64,
}

/// A number for each search built in this process.
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

/// A fresh owner number for a new search: tables it takes are restamped
/// unless they were its own.
pub(super) fn new_owner() -> u64 {
    GENERATIONS.fetch_add(1, Ordering::Relaxed)
}

/// Tables returned by finished counts, for reuse.
static SPARE_TABLES: Mutex<Vec<MemoTable>> = Mutex::new(Vec::new());
const SPARE_LIMIT: usize = 8;
const EPOCH_BITS: u32 = 10;
const TAG_BITS: u32 = 14 + EPOCH_BITS;

impl TailMemo {
    /// A table for the search numbered `owner`: one of its own if a spare is
    /// left, else any spare (restamped) or a new one (`Err(Memory)` if none
    /// can be had).
    pub(super) fn new(bits: u32, owner: u64) -> Result<Self, SearchError> {
        let len = 2usize << bits;
        let reused = {
            let mut spare = SPARE_TABLES.lock().unwrap_or_else(|p| p.into_inner());
            let fits = |t: &MemoTable| t.slots.len() == len;
            let at = (spare.iter().position(|t| fits(t) && t.owner == owner))
                .or_else(|| spare.iter().position(fits));
            at.map(|i| spare.swap_remove(i))
        };
        let mut table = match reused {
            Some(table) => table,
            None => MemoTable {
                // Zeroed pages come from the OS lazily: untouched slots cost nothing.
                slots: memory::try_zeroed(len, "a memo table of tour tails")?.into_boxed_slice(),
                epoch: 0,
                owner: 0,
            },
        };
        if table.owner != owner || table.epoch == 0 {
            table.owner = owner;
            table.epoch = (table.epoch + 1) & ((1 << EPOCH_BITS) - 1);
            if table.epoch == 0 {
                // The stamps wrapped around: forget everything once.
                table.slots.fill(0);
                table.epoch = 1;
            }
        }
        Ok(TailMemo {
            shift: 64 - bits,
            epoch: table.epoch,
            table: Some(table),
        })
    }

    #[inline]
    fn slot(&self, unvisited: u64, tag: u64) -> usize {
        let h = (unvisited ^ tag.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        2 * (h >> self.shift) as usize
    }

    /// `tag` identifies the rest of the key (14 bits); the epoch is added here.
    #[inline]
    pub(super) fn get(&self, unvisited: u64, tag: u64) -> Option<u64> {
        let tag = tag | self.epoch << 14;
        let i = self.slot(unvisited, tag);
        let slots = &self.table.as_ref()?.slots;
        let mask = (1 << TAG_BITS) - 1;
        (slots[i] == unvisited && slots[i + 1] & mask == tag).then_some(slots[i + 1] >> TAG_BITS)
    }

    #[inline]
    pub(super) fn put(&mut self, unvisited: u64, tag: u64, count: u64) {
        if count >> (64 - TAG_BITS) != 0 {
            return;
        }
        let tag = tag | self.epoch << 14;
        let i = self.slot(unvisited, tag);
        if let Some(table) = self.table.as_mut() {
            table.slots[i] = unvisited;
            table.slots[i + 1] = (count << TAG_BITS) | tag;
        }
    }
}

impl Drop for TailMemo {
    fn drop(&mut self) {
        if let Some(table) = self.table.take() {
            let mut spare = SPARE_TABLES.lock().unwrap_or_else(|p| p.into_inner());
            if spare.len() < SPARE_LIMIT {
                spare.push(table);
            }
        }
    }
}
