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
    (n as u64).saturating_mul(16)
}

/// The bytes of the [`SHARDS`] tables that sum `n` entries in all.
pub(super) fn table_bytes<W: Count>(n: usize) -> u64 {
    ShardTable::<W>::bytes_for(n / SHARDS).saturating_mul(SHARDS as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::count::U256;

    /// A fresh path in the system's temporary directory (nothing there yet).
    fn scratch(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("solvers-budget-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn budgets_run_from_zero_to_unlimited() {
        assert_eq!(Spill::unlimited().budget(), u64::MAX);
        for budget in [0, 1, 1 << 20, u64::MAX - 1, u64::MAX] {
            let spill = Spill::new(budget, None);
            assert_eq!(
                (spill.budget(), spill.written(), spill.held()),
                (budget, 0, 0)
            );
        }
        let spill = Spill::new(1000, None);
        spill.set_held(400);
        spill.wrote(10);
        spill.wrote(5);
        assert_eq!((spill.held(), spill.written()), (400, 15));
    }

    #[test]
    fn the_spill_directory_is_made_on_first_use_and_removed_with_the_spill() {
        let parent = scratch("parent");
        std::fs::create_dir_all(&parent).unwrap();
        let spill = Spill::new(0, Some(&parent));
        let listed = |dir: &Path| std::fs::read_dir(dir).unwrap().count();
        assert_eq!(listed(&parent), 0, "a directory made before any file");
        let (a, b) = (spill.fresh("layer").unwrap(), spill.fresh("run").unwrap());
        assert_ne!(a, b);
        let dir = a.parent().unwrap().to_path_buf();
        assert_eq!(b.parent(), Some(dir.as_path()));
        assert_eq!(dir.parent(), Some(parent.as_path()));
        std::fs::write(&a, b"spilled").unwrap();
        // A second Spill in the same parent gets a directory of its own.
        let other = Spill::new(0, Some(&parent));
        let c = other.fresh("layer").unwrap();
        assert_ne!(c.parent(), Some(dir.as_path()));
        drop(spill);
        assert!(!dir.exists(), "the spill directory outlived its Spill");
        assert!(c.parent().unwrap().exists());
        drop(other);
        assert_eq!(listed(&parent), 0);
        std::fs::remove_dir(&parent).unwrap();
    }

    #[test]
    fn a_spill_directory_that_cannot_be_made_is_a_file_error() {
        let parent = scratch("a-file");
        std::fs::write(&parent, b"not a directory").unwrap();
        let spill = Spill::new(0, Some(&parent));
        match spill.fresh("layer") {
            Err(SearchError::File(msg)) => {
                assert!(msg.contains("spill directory"), "{msg}");
                assert!(msg.contains(&parent.display().to_string()), "{msg}");
            }
            other => panic!("a spill directory inside a file: {other:?}"),
        }
        drop(spill);
        assert_eq!(std::fs::read(&parent).unwrap(), b"not a directory");
        std::fs::remove_file(&parent).unwrap();
    }

    #[test]
    fn sizes_grow_with_the_entries_and_never_wrap() {
        let sizes = [
            0,
            1,
            63,
            64,
            1000,
            1 << 20,
            1 << 40,
            usize::MAX / 64,
            usize::MAX,
        ];
        let mut last = (0, 0, 0);
        for n in sizes {
            let now = (
                packed_bytes(n),
                table_bytes::<u64>(n),
                table_bytes::<U256>(n),
            );
            assert!(now.0 >= last.0 && now.1 >= last.1 && now.2 >= last.2, "{n}");
            // A table is a slot per key at most 60% full: more than the
            // packed entries (and at least 64 slots a shard).
            assert!(now.1 >= packed_bytes(n), "{n}");
            assert!(now.1 >= SHARDS as u64 * 64 * 16, "{n}");
            last = now;
        }
        assert_eq!(packed_bytes(1000), 16_000);
        assert_eq!(table_bytes::<u64>(64_000), 64 * 1666 * 16);
        assert_eq!(packed_bytes(usize::MAX), u64::MAX);
        assert_eq!(table_bytes::<u128>(usize::MAX), u64::MAX);
    }
}
