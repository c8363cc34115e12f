//! Layers past memory: a layer is [`SHARDS`] shards, each in memory or in a
//! file ([`Stored`]), and [`step`] builds the next layer within a memory
//! budget ([`Spill`]), spilling to files when the step would not fit.
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
//! instead, from the page cache when it fits there.
//!
//! The answer is the same with or without spilling: only where the entries
//! wait between the phases changes.
//!
//! Few files, because creating and deleting many small files is slow (the
//! kernel's inode allocator dominated a first version with a file per
//! shard): a step writes one file for its input and one per output shard
//! that does not stay in memory.  A file holds records, one
//! per shard: a header (magic `SLVS`, format, count type, the problem's tag,
//! the shard, the number of entries), the entries (key, count; little-endian)
//! and a checksum of every word of the record before it.  A record that is
//! truncated, altered or from another problem, step or shard is refused
//! (`SearchError::Corrupt`), never read as a wrong count.  A spill file is
//! removed when the last shard recorded in it is dropped ([`FileRef`]), the
//! spill directory with its [`Spill`]; a checkpoint's files, in the same
//! format, are kept (`checkpoint.rs`).

use super::accumulate::{tables_for, tables_in, Tables};
use super::count::Count;
use super::table::{Packed, ShardTable, SHARDS};
use crate::engine::Control;
use crate::error::SearchError;
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first bytes of a shard file.
const MAGIC: [u8; 4] = *b"SLVS";
/// The format written (and the only one read).
const FORMAT: u16 = 1;
/// Bytes before the entries.
const HEADER: usize = 32;

/// A running checksum of 64-bit words: each step is a bijection of the
/// running value, so changing any one word always changes the result.
#[derive(Clone, Copy)]
pub struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Self {
        Checksum(0x243f_6a88_85a3_08d3)
    }
}

