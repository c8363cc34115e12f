//! The on-disk record of a stored shard: its [`Writer`] and [`read_shard`].
//!
//! A file holds records end to end, one per shard, each:
//! * a 40-byte header: magic `SLVS`, the format (`u16`, [`FORMAT`]), the
//!   count type's tag ([`Count::TAG`]) and a zero byte, the problem's tag
//!   (`u64`), the shard (`u32`), four zero bytes, the number of entries
//!   (`u64`), the bytes of the entries and their padding (`u64`);
//! * the entries in increasing order of key, each a tag byte, the gap from
//!   the previous key (the first from 0; at least 1) in the fewest bytes
//!   that hold it (1 to 8), and the count's bytes up to its last nonzero
//!   one (0 to [`Count::BYTES`]).  The tag's top 3 bits are the gap's bytes
//!   less one, its low 5 bits the count's bytes (31 standing for 32, the
//!   only length past 16, so a 256-bit count of 31 bytes is written whole);
//! * zero bytes up to a multiple of 8, then a [`Checksum`] of every 64-bit
//!   word of the record before it.
//!
//! All numbers are little-endian.  Layer keys are hashes of states spread
//! over 64 bits, so a shard's gaps take about `8 - log256(entries)` bytes,
//! and most counts are far below their type's width: a frontier layer of
//! `u128` counts takes 8 to 12 bytes an entry instead of 24.  The record's
//! size depends on its entries; [`record_bytes`] is its most (1 byte an
//! entry over fixed-width keys and counts), which the disk check uses.
//!
//! The reader is given where the record lies and what it must say
//! ([`Extent`], [`Label`]) and checks that its entries can take the size
//! the header gives and that the file holds it first, so a truncated,
//! altered or foreign record (another format, count type, problem, step or
//! shard) is `SearchError::Corrupt`, never a wrong count and never a huge
//! allocation taken from a damaged length.

use crate::error::SearchError;
use crate::layers::count::{Count, WIDE};
use crate::layers::table::Packed;
use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first bytes of a shard file.
const MAGIC: [u8; 4] = *b"SLVS";
/// The format written (and the only one read): 2 is the compact record
/// above (1 held each entry as a fixed 8-byte key and [`Count::BYTES`]).
const FORMAT: u16 = 2;
/// Bytes before the entries.
const HEADER: usize = 40;

