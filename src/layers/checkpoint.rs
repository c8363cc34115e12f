//! A checkpoint directory for a layered DP: each finished layer is saved
//! there ([`save`]), so a count killed mid-layer (SIGKILL, a power cut)
//! resumes from the last finished layer when it is called again the same
//! way ([`load`]), and a finished count records its answer ([`finish`]), so
//! a rerun returns it at once.
//!
//! The directory holds a `manifest` (text) and at most one layer file,
//! `layer-<step>.bin`, of the spill files' records ([`Writer`], one record
//! per shard, each with its tag, shard and checksum: see `spill/format.rs`).
//!
//! # Crash safety
//!
//! The manifest always names a complete layer file that is on the disk:
//! 1. the new layer is written to a new file, `layer-<step>.bin` (steps
//!    only grow, so it is never the file the manifest names), and synced;
//! 2. the new manifest is written to `manifest.tmp`, synced, renamed over
//!    `manifest` (atomic: a reader sees the old manifest or the new one,
//!    whole), and the directory is synced so the rename itself is on disk;
//! 3. only then the older layer files are removed.
//!
//! A kill at any point leaves the old manifest with its file, or the new
//! one with its file; a half-written layer file or `manifest.tmp` is named
//! by nothing and removed by the next save.  The manifest's lines carry a
//! checksum, and its file's records theirs, so a manifest or layer file
//! altered or truncated afterwards is refused (`SearchError::Corrupt`),
//! never read as a wrong count.  The manifest names the problem's tag: a
//! directory left by another count is refused too.  Two counts must not
//! share a directory at the same time.

use super::count::{Count, U256};
use super::spill::{file_error, record_bytes_wide, record_least, Checksum, Extent, FileRef};
use super::spill::{Shard, Stored, Writer};
use super::table::SHARDS;
use crate::engine::Control;
use crate::error::SearchError;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first line of a manifest (and its format: the only one read).
const FORMAT: &str = "solvers layer checkpoint 2";
const MANIFEST: &str = "manifest";
const TEMPORARY: &str = "manifest.tmp";
/// A manifest is a few kilobytes; anything much larger is not one.
const MAX_MANIFEST: u64 = 1 << 16;

/// Named numbers a DP saves beside its layer (e.g. the widest layer so
/// far, a growth rate as `f64` bits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extras(Vec<(String, u64)>);

impl Extras {
    /// The value saved as `name`; a manifest without it is refused.
    pub fn get(&self, name: &str) -> Result<u64, SearchError> {
        let found = self.0.iter().find(|(n, _)| n == name);
        found.map(|&(_, v)| v).ok_or_else(|| {
            SearchError::Corrupt(format!(
                "the checkpoint's manifest has no value named {name}; it cannot be used"
            ))
        })
    }
}

/// What a checkpoint directory holds.
pub enum Saved {
    /// A finished layer to go on from.
    Layer(SavedLayer),
    /// The count's answer: it was finished.
    Done { answer: U256, extras: Extras },
}

/// A finished layer in a checkpoint: after step `step`, with counts of the
/// type whose tag is `count` ([`Count::TAG`]), and its records' tag `tag`.
pub struct SavedLayer {
    pub step: u64,
    pub count: u8,
    pub tag: u64,
    pub extras: Extras,
    file: Arc<FileRef>,
    /// Each shard's record: its offset in the file and its entries.
    shards: Vec<(u64, usize)>,
}

impl SavedLayer {
    /// The layer, its shards read from the checkpoint's file when they are
    /// needed (the file stays on disk when they are dropped); `W` must be
    /// the count type saved.
    pub fn stored<W: Count>(self) -> Result<Stored<W>, SearchError> {
        if W::TAG != self.count {
            return Err(SearchError::Corrupt(format!(
                "the checkpoint's layer file {} holds counts of another type than asked for",
                self.file.path().display()
            )));
        }
        let file = &self.file;
        let shards = (self.shards.iter())
            .map(|&(offset, len)| {
                Shard::File(Extent {
                    file: file.clone(),
                    offset,
                    len,
                })
            })
            .collect();
        Ok(Stored {
            shards,
            problem: self.tag,
        })
    }
}

