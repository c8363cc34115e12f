//! The step of a layered DP: [`accumulate`] sends every entry of a layer
//! through a [`Feed`] (the DP's rule: a peg position's jumps, a frontier
//! state's next square, or the entry itself to merge pieces) and sums the
//! `(key, count)` pairs it emits into [`SHARDS`] tables, in parallel.
//!
//! Each task buffers its pairs per shard and takes a shard's lock once per
//! batch of [`BATCH`]; the batch's home slots are prefetched before it is
//! added.  All the tables are first checked, together, against the memory
//! the machine has, then made and first touched in parallel outside any
//! lock; a table that outgrows its guess grows alone, under its lock,
//! without rayon work (see `table.rs`).  Every task looks at the cancel flag.

use super::count::Count;
use super::table::{needing, shard_of, Frozen, ShardTable, Sum, SHARDS};
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory::check_available;
use rayon::prelude::*;
use std::sync::Mutex;

/// Pairs buffered per shard before taking its lock.
pub const BATCH: usize = 32;

/// A DP's rule for one step: what each input entry sends to the next layer.
pub trait Feed: Sync {
    /// A task's share of the input (a few thousand entries).
    type Chunk: Send;
    /// The count type of the output.
    type Count: Count;
    /// Send every pair `(key, count)` that the entries of `chunk` make to
    /// `emit` (a key may come many times: its counts are summed).
    fn feed(
        &self,
        chunk: Self::Chunk,
        emit: &mut impl FnMut(u64, Self::Count),
    ) -> Result<(), SearchError>;
}

/// Tables for some of the [`SHARDS`] shards, in shard order: `None` where a
/// step keeps nothing of that shard (a pass of a step that does not fit
/// sums a range of shards at a time, see [`crate::layers::step`]).
pub type Tables<W> = Vec<Option<ShardTable<W>>>;

/// Tables for every shard, sized for about `expected` keys in all (they
/// grow if that is too low): checked together against the memory the
/// machine has, then made and first touched in parallel outside any lock.
pub fn tables_for<W: Count>(
    expected: usize,
    what: &str,
    ctl: &Control,
) -> Result<Tables<W>, SearchError> {
    tables_in(0..SHARDS, expected / SHARDS, what, ctl)
}

/// Tables for the shards in `range` (the others `None`), each sized for
/// about `per_shard` keys, checked together against the memory the machine has.
pub fn tables_in<W: Count>(
    range: std::ops::Range<usize>,
    per_shard: usize,
    what: &str,
    ctl: &Control,
) -> Result<Tables<W>, SearchError> {
    let all = ShardTable::<W>::bytes_for(per_shard).saturating_mul(range.len() as u64);
    check_available(all, what)?;
    (0..SHARDS)
        .map(|shard| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if !range.contains(&shard) {
                return Ok(None);
            }
            // A memory error names all the tables, not the one that failed.
            let table = ShardTable::with_capacity(per_shard, what, true);
            Ok(Some(table.map_err(|e| needing(e, all))?))
        })
        .collect()
}

/// Sum per key the pairs that `feed` makes from every chunk, into
/// [`SHARDS`] tables sized for about `expected` keys in all (they grow if
/// that is too low; `what` they are, in a memory error).  Runs inside the
/// caller's pool.
pub fn accumulate<F: Feed>(
    chunks: Vec<F::Chunk>,
    expected: usize,
    feed: &F,
    what: &str,
    ctl: &Control,
) -> Result<Vec<ShardTable<F::Count>>, SearchError> {
    let tables = tables_for(expected, what, ctl)?;
    let tables = accumulate_some(chunks, tables, feed, what, ctl)?;
    Ok(tables.into_iter().flatten().collect())
}

/// Add the pairs that `feed` makes from every chunk to `tables`, dropping
/// those of the shards without a table; the tables back.  Runs inside the
/// caller's pool.
pub fn accumulate_some<F: Feed>(
    chunks: Vec<F::Chunk>,
    tables: Tables<F::Count>,
    feed: &F,
    what: &str,
    ctl: &Control,
) -> Result<Tables<F::Count>, SearchError> {
    let targets = tables.into_iter().map(|t| t.map(Mutex::new)).collect();
    accumulate_into(chunks, targets, feed, what, ctl)
}

/// A [`Frozen`] table of the pairs that `feed` makes from every chunk,
/// where shard `s` gets at most `sizes[s]` distinct keys (the caller
/// counted them).  Runs inside the caller's pool.
pub fn freeze<F: Feed>(
    chunks: Vec<F::Chunk>,
    sizes: &[usize],
    feed: &F,
    what: &str,
    ctl: &Control,
) -> Result<Frozen<F::Count>, SearchError> {
    let mut frozen = Frozen::with_shard_sizes(sizes, what)?;
    let regions = (frozen.regions().into_iter())
        .map(|r| Some(Mutex::new(r)))
        .collect();
    let regions = accumulate_into(chunks, regions, feed, what, ctl)?;
    let wides = regions
        .into_iter()
        .flatten()
        .map(|r| r.into_wide())
        .collect();
    frozen.absorb(wides)?;
    Ok(frozen)
}