/// A record's header: the magic, the format, the count type's tag, the
/// label, and how many entries and payload bytes follow.
fn header(tag: u8, label: Label, entries: u64, payload: u64) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&FORMAT.to_le_bytes());
    header.extend_from_slice(&[tag, 0]);
    header.extend_from_slice(&label.problem.to_le_bytes());
    header.extend_from_slice(&label.shard.to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&entries.to_le_bytes());
    header.extend_from_slice(&payload.to_le_bytes());
    header
}

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
    let message = format!("could not {doing} {}: {e}", path.display());
    // A disk that filled up after all (another program wrote to it) reads
    // as a full disk, errno ENOSPC, as the refusals made in advance do.
    if e.kind() == std::io::ErrorKind::StorageFull {
        SearchError::Disk(message)
    } else {
        SearchError::File(message)
    }
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

    /// Whether the file goes with its last shard (a spill file's does).
    pub fn is_owned(&self) -> bool {
        self.owned
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

    /// Append `packed` as a record carrying `label`; where it lies.  The
    /// entries go in increasing order of key: a shard not sorted yet is
    /// copied and the copy sorted (an owner sorts it in place first,
    /// [`Packed::sort`], and no copy is made).
    pub fn append<W: Count>(
        &mut self,
        label: Label,
        packed: &Packed<W>,
    ) -> Result<Extent, SearchError> {
        let sorted;
        let packed = if packed.is_sorted() {
            packed
        } else {
            sorted = packed.sorted()?;
            &sorted
        };
        let path = self.file.path.clone();
        let failed = |e| file_error("write", &path, e);
        // The entries' bytes first, for the header: measured, not encoded.
        let (mut payload, mut last) = (0u64, 0u64);
        for (key, count) in packed.entries().iter() {
            let gap = gap_bytes(key.wrapping_sub(last));
            payload += (1 + gap + count_code(count).1) as u64;
            last = key;
        }
        let payload = payload.div_ceil(8) * 8;
        let mut sum = Checksum::default();
        let header = header(W::TAG, label, packed.len() as u64, payload);
        sum.add_bytes(&header);
        self.out.write_all(&header).map_err(failed)?;
        // Whole words of `buf` go to the checksum and the file; the last
        // few bytes of an entry wait in it for the next.
        let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 64);
        let mut flushed = 0u64;
        let mut flush = |buf: &mut Vec<u8>, sum: &mut Checksum| {
            let words = buf.len() / 8 * 8;
            sum.add_bytes(&buf[..words]);
            let wrote = self.out.write_all(&buf[..words]);
            buf.drain(..words);
            flushed += words as u64;
            wrote
        };
        let mut last = 0u64;
        for (key, count) in packed.entries().iter() {
            // Sorted and distinct keys above 0: every gap is at least 1.
            let gap = key.wrapping_sub(last);
            last = key;
            let gap_len = gap_bytes(gap);
            let (code, len) = count_code(count);
            // Whole widths copied and cut back (no calls for copies of
            // a length known only here).
            buf.push(((gap_len - 1) << 5 | code) as u8);
            buf.extend_from_slice(&gap.to_le_bytes());
            buf.truncate(buf.len() - 8 + gap_len);
            count.put(&mut buf);
            buf.truncate(buf.len() - W::BYTES + len);
            if buf.len() >= CHUNK {
                flush(&mut buf, &mut sum).map_err(failed)?;
            }
        }
        buf.resize(buf.len().div_ceil(8) * 8, 0);
        flush(&mut buf, &mut sum).map_err(failed)?;
        debug_assert_eq!(flushed, payload);
        self.out
            .write_all(&sum.value().to_le_bytes())
            .map_err(failed)?;
        let extent = Extent {
            file: self.file.clone(),
            offset: self.at,
            len: packed.len(),
        };
        self.at += HEADER as u64 + payload + 8;
        Ok(extent)
    }

    /// Append a copy of the record at `extent`, which must carry `label` and
    /// hold counts of type `W`; where the copy lies.  Its bytes are copied as
    /// they are, not decoded: the header is checked as [`read_shard`] checks
    /// it, and the checksum over the bytes copied, so a record altered on
    /// disk is refused here (`SearchError::Corrupt`) rather than copied.
    pub fn copy<W: Count>(&mut self, extent: &Extent, label: Label) -> Result<Extent, SearchError> {
        let mut record = open_record::<W>(extent, label)?;
        let path = self.file.path.clone();
        let failed = |e| file_error("write", &path, e);
        let mut sum = Checksum::default();
        sum.add_bytes(&record.header);
        self.out.write_all(&record.header).map_err(failed)?;
        let mut buf = vec![0u8; COPY_CHUNK];
        let mut left = record.payload;
        while left > 0 {
            // A multiple of 8, as `left` and COPY_CHUNK are.
            let more = usize::try_from(left).map_or(COPY_CHUNK, |left| left.min(COPY_CHUNK));
            if let Err(e) = record.input.read_exact(&mut buf[..more]) {
                return Err(record.read_error(e));
            }
            sum.add_bytes(&buf[..more]);
            self.out.write_all(&buf[..more]).map_err(failed)?;
            left -= more as u64;
        }
        let trailer = record.check_trailer(sum)?;
        self.out.write_all(&trailer).map_err(failed)?;
        let copied = Extent {
            file: self.file.clone(),
            offset: self.at,
            len: extent.len,
        };
        self.at += HEADER as u64 + record.payload + 8;
        Ok(copied)
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

/// The bytes of encoded entries gathered before their whole words are
/// written.
const CHUNK: usize = 1 << 16;

/// The bytes a record's copy reads and writes at a time.
const COPY_CHUNK: usize = 1 << 20;

/// The fewest bytes that hold `gap` (1 to 8).
#[inline]
fn gap_bytes(gap: u64) -> usize {
    gap.used_bytes().max(1)
}

/// A count's tag code and the bytes written of it: up to its last nonzero
/// byte, or all 32 for a 256-bit count of 31 or 32 (code 31).
#[inline]
fn count_code<W: Count>(count: W) -> (usize, usize) {
    match count.used_bytes() {
        len if len >= 31 => (31, W::BYTES),
        len => (len, len),
    }
}

/// The count's bytes a tag's low 5 bits `code` say follow.
#[inline]
fn count_len(code: u8) -> usize {
    if code == 31 {
        32
    } else {
        code as usize
    }
}

/// The most bytes of a record of `n` entries (`n` of a shard in memory: its
/// record fits in a `u64`): each entry's tag, a whole 8-byte gap and the
/// count at its full width, padded to a word.  A record of one entry with
/// a key from 2^56 up and a full-width count takes exactly this.
pub fn record_bytes<W: Count>(n: usize) -> u64 {
    (HEADER + (n * (1 + 8 + W::BYTES)).div_ceil(8) * 8 + 8) as u64
}

/// [`record_bytes`] in 128 bits, for an `n` read from a file or a manifest:
/// it may be anything, and must not wrap to a small size.
pub(in crate::layers) fn record_bytes_wide<W: Count>(n: usize) -> u128 {
    (HEADER + 8) as u128 + (n as u128 * (1 + 8 + W::BYTES) as u128).div_ceil(8) * 8
}

/// The fewest bytes of a record of `n` entries (each a tag and a one-byte
/// gap, counts of 0), in 128 bits: what a file must hold past a record's
/// offset before the record is read.
pub(in crate::layers) fn record_least(n: usize) -> u128 {
    (HEADER + 8) as u128 + (n as u128 * 2).div_ceil(8) * 8
}

/// A record opened for reading, its header checked against what it must
/// say and its size against the file: the reader stands at its entries.
struct Opened<'a> {
    extent: &'a Extent,
    input: BufReader<File>,
    header: [u8; HEADER],
    /// The bytes of the entries and their padding.
    payload: u64,
}

