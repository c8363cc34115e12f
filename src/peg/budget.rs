//! The peg DP within a memory budget: a search (a [`Side`]) keeps its
//! newest layer as the layer engine's stored shards ([`Stored`]: in memory,
//! or in checked files past the budget), and every step, expanding or
//! joining, is a step of the engine ([`crate::layers::step`]), which spills
//! when the step would not fit.
//!
//! Joining two searches must not need a whole layer in one table (the
//! in-memory [`meet`](super::meet) indexes one side whole).  Here one side
//! is first *re-keyed*: every position's count goes to the key the other
//! search has for it (its canonical complement, or, across one jump, the
//! complement of each child: [`Rule::Complement`],
//! [`Rule::ChildComplements`]), summed per key by an engine step.  Keys
//! that are equal land in the same shard on both sides, so the join is
//! shard by shard: shard `j` of the other side indexed in a small table,
//! shard `j` of the re-keyed side looked up in it.  The join is linear in
//! the re-keyed side, so summing its counts per key first gives the same
//! number as the in-memory join.

use super::expand::Rule;
use super::{Layer, PegGeometry};
use crate::engine::{with_pool, Control};
use crate::error::{CountError, SearchError};
use crate::layers::checkpoint::{self, Saved};
use crate::layers::U256;
use crate::layers::{
    accumulate_some, mix, step, Entries, Feed, Packed, ShardTable, Spill, Spilling, Stored, SHARDS,
};
use crate::memory::try_with_capacity;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Positions per task (and between two looks at the cancel flag).
const CHUNK: usize = 2048;

/// What the tables are, in a memory error.
const TABLES: &str = "the peg layer tables";

/// One search of a count within a budget: its newest layer of `pegs` pegs,
/// the size of the layer before (which predicts the next), the budget and
/// directory it spills into (shared by the count's searches), and the tag
/// its files carry.
pub struct Side {
    pegs: u32,
    layer: Stored<u128>,
    parents: usize,
    spill: Arc<Spill>,
    tag: u64,
}

impl Side {
    /// A search from every hole full but `empty`; `tag` names the search
    /// in its files (the board and which end it starts from).
    pub fn start(
        geometry: &PegGeometry,
        empty: &[usize],
        tag: u64,
        spill: Arc<Spill>,
    ) -> Result<Side, CountError> {
        let start = geometry.start(empty)?;
        let entries: Vec<(u64, u128)> = start.keys.iter().map(|&key| (key, 1)).collect();
        let layer = Stored::by_shard(&entries, layer_tag(tag, start.pegs))?;
        Ok(Side {
            pegs: start.pegs,
            layer,
            parents: 0,
            spill,
            tag,
        })
    }

    /// The search whose newest layer is `layer` (held in memory), as the
    /// search `tag` (so a layer kept whole can be saved, and resumed, in a
    /// checkpoint directory as a search within a budget is).
    pub fn from_layer(layer: &Layer, tag: u64, spill: Arc<Spill>) -> Result<Side, SearchError> {
        let what = "a peg layer kept in a checkpoint";
        let mut entries = try_with_capacity(layer.len(), what)?;
        entries.extend(layer.keys.iter().copied().zip(layer.counts.iter().copied()));
        Ok(Side {
            pegs: layer.pegs,
            layer: Stored::by_shard(&entries, layer_tag(tag, layer.pegs))?,
            parents: layer.parents,
            spill,
            tag,
        })
    }

    pub fn pegs(&self) -> u32 {
        self.pegs
    }

    pub fn len(&self) -> usize {
        self.layer.len()
    }

    pub fn is_empty(&self) -> bool {
        self.layer.is_empty()
    }

    /// The budget and directory this search spills into.
    pub fn spill(&self) -> &Arc<Spill> {
        &self.spill
    }

