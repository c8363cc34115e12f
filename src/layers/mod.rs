//! The layered-DP engine shared by the peg-solitaire count ([`crate::peg`])
//! and the frontier count of knight's tours ([`crate::knights::frontier`]).
//!
//! Both are the same machine: a layer of states (keys, `u64`, never 0) with
//! the number of ways to reach each, expanded in parallel into the next
//! layer, where equal keys have their counts summed, after which the old
//! layer is dropped.  This module owns that machine once:
//!
//! * `count.rs`: the count types, `u64`, `u128` and [`U256`], behind the
//!   [`Count`] trait (checked addition and conversion);
//! * `table.rs`: the one hash table, [`ShardTable`]: open addressing,
//!   16-byte slots, counts past 64 bits kept beside it, growth that never
//!   runs rayon work under a lock, pages advised onto huge pages and first
//!   touched in order; [`Packed`], a finished shard kept as a layer; and
//!   [`Frozen`], a finished layer's tables in one region, for lookups;
//! * `accumulate.rs`: one step, [`accumulate`]: a DP's [`Feed`] run over
//!   the layer's chunks in parallel, the pairs it emits batched per shard
//!   and summed into [`SHARDS`] tables, checked first against the memory
//!   the machine has, polling the cancel flag;
//! * `spill/`: layers past memory: the checked record of a shard on disk
//!   (`format.rs`), the budget ([`Spill`], `budget.rs`), a layer's shards
//!   in memory or in files ([`Stored`], `store.rs`), and [`step`], which
//!   builds the next layer within the budget, spilling when it must
//!   (`planner.rs`);
//! * `checkpoint.rs`: a directory where each finished layer is saved
//!   (crash-safe), so a killed count resumes from its last layer.
//!
//! What the layers mean stays with each DP: the peg's positions, owners and
//! meeting in the middle in `peg/`, the frontier's states and sweep in
//! `frontier/`.

mod accumulate;
pub mod checkpoint;
mod count;
mod spill;
mod table;
#[cfg(test)]
pub(crate) mod testing;

pub use accumulate::{
    accumulate, accumulate_some, freeze, tables_for, tables_in, Feed, Tables, BATCH,
};
pub use count::{Count, U256, WIDE};
pub use spill::{
    check_ahead, check_disk_at, read_shard, record_bytes, step, Checksum, Extent, FileRef, Label,
    Shard, Spill, Spilling, Stored, Writer,
};
pub use table::{
    mix, needing, owner_of, shard_of, zeroed_slots, Entries, Frozen, MixHasher, Packed, Region,
    ShardTable, Sum, WideMap, SHARDS, SHARD_BITS,
};
