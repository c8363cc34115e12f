//! The memo's two passes over its layers (the states grouped by the item
//! they branch on; children always lie in later layers):
//!
//! * forward, [`forward`]: layer by layer in item order, each state's
//!   number of ways to be reached handed to its children, in parallel over
//!   the layer's states, the children summed into their layer's sharded
//!   tables.  A small layer on one thread sums each child as it is found.
//!   A layer shared out, or too large for a core's cache, goes in rounds:
//!   the round's tasks gather their children by table, then each table's
//!   column (the same table of every later layer) is summed by one worker.
//!   So no two workers write one table at once, and a table's lines stay
//!   with one core (a child summed as found, under one lock per table, sent
//!   them back and forth and scaled poorly), in cache while it is summed
//!   into.  The ways reaching "all closed" are the covers.  A count drops
//!   each layer once expanded, so only the layers still to come are held;
//!   a draw keeps them all.
//! * backward, [`backward`]: over kept layers from the last, each state's
//!   count replaced by the covers that finish it (its children's, summed),
//!   which is what a uniform draw reads.

use super::super::problem::Problem;
use super::state::{Children, Layout};
use super::table::{append, entry_bytes, hash, shard_of, Budget, Shard, SHARDS};
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

/// Bytes of a layer's tables past which its children are gathered by
/// table even on one thread: summed as found, each child goes to a table
/// anywhere in layers larger than a core's cache, gathered, each table's
/// children are summed together while it is in cache (on 10x10
/// tetrominoes a third of the time, and no slower on the smaller
/// instances of `benches/memo_bench.py`; docs/performance.md).
const GATHER_BYTES: u64 = 1 << 20;

/// Whether the forward pass expands a layer of `states` states, of keys
/// of `words` words, by [`expand_gathered`] (else [`expand_alone`]).
fn gathered_out(threads: usize, states: usize, words: usize) -> bool {
    shared(threads, states) || states as u64 * entry_bytes(words) >= GATHER_BYTES
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

fn times(a: u128, b: u128) -> Result<u128, SearchError> {
    a.checked_mul(b).ok_or(SearchError::Overflow)
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
    let mut key = vec![0; lay.key_most];
    let key = lay.pack(&root, first, &mut key);
    let h = hash(key);
    let table = &pending[first as usize].get_or_init(open_layer)[shard_of(h)];
    locked(table).add(key, h, 1, budget)?;
    let mut pass = Forward {
        p,
        lay,
        budget,
        threads,
        keep,
        ctl,
        pending,
        kept: Vec::new(),
        total: 0,
        gathered: Vec::new(),
    };
    ctl.start(np);
    // The layers run on the calling thread until one is gathered, then all
    // the rest on the pool, started then (a pool entered once a layer woke
    // a sleeping worker for each layer and slept until it was done: a few
    // context switches a layer, more than a small count's work).
    let mut pool = LazyPool::new(threads);
    for i in 0..np {
        let layer = pass.take(i);
        let states = layer.as_ref().map_or(0, |l| l.iter().map(Shard::len).sum());
        if gathered_out(threads, states, lay.key_words(i as u32)) {
            pool.install(|| {
                pass.expand(i, layer)?;
                (i + 1..np).try_for_each(|k| {
                    let layer = pass.take(k);
                    pass.expand(k, layer)
                })
            })??;
            break;
        }
        pass.expand(i, layer)?;
    }
    let Forward {
        kept,
        total,
        gathered,
        ..
    } = pass;
    gathered.iter().for_each(|g: &Gathered| g.release(budget));
    budget.drop_spares();
    Ok((total, kept))
}

/// The forward pass's parts and what it has done so far.
struct Forward<'a> {
    p: &'a Problem,
    lay: &'a Layout,
    budget: &'a Budget,
    threads: usize,
    keep: bool,
    ctl: &'a Control,
    /// The layers still open to additions, by the item they branch on.
    pending: Vec<Pending>,
    /// The layers expanded (with `keep`).
    kept: Vec<Vec<Shard>>,
    /// The ways of the states with everything closed.
    total: u128,
    /// The rounds' buffers, kept from layer to layer.
    gathered: Vec<Gathered>,
}