    /// The number of sequences reaching any position of the layer.
    pub fn total(&self) -> Result<u128, SearchError> {
        let sum = self
            .layer
            .try_fold(0u128, |sum, _, count| sum.checked_add(count))?;
        sum.ok_or(SearchError::Overflow)
    }

    /// The layer whole, in memory (for the small last layers).
    pub fn to_layer(&self) -> Result<Layer, SearchError> {
        let what = "a peg layer read whole";
        let mut keys = try_with_capacity(self.len(), what)?;
        let mut counts = try_with_capacity(self.len(), what)?;
        self.layer.try_fold((), |(), key, count| {
            keys.push(key);
            counts.push(count);
            Some(())
        })?;
        Ok(Layer {
            pegs: self.pegs,
            keys,
            counts,
            parents: self.parents,
        })
    }

    /// Save the layer into the checkpoint directory `dir` of the count
    /// tagged `problem`, as this search's newest (see
    /// [`crate::layers::checkpoint`]: a kill at any moment leaves the last
    /// layer saved whole).
    pub fn save(&self, dir: &Path, problem: u64, ctl: &Control) -> Result<(), SearchError> {
        let extras = [(PEGS, u64::from(self.pegs)), (PARENTS, self.parents as u64)];
        let step = u64::from(64 - self.pegs.min(64));
        checkpoint::save(dir, problem, step, &self.layer, &extras, ctl).map(drop)
    }

    /// The search `tag` saved in `dir` for the count tagged `problem`,
    /// within `spill` (its shards are read from the checkpoint's file when
    /// needed); `None` if nothing is saved there yet.
    pub fn resume(
        dir: &Path,
        problem: u64,
        tag: u64,
        spill: Arc<Spill>,
    ) -> Result<Option<Side>, SearchError> {
        let saved = match checkpoint::load(dir, problem)? {
            None => return Ok(None),
            Some(Saved::Layer(saved)) => saved,
            Some(Saved::Done { .. }) => {
                return Err(SearchError::Corrupt(format!(
                    "the checkpoint in {} holds an answer where a search's layer belongs;                      it cannot be used",
                    dir.display()
                )))
            }
        };
        let pegs = u32::try_from(saved.extras.get(PEGS)?).unwrap_or(u32::MAX);
        let parents = usize::try_from(saved.extras.get(PARENTS)?).unwrap_or(usize::MAX);
        if pegs > 64 || saved.step != u64::from(64 - pegs) || saved.tag != layer_tag(tag, pegs) {
            return Err(SearchError::Corrupt(format!(
                "the checkpoint in {} holds a layer of another search; it cannot be used",
                dir.display()
            )));
        }
        Ok(Some(Side {
            pegs,
            layer: saved.stored()?,
            parents,
            spill,
            tag,
        }))
    }

    /// About how many distinct keys a step makes from this layer, and the
    /// most it is likely to make (what a budget is planned for): the size
    /// times the growth of the step before (twice the size for a first
    /// step), and a quarter more for the bound.
    fn sizes(&self) -> (usize, usize) {
        let n = self.len();
        let growth = match self.parents {
            0 => 2.0,
            parents => (n as f64 / parents as f64).clamp(0.25, 8.0),
        };
        let guess = ((n as f64 * growth * 1.1) as usize).max(64 * SHARDS);
        (guess, (n as f64 * growth * 1.25) as usize)
    }
}

/// The names of what a checkpoint keeps beside a search's layer.
const PEGS: &str = "pegs";
const PARENTS: &str = "parents";

/// The answer recorded in the checkpoint directory `dir` of the count
/// tagged `problem` by [`save_answer`], if any (a layer there is not one).
pub fn saved_answer(dir: &Path, problem: u64) -> Result<Option<u128>, SearchError> {
    Ok(match checkpoint::load(dir, problem)? {
        Some(Saved::Done { answer, .. }) => Some(answer.to_u128().ok_or(SearchError::Overflow)?),
        _ => None,
    })
}