/// A refusal of the record at `extent`, saying `why`.
fn corrupt_at(extent: &Extent, why: &str) -> SearchError {
    SearchError::Corrupt(format!(
        "the layer file {} {why} (at byte {}); it cannot be used",
        extent.file.path().display(),
        extent.offset
    ))
}

impl Opened<'_> {
    fn corrupt(&self, why: &str) -> SearchError {
        corrupt_at(self.extent, why)
    }

    /// A failed read: a record that ends early is truncated.
    fn read_error(&self, e: std::io::Error) -> SearchError {
        match e.kind() {
            ErrorKind::UnexpectedEof => self.corrupt("ends inside a record (truncated?)"),
            _ => file_error("read", self.extent.file.path(), e),
        }
    }

    /// Read the record's checksum and compare it with `sum`'s.
    fn check_trailer(&mut self, sum: Checksum) -> Result<[u8; 8], SearchError> {
        let mut trailer = [0u8; 8];
        if let Err(e) = self.input.read_exact(&mut trailer) {
            return Err(self.read_error(e));
        }
        if u64::from_le_bytes(trailer) != sum.value() {
            return Err(self.corrupt("does not match its checksum (altered?)"));
        }
        Ok(trailer)
    }
}

/// Open the record at `extent`, which must carry `label` and hold counts of
/// type `W`, and check its header, before anything is allocated for its
/// entries: the size must be one its entries can take, and the file must
/// hold it.
fn open_record<W: Count>(extent: &Extent, label: Label) -> Result<Opened<'_>, SearchError> {
    let path = extent.file.path();
    let corrupt = |why: &str| corrupt_at(extent, why);
    let mut file = File::open(path).map_err(|e| file_error("open", path, e))?;
    let size = file
        .metadata()
        .map_err(|e| file_error("read", path, e))?
        .len();
    // Checked before the seek, which fails past `i64::MAX`.
    if extent.offset.saturating_add(HEADER as u64) > size {
        return Err(corrupt("ends inside a record's header (truncated?)"));
    }
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
    if word(24) != extent.len as u64 {
        return Err(corrupt("holds another number of entries than was written"));
    }
    let payload = word(32);
    let record = (HEADER + 8) as u128 + payload as u128;
    let fits = record_least(extent.len)..=record_bytes_wide::<W>(extent.len);
    if payload % 8 != 0 || !fits.contains(&record) {
        return Err(corrupt("says a size its entries cannot take (altered?)"));
    }
    let end = extent.offset as u128 + record;
    if end > size as u128 {
        return Err(corrupt(&format!(
            "is {size} bytes long, but its record ends at byte {end} (truncated?)"
        )));
    }
    Ok(Opened {
        extent,
        input,
        header,
        payload,
    })
}