impl Forward<'_> {
    /// Layer `i`, closed to additions (all the layers before it are
    /// expanded); `None` where no state branches on item `i`.
    fn take(&mut self, i: usize) -> Option<Vec<Shard>> {
        let open = self.pending[i].take()?;
        let tables = open.into_iter();
        Some(
            tables
                .map(|m| m.0.into_inner().unwrap_or_else(|e| e.into_inner()))
                .collect(),
        )
    }

    /// Expand `layer`, layer `i`: its ways handed to its children in later
    /// layers (by [`expand_gathered`] on the pool it runs in where the
    /// layer is gathered, else on the calling thread).
    fn expand(&mut self, i: usize, layer: Option<Vec<Shard>>) -> Result<(), SearchError> {
        let Forward { p, lay, budget, .. } = *self;
        let (threads, ctl) = (self.threads, self.ctl);
        let Some(layer) = layer else {
            if self.keep {
                self.kept.push(Vec::new());
            }
            ctl.finish_one();
            return Ok(());
        };
        let states: usize = layer.iter().map(Shard::len).sum();
        ctl.note(format!("{states} states in the layer"));
        let later = &self.pending[i + 1..];
        let item = i as u32;
        let ways = if gathered_out(threads, states, lay.key_words(item)) {
            let g = &mut self.gathered;
            expand_gathered(p, lay, budget, &layer, item, later, g, ctl)?
        } else {
            expand_alone(p, lay, budget, &layer, item, later, ctl)?
        };
        self.total = sum(self.total, ways)?;
        if self.keep {
            self.kept.push(layer);
        } else {
            layer.into_iter().for_each(|s| budget.put_back(s));
        }
        ctl.finish_one();
        Ok(())
    }
}

/// Hand the ways of every state of `layer` (which branches on `item`) to
/// its children in `later` (the layers after it) on the calling thread;
/// the ways of the children with everything closed, summed.
fn expand_alone(
    p: &Problem,
    lay: &Layout,
    budget: &Budget,
    layer: &[Shard],
    item: u32,
    later: &[Pending],
    ctl: &Control,
) -> Result<u128, SearchError> {
    let stop = Stop::new(ctl);
    let mut walker = Walker::new(lay, p);
    let words = lay.key_words(item);
    let mut done = 0u128;
    for shard in layer {
        for e in 0..shard.len() {
            walker.ticker.tick(&stop)?;
            let ways = shard.counts[e];
            let closed = walker.hand_down(lay, shard.key(e, words), item, |child, j, h| {
                locked(table_of(later, item, j, h)).add(child, h, ways, budget)
            })?;
            done = sum(done, times(ways, closed)?)?;
        }
    }
    Ok(done)
}

/// A worker's walk over states' children: the walk, a buffer for the
/// children's keys, and the worker's ticker.
struct Walker<'a> {
    children: Children<'a>,
    key: Vec<u64>,
    ticker: Ticker,
}

impl<'a> Walker<'a> {
    fn new(lay: &'a Layout, p: &'a Problem) -> Walker<'a> {
        Walker {
            children: Children::new(lay, p),
            key: vec![0; lay.key_most],
            ticker: Ticker::new(),
        }
    }

    /// The children of the state keyed `key` of layer `item`, each still
    /// open handed to `to` as its key, the layer it branches on and its
    /// hash; how many children close every item.
    #[inline(always)]
    fn hand_down(
        &mut self,
        lay: &Layout,
        key: &[u64],
        item: u32,
        mut to: impl FnMut(&[u64], u32, u64) -> Result<(), SearchError>,
    ) -> Result<u128, SearchError> {
        let Walker {
            children, key: buf, ..
        } = self;
        children.reset_key(key, item);
        let mut closed = 0u128;
        while let Some(child) = children.next() {
            match lay.branch(child, item + 1) {
                None => closed += 1,
                Some(j) => {
                    let key = lay.pack(child, j, buf);
                    to(key, j, hash(key))?
                }
            }
        }
        Ok(closed)
    }
}