/// Record the count's answer in its checkpoint directory.
pub fn save_answer(dir: &Path, problem: u64, answer: u128) -> Result<(), SearchError> {
    checkpoint::finish(dir, problem, U256::from(answer), &[])
}

/// The tag of a layer's files: the search's tag and the layer's pegs.
fn layer_tag(tag: u64, pegs: u32) -> u64 {
    mix(tag ^ u64::from(pegs))
}

/// The tag of a re-keyed layer's files (never a layer's).
fn rekeyed_tag(tag: u64, pegs: u32) -> u64 {
    mix(tag ^ u64::from(pegs) ^ 0x6a6f_696e << 32)
}

/// The games that end in a layer, tallied while a step expands it: the
/// counts of its positions that have no child (see [`super::games`]), so a
/// layer in files is read once for both.  A step that does not fit may
/// read its input several times (a pass per range of output shards), but
/// always the whole input once before any entry again: only the entries of
/// that first reading are tallied.
struct StuckTally {
    /// The entries of the input.
    entries: usize,
    /// The entries handed to the step's expansions so far.
    read: AtomicUsize,
    /// The sum so far; `None` once it has passed 128 bits.
    sum: Mutex<Option<u128>>,
}

impl StuckTally {
    fn new(entries: usize) -> StuckTally {
        StuckTally {
            entries,
            read: AtomicUsize::new(0),
            sum: Mutex::new(Some(0)),
        }
    }

    /// Whether a reading of `entries` more entries is the first reading.
    fn first_reading(&self, entries: usize) -> bool {
        self.read.fetch_add(entries, Ordering::Relaxed) < self.entries
    }

    fn add(&self, part: Option<u128>) {
        let mut sum = self.sum.lock().unwrap_or_else(|e| e.into_inner());
        *sum = sum.and_then(|sum| part.and_then(|part| sum.checked_add(part)));
    }

    fn total(self) -> Result<u128, SearchError> {
        let sum = self.sum.into_inner().unwrap_or_else(|e| e.into_inner());
        sum.ok_or(SearchError::Overflow)
    }
}

/// The peg's rules on the entries of stored shards, and where the games
/// that end are tallied (`None`: not in this reading, or not a step that
/// expands).
struct OnEntries<'a>(Rule<'a>, Option<&'a StuckTally>);

impl<'a> Feed for OnEntries<'a> {
    type Chunk = Entries<'a, u128>;
    type Count = u128;

    #[inline]
    fn feed(
        &self,
        chunk: Self::Chunk,
        emit: &mut impl FnMut(u64, u128),
    ) -> Result<(), SearchError> {
        let Some(tally) = self.1 else {
            for (position, count) in chunk.iter() {
                self.0.send(position, count, emit);
            }
            return Ok(());
        };
        // A position that sends nothing has no jump: it is stuck.
        let mut stuck = Some(0u128);
        for (position, count) in chunk.iter() {
            let mut moved = false;
            self.0.send(position, count, &mut |key, c| {
                moved = true;
                emit(key, c)
            });
            if !moved {
                stuck = stuck.and_then(|sum| sum.checked_add(count));
            }
        }
        tally.add(stuck);
        Ok(())
    }
}

