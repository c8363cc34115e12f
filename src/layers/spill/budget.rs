//! What a layered DP may spend: [`Spill`], the memory budget and the
//! directory its files go to, and the bytes a layer and its tables take,
//! which the step planner (`planner.rs`) weighs against the budget; and
//! the disk: [`Spill::check_disk`] refuses to write what the spill
//! directory's filesystem has no room for, before it is written.

use super::format::{file_error, record_bytes_wide};
use crate::error::{human_bytes, SearchError};
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
    /// The tests' free disk, in place of the filesystem's.
    #[cfg(test)]
    faked: Option<u64>,
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
            #[cfg(test)]
            faked: None,
        }
    }

    /// A spill whose disk has `free` bytes, whatever the filesystem says.
    #[cfg(test)]
    pub(in crate::layers) fn with_free_disk(mut self, free: u64) -> Spill {
        self.faked = Some(free);
        self
    }

    /// The disk of [`Self::directory`].
    fn disk(&self) -> Option<Disk> {
        #[cfg(test)]
        if let Some(free) = self.faked {
            return Some(Disk { free, total: free });
        }
        disk_of(self.directory())
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

    /// Where the files go: the spill directory once made, else the parent
    /// it will be made in.
    pub fn directory(&self) -> &Path {
        self.dir.get().unwrap_or(&self.parent)
    }

    /// The bytes free for this process on the filesystem of
    /// [`Self::directory`], or `None` where unknown.
    pub fn free_disk(&self) -> Option<u64> {
        self.disk().map(|disk| disk.free)
    }

    /// `Err(Disk)` naming the figures when writing about `bytes` more for
    /// `what` would leave less than [`reserve`] free on the filesystem of
    /// the spill directory (nothing is written then); `Ok` where the free
    /// space is unknown (the writes themselves still fail cleanly).
    pub fn check_disk(&self, bytes: u64, what: &str) -> Result<(), SearchError> {
        self.check_disk_ahead(bytes, 0, what)
    }

    /// [`Self::check_disk`] for a step still to come, when the files
    /// written so far that will be gone by then hold `freed` bytes: the
    /// disk is taken to have those free too.
    pub fn check_disk_ahead(&self, bytes: u64, freed: u64, what: &str) -> Result<(), SearchError> {
        let layers = (self.disk(), self.directory(), ", or more memory=");
        refuse_past(layers, (bytes, freed), what)
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

/// [`Spill::check_disk`] for files written straight into `dir`, not through
/// a [`Spill`]: an executor's partition files.
pub fn check_disk_at(dir: &Path, bytes: u64, what: &str) -> Result<(), SearchError> {
    refuse_past((disk_of(dir), dir, ""), (bytes, 0), what)
}

/// `Err(Disk)` when `bytes` more in `dir` would leave less than [`reserve`]
/// free on `disk` (`None`: unknown, no check), once files holding `freed`
/// bytes are gone; the message ends with `more` (what else the user may
/// give).
fn refuse_past(
    (disk, dir, more): (Option<Disk>, &Path, &str),
    (bytes, freed): (u64, u64),
    what: &str,
) -> Result<(), SearchError> {
    let Some(disk) = disk else {
        return Ok(());
    };
    let keep = reserve(disk.total);
    if bytes.saturating_add(keep) <= disk.free.saturating_add(freed) {
        return Ok(());
    }
    let later = match freed {
        0 => String::new(),
        _ => format!(", and {} more by then", human_bytes(freed)),
    };
    Err(SearchError::Disk(format!(
        "not enough free disk to spill {what}: about {} would be written to {}, \
         which has {} free{later} (the count leaves {} of it free); give spill= a directory \
         on a disk with more room{more}",
        human_bytes(bytes),
        dir.display(),
        human_bytes(disk.free),
        human_bytes(keep),
    )))
}

impl Drop for Spill {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A new directory `solvers-spill-<host>-<pid>-<n>` inside `parent`, once
/// those that killed counts of this host left there are removed
/// ([`super::stale`]).
fn make_dir(parent: &Path) -> Result<PathBuf, SearchError> {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    super::stale::remove_stale(parent);
    let dir = parent.join(super::stale::dir_name(n));
    std::fs::create_dir_all(&dir).map_err(|e| file_error("create the spill directory", &dir, e))?;
    Ok(dir)
}

/// What the filesystem of a directory has: the bytes free to this
/// process (`f_bavail`) and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Disk {
    pub free: u64,
    pub total: u64,
}

/// The environment variable that fakes the free bytes of every spill
/// directory's filesystem.  Private, for the tests only (a refusal tested
/// without root, a small filesystem or a full disk): unset, the real figure
/// is used.  Its value is a number of bytes; the filesystem's size is then
/// taken to be that number too.
pub const FAKE_FREE_DISK: &str = "_SOLVERS_FAKE_FREE_DISK";

/// The [`Disk`] holding `dir` (its nearest existing ancestor, for a
/// directory not made yet), or `None` where unknown.
pub(super) fn disk_of(dir: &Path) -> Option<Disk> {
    if let Some(faked) = std::env::var_os(FAKE_FREE_DISK) {
        let free = faked.to_str()?.trim().parse().ok()?;
        return Some(Disk { free, total: free });
    }
    let mut at = dir;
    while !at.exists() {
        at = at.parent()?;
    }
    statvfs(at)
}

#[cfg(target_os = "linux")]
fn statvfs(dir: &Path) -> Option<Disk> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: an all-zero `statvfs` is a valid value to be overwritten.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is NUL-terminated; `statvfs` only writes `stat`.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    // The field types differ between targets (`u64` here).
    #[allow(clippy::unnecessary_cast)]
    let block = stat.f_frsize as u64;
    #[allow(clippy::unnecessary_cast)]
    let (free, total) = (stat.f_bavail as u64, stat.f_blocks as u64);
    Some(Disk {
        free: free.saturating_mul(block),
        total: total.saturating_mul(block),
    })
}

/// Off Linux the free space is not looked up: no check.
#[cfg(not(target_os = "linux"))]
fn statvfs(_dir: &Path) -> Option<Disk> {
    None
}

/// What spilling leaves free on a filesystem of `total` bytes: a 64th of
/// it, at most 256 MiB (the system, its logs and other programs need room
/// too; a full disk fails them in ways the count cannot see).
pub(super) fn reserve(total: u64) -> u64 {
    (total / 64).min(256 << 20)
}

/// The bytes of the records of `n` entries with counts of `W`, cut into
/// at most [`SHARDS`] records (saturating: `n` may be a loose bound).
pub(super) fn record_estimate<W: Count>(n: usize) -> u64 {
    let records = record_bytes_wide::<W>(n) + record_bytes_wide::<W>(0) * (SHARDS as u128 - 1);
    u64::try_from(records).unwrap_or(u64::MAX)
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
    fn the_disk_check_leaves_a_reserve_and_names_its_figures() {
        let parent = scratch("disk");
        std::fs::create_dir_all(&parent).unwrap();
        let spill = Spill::new(0, Some(&parent)).with_free_disk(64 << 20);
        // A 64th of the disk stays free: 63 MiB may be written, not more.
        assert_eq!(reserve(64 << 20), 1 << 20);
        assert_eq!(reserve(1 << 50), 256 << 20);
        assert_eq!(spill.free_disk(), Some(64 << 20));
        assert!(spill.check_disk(63 << 20, "the test layer").is_ok());
        match spill.check_disk((63 << 20) + 1, "the test layer") {
            Err(SearchError::Disk(msg)) => {
                for words in [
                    "the test layer",
                    "63.0 MiB would be written",
                    &parent.display().to_string(),
                    "64.0 MiB free",
                    "leaves 1.0 MiB",
                ] {
                    assert!(msg.contains(words), "{words:?} not in {msg}");
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(spill.check_disk(u64::MAX, "all").is_err());
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 0);
        drop(spill);
        // The real filesystem of an existing directory (or of the nearest
        // existing folder of one not made yet) is known on Linux.
        let real = Spill::new(0, Some(&parent.join("not").join("yet")));
        if cfg!(target_os = "linux") {
            let disk = disk_of(&parent).unwrap();
            assert!(disk.free <= disk.total && disk.total > 0, "{disk:?}");
            assert!(real.free_disk().is_some());
            assert!(real.check_disk(0, "nothing").is_ok());
            // The same rule for files written straight into a directory.
            assert!(check_disk_at(&parent, 0, "nothing").is_ok());
            match check_disk_at(&parent, u64::MAX, "a partition file") {
                Err(SearchError::Disk(msg)) => assert!(msg.contains("a partition file"), "{msg}"),
                other => panic!("{other:?}"),
            }
        }
        std::fs::remove_dir(&parent).unwrap();
    }

    #[test]
    fn estimates_cover_the_records_and_never_wrap() {
        use crate::layers::spill::format::record_bytes;
        assert_eq!(
            record_estimate::<u64>(1000),
            record_bytes::<u64>(1000) + record_bytes::<u64>(0) * (SHARDS as u64 - 1)
        );
        assert!(record_estimate::<U256>(1000) > record_estimate::<u64>(1000));
        assert_eq!(record_estimate::<U256>(usize::MAX), u64::MAX);
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
