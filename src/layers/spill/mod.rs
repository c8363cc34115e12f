//! Layers past memory: a layer is [`SHARDS`](super::SHARDS) shards, each in
//! memory or in a file ([`Stored`]), and [`step`] builds the next layer
//! within a memory budget ([`Spill`]), spilling to files when the step would
//! not fit.
//!
//! * `format.rs`: the record of a shard on disk, its [`Writer`] and
//!   [`read_shard`] (the checkpoint directory writes the same records);
//! * `budget.rs`: [`Spill`], the budget and the spill directory, the
//!   bytes a layer and its tables take, and the disk check
//!   ([`Spill::check_disk`]);
//! * `stale.rs`: the spill directories' names, and the removal of those
//!   that killed counts of this host left behind;
//! * `store.rs`: [`Stored`], a layer's shards in memory or in files;
//! * `planner.rs`: [`step`], which plans and runs a step within the budget.
//!
//! A step that fits runs as before, all in memory.  One that does not:
//! 1. writes the shards of the input still in memory to files;
//! 2. builds the output shards in *passes*, each a range of output shards
//!    whose tables fit the budget: a pass reads the whole input, one shard
//!    at a time, and sums only the children that fall in its range;
//! 3. keeps each finished output shard in memory while they take at most a
//!    quarter of the budget, and writes the rest to files.
//!
//! Only the finished output is written.  (A first version expanded groups
//! of input shards into *run* files, a record per output shard, merged at
//! the end: a child's parents lie in different groups, so the runs held
//! about every child once per parent, and a French-board step of 345
//! million positions wrote some 50 GB of runs.)  A pass re-reads the input
//! instead, from the page cache when it fits there.  Families whose states
//! make few, dear children still go by runs ([`Spilling::Runs`]) where a
//! step takes more than one pass.
//!
//! Before step 1, the disk: the step's writes are estimated (the input in
//! memory, the next layer at its planned bound, twice by runs) and refused
//! (`SearchError::Disk`) if the spill directory's disk would keep less than
//! a reserve free; each file is checked again, with the most its records
//! can take ([`record_bytes`]), before it is written.  A disk is never
//! filled.
//!
//! Invariants:
//! * the answer is the same with or without spilling, under any budget
//!   from 0 to `u64::MAX`: only where the entries wait between the phases
//!   changes;
//! * few files, because creating and deleting many small files is slow (the
//!   kernel's inode allocator dominated a first version with a file per
//!   shard): a step writes one file for its input and one per output shard
//!   that does not stay in memory;
//! * a record that is truncated, altered or from another problem, step or
//!   shard is refused (`SearchError::Corrupt`), never read as a wrong count;
//! * a spill file is removed when the last shard recorded in it is dropped
//!   ([`FileRef`]), the spill directory with its [`Spill`]; a checkpoint's
//!   files, in the same format, are kept (`checkpoint.rs`).

mod budget;
mod format;
mod planner;
mod stale;
mod store;

pub use budget::{check_disk_at, Spill};
pub use format::record_bytes;
pub(super) use format::{file_error, record_bytes_wide, record_least};
pub use format::{read_shard, Checksum, Extent, FileRef, Label, Writer};
pub use planner::{check_ahead, step, Spilling};
pub use store::{Shard, Stored};