/// [`expand_alone`] on the pool it runs in (the pool of the calling
/// thread, or rayon's global pool), in rounds, each round's
/// children gathered by table and then summed a table at a time (see the
/// module docs), with `gathered` the rounds' buffers (kept from layer to
/// layer, so that a round allocates nothing once the first have grown).
#[allow(clippy::too_many_arguments)] // the pass's parts, each needed
fn expand_gathered(
    p: &Problem,
    lay: &Layout,
    budget: &Budget,
    layer: &[Shard],
    item: u32,
    later: &[Pending],
    gathered: &mut Vec<Gathered>,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let sizes: Vec<usize> = layer.iter().map(Shard::len).collect();
    let stop = Stop::new(ctl);
    let threads = rayon::current_num_threads();
    let mut done = 0u128;
    for round in rounds(&tasks(&sizes, threads), ROUND * threads) {
        if gathered.len() < round.len() {
            gathered.resize_with(round.len(), Gathered::default);
        }
        (gathered[..round.len()].par_iter_mut().zip(round)).try_for_each_init(
            || Walker::new(lay, p),
            |walker, (into, &task)| {
                into.gather(layer, &sizes, task, item, lay, walker, &stop, budget)
            },
        )?;
        let gathered = &gathered[..round.len()];
        (0..SHARDS)
            .into_par_iter()
            .try_for_each_init(Ticker::new, |ticker, t| {
                for g in gathered {
                    let found = &g.by_table[t].words;
                    let mut at = 0;
                    while at < found.len() {
                        ticker.tick(&stop)?;
                        let (after, parent) = ((found[at] >> 32) as usize, found[at] as u32);
                        let words = lay.key_words(item + 1 + after as u32);
                        let key = &found[at + 1..at + 1 + words];
                        let table = &later[after].get_or_init(open_layer)[t];
                        locked(table).add(key, hash(key), g.ways[parent as usize], budget)?;
                        at += 1 + words;
                    }
                }
                Ok::<(), SearchError>(())
            })?;
        for g in gathered {
            done = sum(done, g.done)?;
        }
    }
    Ok(done)
}

/// States a thread in one round of a shared-out layer, at most: a layer
/// of this size goes in one round (each round waits twice for its slowest
/// task), a larger one in several, so that the children held at once stay
/// a few megabytes a thread.
const ROUND: usize = 1 << 16;

/// `tasks` cut into rounds of at most `most` states (a task too large
/// alone is a round alone).
fn rounds(tasks: &[(usize, usize, usize)], most: usize) -> Vec<&[(usize, usize, usize)]> {
    let mut out = Vec::new();
    let (mut start, mut states) = (0, 0);
    for (k, task) in tasks.iter().enumerate() {
        if k > start && states + task.2 > most {
            out.push(&tasks[start..k]);
            (start, states) = (k, 0);
        }
        states += task.2;
    }
    if start < tasks.len() {
        out.push(&tasks[start..]);
    }
    out
}

/// The children one task of a round found: the ways of those with
/// everything closed, the ways of the task's states in order, and the
/// other children by table.
#[derive(Default)]
struct Gathered {
    done: u128,
    ways: Vec<u128>,
    by_table: Vec<Found>,
}

/// The children a task found for one table of every later layer, flat:
/// each a word with its layer after the expanded one (high half) and its
/// state's place in the task (low half), then its key (as long as its
/// layer's keys).  Eight bytes and the key a child, not its hash and ways
/// too: 16 bytes a child instead of 40 on 16x16 dominoes.
#[derive(Default)]
struct Found {
    words: Vec<u64>,
    /// The bytes charged to the budget for these.
    charged: u64,
}

impl Found {
    #[inline(always)]
    fn push(
        &mut self,
        after: u32,
        parent: u32,
        key: &[u64],
        budget: &Budget,
    ) -> Result<(), SearchError> {
        if self.words.capacity() - self.words.len() <= key.len() {
            let more = self.words.len().max(64 * (1 + key.len()));
            let bytes = 8 * more as u64;
            budget.take(bytes)?;
            self.charged += bytes;
            memory::try_reserve(&mut self.words, more, "the memo's children of a round")?;
        }
        self.words.push((after as u64) << 32 | parent as u64);
        append(&mut self.words, key);
        Ok(())
    }
}

impl Gathered {
    /// The children of the `n` states of `layer` from table `s`, entry `e`
    /// on (a task of [`tasks`]), which branch on `item`, in place of the
    /// last round's.
    #[allow(clippy::too_many_arguments)] // a task's parts and its worker's
    fn gather(
        &mut self,
        layer: &[Shard],
        sizes: &[usize],
        (mut s, mut e, n): (usize, usize, usize),
        item: u32,
        lay: &Layout,
        walker: &mut Walker,
        stop: &Stop,
        budget: &Budget,
    ) -> Result<(), SearchError> {
        if self.by_table.is_empty() {
            self.by_table.resize_with(SHARDS, Found::default);
        }
        for f in &mut self.by_table {
            f.words.clear();
        }
        self.ways.clear();
        self.ways.reserve(n); // a task's states: at most CHUNK
        self.done = 0;
        let words = lay.key_words(item);
        for _ in 0..n {
            while e == sizes[s] {
                (s, e) = (s + 1, 0);
            }
            walker.ticker.tick(stop)?;
            let shard = &layer[s];
            let ways = shard.counts[e];
            let parent = self.ways.len() as u32;
            self.ways.push(ways);
            let by_table = &mut self.by_table;
            let closed = walker.hand_down(lay, shard.key(e, words), item, |child, j, h| {
                by_table[shard_of(h)].push(j - item - 1, parent, child, budget)
            })?;
            self.done = sum(self.done, times(ways, closed)?)?;
            e += 1;
        }
        Ok(())
    }