/// Where `rule` sends the counts of `side`'s layer, summed per key, as a
/// layer tagged `problem`, within the budget; `idle`, the count's other
/// search if any, keeps its memory while it fits beside the step and is
/// written to disk when it does not.
fn step_side(
    side: &mut Side,
    idle: Option<&mut Side>,
    (rule, tally): (Rule<'_>, Option<&StuckTally>),
    (guess, bound): (usize, usize),
    problem: u64,
    (threads, ctl): (usize, &Control),
) -> Result<Stored<u128>, SearchError> {
    let spill = side.spill.clone();
    let mut held = 0;
    if let Some(idle) = idle {
        let tables = ShardTable::<u128>::bytes_for(bound.max(guess) / SHARDS);
        let need = (side.len() as u64 * 16).saturating_add(tables.saturating_mul(SHARDS as u64));
        if idle.layer.memory_bytes().saturating_add(need) > spill.budget() / 3 * 2 {
            idle.layer.park(&spill, ctl)?;
        }
        held = idle.layer.memory_bytes();
    }
    spill.set_held(held);
    let expand = |shards: &[&Packed<u128>], tables| {
        let chunks: Vec<Entries<'_, u128>> = shards.iter().flat_map(|s| s.chunks(CHUNK)).collect();
        let entries = shards.iter().map(|s| s.len()).sum();
        let tally = tally.filter(|tally| tally.first_reading(entries));
        accumulate_some(chunks, tables, &OnEntries(rule, tally), TABLES, ctl)
    };
    let layer = &mut side.layer;
    let next = with_pool(threads, || {
        step(
            layer,
            (guess, bound),
            problem,
            &spill,
            expand,
            (Spilling::Passes, TABLES),
            ctl,
        )
    });
    spill.set_held(0);
    next?
}

/// `side` one jump further (the layer before is dropped by the caller),
/// and the games that end in `side`'s layer: the sequences reaching its
/// positions with no jump, tallied as the step reads them (a layer in
/// files is read once for both).  `idle`: the count's other search, if any
/// (see [`step_side`]).
pub fn expand_side(
    geometry: &PegGeometry,
    side: &mut Side,
    idle: Option<&mut Side>,
    threads: usize,
    ctl: &Control,
) -> Result<(Side, u128), SearchError> {
    let pegs = side.pegs.saturating_sub(1);
    let problem = layer_tag(side.tag, pegs);
    let sizes = side.sizes();
    let tally = StuckTally::new(side.len());
    let rule = (Rule::Children(geometry), Some(&tally));
    let layer = step_side(side, idle, rule, sizes, problem, (threads, ctl))?;
    let next = Side {
        pegs,
        layer,
        parents: side.len(),
        spill: side.spill.clone(),
        tag: side.tag,
    };
    Ok((next, tally.total()?))
}

/// The number of sequences through two searches whose layers meet
/// (`across`: one jump apart), as [`meet`](super::meet) and
/// [`meet_across`](super::meet_across) count them; `other` is `None` when
/// one search is both sides (start = finish).  `side` is re-keyed, so it
/// should be the smaller.
pub fn meet_sides(
    geometry: &PegGeometry,
    side: &mut Side,
    mut other: Option<&mut Side>,
    across: bool,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let (rule, sizes) = if across {
        (Rule::ChildComplements(geometry), side.sizes())
    } else {
        // At most one key per position.
        (Rule::Complement(geometry), (side.len(), side.len()))
    };
    let problem = rekeyed_tag(side.tag, side.pegs);
    let idle = other.as_deref_mut();
    let rekeyed = step_side(side, idle, (rule, None), sizes, problem, (threads, ctl))?;
    let index_side = match other {
        Some(other) => &other.layer,
        None => &side.layer,
    };
    with_pool(threads, || {
        (0..rekeyed.shards().max(index_side.shards()))
            .into_par_iter()
            .map(|j| {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                if j >= rekeyed.shards() || j >= index_side.shards() {
                    return Ok(0);
                }
                index_side.with_shard(j, |index| {
                    rekeyed.with_shard(j, |keys| join_shard(geometry, keys, index))
                })??
            })
            .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(SearchError::Overflow))
    })?
}