/// Save `layer`, the layer after step `step` of the count tagged `problem`,
/// into `dir` (made if missing) with `extras`, as the module doc says: the
/// layer file written and synced, then the manifest renamed over the old
/// one, then the older layer files removed.  Shards in files are read back
/// one at a time, so the memory stays that of one shard (a shard already in
/// a spill file is copied as it is, not decoded).  The layer file's bytes.
pub fn save<W: Count>(
    dir: &Path,
    problem: u64,
    step: u64,
    layer: &Stored<W>,
    extras: &[(&str, u64)],
    ctl: &Control,
) -> Result<u64, SearchError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| file_error("create the checkpoint directory", dir, e))?;
    let name = format!("layer-{step}.bin");
    let path = dir.join(&name);
    let written = write_layer(&path, layer, ctl);
    let (bytes, shards) = match written {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    let mut lines = vec![
        FORMAT.to_string(),
        format!("problem {problem:016x}"),
        format!("step {step}"),
        format!("count {}", W::TAG),
        format!("tag {:016x}", layer.problem),
        format!("file {name} {bytes}"),
        format!("shards {}", shards.len()),
    ];
    for (i, (offset, len)) in shards.iter().enumerate() {
        lines.push(format!("shard {i} {offset} {len}"));
    }
    write_manifest(dir, lines, extras)?;
    remove_layers(dir, Some(&name));
    Ok(bytes)
}

/// Record `answer`, the finished count tagged `problem`, in `dir`, with
/// `extras`; the layer files go (a rerun needs only the answer).
pub fn finish(
    dir: &Path,
    problem: u64,
    answer: U256,
    extras: &[(&str, u64)],
) -> Result<(), SearchError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| file_error("create the checkpoint directory", dir, e))?;
    let lines = vec![
        FORMAT.to_string(),
        format!("problem {problem:016x}"),
        format!("done {:032x} {:032x}", answer.hi, answer.lo),
    ];
    write_manifest(dir, lines, extras)?;
    remove_layers(dir, None);
    Ok(())
}