impl Checksum {
    #[inline]
    pub fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(27);
    }

    /// The checksum of the little-endian words of `bytes` (a multiple of 8 long).
    pub fn add_bytes(&mut self, bytes: &[u8]) {
        for word in bytes.chunks_exact(8) {
            self.add(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
    }

    pub fn value(self) -> u64 {
        self.0
    }
}

/// Where and how much a layered DP may spill: the memory budget in bytes
/// (`u64::MAX`: no limit), and a directory of its own for the files (made
/// on the first write inside the parent given, removed with everything in
/// it when the `Spill` is dropped).
pub struct Spill {
    budget: u64,
    parent: PathBuf,
    dir: std::sync::OnceLock<PathBuf>,
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
            dir: std::sync::OnceLock::new(),
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

    fn wrote(&self, bytes: u64) {
        self.written.fetch_add(bytes, Ordering::Relaxed);
    }

    /// A fresh file name in the spill directory (made if need be).
    pub(super) fn fresh(&self, what: &str) -> Result<PathBuf, SearchError> {
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

pub(super) fn file_error(doing: &str, path: &Path, e: std::io::Error) -> SearchError {
    SearchError::File(format!("could not {doing} {}: {e}", path.display()))
}

/// What a file must say about itself to be read: the problem's tag (any
/// number the caller derives from the problem and the step) and the shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    pub problem: u64,
    pub shard: u32,
}

/// A file of shard records being written: records are appended one after
/// another, and the file is removed when its [`FileRef`]s are all dropped
/// (unless it is [kept](Writer::kept)).
pub struct Writer {
    out: BufWriter<File>,
    file: std::sync::Arc<FileRef>,
    at: u64,
}

/// A file of shard records.  A spill file is *owned*: removed from disk when
/// the last shard in it is dropped, since it lives only as long as its
/// count.  A checkpoint's file is *kept* ([`FileRef::kept`]): it must
/// outlive the count (and the process) that wrote or read it, and only the
/// checkpoint removes it (`checkpoint.rs`).
#[derive(Debug)]
pub struct FileRef {
    path: PathBuf,
    owned: bool,
}

impl Drop for FileRef {
    fn drop(&mut self) {
        if self.owned {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl FileRef {
    /// A file that stays on disk when its last shard is dropped.
    pub fn kept(path: PathBuf) -> FileRef {
        FileRef { path, owned: false }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Where a shard record lies: its file, its offset, its entries.
#[derive(Clone, Debug)]
pub struct Extent {
    pub file: std::sync::Arc<FileRef>,
    pub offset: u64,
    pub len: usize,
}

impl Writer {
    /// A new spill file at `path`, removed with its last shard.
    pub fn create(path: PathBuf) -> Result<Writer, SearchError> {
        Writer::open(FileRef { path, owned: true })
    }

    /// A new file at `path` that stays on disk (a checkpoint's).
    pub fn kept(path: PathBuf) -> Result<Writer, SearchError> {
        Writer::open(FileRef::kept(path))
    }

    fn open(file: FileRef) -> Result<Writer, SearchError> {
        let out = File::create(&file.path).map_err(|e| file_error("create", &file.path, e))?;
        Ok(Writer {
            out: BufWriter::with_capacity(1 << 20, out),
            file: std::sync::Arc::new(file),
            at: 0,
        })
    }

    /// Append `packed` as a record carrying `label`; where it lies.
    pub fn append<W: Count>(
        &mut self,
        label: Label,
        packed: &Packed<W>,
    ) -> Result<Extent, SearchError> {
        let path = self.file.path.clone();
        let failed = |e| file_error("write", &path, e);
        let mut sum = Checksum::default();
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&FORMAT.to_le_bytes());
        header.extend_from_slice(&[W::TAG, 0]);
        header.extend_from_slice(&label.problem.to_le_bytes());
        header.extend_from_slice(&label.shard.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(&(packed.len() as u64).to_le_bytes());
        sum.add_bytes(&header);
        self.out.write_all(&header).map_err(failed)?;
        let mut entry = Vec::with_capacity(8 + W::BYTES);
        for (key, count) in packed.entries().iter() {
            entry.clear();
            entry.extend_from_slice(&key.to_le_bytes());
            count.put(&mut entry);
            sum.add_bytes(&entry);
            self.out.write_all(&entry).map_err(failed)?;
        }
        self.out
            .write_all(&sum.value().to_le_bytes())
            .map_err(failed)?;
        let extent = Extent {
            file: self.file.clone(),
            offset: self.at,
            len: packed.len(),
        };
        self.at += record_bytes::<W>(packed.len());
        Ok(extent)
    }

    /// Flush the file (not synced: a spill file lives only as long as its
    /// count); the bytes written.
    pub fn finish(mut self) -> Result<u64, SearchError> {
        let path = self.file.path.clone();
        self.out
            .flush()
            .map_err(|e| file_error("write", &path, e))?;
        Ok(self.at)
    }

    /// Flush the file and wait until the disk has it (`fsync`: a checkpoint
    /// must survive a crash of the machine, not only of the process); the
    /// bytes written.
    pub fn finish_synced(mut self) -> Result<u64, SearchError> {
        let path = self.file.path.clone();
        let failed = |e| file_error("write", &path, e);
        self.out.flush().map_err(failed)?;
        self.out.get_ref().sync_all().map_err(failed)?;
        Ok(self.at)
    }
}

/// The bytes of a record of `n` entries.
pub(super) fn record_bytes<W: Count>(n: usize) -> u64 {
    (HEADER + n * (8 + W::BYTES) + 8) as u64
}

/// The shard recorded at `extent`, which must carry `label` and hold counts
/// of type `W`.
pub fn read_shard<W: Count>(extent: &Extent, label: Label) -> Result<Packed<W>, SearchError> {
    let path = extent.file.path();
    let corrupt = |why: &str| {
        SearchError::Corrupt(format!(
            "the layer file {} {why} (at byte {}); it cannot be used",
            path.display(),
            extent.offset
        ))
    };
    let mut file = File::open(path).map_err(|e| file_error("open", path, e))?;
    let size = file
        .metadata()
        .map_err(|e| file_error("read", path, e))?
        .len();
    file.seek(SeekFrom::Start(extent.offset))
        .map_err(|e| file_error("read", path, e))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut header = [0u8; HEADER];
    input
        .read_exact(&mut header)
        .map_err(|_| corrupt("ends inside a record's header (truncated?)"))?;
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or_default());
    if header[..4] != MAGIC {
        return Err(corrupt("is not a layer file here (wrong magic bytes)"));
    }
    if header[4..6] != FORMAT.to_le_bytes() || header[6] != W::TAG {
        return Err(corrupt("has another format or count type"));
    }
    let shard = u32::from_le_bytes(header[16..20].try_into().unwrap_or_default());
    if word(8) != label.problem || shard != label.shard {
        return Err(corrupt("belongs to another problem, step or shard"));
    }
    let entries = word(24);
    if entries != extent.len as u64 {
        return Err(corrupt("holds another number of entries than was written"));
    }
    let end = extent.offset as u128 + record_bytes::<W>(extent.len) as u128;
    if end > size as u128 {
        return Err(corrupt(&format!(
            "is {size} bytes long, but its record ends at byte {end} (truncated?)"
        )));
    }
    let mut sum = Checksum::default();
    sum.add_bytes(&header);
    let mut packed = Packed::with_capacity(extent.len, "a layer read back from disk")?;
    let mut entry = vec![0u8; 8 + W::BYTES];
    for _ in 0..entries {
        input
            .read_exact(&mut entry)
            .map_err(|e| file_error("read", path, e))?;
        sum.add_bytes(&entry);
        let key = u64::from_le_bytes(entry[..8].try_into().unwrap_or_default());
        if key == 0 {
            return Err(corrupt("holds a zero key"));
        }
        packed.push(key, W::take(&entry[8..]))?;
    }
    let mut trailer = [0u8; 8];
    input
        .read_exact(&mut trailer)
        .map_err(|e| file_error("read", path, e))?;
    if u64::from_le_bytes(trailer) != sum.value() {
        return Err(corrupt("does not match its checksum (altered?)"));
    }
    Ok(packed)
}

/// One shard of a stored layer.
pub enum Shard<W: Count> {
    Memory(Packed<W>),
    File(Extent),
}

impl<W: Count> Shard<W> {
    fn len(&self) -> usize {
        match self {
            Shard::Memory(packed) => packed.len(),
            Shard::File(extent) => extent.len,
        }
    }
}

/// A layer: its [`SHARDS`] shards in order, each in memory or in a file,
/// and the tag its files carry.
pub struct Stored<W: Count> {
    pub(super) shards: Vec<Shard<W>>,
    pub(super) problem: u64,
}

impl<W: Count> Stored<W> {
    /// A layer all in memory (`shards` in order; fewer than [`SHARDS`]: the
    /// rest are empty).
    pub fn in_memory(shards: Vec<Packed<W>>, problem: u64) -> Self {
        let shards = shards.into_iter().map(Shard::Memory).collect();
        Stored { shards, problem }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.shards.iter().map(Shard::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A layer of [`SHARDS`] shards, each holding the keys that
    /// [`shard_of`](super::shard_of) puts there, as the steps make them.
    pub fn by_shard(entries: &[(u64, W)], problem: u64) -> Result<Self, SearchError> {
        let mut shards = Vec::with_capacity(SHARDS);
        for _ in 0..SHARDS {
            shards.push(Packed::with_capacity(0, "a layer shard")?);
        }
        for &(key, count) in entries {
            shards[super::shard_of(key)].push(key, count)?;
        }
        Ok(Stored::in_memory(shards, problem))
    }

    /// The bytes the shards in memory take.
    pub fn memory_bytes(&self) -> u64 {
        let in_memory = self.shards.iter().filter_map(|shard| match shard {
            Shard::Memory(packed) => Some(packed.len()),
            Shard::File(_) => None,
        });
        in_memory.map(packed_bytes).sum()
    }

    /// The number of shards (at most [`SHARDS`]).
    pub fn shards(&self) -> usize {
        self.shards.len()
    }

    /// `f` of shard `i` (a shard in a file is read back for the call and
    /// dropped after it).
    pub fn with_shard<R>(
        &self,
        i: usize,
        f: impl FnOnce(&Packed<W>) -> R,
    ) -> Result<R, SearchError> {
        Ok(match &self.shards[i] {
            Shard::Memory(packed) => f(packed),
            Shard::File(extent) => f(&read_shard(extent, self.label(i))?),
        })
    }

    /// Fold `f` over every entry, shard by shard (a shard in a file is read
    /// back for the fold and dropped after it).
    pub fn try_fold<A>(
        &self,
        init: A,
        mut f: impl FnMut(A, u64, W) -> Option<A>,
    ) -> Result<Option<A>, SearchError> {
        let mut acc = Some(init);
        for i in 0..self.shards.len() {
            acc = self.with_shard(i, |packed| {
                let mut acc = acc.take()?;
                for (key, count) in packed.entries().iter() {
                    acc = f(acc, key, count)?;
                }
                Some(acc)
            })?;
            if acc.is_none() {
                return Ok(None);
            }
        }
        Ok(acc)
    }

    /// Write the shards in memory to one new file in `spill`'s directory,
    /// freeing their memory; the layer is the same, now on disk.
    pub fn park(&mut self, spill: &Spill, ctl: &Control) -> Result<(), SearchError> {
        let mut writer: Option<Writer> = None;
        for i in 0..self.shards.len() {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if let Shard::Memory(packed) = &self.shards[i] {
                let writer = match &mut writer {
                    Some(writer) => writer,
                    None => writer.insert(Writer::create(spill.fresh("layer")?)?),
                };
                self.shards[i] = Shard::File(writer.append(self.label(i), packed)?);
            }
        }
        if let Some(writer) = writer {
            spill.wrote(writer.finish()?);
        }
        Ok(())
    }

    /// Read the shards in files back into memory (their files go when no
    /// other layer shares them).
    pub fn load(&mut self, ctl: &Control) -> Result<(), SearchError> {
        for i in 0..self.shards.len() {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if let Shard::File(extent) = &self.shards[i] {
                self.shards[i] = Shard::Memory(read_shard(extent, self.label(i))?);
            }
        }
        Ok(())
    }

    pub(super) fn label(&self, shard: usize) -> Label {
        Label {
            problem: self.problem,
            shard: shard as u32,
        }
    }
}

/// The packed size of `n` entries in memory, and of their tables while
/// they are summed (see [`ShardTable::slots_for`]).
fn packed_bytes(n: usize) -> u64 {
    n as u64 * 16
}

fn table_bytes<W: Count>(n: usize) -> u64 {
    ShardTable::<W>::bytes_for(n / SHARDS).saturating_mul(SHARDS as u64)
}

/// The next layer from `input`, within `spill`'s budget (see the module
/// doc): `expand(shards, tables)` adds the children of some input shards
/// to `tables` (dropping those of shards without a table) and hands the
/// tables back.  For the whole next layer, `guess` sizes the tables (they
/// grow past it) and `bound`, the most states it is likely to have, is what
/// the budget is planned for; `problem` tags the next layer's files; `how`
/// says how a step that does not fit goes through files; `what` names the
/// tables in a memory error.
pub fn step<I: Count, O: Count>(
    input: &mut Stored<I>,
    (guess, bound): (usize, usize),
    problem: u64,
    spill: &Spill,
    expand: impl Fn(&[&Packed<I>], Tables<O>) -> Result<Tables<O>, SearchError>,
    (how, what): (Spilling, &str),
    ctl: &Control,
) -> Result<Stored<O>, SearchError> {
    // Plans use two thirds of the budget: tables outgrow their guesses (by
    // half at a time) and the allocator keeps some freed memory.  Measured
    // on 7x7 within 4 GB: the full budget peaked at 6.1 GB.  What other
    // layers hold in memory meanwhile (`spill.held()`) is not the step's.
    let budget = (spill.budget() / 3 * 2).saturating_sub(spill.held());
    let fits = packed_bytes(input.len()).saturating_add(table_bytes::<O>(bound.max(guess)));
    if fits <= budget {
        // A layer spilled by an earlier, wider step comes back when the
        // whole step fits again (layers shrink towards the end of a count).
        input.load(ctl)?;
        let shards: Vec<&Packed<I>> = (input.shards.iter())
            .filter_map(|s| match s {
                Shard::Memory(p) => Some(p),
                Shard::File(_) => None,
            })
            .collect();
        let tables = expand(&shards, tables_for(guess, what, ctl)?)?;
        let tables: Vec<ShardTable<O>> = tables.into_iter().flatten().collect();
        let packed = tables.into_par_iter().map(ShardTable::pack).collect();
        return Ok(Stored::in_memory(packed, problem));
    }
    // 1. The input's shards still in memory to one file, freeing the memory
    //    (the input stays a whole layer, now on disk).
    input.park(spill, ctl)?;
    let extents: Vec<(usize, Extent)> = (input.shards.iter().enumerate())
        .filter_map(|(i, shard)| match shard {
            Shard::File(extent) => Some((i, extent.clone())),
            Shard::Memory(_) => None,
        })
        .collect();
    let plan = Plan {
        extents,
        sizes: (guess, bound, input.len().max(1)),
        budget,
        problem,
        spill,
        what,
        ctl,
    };
    match how {
        Spilling::Passes if plan.passes() <= MAX_PASSES => plan.by_passes(input, &expand),
        _ => plan.by_runs(input, &expand),
    }
}

/// Past this many planned passes, a step of a family that prefers passes
/// goes by runs: each pass expands the whole input again, and under a small
/// budget (the English board within 8 MB: dozens of passes a step) that
/// costs more than writing the runs (11.4 s against 3.5-4.1 s).
const MAX_PASSES: usize = 8;

/// How a step that does not fit its budget goes through files (see the
/// module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spilling {
    /// Groups of input shards expanded once into run files, merged per
    /// output shard: the input is read and expanded once, every child of a
    /// group is written.  For DPs whose states make few children and make
    /// them dearly (the frontier: 8x8 closed wrote 291 GB in 38 minutes).
    Runs,
    /// Passes over ranges of output shards, each re-reading and
    /// re-expanding the whole input: only the finished output is written.
    /// For DPs whose states make many cheap children (peg solitaire: runs
    /// held about every child once per parent, 70 GB for one French-board
    /// step).
    Passes,
}

/// What a step that does not fit knows: the input's shards in files, the
/// next layer's sizes `(guess, bound, input states)`, the budget planned
/// for, the next layer's tag, where it spills, what its tables are (in a
/// memory error) and the cancel flag.
struct Plan<'a> {
    extents: Vec<(usize, Extent)>,
    sizes: (usize, usize, usize),
    budget: u64,
    problem: u64,
    spill: &'a Spill,
    what: &'a str,
    ctl: &'a Control,
}

impl Plan<'_> {
    /// The bytes a pass has for its tables: the budget beside the largest
    /// input shard (read one at a time).
    fn room(&self) -> u64 {
        let largest = self.extents.iter().map(|(_, e)| e.len).max().unwrap_or(0);
        self.budget.saturating_sub(packed_bytes(largest))
    }

    /// How many passes [`Self::by_passes`] plans from the layer's bound.
    fn passes(&self) -> usize {
        let (guess, bound, _) = self.sizes;
        let each = ShardTable::<u128>::bytes_for(bound.max(guess) / SHARDS).max(1);
        let per_pass = usize::try_from(self.room() / each)
            .unwrap_or(SHARDS)
            .clamp(1, SHARDS);
        SHARDS.div_ceil(per_pass)
    }

    /// Step 2 and 3 by passes over ranges of output shards.
    fn by_passes<I: Count, O: Count>(
        &self,
        input: &Stored<I>,
        expand: &impl Fn(&[&Packed<I>], Tables<O>) -> Result<Tables<O>, SearchError>,
    ) -> Result<Stored<O>, SearchError> {
        let Plan {
            ref extents,
            what,
            ctl,
            ..
        } = *self;
        let (guess, bound, _) = self.sizes;
        // 2. Passes over ranges of output shards, each range's tables within
        //    the budget beside one input shard.  The first pass is planned by
        //    the layer's bound, the next ones by the fullest shard so far.
        let mut per_shard = bound.max(guess) / SHARDS;
        let kept = AtomicU64::new(0);
        let mut shards: Vec<Shard<O>> = Vec::with_capacity(SHARDS);
        while shards.len() < SHARDS {
            // The finished shards kept in memory stay there through the
            // later passes: their tables get the rest.
            let room = self.room().saturating_sub(kept.load(Ordering::Relaxed));
            let first = shards.len();
            let each = ShardTable::<O>::bytes_for(per_shard).max(1);
            let count = usize::try_from(room / each)
                .unwrap_or(SHARDS)
                .clamp(1, SHARDS - first);
            let mut tables = tables_in(first..first + count, per_shard, what, ctl)?;
            for (i, extent) in extents {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                let packed = read_shard::<I>(extent, input.label(*i))?;
                tables = expand(&[&packed], tables)?;
            }
            let fullest = tables
                .iter()
                .flatten()
                .map(ShardTable::len)
                .max()
                .unwrap_or(0);
            per_shard = per_shard.max(fullest + fullest / 8);
            // 3. Each finished shard kept in memory while the kept ones take at
            //    most a quarter of the budget, else written to a file of its own.
            for (j, table) in tables.into_iter().enumerate() {
                let Some(table) = table else { continue };
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                shards.push(self.place(j, table.pack(), &kept)?);
            }
        }
        Ok(Stored {
            shards,
            problem: self.problem,
        })
    }

    /// Step 2 and 3 by groups of input shards and run files.
    fn by_runs<I: Count, O: Count>(
        &self,
        input: &Stored<I>,
        expand: &impl Fn(&[&Packed<I>], Tables<O>) -> Result<Tables<O>, SearchError>,
    ) -> Result<Stored<O>, SearchError> {
        let Plan {
            ref extents,
            budget,
            problem,
            spill,
            what,
            ctl,
            ..
        } = *self;
        let (guess, bound, states) = self.sizes;
        // 2. Groups of input shards, each within the budget; each group's
        //    children, summed, go to one run file, a record per output shard.
        //    A group has more distinct children per state than the whole layer
        //    (fewer of a child's parents fall in it), so groups are planned by
        //    the most children per state measured in the groups so far; the
        //    first group is one shard, planned by the layer's bound.
        let run_label = |j: usize| Label {
            problem: problem ^ RUN,
            shard: j as u32,
        };
        // runs[j]: the records of output shard j, one per group that reached it.
        let mut runs: Vec<Vec<Extent>> = (0..SHARDS).map(|_| Vec::new()).collect();
        let mut per_state: Option<f64> = None;
        let mut start = 0;
        while start < extents.len() {
            let ratio = per_state.unwrap_or(bound.max(guess) as f64 / states as f64);
            let children = |n: usize| (ratio * n as f64) as usize;
            let mut end = start + 1;
            let mut n = extents[start].1.len;
            while per_state.is_some() && end < extents.len() {
                let more = n + extents[end].1.len;
                if packed_bytes(more).saturating_add(table_bytes::<O>(children(more))) > budget {
                    break;
                }
                n = more;
                end += 1;
            }
            let mut shards = Vec::with_capacity(end - start);
            for (i, extent) in &extents[start..end] {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                shards.push(read_shard::<I>(extent, input.label(*i))?);
            }
            let refs: Vec<&Packed<I>> = shards.iter().collect();
            let tables = expand(&refs, tables_for(children(n), what, ctl)?)?;
            let tables: Vec<ShardTable<O>> = tables.into_iter().flatten().collect();
            drop(shards);
            let made: usize = tables.iter().map(ShardTable::len).sum();
            let measured = made as f64 / n.max(1) as f64;
            per_state = Some(per_state.map_or(measured, |r| r.max(measured)));
            let mut writer = Writer::create(spill.fresh("run")?)?;
            for (j, table) in tables.into_iter().enumerate() {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                if !table.is_empty() {
                    runs[j].push(writer.append(run_label(j), &table.pack())?);
                }
            }
            spill.wrote(writer.finish()?);
            start = end;
        }
        // 3. Each output shard merged on its own; the first ones kept in memory,
        //    the others each to a file of its own.
        let keep = AtomicU64::new(0);
        let shards = (runs.into_par_iter().enumerate())
            .map(|(j, runs)| -> Result<Shard<O>, SearchError> {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                let what = "a merged layer shard";
                let total: usize = runs.iter().map(|run| run.len).sum();
                let mut table = ShardTable::<O>::with_capacity(total, what, false)?;
                for run in runs {
                    if ctl.is_cancelled() {
                        return Err(SearchError::Cancelled);
                    }
                    let run: Packed<O> = read_shard(&run, run_label(j))?;
                    let mut batch = Vec::with_capacity(4096);
                    for entries in run.chunks(4096) {
                        batch.clear();
                        batch.extend(entries.iter());
                        table.add_all(&batch, what)?;
                    }
                }
                self.place(j, table.pack(), &keep)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Stored { shards, problem })
    }

    /// Where finished output shard `j` goes: memory if the shards kept there
    /// (`kept` bytes, counting only those) stay within a quarter of the
    /// budget with it, else a file of its own.
    fn place<O: Count>(
        &self,
        j: usize,
        packed: Packed<O>,
        kept: &AtomicU64,
    ) -> Result<Shard<O>, SearchError> {
        let bytes = packed_bytes(packed.len());
        let quarter = self.budget / 4;
        let room = |k: u64| (k.saturating_add(bytes) <= quarter).then_some(k + bytes);
        if kept
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, room)
            .is_ok()
        {
            return Ok(Shard::Memory(packed));
        }
        let mut writer = Writer::create(self.spill.fresh("layer")?)?;
        let label = Label {
            problem: self.problem,
            shard: j as u32,
        };
        let extent = writer.append(label, &packed)?;
        self.spill.wrote(writer.finish()?);
        Ok(Shard::File(extent))
    }
}

/// Run files carry the next layer's tag with these bits flipped, so a run
/// is never taken for a finished shard.
const RUN: u64 = 0x5255_4e5f_5255_4e5f;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::accumulate::halves;
    use crate::layers::{accumulate_some, Entries, Feed};
    use std::marker::PhantomData;

    /// [`halves`] on the entries of stored shards.
    struct Halves<'a>(PhantomData<&'a ()>);

    impl<'a> Feed for Halves<'a> {
        type Chunk = Entries<'a, u64>;
        type Count = u64;
        fn feed(
            &self,
            chunk: Self::Chunk,
            emit: &mut impl FnMut(u64, u64),
        ) -> Result<(), SearchError> {
            for (k, c) in chunk.iter() {
                halves(k, c, emit);
            }
            Ok(())
        }
    }

    #[test]
    fn both_ways_of_spilling_give_the_step_in_memory() {
        let entries: Vec<(u64, u64)> = (1..50_000u64).map(|k| (k, k % 7 + 1)).collect();
        let ctl = Control::new();
        let expand = |shards: &[&Packed<u64>], tables| {
            let chunks: Vec<Entries<'_, u64>> = shards.iter().flat_map(|s| s.chunks(256)).collect();
            accumulate_some(chunks, tables, &Halves(PhantomData), "t", &ctl)
        };
        let all = |layer: &Stored<u64>| {
            let mut got = Vec::new();
            layer
                .try_fold((), |(), k, c| {
                    got.push((k, c));
                    Some(())
                })
                .unwrap();
            got.sort_unstable();
            got
        };
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let roomy = Spill::unlimited();
        let want = step(
            &mut input,
            (10, 10),
            2,
            &roomy,
            expand,
            (Spilling::Runs, "t"),
            &ctl,
        );
        let want = all(&want.unwrap());
        assert_eq!(roomy.written(), 0);
        assert!(want.len() > 20_000);
        for how in [Spilling::Runs, Spilling::Passes] {
            // 1 MB: about 30 output shards a pass (3 passes, below
            // MAX_PASSES), a few input shards a group.
            let tight = Spill::new(1_000_000, None);
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = step(
                &mut input,
                (10, 50_000),
                2,
                &tight,
                expand,
                (how, "t"),
                &ctl,
            );
            assert_eq!(all(&got.unwrap()), want, "{how:?}");
            assert!(tight.written() > 0, "{how:?} did not spill");
        }
    }
    use crate::layers::U256;

    fn sample<W: Count>(make: impl Fn(u64) -> W) -> Packed<W> {
        let entries: Vec<(u64, W)> = (1..300u64).map(|k| (k * 7919, make(k))).collect();
        Packed::from_entries(&entries)
    }

    fn entries<W: Count>(p: &Packed<W>) -> Vec<(u64, W)> {
        p.entries().iter().collect()
    }

    #[test]
    fn shards_round_trip_for_every_count_type() {
        let spill = Spill::new(0, None);
        let label = Label {
            problem: 42,
            shard: 3,
        };
        let a = sample(|k| k);
        let b = sample(|k| (k as u128) << 100);
        let c = sample(|k| U256 {
            hi: k as u128,
            lo: 1,
        });
        let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
        let (ea, eb, ec) = (
            w.append(label, &a).unwrap(),
            w.append(label, &b).unwrap(),
            w.append(label, &c).unwrap(),
        );
        w.finish().unwrap();
        assert_eq!(
            entries(&read_shard::<u64>(&ea, label).unwrap()),
            entries(&a)
        );
        assert_eq!(
            entries(&read_shard::<u128>(&eb, label).unwrap()),
            entries(&b)
        );
        assert_eq!(
            entries(&read_shard::<U256>(&ec, label).unwrap()),
            entries(&c)
        );
        // The wrong count type, problem or shard is refused.
        assert!(matches!(
            read_shard::<u128>(&ea, label),
            Err(SearchError::Corrupt(_))
        ));
        let other = Label {
            problem: 43,
            shard: 3,
        };
        assert!(matches!(
            read_shard::<u64>(&ea, other),
            Err(SearchError::Corrupt(_))
        ));
        // The file goes with its last extent, the directory with the Spill.
        let path = ea.file.path().to_path_buf();
        drop((ea, eb, ec));
        assert!(!path.exists(), "a spill file outlived its extents");
        let dir = spill.dir.get().unwrap().clone();
        drop(spill);
        assert!(!dir.exists(), "the spill directory outlived its Spill");
    }

    #[test]
    fn truncated_or_altered_files_are_refused() {
        let spill = Spill::new(0, None);
        let label = Label {
            problem: 7,
            shard: 0,
        };
        let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
        let extent = w.append(label, &sample(|k| k * 3)).unwrap();
        w.finish().unwrap();
        let path = extent.file.path().to_path_buf();
        let good = std::fs::read(&path).unwrap();
        let refused = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            match read_shard::<u64>(&extent, label) {
                Err(SearchError::Corrupt(msg)) => msg,
                other => panic!("read {} bytes as {:?}", bytes.len(), other.map(|p| p.len())),
            }
        };
        assert!(refused(&good[..good.len() - 1]).contains("truncated"));
        assert!(refused(&good[..10]).contains("truncated"));
        for at in [3, 40, 100, good.len() - 3] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            let msg = refused(&bad);
            assert!(
                msg.contains("checksum") || msg.contains("zero key") || msg.contains("magic"),
                "{msg}"
            );
        }
        std::fs::write(&path, &good).unwrap();
        assert_eq!(read_shard::<u64>(&extent, label).unwrap().len(), 299);
    }
}
