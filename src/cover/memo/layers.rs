//! The memo's two passes over its layers (the states grouped by the item
//! they branch on; children always lie in later layers):
//!
//! * forward, [`forward`]: layer by layer in item order, each state's
//!   number of ways to be reached handed to its children, in parallel over
//!   the layer's states, the children summed into their layer's sharded
//!   tables under one lock per table.  The ways reaching "all closed" are
//!   the covers.  A count drops each layer once expanded, so only the
//!   layers still to come are held; a draw keeps them all.
//! * backward, [`backward`]: over kept layers from the last, each state's
//!   count replaced by the covers that finish it (its children's, summed),
//!   which is what a uniform draw reads.

use super::super::problem::Problem;
use super::state::{Children, Layout};
use super::table::{hash, shard_of, Budget, Shard, SHARDS};
use crate::engine::{wanted_threads, Control, LazyPool, Stop, Ticker};
use crate::error::SearchError;
use crate::memory;
use rayon::prelude::*;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// States a task expands, at most: a layer is cut into about eight tasks a
/// thread, but never fewer than [`LEAST_CHUNK`] states a task (starting a
/// task costs about what a few states do).
const CHUNK: usize = 4096;
const LEAST_CHUNK: usize = 64;

/// States a layer needs before its work is shared out: below it the calling
/// thread does it alone (a count that stays this small starts no thread).
/// The unit tests share out every layer, so their small problems take the
/// parallel path too.
const PARALLEL_LEAST: usize = if cfg!(test) { 1 } else { 256 };

/// Whether a layer of `states` states is shared out among `threads`.
fn shared(threads: usize, states: usize) -> bool {
    wanted_threads(threads) > 1 && states >= PARALLEL_LEAST
}

/// The tasks of a layer of `sizes` states a table on `threads` threads:
/// each a run of states through the tables in order, as `(table, entry)`
/// where it starts and the number of states.
fn tasks(sizes: &[usize], threads: usize) -> Vec<(usize, usize, usize)> {
    let total: usize = sizes.iter().sum();
    let chunk = (total / (8 * threads.max(1))).clamp(LEAST_CHUNK, CHUNK);
    let mut out: Vec<(usize, usize, usize)> = Vec::with_capacity(total / chunk + 1);
    for (s, &size) in sizes.iter().enumerate() {
        let mut e = 0;
        while e < size {
            match out.last_mut() {
                Some(task) if task.2 < chunk => {
                    let take = (chunk - task.2).min(size - e);
                    task.2 += take;
                    e += take;
                }
                _ => {
                    let take = chunk.min(size - e);
                    out.push((s, e, take));
                    e += take;
                }
            }
        }
    }
    out
}

/// A table open to additions, alone on its cache lines: two threads
/// adding to neighbouring tables do not pass a line back and forth.
#[repr(align(128))]
#[derive(Default)]
struct Open(Mutex<Shard>);

fn locked(m: &Open) -> MutexGuard<'_, Shard> {
    // A worker that panicked is reported by rayon; its table is not read.
    m.0.lock().unwrap_or_else(|e| e.into_inner())
}

fn sum(a: u128, b: u128) -> Result<u128, SearchError> {
    a.checked_add(b).ok_or(SearchError::Overflow)
}

/// A layer still open to additions: its tables, made by the first child
/// that comes to it (a problem of millions of items holds only the layers
/// some state reaches, not one set of tables an item).
type Pending = OnceLock<Vec<Open>>;

fn open_layer() -> Vec<Open> {
    (0..SHARDS).map(|_| Open::default()).collect()
}

/// The table of `later` (the layers after `item`) where a child branching
/// on `j`, hashed `h`, is summed.
fn table_of(later: &[Pending], item: u32, j: u32, h: u64) -> &Open {
    &later[(j - item - 1) as usize].get_or_init(open_layer)[shard_of(h)]
}