/// What `dir` holds for the count tagged `problem`: nothing (`None`: no
/// manifest, a fresh start), a finished layer, or the answer.  A manifest
/// that is malformed, fails its checksum or belongs to another count, and
/// a layer file of another length than the manifest says, are refused
/// (`SearchError::Corrupt`); the layer's records are checked when read.
pub fn load(dir: &Path, problem: u64) -> Result<Option<Saved>, SearchError> {
    let path = dir.join(MANIFEST);
    let corrupt = |why: &str| {
        SearchError::Corrupt(format!(
            "the checkpoint manifest {} {why}; it cannot be used (remove the directory to \
             count from the start)",
            path.display()
        ))
    };
    let size = match std::fs::metadata(&path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(file_error("read", &path, e)),
    };
    if size > MAX_MANIFEST {
        return Err(corrupt("is too long to be a manifest"));
    }
    let bytes = std::fs::read(&path).map_err(|e| file_error("read", &path, e))?;
    let text = String::from_utf8(bytes).map_err(|_| corrupt("is not text"))?;
    let mut lines = Lines::checked(&text).ok_or_else(|| corrupt("does not match its checksum"))?;
    let malformed = || corrupt("is malformed");
    if lines.next() != Some(FORMAT) {
        return Err(corrupt("is not a checkpoint manifest of this version"));
    }
    let found = lines.value("problem").and_then(hex).ok_or_else(malformed)?;
    if found != problem {
        return Err(SearchError::Corrupt(format!(
            "checkpoint directory {} holds a layer of another count (another board, start or \
             kind of tour); give another directory, or remove it",
            dir.display()
        )));
    }
    if let Some(done) = lines.peek_value("done") {
        let mut words = done.split(' ').map(hex128);
        let (Some(Some(hi)), Some(Some(lo)), None) = (words.next(), words.next(), words.next())
        else {
            return Err(malformed());
        };
        lines.next();
        let extras = lines.extras().ok_or_else(malformed)?;
        return Ok(Some(Saved::Done {
            answer: U256 { hi, lo },
            extras,
        }));
    }
    let step = lines
        .value("step")
        .and_then(decimal)
        .ok_or_else(malformed)?;
    let count = lines
        .value("count")
        .and_then(decimal)
        .ok_or_else(malformed)?;
    let tag = lines.value("tag").and_then(hex).ok_or_else(malformed)?;
    let (name, bytes) = lines
        .value("file")
        .and_then(|v| v.split_once(' '))
        .ok_or_else(malformed)?;
    let bytes = decimal(bytes).ok_or_else(malformed)?;
    if name != format!("layer-{step}.bin") {
        return Err(corrupt("names an unexpected layer file"));
    }
    let count = match u8::try_from(count) {
        Ok(c) if c == u64::TAG || c == u128::TAG || c == U256::TAG => c,
        _ => return Err(corrupt("names an unknown count type")),
    };
    let n = lines
        .value("shards")
        .and_then(decimal)
        .ok_or_else(malformed)?;
    if n > SHARDS as u64 {
        return Err(malformed());
    }
    // The records lie end to end and fill the file, as written: each one
    // from its offset to the next (the last to the file's end) takes
    // between the least and the most bytes of its entries.
    let mut shards: Vec<(u64, usize)> = Vec::with_capacity(n as usize);
    let fits = |from: u64, to: u64, len: usize| {
        let (least, most) = record_range_of(count, len);
        to.checked_sub(from)
            .is_some_and(|took| (least..=most).contains(&(took as u128)))
    };
    for i in 0..n {
        let fields = lines.value("shard").ok_or_else(malformed)?;
        let fields: Vec<Option<u64>> = fields.split(' ').map(decimal).collect();
        let [Some(at), Some(offset), Some(len)] = fields[..] else {
            return Err(malformed());
        };
        let len = usize::try_from(len).map_err(|_| malformed())?;
        let follows = match shards.last() {
            Some(&(from, len)) => fits(from, offset, len),
            None => offset == 0,
        };
        if at != i || !follows {
            return Err(malformed());
        }
        shards.push((offset, len));
    }
    let filled = match shards.last() {
        Some(&(from, len)) => fits(from, bytes, len),
        None => bytes == 0,
    };
    if !filled {
        return Err(malformed());
    }
    let extras = lines.extras().ok_or_else(malformed)?;
    let file = dir.join(name);
    let actual = match std::fs::metadata(&file) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SearchError::Corrupt(format!(
                "the checkpoint's layer file {} is missing; the checkpoint cannot be used \
                 (remove the directory to count from the start)",
                file.display()
            )))
        }
        Err(e) => return Err(file_error("read", &file, e)),
    };
    if actual != bytes {
        return Err(SearchError::Corrupt(format!(
            "the checkpoint's layer file {} is {actual} bytes long, its manifest says {bytes} \
             (truncated?); it cannot be used (remove the directory to count from the start)",
            file.display()
        )));
    }
    Ok(Some(Saved::Layer(SavedLayer {
        step,
        count,
        tag,
        extras,
        file: Arc::new(FileRef::kept(file)),
        shards,
    })))
}

/// Write every shard of `layer` as a record to a new file at `path` and sync
/// it; its bytes and each shard's (offset, entries).
fn write_layer<W: Count>(
    path: &Path,
    layer: &Stored<W>,
    ctl: &Control,
) -> Result<(u64, Vec<(u64, usize)>), SearchError> {
    let mut writer = Writer::kept(path.to_path_buf())?;
    let mut shards = Vec::with_capacity(layer.shards.len());
    for (i, shard) in layer.shards.iter().enumerate() {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let label = layer.label(i);
        let extent = match shard {
            Shard::Memory(packed) => writer.append(label, packed)?,
            Shard::File(extent) => writer.copy::<W>(extent, label)?,
        };
        shards.push((extent.offset, extent.len));
    }
    Ok((writer.finish_synced()?, shards))
}

