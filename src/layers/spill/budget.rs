//! What a layered DP may spend: [`Spill`], the memory budget and the
//! directory its files go to, and the bytes a layer and its tables take,
//! which the step planner (`planner.rs`) weighs against the budget.

use super::format::file_error;
use crate::error::SearchError;
use crate::layers::count::Count;
use crate::layers::table::{ShardTable, SHARDS};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Where and how much a layered DP may spill: the memory budget in bytes
/// (`u64::MAX`: no limit), and a directory of its own for the files (made
/// on the first write inside the parent given, removed with everything in
/// it when the `Spill` is dropped).
pub struct Spill {
    budget: u64,
    parent: PathBuf,
    dir: OnceLock<PathBuf>,
    files: AtomicU64,
    written: AtomicU64,
    held: AtomicU64,
}

impl Spill {
    /// A budget of `budget` bytes, spilling into a new directory inside
    /// `parent` (the system's temporary directory if `None`).
    pub fn new(budget: u64, parent: Option<&Path>) -> Spill {
        Spill {
            budget,
            parent: parent.map_or_else(std::env::temp_dir, Path::to_path_buf),
            dir: OnceLock::new(),
            files: AtomicU64::new(0),
            written: AtomicU64::new(0),
            held: AtomicU64::new(0),
        }
    }

    /// No budget: every step in memory (as long as the machine has it).
    pub fn unlimited() -> Spill {
        Spill::new(u64::MAX, None)
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The bytes written to files so far.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// The bytes that layers other than a step's input keep in memory
    /// during the step (a search's other side): the step plans without them.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    pub fn set_held(&self, bytes: u64) {
        self.held.store(bytes, Ordering::Relaxed);
    }

    pub(super) fn wrote(&self, bytes: u64) {
        self.written.fetch_add(bytes, Ordering::Relaxed);
    }

    /// A fresh file name in the spill directory (made if need be).
    pub(in crate::layers) fn fresh(&self, what: &str) -> Result<PathBuf, SearchError> {
        let dir = match self.dir.get() {
            Some(dir) => dir,
            None => {
                let made = make_dir(&self.parent)?;
                self.dir.get_or_init(|| made)
            }
        };
        let n = self.files.fetch_add(1, Ordering::Relaxed);
        Ok(dir.join(format!("{what}-{n}.bin")))
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A new directory `solvers-spill-<pid>-<n>` inside `parent`.
fn make_dir(parent: &Path) -> Result<PathBuf, SearchError> {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = parent.join(format!("solvers-spill-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| file_error("create the spill directory", &dir, e))?;
    Ok(dir)
}

/// The packed size of `n` entries in memory, and of their tables while
/// they are summed (see [`ShardTable::slots_for`]).
pub(super) fn packed_bytes(n: usize) -> u64 {
    n as u64 * 16
}

/// The bytes of the [`SHARDS`] tables that sum `n` entries in all.
pub(super) fn table_bytes<W: Count>(n: usize) -> u64 {
    ShardTable::<W>::bytes_for(n / SHARDS).saturating_mul(SHARDS as u64)
}