/// The shard recorded at `extent`, which must carry `label` and hold counts
/// of type `W`; its entries in increasing order of key.
pub fn read_shard<W: Count>(extent: &Extent, label: Label) -> Result<Packed<W>, SearchError> {
    let mut record = open_record::<W>(extent, label)?;
    let (header, payload, entries) = (record.header, record.payload, extent.len);
    let mut sum = Checksum::default();
    sum.add_bytes(&header);
    let mut packed = Packed::with_capacity(extent.len, "a layer read back from disk")?;
    // The entries are decoded from `buf[at..filled]`, refilled a chunk of
    // whole words at a time (each word added to the checksum as it comes)
    // whenever less than a longest entry is left.  A gap and a count are
    // read at their full width and cut to their length (copies of a fixed
    // size, no calls), so `buf` has a longest entry to spare past them.
    let longest = 1 + 8 + W::BYTES;
    let mut buf = vec![0u8; CHUNK + 2 * longest];
    let (mut at, mut filled, mut left) = (0usize, 0usize, payload);
    let mut count = [0u8; 32];
    let mut key = 0u64;
    for _ in 0..entries {
        if filled - at < longest && left > 0 {
            buf.copy_within(at..filled, 0);
            filled -= at;
            at = 0;
            // A multiple of 8, as `left` and CHUNK are; room for it, as
            // fewer than `longest` bytes wait.
            let more = usize::try_from(left).map_or(CHUNK, |left| left.min(CHUNK));
            if let Err(e) = record.input.read_exact(&mut buf[filled..filled + more]) {
                return Err(record.read_error(e));
            }
            sum.add_bytes(&buf[filled..filled + more]);
            filled += more;
            left -= more as u64;
        }
        let tag = buf[at];
        let gap_len = (tag >> 5) as usize + 1;
        let len = count_len(tag & 31);
        if len > W::BYTES {
            return Err(record.corrupt("holds a count wider than its type"));
        }
        if at + 1 + gap_len + len > filled {
            return Err(record.corrupt("holds entries past its end (altered?)"));
        }
        let gap = u64::from_le_bytes(buf[at + 1..at + 9].try_into().unwrap_or_default());
        let gap = gap & (u64::MAX >> (64 - 8 * gap_len));
        key = match key.checked_add(gap) {
            Some(next) if gap > 0 => next,
            _ => return Err(record.corrupt("holds keys out of order")),
        };
        let from = at + 1 + gap_len;
        at = from + len;
        // Most counts fit a slot's 64 bits: read whole and cut to length.
        if len <= 8 {
            let raw = u64::from_le_bytes(buf[from..from + 8].try_into().unwrap_or_default());
            let narrow = raw & ((1u128 << (8 * len)) - 1) as u64;
            if narrow != WIDE {
                packed.push_narrow(key, narrow)?;
                continue;
            }
        }
        for (i, byte) in count[..W::BYTES].iter_mut().enumerate() {
            *byte = if i < len { buf[from + i] } else { 0 };
        }
        packed.push(key, W::take(&count[..W::BYTES]))?;
    }
    // What is left of the payload is padding: less than a word, zeros.
    if left > 0 || filled - at >= 8 || buf[at..filled].iter().any(|&b| b != 0) {
        return Err(record.corrupt("holds more than its entries (altered?)"));
    }
    record.check_trailer(sum)?;
    Ok(packed)
}

#[cfg(test)]
mod tests;