/// Replace `dir`'s manifest by `lines`, `extras` and their checksum, as the
/// module doc says (a temporary file synced, renamed, the directory synced).
fn write_manifest(
    dir: &Path,
    mut lines: Vec<String>,
    extras: &[(&str, u64)],
) -> Result<(), SearchError> {
    for (name, value) in extras {
        lines.push(format!("extra {name} {value}"));
    }
    let mut text = String::new();
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&format!("checksum {:016x}\n", checksum(&text)));
    let temporary = dir.join(TEMPORARY);
    let failed = |e| file_error("write", &temporary, e);
    let mut out = File::create(&temporary).map_err(failed)?;
    out.write_all(text.as_bytes()).map_err(failed)?;
    out.sync_all().map_err(failed)?;
    drop(out);
    let manifest = dir.join(MANIFEST);
    std::fs::rename(&temporary, &manifest).map_err(|e| file_error("replace", &manifest, e))?;
    let synced = File::open(dir).and_then(|d| d.sync_all());
    synced.map_err(|e| file_error("sync the checkpoint directory", dir, e))
}

/// Remove the layer files in `dir` but `keep` (older layers, and any left
/// half-written by a kill), best effort: a file left over costs only disk.
fn remove_layers(dir: &Path, keep: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let layer = (name.strip_prefix("layer-"))
            .and_then(|rest| rest.strip_suffix(".bin"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if layer && Some(name) != keep {
            let _ = std::fs::remove_file(PathBuf::from(dir).join(name));
        }
    }
}

/// The checksum of a manifest's text, a byte per word.
fn checksum(text: &str) -> u64 {
    let mut sum = Checksum::default();
    for byte in text.bytes() {
        sum.add(byte as u64);
    }
    sum.value()
}

/// The least and the most bytes of a record of `len` counts of the type
/// tagged `count` (in 128 bits: `len` comes from a file and may be anything).
fn record_range_of(count: u8, len: usize) -> (u128, u128) {
    let most = match count {
        c if c == u64::TAG => record_bytes_wide::<u64>(len),
        c if c == u128::TAG => record_bytes_wide::<u128>(len),
        _ => record_bytes_wide::<U256>(len),
    };
    (record_least(len), most)
}

fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text, 16)
        .ok()
        .filter(|_| text.len() == 16)
}

fn hex128(text: &str) -> Option<u128> {
    u128::from_str_radix(text, 16)
        .ok()
        .filter(|_| text.len() == 32)
}

fn decimal(text: &str) -> Option<u64> {
    text.parse()
        .ok()
        .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
}

/// A manifest's lines (its checksum line checked and taken off), read in order.
struct Lines<'a>(std::iter::Peekable<std::str::Lines<'a>>);

impl<'a> Lines<'a> {
    /// The lines of `text` if its last line is the checksum of the others.
    fn checked(text: &'a str) -> Option<Lines<'a>> {
        let body = text.strip_suffix('\n')?;
        let (body, last) = match body.rfind('\n') {
            Some(at) => (&text[..at + 1], &body[at + 1..]),
            None => return None,
        };
        let sum = last.strip_prefix("checksum ").and_then(hex)?;
        (sum == checksum(body)).then(|| Lines(body.lines().peekable()))
    }

    fn next(&mut self) -> Option<&'a str> {
        self.0.next()
    }

    /// The rest of the next line if it starts with `key` and a space.
    fn peek_value(&mut self, key: &str) -> Option<&'a str> {
        let line = *self.0.peek()?;
        line.strip_prefix(key)?.strip_prefix(' ')
    }

    /// [`Lines::peek_value`], the line taken.
    fn value(&mut self, key: &str) -> Option<&'a str> {
        let value = self.peek_value(key)?;
        self.0.next();
        Some(value)
    }

    /// The remaining lines, all `extra <name> <value>`.
    fn extras(&mut self) -> Option<Extras> {
        let mut extras = Vec::new();
        for line in self.0.by_ref() {
            let (name, value) = line.strip_prefix("extra ")?.split_once(' ')?;
            extras.push((name.to_string(), decimal(value)?));
        }
        Some(Extras(extras))
    }
}

#[cfg(test)]
mod tests;
