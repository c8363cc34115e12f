//! The on-disk record of a stored shard: its [`Writer`] and [`read_shard`].
//!
//! A file holds records end to end, one per shard, each:
//! * a 32-byte header: magic `SLVS`, the format (`u16`, [`FORMAT`]), the
//!   count type's tag ([`Count::TAG`]) and a zero byte, the problem's tag
//!   (`u64`), the shard (`u32`), four zero bytes, the number of entries
//!   (`u64`);
//! * the entries: key (`u64`, never 0), count ([`Count::BYTES`]);
//! * a [`Checksum`] of every 64-bit word of the record before it.
//!
//! All numbers are little-endian.  The reader is given where the record
//! lies and what it must say ([`Extent`], [`Label`]) and checks the file's
//! length first, so a truncated, altered or foreign record (another format,
//! count type, problem, step or shard) is `SearchError::Corrupt`, never a
//! wrong count and never a huge allocation taken from a damaged length.

use crate::error::SearchError;
use crate::layers::count::Count;
use crate::layers::table::Packed;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

pub(in crate::layers) fn file_error(doing: &str, path: &Path, e: std::io::Error) -> SearchError {
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
    file: Arc<FileRef>,
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
    pub file: Arc<FileRef>,
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
            file: Arc::new(file),
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
pub(in crate::layers) fn record_bytes<W: Count>(n: usize) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::count::U256;
    use crate::layers::spill::Spill;

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
        let dir = path.parent().unwrap().to_path_buf();
        drop((ea, eb, ec));
        assert!(!path.exists(), "a spill file outlived its extents");
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