/// The covers of `p`, by the forward pass on `threads` threads, and (with
/// `keep`) every layer, each state with its ways to be reached.
pub(super) fn forward(
    p: &Problem,
    lay: &Layout,
    budget: &Budget,
    threads: usize,
    keep: bool,
    ctl: &Control,
) -> Result<(u128, Vec<Vec<Shard>>), SearchError> {
    let np = p.n_primary();
    let root = lay.root();
    let Some(first) = lay.branch(&root, 0) else {
        return Ok((1, Vec::new())); // nothing to cover: the empty set covers it
    };
    let what = "the memo's layers";
    let mut pending: Vec<Pending> = memory::try_with_capacity(np, what)?;
    pending.resize_with(np, OnceLock::new);
    let h = hash(&root);
    let table = &pending[first as usize].get_or_init(open_layer)[shard_of(h)];
    locked(table).add(&root, h, 1, budget)?;
    let mut kept = Vec::new();
    let mut total = 0u128;
    ctl.start(np);
    let mut pool = LazyPool::new(threads);
    for i in 0..np {
        let Some(open) = pending[i].take() else {
            // No state branches on this item.
            if keep {
                kept.push(Vec::new());
            }
            ctl.finish_one();
            continue;
        };
        let mut layer: Vec<Shard> = (open.into_iter())
            .map(|m| m.0.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let states: usize = layer.iter().map(Shard::len).sum();
        ctl.note(format!("{states} states in the layer"));
        let later = &pending[i + 1..];
        let item = i as u32;
        let ways = if shared(threads, states) {
            pool.install(|| expand(p, lay, budget, &layer, item, later, true, ctl))??
        } else {
            expand(p, lay, budget, &layer, item, later, false, ctl)?
        };
        total = sum(total, ways)?;
        if keep {
            kept.push(layer);
        } else {
            layer.iter_mut().for_each(|s| s.release(budget));
        }
        ctl.finish_one();
    }
    Ok((total, kept))
}

/// Hand the ways of every state of `layer` (which branches on `item`) to
/// its children in `later` (the layers after it), on the pool it runs in if
/// `parallel`, else on the calling thread; the ways of the children with
/// everything closed, summed.
#[allow(clippy::too_many_arguments)] // the pass's parts, each needed
fn expand(
    p: &Problem,
    lay: &Layout,
    budget: &Budget,
    layer: &[Shard],
    item: u32,
    later: &[Pending],
    parallel: bool,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let words = lay.words;
    let sizes: Vec<usize> = layer.iter().map(Shard::len).collect();
    let stop = Stop::new(ctl);
    let task = |(children, ticker): &mut (Children, Ticker),
                &(mut s, mut e, n): &(usize, usize, usize)|
     -> Result<u128, SearchError> {
        let mut done = 0u128;
        for _ in 0..n {
            while e == sizes[s] {
                (s, e) = (s + 1, 0);
            }
            ticker.tick(&stop)?;
            let shard = &layer[s];
            let ways = shard.counts[e];
            children.reset(shard.key(e, words), item);
            e += 1;
            while let Some(child) = children.next() {
                match lay.branch(child, item + 1) {
                    None => done = sum(done, ways)?,
                    Some(j) => {
                        let h = hash(child);
                        locked(table_of(later, item, j, h)).add(child, h, ways, budget)?;
                    }
                }
            }
        }
        Ok(done)
    };
    let fresh = || (Children::new(lay, p), Ticker::new());
    if !parallel {
        let mut own = fresh();
        return tasks(&sizes, 1)
            .iter()
            .try_fold(0, |acc, t| sum(acc, task(&mut own, t)?));
    }
    tasks(&sizes, rayon::current_num_threads())
        .par_iter()
        .map_init(fresh, task)
        .try_reduce(|| 0, sum)
}

/// The covers that finish `state` (a state of a kept memo, `layers`):
/// 1 where all is closed, 0 where the forward pass never reached it.
pub(super) fn covers_of(lay: &Layout, layers: &[Vec<Shard>], state: &[u64]) -> u128 {
    let Some(j) = lay.branch(state, 0) else {
        return 1;
    };
    found(layers.get(j as usize), state, lay.words)
}

/// The count of `state` in `layer`, if kept there; else 0.
fn found(layer: Option<&Vec<Shard>>, state: &[u64], words: usize) -> u128 {
    let h = hash(state);
    let Some(shard) = layer.and_then(|l| l.get(shard_of(h))) else {
        return 0;
    };
    shard.get(state, h, words).map_or(0, |e| shard.counts[e])
}

/// Replace every kept state's ways by the covers that finish it, from the
/// last layer back, each layer's tables in parallel on `threads` threads.
pub(super) fn backward(
    p: &Problem,
    lay: &Layout,
    layers: &mut [Vec<Shard>],
    threads: usize,
    ctl: &Control,
) -> Result<(), SearchError> {
    let stop = Stop::new(ctl);
    let words = lay.words;
    let mut pool = LazyPool::new(threads);
    for i in (0..layers.len()).rev() {
        let (head, later) = layers.split_at_mut(i + 1);
        let later = &*later;
        let item = i as u32;
        let finish = |(children, ticker): &mut (Children, Ticker),
                      shard: &mut Shard|
         -> Result<(), SearchError> {
            let Shard { keys, counts, .. } = shard;
            for (e, count) in counts.iter_mut().enumerate() {
                ticker.tick(&stop)?;
                children.reset(&keys[e * words..(e + 1) * words], item);
                let mut covers = 0u128;
                while let Some(child) = children.next() {
                    let c = match lay.branch(child, item + 1) {
                        None => 1,
                        Some(j) => found(later.get((j - item - 1) as usize), child, words),
                    };
                    covers = sum(covers, c)?;
                }
                *count = covers;
            }
            Ok(())
        };
        let fresh = || (Children::new(lay, p), Ticker::new());
        let layer = &mut head[i];
        let states: usize = layer.iter().map(Shard::len).sum();
        if shared(threads, states) {
            pool.install(|| layer.par_iter_mut().try_for_each_init(fresh, finish))??;
        } else {
            let mut own = fresh();
            layer
                .iter_mut()
                .try_for_each(|shard| finish(&mut own, shard))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tasks_of_a_layer_take_every_state_once_in_order() {
        let layers = [
            vec![0, 0, 5, 0, 3],
            vec![],
            vec![100; 64],
            vec![0; 64],
            vec![1, 0, 9000, 7],
        ];
        for sizes in layers {
            let want: Vec<(usize, usize)> = (sizes.iter().enumerate())
                .flat_map(|(s, &n)| (0..n).map(move |e| (s, e)))
                .collect();
            for threads in [1, 2, 8] {
                let mut seen = Vec::new();
                for (mut s, mut e, n) in super::tasks(&sizes, threads) {
                    for _ in 0..n {
                        while e == sizes[s] {
                            (s, e) = (s + 1, 0);
                        }
                        seen.push((s, e));
                        e += 1;
                    }
                }
                assert_eq!(seen, want, "{sizes:?} on {threads}");
            }
        }
    }
}
