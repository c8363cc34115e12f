//! The frontier count spread over tasks (processes, machines): every layer
//! is cut into `parts` *partitions* by a fixed hash of the states
//! ([`owner_of`]), and each step is one round of at most `parts` tasks,
//! each of which ([`round`]):
//!
//! 1. reads the *pieces* addressed to its owner (records in files written
//!    by the tasks of the round before, in a directory every task can
//!    reach): together its partition of the layer, exact, since every
//!    parent of a state sends its share to the state's owner;
//! 2. expands the pieces by the sweep step, on the layer engine.  A state
//!    may come in several pieces, with a share of its count in each; the
//!    step is linear, so the shares are expanded as they are and their
//!    children summed in the step's tables, as if the state had been summed
//!    first (measured on 6x7 from every square on 2 processes: 12.1 s,
//!    against 13.9 s with a summing pass first, and no tables for it);
//! 3. splits the children by owner and writes them, a record per owner, to
//!    one new file of its own, and returns where each record lies, with the
//!    total of the counts written (which decides the next layer's count
//!    type) — or, at the last step, the finished paths among the children.
//!
//! The records are the spill files' ([`crate::layers::Writer`]): each
//! carries a checksum, the step's tag, its owner and the name of the file
//! it was written to, so a piece that is truncated, altered, from another
//! count or step, or read from another task's file (a copy) is refused,
//! never counted.  The caller (`python/solvers/knights/frontier_dist.py`) only
//! passes the pieces' places from one round to the next and removes the
//! files a round has read.

use super::layer::{add_finished, Width};
use super::sweep::Sweep;
use super::{prepared, Expand, CHUNK};
use crate::engine::{with_pool, Control};
use crate::error::{CountError, SearchError};
use crate::knights::Board;
use crate::layers::{
    accumulate, check_disk_at, mix, owner_of, read_shard, record_bytes, Count, Entries, Extent,
    FileRef, Label, Packed, Writer, U256,
};
use rayon::prelude::*;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A piece of a layer in a file: the file, where its record starts, its
/// number of states.
#[derive(Clone, Debug)]
pub struct Piece {
    pub path: PathBuf,
    pub offset: u64,
    pub len: usize,
}

/// What a round's task made.
#[derive(Debug, PartialEq, Eq)]
pub struct RoundOut {
    /// For each owner, where its piece of the next layer lies in the
    /// task's file (offset, states), if it has one.
    pub pieces: Vec<Option<(u64, usize)>>,
    /// The entries of the pieces the task read (a state that came in
    /// several pieces counts once per piece).
    pub states: usize,
    /// The total of the counts written; at the last step, of the finished
    /// paths (the count's share from this partition).
    pub total: U256,
    /// The count type written (see [`Count::TAG`]).
    pub width: u8,
}

/// The name of a round's file as a number in its records' tag: a record
/// read from a file of another name (one task's file copied over
/// another's, which holds records for the same owners and step) fails its
/// label instead of being counted twice.  Only the name counts, not the
/// folder, which workers may mount at different places.
fn file_tag(path: &Path) -> u64 {
    let name = path.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
    // FNV-1a, then mixed: stable across runs, machines and releases.
    let hash = name.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    mix(hash)
}

/// The steps of the sweep of a count (one round each), or the count's
/// answer when it needs no sweep.
pub fn steps(
    board: &Board,
    start: Option<usize>,
    closed: bool,
) -> Result<Result<usize, U256>, CountError> {
    prepared(board, (start, None), closed, |sweep, _| sweep.last + 1)
}

/// The task of owner `owner` (of `parts`) in the round of sweep step `step`
/// of a count: its `inputs`, pieces of counts of type `width` (a
/// [`Count::TAG`]; ignored at step 0, which starts from the first state),
/// expanded and split by owner into the file `out` (see the module
/// doc).  `total` is the total of the layer before the step (the sum of the
/// last round's totals; 1 at step 0): it decides the count type written.
#[allow(clippy::too_many_arguments)]
pub fn round(
    board: &Board,
    (start, closed): (Option<usize>, bool),
    step: usize,
    (owner, parts): (usize, usize),
    (inputs, width, total): (&[Piece], u8, Option<U256>),
    out: &Path,
    threads: usize,
    ctl: &Control,
) -> Result<RoundOut, CountError> {
    if parts == 0 || owner >= parts {
        return Err(
            SearchError::Corrupt(format!("owner {owner} is not one of {parts} parts")).into(),
        );
    }
    let job = |sweep: &Sweep<'_>, problem: u64| -> Result<RoundOut, SearchError> {
        if step > sweep.last {
            return Err(SearchError::Corrupt(format!(
                "step {step} is past the sweep's last step {}",
                sweep.last
            )));
        }
        let task = Task {
            sweep,
            step,
            tag: |k: usize| mix(problem ^ k as u64),
            owner,
            parts,
            out,
            ctl,
        };
        with_pool(threads, || match width {
            0 => task.read::<u64>(inputs, total),
            1 => task.read::<u128>(inputs, total),
            _ => task.read::<U256>(inputs, total),
        })?
    };
    match prepared(board, (start, None), closed, job)? {
        Ok(out) => Ok(out?),
        Err(_) => Err(SearchError::Corrupt("this count has no sweep: no rounds".into()).into()),
    }
}