/// The sum over the entries of `keys` of their count times the sequences
/// from the one position of `index` with that key (its orbit's count
/// shared among the orbit's positions).
fn join_shard(
    geometry: &PegGeometry,
    keys: &Packed<u128>,
    index: &Packed<u128>,
) -> Result<u128, SearchError> {
    if keys.is_empty() || index.is_empty() {
        return Ok(0);
    }
    let what = "the index of a shard of a peg layer";
    let mut table = ShardTable::<u128>::with_capacity(index.len(), what, false)?;
    let mut batch = Vec::with_capacity(4096);
    for entries in index.chunks(4096) {
        batch.clear();
        for (position, count) in entries.iter() {
            Rule::PerPosition(geometry).send(position, count, &mut |k, c| batch.push((k, c)));
        }
        table.add_all(&batch, what)?;
    }
    let mut sum = 0u128;
    for (key, count) in keys.entries().iter() {
        sum = count
            .checked_mul(table.get(key))
            .and_then(|term| sum.checked_add(term))
            .ok_or(SearchError::Overflow)?;
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{forward_to_one_peg, rectangle, sorted, IDENTITY};
    use super::super::{expand, finish_counts, meet, meet_across};
    use super::*;

    fn sides(g: &PegGeometry, s: usize, f: usize, budget: u64) -> (Side, Side) {
        let spill = Arc::new(Spill::new(budget, None));
        (
            Side::start(g, &[s], 1, spill.clone()).unwrap(),
            Side::start(g, &[f], 2, spill).unwrap(),
        )
    }

    #[test]
    fn steps_within_any_budget_agree_with_the_in_memory_dp() {
        let ctl = Control::new();
        let mirrored = rectangle(4, 5, &[(false, false), (false, true)]);
        let plain = rectangle(4, 4, IDENTITY);
        let mut checked = 0;
        for (g, s, f) in [(&mirrored, 7, 7), (&plain, 1, 2), (&plain, 1, 14)] {
            let want_all = finish_counts(g, &forward_to_one_peg(g, s));
            let want = want_all
                .iter()
                .filter(|&&(h, _)| h == f)
                .map(|&(_, c)| c)
                .sum::<u128>();
            for budget in [0, 1 << 12, u64::MAX] {
                let (mut a, mut b) = sides(g, s, f, budget);
                // The forward pass, layer by layer against the in-memory one.
                let mut layer = g.start(&[s]).unwrap();
                let mut forward = Side::start(g, &[s], 3, a.spill().clone()).unwrap();
                while forward.pegs() > 1 && !forward.is_empty() {
                    layer = expand(g, &layer, 2, &ctl).unwrap();
                    forward = expand_side(g, &mut forward, None, 2, &ctl).unwrap().0;
                    let got = forward.to_layer().unwrap();
                    assert_eq!((got.pegs, sorted(&got)), (layer.pegs, sorted(&layer)));
                }
                assert_eq!(finish_counts(g, &forward.to_layer().unwrap()), want_all);
                // Meeting, 0 and 1 jumps apart, each side re-keyed.
                let steps = g.holes - 2;
                while (g.holes - 1 - a.pegs() as usize) + (g.holes - 1 - b.pegs() as usize)
                    < steps - 1
                {
                    if a.len() <= b.len() {
                        a = expand_side(g, &mut a, Some(&mut b), 2, &ctl).unwrap().0;
                    } else {
                        b = expand_side(g, &mut b, Some(&mut a), 2, &ctl).unwrap().0;
                    }
                }
                let (la, lb) = (a.to_layer().unwrap(), b.to_layer().unwrap());
                assert_eq!(meet_across(g, &la, &lb, 2, &ctl).unwrap(), want);
                assert_eq!(
                    meet_sides(g, &mut a, Some(&mut b), true, 2, &ctl).unwrap(),
                    want
                );
                assert_eq!(
                    meet_sides(g, &mut b, Some(&mut a), true, 2, &ctl).unwrap(),
                    want
                );
                let a2 = expand_side(g, &mut a, Some(&mut b), 2, &ctl).unwrap().0;
                let la2 = a2.to_layer().unwrap();
                let mut a2 = a2;
                assert_eq!(meet(g, &la2, &lb, 2, &ctl).unwrap(), want);
                assert_eq!(
                    meet_sides(g, &mut a2, Some(&mut b), false, 2, &ctl).unwrap(),
                    want
                );
                if budget == 0 {
                    assert!(a.spill().written() > 0, "nothing spilled within no budget");
                }
                checked += (want > 0) as usize;
            }
        }
        assert!(checked >= 6, "only {checked} solvable cases: a weak test");
    }

    #[test]
    fn one_search_meets_itself() {
        // Start = finish: one search is both sides (`other` None).
        let ctl = Control::new();
        // 3 x 5 with the left-right mirror, solvable from (0, 2) to itself.
        let g = rectangle(3, 5, &[(false, false), (false, true)]);
        let want = finish_counts(&g, &forward_to_one_peg(&g, 2))
            .iter()
            .filter(|&&(h, _)| h == 2)
            .map(|&(_, c)| c)
            .sum::<u128>();
        assert!(want > 0, "a weak test");
        for budget in [0, u64::MAX] {
            let spill = Arc::new(Spill::new(budget, None));
            let mut a = Side::start(&g, &[2], 1, spill).unwrap();
            for _ in 0..6 {
                a = expand_side(&g, &mut a, None, 2, &ctl).unwrap().0;
            }
            // 13 jumps: 6 + 6 and one across.
            assert_eq!(meet_sides(&g, &mut a, None, true, 2, &ctl).unwrap(), want);
        }
    }

    #[test]
    fn a_saved_search_resumes_to_the_same_count() {
        let ctl = Control::new();
        let g = rectangle(3, 5, &[(false, false), (false, true)]);
        let dir = std::env::temp_dir().join(format!("solvers-peg-ckpt-{}", std::process::id()));
        let want = {
            let spill = Arc::new(Spill::new(u64::MAX, None));
            let mut a = Side::start(&g, &[2], 1, spill).unwrap();
            for _ in 0..6 {
                a = expand_side(&g, &mut a, None, 2, &ctl).unwrap().0;
            }
            meet_sides(&g, &mut a, None, true, 2, &ctl).unwrap()
        };
        assert!(want > 0, "a weak test");
        for budget in [0, u64::MAX] {
            let spill = Arc::new(Spill::new(budget, None));
            assert!(Side::resume(&dir, 9, 1, spill.clone()).unwrap().is_none());
            let mut a = Side::start(&g, &[2], 1, spill.clone()).unwrap();
            for _ in 0..4 {
                a = expand_side(&g, &mut a, None, 2, &ctl).unwrap().0;
                a.save(&dir, 9, &ctl).unwrap();
            }
            drop(a);
            // Another count, another search: refused.
            assert!(Side::resume(&dir, 8, 1, spill.clone()).is_err());
            assert!(Side::resume(&dir, 9, 2, spill.clone()).is_err());
            let mut a = Side::resume(&dir, 9, 1, spill.clone()).unwrap().unwrap();
            assert_eq!(a.pegs(), 14 - 4);
            for _ in 4..6 {
                a = expand_side(&g, &mut a, None, 2, &ctl).unwrap().0;
            }
            assert_eq!(meet_sides(&g, &mut a, None, true, 2, &ctl).unwrap(), want);
            assert_eq!(saved_answer(&dir, 9).unwrap(), None);
            save_answer(&dir, 9, want).unwrap();
            assert_eq!(saved_answer(&dir, 9).unwrap(), Some(want));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn cancelled_steps_stop() {
        let g = rectangle(4, 5, IDENTITY);
        let ctl = Control::new();
        let spill = Arc::new(Spill::new(0, None));
        let mut a = Side::start(&g, &[2], 1, spill).unwrap();
        for _ in 0..4 {
            a = expand_side(&g, &mut a, None, 2, &ctl).unwrap().0;
        }
        ctl.cancel();
        assert!(matches!(
            expand_side(&g, &mut a, None, 2, &ctl),
            Err(SearchError::Cancelled)
        ));
        assert!(matches!(
            meet_sides(&g, &mut a, None, true, 2, &ctl),
            Err(SearchError::Cancelled)
        ));
    }
}
