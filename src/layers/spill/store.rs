//! A stored layer: [`Stored`], its [`SHARDS`] shards in order, each in
//! memory or as a record in a file ([`Shard`]), and the moves between the
//! two: [`Stored::park`] writes the shards in memory to a spill file,
//! [`Stored::load`] reads them back.

use super::budget::{packed_bytes, Spill};
use super::format::{read_shard, record_bytes, Extent, Label, Writer};
use crate::engine::Control;
use crate::error::SearchError;
use crate::layers::count::Count;
use crate::layers::table::{shard_of, Packed, SHARDS};
use rayon::prelude::*;

/// One shard of a stored layer.
pub enum Shard<W: Count> {
    Memory(Packed<W>),
    File(Extent),
}

impl<W: Count> Shard<W> {
    pub(super) fn len(&self) -> usize {
        match self {
            Shard::Memory(packed) => packed.len(),
            Shard::File(extent) => extent.len,
        }
    }
}

/// A layer: its [`SHARDS`] shards in order, each in memory or in a file,
/// and the tag its files carry.
pub struct Stored<W: Count> {
    pub(in crate::layers) shards: Vec<Shard<W>>,
    pub(in crate::layers) problem: u64,
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
    /// [`shard_of`] puts there, as the steps make them.
    pub fn by_shard(entries: &[(u64, W)], problem: u64) -> Result<Self, SearchError> {
        let mut shards = Vec::with_capacity(SHARDS);
        for _ in 0..SHARDS {
            shards.push(Packed::with_capacity(0, "a layer shard")?);
        }
        for &(key, count) in entries {
            shards[shard_of(key)].push(key, count)?;
        }
        Ok(Stored::in_memory(shards, problem))
    }

    /// The entries of the shards in memory.
    pub fn memory_len(&self) -> usize {
        let in_memory = self.shards.iter().filter_map(|shard| match shard {
            Shard::Memory(packed) => Some(packed.len()),
            Shard::File(_) => None,
        });
        in_memory.sum()
    }

    /// The bytes the shards in memory take.
    pub fn memory_bytes(&self) -> u64 {
        let in_memory = self.shards.iter().filter_map(|shard| match shard {
            Shard::Memory(packed) => Some(packed.len()),
            Shard::File(_) => None,
        });
        in_memory.map(packed_bytes).sum()
    }

    /// At most the bytes the shards in spill files take on disk, which
    /// are freed with them (a checkpoint's kept files are not counted).
    pub fn spilled_bytes(&self) -> u64 {
        let spilled = self.shards.iter().filter_map(|shard| match shard {
            Shard::File(extent) if extent.file.is_owned() => Some(record_bytes::<W>(extent.len)),
            _ => None,
        });
        spilled.fold(0, u64::saturating_add)
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
    /// Refused (`Disk`) before anything is written where the spill
    /// directory's disk has no room for them.
    pub fn park(&mut self, spill: &Spill, ctl: &Control) -> Result<(), SearchError> {
        let bytes = (self.shards.iter())
            .map(|shard| match shard {
                Shard::Memory(packed) => record_bytes::<W>(packed.len()),
                Shard::File(_) => 0,
            })
            .sum();
        if bytes > 0 {
            spill.check_disk(bytes, "a layer")?;
        }
        // Sorted by key (as a record holds them) in parallel first.
        (self.shards.par_iter_mut()).for_each(|shard| {
            if let Shard::Memory(packed) = shard {
                packed.sort();
            }
        });
        let mut writer: Option<Writer> = None;
        for i in 0..self.shards.len() {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let label = self.label(i);
            if let Shard::Memory(packed) = &self.shards[i] {
                let writer = match &mut writer {
                    Some(writer) => writer,
                    None => writer.insert(Writer::create(spill.fresh("layer")?)?),
                };
                self.shards[i] = Shard::File(writer.append(label, packed)?);
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

    pub(in crate::layers) fn label(&self, shard: usize) -> Label {
        Label {
            problem: self.problem,
            shard: shard as u32,
        }
    }
}