/// One task's round.
struct Task<'a, T> {
    sweep: &'a Sweep<'a>,
    step: usize,
    tag: T,
    owner: usize,
    parts: usize,
    out: &'a Path,
    ctl: &'a Control,
}

impl<T: Fn(usize) -> u64 + Sync> Task<'_, T> {
    /// Sum the pieces (counts of type `I`) into the partition, then go on
    /// in the count type that the layer's `total` calls for.
    fn read<I: Count>(
        &self,
        inputs: &[Piece],
        total: Option<U256>,
    ) -> Result<RoundOut, SearchError> {
        let partition = if self.step == 0 {
            vec![Packed::from_entries(&[(
                self.sweep.first_key(),
                I::from_narrow(1),
            )])]
        } else {
            self.pieces::<I>(inputs)?
        };
        match Width::after(total) {
            Width::Narrow => self.expand::<I, u64>(&partition),
            Width::Wide => self.expand::<I, u128>(&partition),
            Width::Huge => self.expand::<I, U256>(&partition),
        }
    }

    /// The owner's partition: its pieces, read (checked: each record names
    /// the step, this owner and the name of the file it was written to).
    fn pieces<I: Count>(&self, inputs: &[Piece]) -> Result<Vec<Packed<I>>, SearchError> {
        let mut pieces = Vec::with_capacity(inputs.len());
        for piece in inputs {
            if self.ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let label = Label {
                problem: (self.tag)(self.step) ^ file_tag(&piece.path),
                shard: self.owner as u32,
            };
            let extent = Extent {
                file: Arc::new(FileRef::kept(piece.path.clone())),
                offset: piece.offset,
                len: piece.len,
            };
            pieces.push(read_shard::<I>(&extent, label)?);
        }
        Ok(pieces)
    }

    /// Expand the partition by the step into counts of type `O`; split the
    /// children by owner into the task's file, or at the last step sum the
    /// finished ones.
    fn expand<I: Count, O: Count>(&self, partition: &[Packed<I>]) -> Result<RoundOut, SearchError> {
        let mut recent = self.sweep.recent_before(self.step);
        let step = self.sweep.step_at(self.step, &mut recent);
        let feed = Expand::<I, O> {
            sweep: self.sweep,
            step: &step,
            counts: PhantomData,
        };
        let states: usize = partition.iter().map(Packed::len).sum();
        let chunks: Vec<Entries<'_, I>> = partition.iter().flat_map(|p| p.chunks(CHUNK)).collect();
        let what = format!(
            "the frontier count's tables at step {} (partition {} of {})",
            self.step + 1,
            self.owner,
            self.parts
        );
        let tables = accumulate(chunks, states.saturating_mul(2), &feed, &what, self.ctl)?;
        let wide = |sum: Option<U256>| sum.ok_or(SearchError::Overflow);
        if self.step == self.sweep.last {
            let done = self.sweep.done();
            let mut paths = U256::default();
            for table in &tables {
                for (key, count) in table.entries().iter() {
                    paths = wide(add_finished(paths, key, count, done))?;
                }
            }
            return Ok(RoundOut {
                pieces: Vec::new(),
                states,
                total: paths,
                width: O::TAG,
            });
        }
        // The children by owner, table by table (each table dropped once split).
        let mut pieces: Vec<Packed<O>> = Vec::with_capacity(self.parts);
        for _ in 0..self.parts {
            pieces.push(Packed::with_capacity(0, "a piece of a frontier layer")?);
        }
        let mut total = U256::default();
        for table in tables {
            if self.ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            for (key, count) in table.entries().iter() {
                total = wide(total.checked_add(count.to_wide()))?;
                pieces[owner_of(key, self.parts)].push(key, count)?;
            }
        }
        // Written under a temporary name and renamed: a file that is there
        // is whole; and only where the disk has room for it.
        let partial = self.out.with_extension("partial");
        let bytes = (pieces.iter())
            .filter(|piece| !piece.is_empty())
            .map(|piece| record_bytes::<O>(piece.len()))
            .sum();
        let folder = partial.parent().unwrap_or(Path::new("."));
        check_disk_at(folder, bytes, "a round's partition file")?;
        let mut writer = Writer::kept(partial.clone())?;
        let mut places = Vec::with_capacity(self.parts);
        pieces.par_iter_mut().for_each(Packed::sort);
        for (owner, piece) in pieces.iter().enumerate() {
            places.push(if piece.is_empty() {
                None
            } else {
                let label = Label {
                    problem: (self.tag)(self.step + 1) ^ file_tag(self.out),
                    shard: owner as u32,
                };
                let extent = writer.append(label, piece)?;
                Some((extent.offset, extent.len))
            });
        }
        writer.finish()?;
        std::fs::rename(&partial, self.out).map_err(|e| {
            SearchError::File(format!(
                "could not rename {} to {}: {e}",
                partial.display(),
                self.out.display()
            ))
        })?;
        Ok(RoundOut {
            pieces: places,
            states,
            total,
            width: O::TAG,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::count_paths;
    use super::*;

    /// A count run round by round, as the Python driver runs it, in `dir`.
    fn by_rounds(
        board: &Board,
        start: Option<usize>,
        closed: bool,
        parts: usize,
        dir: &Path,
    ) -> U256 {
        let ctl = Control::new();
        let steps = match steps(board, start, closed).unwrap() {
            Ok(steps) => steps,
            Err(answer) => return answer,
        };
        let mut inputs: Vec<Vec<Piece>> = (0..parts).map(|_| Vec::new()).collect();
        let (mut width, mut total) = (0u8, Some(U256::from(1)));
        let mut paths = U256::default();
        for k in 0..steps {
            let owners: Vec<usize> = match k {
                0 => vec![0],
                _ => (0..parts).filter(|&o| !inputs[o].is_empty()).collect(),
            };
            let mut next: Vec<Vec<Piece>> = (0..parts).map(|_| Vec::new()).collect();
            let mut sum = Some(U256::default());
            let mut wrote = width;
            for owner in owners {
                let out = dir.join(format!("round-{k}-{owner}.bin"));
                let made = round(
                    board,
                    (start, closed),
                    k,
                    (owner, parts),
                    (&inputs[owner], width, total),
                    &out,
                    1,
                    &ctl,
                )
                .unwrap();
                sum = sum.and_then(|s| s.checked_add(made.total));
                wrote = made.width;
                for (o, place) in made.pieces.iter().enumerate() {
                    if let Some((offset, len)) = *place {
                        next[o].push(Piece {
                            path: out.clone(),
                            offset,
                            len,
                        });
                    }
                }
            }
            if k + 1 == steps {
                paths = sum.unwrap();
            }
            (inputs, total, width) = (next, sum, wrote);
        }
        super::super::tours_from_paths(board, start, closed, paths).unwrap()
    }

    #[test]
    fn rounds_agree_with_the_count_in_one_process() {
        let dir = std::env::temp_dir().join(format!("solvers-rounds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ctl = Control::new();
        for (rows, cols, start, closed) in [
            (5, 5, None, false),
            (5, 6, Some(0), false),
            (6, 6, Some(7), true),
            (4, 30, None, false),
            (1, 1, None, false),
            (3, 3, None, true),
        ] {
            let board = Board::rectangle(rows, cols).unwrap();
            let want = count_paths(&board, start, closed, 2, &ctl).unwrap().tours;
            for parts in [1, 3, 8] {
                let got = by_rounds(&board, start, closed, parts, &dir);
                assert_eq!(
                    got, want,
                    "{rows}x{cols} from {start:?} closed={closed}, {parts} parts"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_or_foreign_pieces_are_refused() {
        let dir = std::env::temp_dir().join(format!("solvers-rounds-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let board = Board::rectangle(5, 5).unwrap();
        let ctl = Control::new();
        let out = dir.join("round-0.bin");
        let one = Some(U256::from(1));
        let first = round(
            &board,
            (None, false),
            0,
            (0, 1),
            (&[], 0, one),
            &out,
            1,
            &ctl,
        )
        .unwrap();
        let (offset, len) = first.pieces[0].unwrap();
        let piece = Piece {
            path: out.clone(),
            offset,
            len,
        };
        let next = |k: usize, start: Option<usize>| {
            let out = dir.join("round-1.bin");
            let total = Some(first.total);
            round(
                &board,
                (start, false),
                k,
                (0, 1),
                (std::slice::from_ref(&piece), 0, total),
                &out,
                1,
                &ctl,
            )
        };
        assert!(next(1, None).is_ok());
        // Another step, another count.
        for (k, start) in [(2, None), (1, Some(0))] {
            let err = next(k, start).unwrap_err();
            assert!(err.to_string().contains("another problem"), "{err}");
        }
        // A flipped byte, a truncated file.
        let good = std::fs::read(&out).unwrap();
        let mut bad = good.clone();
        bad[good.len() / 2] ^= 4;
        std::fs::write(&out, &bad).unwrap();
        assert!(matches!(
            next(1, None),
            Err(CountError::Search(SearchError::Corrupt(_)))
        ));
        std::fs::write(&out, &good[..good.len() - 3]).unwrap();
        assert!(matches!(
            next(1, None),
            Err(CountError::Search(SearchError::Corrupt(_)))
        ));
        // The same records under another file's name (one task's file
        // copied over another's): refused, not counted twice.
        std::fs::write(&out, &good).unwrap();
        assert!(next(1, None).is_ok());
        let copy = dir.join("round-0-copy.bin");
        std::fs::copy(&out, &copy).unwrap();
        let copied = Piece {
            path: copy,
            offset,
            len,
        };
        let err = round(
            &board,
            (None, false),
            1,
            (0, 1),
            (&[piece.clone(), copied], 0, Some(first.total)),
            &dir.join("round-1.bin"),
            1,
            &ctl,
        )
        .unwrap_err();
        assert!(err.to_string().contains("another problem"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