/// The step itself: the pairs of every chunk, batched per shard, summed
/// into `targets[shard]` (dropped where it is `None`); the targets back.
fn accumulate_into<F: Feed, T: Sum<F::Count>>(
    chunks: Vec<F::Chunk>,
    targets: Vec<Option<Mutex<T>>>,
    feed: &F,
    what: &str,
    ctl: &Control,
) -> Result<Vec<Option<T>>, SearchError> {
    let flush = |shard: usize, batch: &mut Vec<(u64, F::Count)>| -> Result<(), SearchError> {
        let Some(target) = &targets[shard] else {
            batch.clear();
            return Ok(());
        };
        let mut target = target.lock().unwrap_or_else(|e| e.into_inner());
        let added = target.add_all(batch, what);
        batch.clear();
        added
    };
    let kept: Vec<bool> = targets.iter().map(Option::is_some).collect();
    chunks.into_par_iter().try_for_each_init(
        || -> Vec<Vec<(u64, F::Count)>> {
            (0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect()
        },
        |batches, chunk| -> Result<(), SearchError> {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            // The first error stops the flushing; the chunk runs out unflushed.
            let mut result = Ok(());
            feed.feed(chunk, &mut |key, count| {
                let shard = shard_of(key);
                if !kept[shard] {
                    return;
                }
                let batch = &mut batches[shard];
                batch.push((key, count));
                if batch.len() == BATCH && result.is_ok() {
                    result = flush(shard, batch);
                }
            })?;
            result?;
            for (shard, batch) in batches.iter_mut().enumerate() {
                if !batch.is_empty() {
                    flush(shard, batch)?;
                }
            }
            Ok(())
        },
    )?;
    if ctl.is_cancelled() {
        return Err(SearchError::Cancelled);
    }
    Ok((targets.into_iter())
        .map(|t| t.map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::with_pool;
    use crate::layers::testing::halves;

    /// [`halves`] on chunks of plain pairs.
    struct Halves;

    impl Feed for Halves {
        type Chunk = Vec<(u64, u64)>;
        type Count = u64;
        fn feed(
            &self,
            chunk: Self::Chunk,
            emit: &mut impl FnMut(u64, u64),
        ) -> Result<(), SearchError> {
            for (k, c) in chunk {
                halves(k, c, emit);
            }
            Ok(())
        }
    }

    #[test]
    fn agrees_with_a_plain_map_for_every_pool_size() {
        let input: Vec<(u64, u64)> = (1..20_000).map(|k| (k, k % 7 + 1)).collect();
        let mut want = std::collections::BTreeMap::new();
        for &(k, c) in &input {
            for child in [k / 2, k / 3] {
                if child != 0 {
                    *want.entry(child).or_insert(0u64) += c;
                }
            }
        }
        for threads in [1, 2, 8] {
            for expected in [0, 100, 50_000] {
                let chunks: Vec<_> = input.chunks(333).map(<[_]>::to_vec).collect();
                let ctl = Control::new();
                let tables =
                    with_pool(threads, || accumulate(chunks, expected, &Halves, "t", &ctl))
                        .unwrap()
                        .unwrap();
                let mut got = std::collections::BTreeMap::new();
                for (shard, table) in tables.iter().enumerate() {
                    for (k, c) in table.entries().iter() {
                        assert_eq!(shard_of(k), shard);
                        assert!(got.insert(k, c).is_none());
                    }
                }
                assert_eq!(got, want, "{threads} threads, {expected} expected");
            }
        }
    }

    #[test]
    fn a_frozen_table_finds_every_key_and_only_those() {
        // Keys 1..n, each once, count k * 2^60 (past 64 bits from k = 16).
        struct Once;
        impl Feed for Once {
            type Chunk = Vec<u64>;
            type Count = u128;
            fn feed(
                &self,
                chunk: Vec<u64>,
                emit: &mut impl FnMut(u64, u128),
            ) -> Result<(), SearchError> {
                chunk.into_iter().for_each(|k| emit(k, (k as u128) << 60));
                Ok(())
            }
        }
        let keys: Vec<u64> = (1..5000).collect();
        let mut sizes = vec![0; SHARDS];
        keys.iter().for_each(|&k| sizes[shard_of(k)] += 1);
        let chunks: Vec<Vec<u64>> = keys.chunks(100).map(<[_]>::to_vec).collect();
        let ctl = Control::new();
        let frozen = with_pool(2, || freeze(chunks, &sizes, &Once, "t", &ctl))
            .unwrap()
            .unwrap();
        for k in 1..5000u64 {
            frozen.prefetch(k);
            assert_eq!(frozen.get(k), (k as u128) << 60);
        }
        assert_eq!(frozen.get(5000), 0);
        assert_eq!(frozen.get(u64::MAX), 0);
    }

    #[test]
    fn a_cancelled_step_stops() {
        let ctl = Control::new();
        ctl.cancel();
        let chunks = vec![vec![(5u64, 1u64)]];
        let got = with_pool(2, || accumulate(chunks, 10, &Halves, "t", &ctl)).unwrap();
        assert_eq!(got.err(), Some(SearchError::Cancelled));
    }
}