    /// Give the buffers' bytes back to `budget` (they are being dropped).
    fn release(&self, budget: &Budget) {
        self.by_table.iter().for_each(|f| budget.give(f.charged));
    }
}

/// The covers that finish `state` (a state of a kept memo, `layers`):
/// 1 where all is closed, 0 where the forward pass never reached it.
pub(super) fn covers_of(lay: &Layout, layers: &[Vec<Shard>], state: &[u64]) -> u128 {
    let Some(j) = lay.branch(state, 0) else {
        return 1;
    };
    let mut key = vec![0; lay.key_most];
    let key = lay.pack(state, j, &mut key);
    found(layers.get(j as usize), key, hash(key))
}

/// The count of the state keyed `key` (hashed `h`) in `layer`, if kept
/// there; else 0.
fn found(layer: Option<&Vec<Shard>>, key: &[u64], h: u64) -> u128 {
    let Some(shard) = layer.and_then(|l| l.get(shard_of(h))) else {
        return 0;
    };
    shard.get(key, h, key.len()).map_or(0, |e| shard.counts[e])
}

/// Replace every kept state's ways by the covers that finish it, from the
/// last layer back, each layer's tables in parallel on `threads` threads
/// (on the pool from the first layer shared out on, as in [`forward`]).
pub(super) fn backward(
    p: &Problem,
    lay: &Layout,
    layers: &mut [Vec<Shard>],
    threads: usize,
    ctl: &Control,
) -> Result<(), SearchError> {
    let stop = Stop::new(ctl);
    let mut pool = LazyPool::new(threads);
    for i in (0..layers.len()).rev() {
        let states: usize = layers[i].iter().map(Shard::len).sum();
        if shared(threads, states) {
            let rest = |k| finish_layer(p, lay, layers, k, threads, &stop);
            return pool.install(|| (0..=i).rev().try_for_each(rest))?;
        }
        finish_layer(p, lay, layers, i, threads, &stop)?;
    }
    Ok(())
}

/// [`backward`] for layer `i` (the layers after it finished), its tables
/// in parallel on the pool it runs in where the layer is shared out.
fn finish_layer(
    p: &Problem,
    lay: &Layout,
    layers: &mut [Vec<Shard>],
    i: usize,
    threads: usize,
    stop: &Stop,
) -> Result<(), SearchError> {
    let (head, later) = layers.split_at_mut(i + 1);
    let later = &*later;
    let item = i as u32;
    let words = lay.key_words(item);
    let finish = |walker: &mut Walker, shard: &mut Shard| -> Result<(), SearchError> {
        let Shard { keys, counts, .. } = shard;
        for (e, count) in counts.iter_mut().enumerate() {
            walker.ticker.tick(stop)?;
            let state = &keys[e * words..(e + 1) * words];
            let mut covers = 0u128;
            let closed = walker.hand_down(lay, state, item, |child, j, h| {
                let after = later.get((j - item - 1) as usize);
                covers = sum(covers, found(after, child, h))?;
                Ok(())
            })?;
            *count = sum(covers, closed)?;
        }
        Ok(())
    };
    let fresh = || Walker::new(lay, p);
    let layer = &mut head[i];
    let states: usize = layer.iter().map(Shard::len).sum();
    if shared(threads, states) {
        layer.par_iter_mut().try_for_each_init(fresh, finish)
    } else {
        let mut own = fresh();
        layer
            .iter_mut()
            .try_for_each(|shard| finish(&mut own, shard))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rounds_take_every_task_once_in_order_within_their_states() {
        let tasks: Vec<(usize, usize, usize)> = [5, 7, 1, 20, 3, 3, 3, 9]
            .iter()
            .enumerate()
            .map(|(k, &n)| (k, 0, n))
            .collect();
        for most in [1, 6, 10, 20, 100] {
            let rounds = super::rounds(&tasks, most);
            assert_eq!(rounds.concat(), tasks, "{most}");
            for round in rounds {
                let states: usize = round.iter().map(|t| t.2).sum();
                assert!(round.len() == 1 || states <= most, "{round:?} past {most}");
            }
        }
        assert!(super::rounds(&[], 8).is_empty());
    }

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
