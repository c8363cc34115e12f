//! The step planner: [`step`] builds the next layer from a [`Stored`] one
//! within a [`Spill`]'s budget, all in memory when the step fits, else
//! through files, by passes over ranges of output shards or by run files
//! ([`Spilling`]; see the module doc of `spill/`).
//!
//! The plan never refuses a budget: under one too small for a single
//! shard's tables it goes one shard at a time, and the tables grow past
//! their plan rather than fail.  Only memory the machine does not have is
//! an error (`SearchError::Memory`, with the bytes asked for).

use super::budget::{packed_bytes, record_estimate, table_bytes, Spill};
use super::format::{read_shard, record_bytes, Extent, Label, Writer};
use super::store::{Shard, Stored};
use crate::engine::Control;
use crate::error::SearchError;
use crate::layers::accumulate::{tables_for, tables_in, Tables};
use crate::layers::count::Count;
use crate::layers::table::{Packed, ShardTable, SHARDS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

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
    sizes: (usize, usize),
    problem: u64,
    spill: &Spill,
    expand: impl Fn(&[&Packed<I>], Tables<O>) -> Result<Tables<O>, SearchError>,
    how: (Spilling, &str),
    ctl: &Control,
) -> Result<Stored<O>, SearchError> {
    let next = step_within(input, sizes, problem, spill, expand, how, ctl)?;
    spill.made(next.len());
    Ok(next)
}

/// [`step`], before the states it made are noted.
fn step_within<I: Count, O: Count>(
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
    // 0. Nothing is written unless the disk has room for the whole step:
    //    the input still in memory, the next layer (bounded as the budget
    //    is planned), and by runs the runs too (each child at least once).
    let largest = input.shards.iter().map(Shard::len).max().unwrap_or(0);
    let passes = passes_for(budget, largest, (guess, bound));
    // A family that prefers runs still goes by passes when one pass holds
    // every output table: the input is read and expanded once either way,
    // and the pass writes no runs and merges nothing.
    let runs = by_runs(how, passes);
    let estimate = disk_estimate::<I, O>(input.memory_len(), bound.max(guess), runs);
    spill.check_disk(estimate, what)?;
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
    if runs {
        plan.by_runs(input, &expand)
    } else {
        plan.by_passes(input, &expand)
    }
}

/// Whether a step of `passes` goes by runs (see [`Spilling`]).
fn by_runs(how: Spilling, passes: usize) -> bool {
    match how {
        Spilling::Runs => passes > 1,
        Spilling::Passes => passes > MAX_PASSES,
    }
}

/// The bytes a step that does not fit writes: the `parked` input entries
/// still in memory, the next layer of `made` states, and by runs the runs
/// too (each child at least once).
fn disk_estimate<I: Count, O: Count>(parked: usize, made: usize, runs: bool) -> u64 {
    let output = record_estimate::<O>(made);
    record_estimate::<I>(parked).saturating_add(output.saturating_mul(if runs { 2 } else { 1 }))
}

/// Refuse now (`SearchError::Disk`, naming `what`) a step still to come
/// that is projected to read `into` states and make `made`, with counts of
/// `W`, where [`step`] would refuse it when it gets there: the same plan
/// and estimate, the whole input counted as written (it will be on disk or
/// parked by then), against the disk free now and the `freed` bytes that
/// this count's files hold now and will have dropped by then.  A count
/// that cannot fit is refused before it writes the layers on the way.
pub fn check_ahead<W: Count>(
    spill: &Spill,
    (into, made): (usize, usize),
    freed: u64,
    (how, what): (Spilling, &str),
) -> Result<(), SearchError> {
    let budget = spill.budget() / 3 * 2;
    if packed_bytes(into).saturating_add(table_bytes::<W>(made)) <= budget {
        return Ok(());
    }
    let passes = passes_for(budget, into.div_ceil(SHARDS), (made, made));
    let estimate = disk_estimate::<W, W>(into, made, by_runs(how, passes));
    spill.check_disk_ahead(estimate, freed, what)
}

/// How many passes a step by passes takes within `budget` beside input
/// shards of at most `largest` entries, for a next layer of `guess` states
/// bounded by `bound` (planned by the bound).
fn passes_for(budget: u64, largest: usize, (guess, bound): (usize, usize)) -> usize {
    let room = budget.saturating_sub(packed_bytes(largest));
    let each = ShardTable::<u128>::bytes_for(bound.max(guess) / SHARDS).max(1);
    let per_pass = usize::try_from(room / each)
        .unwrap_or(SHARDS)
        .clamp(1, SHARDS);
    SHARDS.div_ceil(per_pass)
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
    /// A step that one pass holds still goes by that pass, which reads and
    /// expands the input once too and writes no runs (7x8 closed within
    /// 1 GB: 21.4-21.8 s against 23.0-29.0 by runs).
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
    #[cfg(test)]
    fn passes(&self) -> usize {
        let (guess, bound, _) = self.sizes;
        let largest = self.extents.iter().map(|(_, e)| e.len).max().unwrap_or(0);
        passes_for(self.budget, largest, (guess, bound))
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
            //    Packed and sorted (as a record holds them) in parallel.
            let packed: Vec<Option<Packed<O>>> = (tables.into_par_iter())
                .map(|table| table.map(ShardTable::pack).map(sorted))
                .collect();
            for (j, packed) in packed.into_iter().enumerate() {
                let Some(packed) = packed else { continue };
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                shards.push(self.place(j, packed, &kept)?);
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
            let bytes = tables.iter().map(|t| record_bytes::<O>(t.len())).sum();
            spill.check_disk(bytes, what)?;
            // Packed and sorted (as a record holds them) in parallel.
            let packed: Vec<Packed<O>> = (tables.into_par_iter())
                .map(|table| sorted(table.pack()))
                .collect();
            let mut writer = Writer::create(spill.fresh("run")?)?;
            for (j, run) in packed.into_iter().enumerate() {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                if !run.is_empty() {
                    runs[j].push(writer.append(run_label(j), &run)?);
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
                let merged = merged_runs(&runs, run_label(j), ctl)?;
                self.place(j, merged, &keep)
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
        self.spill
            .check_disk(record_bytes::<O>(packed.len()), self.what)?;
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

/// The runs of one output shard (records labelled `label`) in one shard
/// sorted by key, the counts of equal keys summed.
///
/// A record holds its keys in order, so the runs are merged in order, two
/// at a time, as a binary counter does: a run read is a merge of size 1,
/// and two merges of the same size become one of twice the size.  Each
/// entry is moved about log2(runs) times, never into a table, and the
/// merged shard needs no sort (summing the runs in a fresh table, then
/// sorting it for its record, cost the table's inserts, the kernel's
/// zeroing of its pages and the sort; with the one-pass steps, 8x8 closed
/// within 10.98 GB went from 1,776 s to 1,607 s, docs/performance.md).  At
/// most one merge of each size waits in memory meanwhile, the runs read one
/// at a time.
fn merged_runs<O: Count>(
    runs: &[Extent],
    label: Label,
    ctl: &Control,
) -> Result<Packed<O>, SearchError> {
    let what = "a merged layer shard";
    // (runs merged, the merge), the sizes falling towards the top.
    let mut stack: Vec<(usize, Packed<O>)> = Vec::new();
    for run in runs {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        // `read_shard` refuses a record whose keys are out of order.
        let mut top = (1, read_shard::<O>(run, label)?);
        while stack.last().is_some_and(|(n, _)| *n == top.0) {
            if let Some((n, below)) = stack.pop() {
                top = (n + top.0, below.merge(top.1, what)?);
            }
        }
        stack.push(top);
    }
    let mut merged = Packed::with_capacity(0, what)?;
    while let Some((_, below)) = stack.pop() {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        merged = below.merge(merged, what)?;
    }
    Ok(merged)
}

/// `packed` sorted by key, as a record holds it.
fn sorted<W: Count>(mut packed: Packed<W>) -> Packed<W> {
    packed.sort();
    packed
}

/// Run files carry the next layer's tag with these bits flipped, so a run
/// is never taken for a finished shard.
const RUN: u64 = 0x5255_4e5f_5255_4e5f;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::accumulate::halves;
    use crate::layers::spill::budget::disk_of;
    use crate::layers::spill::FileRef;
    use crate::layers::{accumulate_some, Entries, Feed};
    use std::marker::PhantomData;
    use std::sync::Arc;

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

    /// The toy DP's step: the children of `shards` summed into `tables`.
    fn expand<'a>(
        ctl: &'a Control,
    ) -> impl Fn(&[&Packed<u64>], Tables<u64>) -> Result<Tables<u64>, SearchError> + 'a {
        move |shards, tables| {
            let chunks: Vec<Entries<'_, u64>> = shards.iter().flat_map(|s| s.chunks(256)).collect();
            accumulate_some(chunks, tables, &Halves(PhantomData), "t", ctl)
        }
    }

    /// Every entry of `layer`, sorted.
    fn all(layer: &Stored<u64>) -> Vec<(u64, u64)> {
        let mut got = Vec::new();
        layer
            .try_fold((), |(), k, c| {
                got.push((k, c));
                Some(())
            })
            .unwrap();
        got.sort_unstable();
        got
    }

    fn layer(n: u64) -> Vec<(u64, u64)> {
        (1..n).map(|k| (k, k % 7 + 1)).collect()
    }

    #[test]
    fn both_ways_of_spilling_give_the_step_in_memory() {
        let entries = layer(50_000);
        let ctl = Control::new();
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let roomy = Spill::unlimited();
        let want = step(
            &mut input,
            (10, 10),
            2,
            &roomy,
            expand(&ctl),
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
                expand(&ctl),
                (how, "t"),
                &ctl,
            );
            assert_eq!(all(&got.unwrap()), want, "{how:?}");
            assert!(tight.written() > 0, "{how:?} did not spill");
        }
    }

    #[test]
    fn every_budget_from_zero_to_unlimited_gives_the_same_layer() {
        let entries = layer(20_000);
        let ctl = Control::new();
        let sizes = (10, 30_000);
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let roomy = Spill::unlimited();
        let want = step(
            &mut input,
            sizes,
            2,
            &roomy,
            expand(&ctl),
            (Spilling::Passes, "t"),
            &ctl,
        );
        let want = all(&want.unwrap());
        let needs = packed_bytes(entries.len()) + table_bytes::<u64>(sizes.1);
        let budgets = [
            0,
            1,
            4096,
            1 << 16,
            1 << 18,
            1 << 20,
            needs / 2 * 3,
            needs / 2 * 3 + 3,
            1 << 24,
            1 << 30,
            u64::MAX,
        ];
        for how in [Spilling::Runs, Spilling::Passes] {
            let mut spilled_before = true;
            for budget in budgets {
                let spill = Spill::new(budget, None);
                let mut input = Stored::by_shard(&entries, 1).unwrap();
                let got = step(&mut input, sizes, 2, &spill, expand(&ctl), (how, "t"), &ctl);
                let got = got.unwrap();
                assert_eq!(all(&got), want, "{how:?} within {budget}");
                // A step spills exactly when it does not fit two thirds of
                // the budget, and a larger budget never spills again.
                let fits = needs <= budget / 3 * 2;
                let spilled = spill.written() > 0;
                assert_eq!(spilled, !fits, "{how:?} within {budget}");
                assert!(spilled_before || !spilled, "{how:?}: {budget} spilled");
                spilled_before = spilled;
                if spilled {
                    // The input went to disk, and the output kept in memory
                    // stays within a quarter of the budget.
                    assert_eq!(input.memory_bytes(), 0, "{how:?} within {budget}");
                    assert!(got.memory_bytes() <= budget / 4, "{how:?} within {budget}");
                } else {
                    assert_eq!(got.memory_bytes(), packed_bytes(want.len()));
                }
            }
        }
    }

    #[test]
    fn a_family_that_prefers_runs_takes_one_pass_when_one_holds_every_table() {
        let entries = layer(50_000);
        let ctl = Control::new();
        let sizes = (10, 50_000);
        let needs = packed_bytes(entries.len()) + table_bytes::<u64>(sizes.1);
        let largest = {
            let input = Stored::by_shard(&entries, 1).unwrap();
            input.shards.iter().map(Shard::len).max().unwrap()
        };
        let written = |budget: u64, how: Spilling| {
            let spill = Spill::new(budget, None);
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = step(&mut input, sizes, 2, &spill, expand(&ctl), (how, "t"), &ctl);
            (all(&got.unwrap()), spill.written())
        };
        // Within `needs` the step spills (it plans for two thirds), and one
        // pass holds every output table beside the largest input shard: both
        // families go by that pass, the same files written (no runs).
        assert_eq!(passes_for(needs / 3 * 2, largest, sizes), 1);
        let (by_runs, runs_wrote) = written(needs, Spilling::Runs);
        let (by_passes, passes_wrote) = written(needs, Spilling::Passes);
        assert_eq!(by_runs, by_passes);
        assert!(runs_wrote > 0);
        assert_eq!(runs_wrote, passes_wrote);
        // Within a third of that it takes 3 passes: the family that prefers
        // runs writes them (every child at least once more than the passes).
        let tight = needs / 3;
        assert_eq!(passes_for(tight / 3 * 2, largest, sizes), 3);
        let (by_runs, runs_wrote) = written(tight, Spilling::Runs);
        let (by_passes, passes_wrote) = written(tight, Spilling::Passes);
        assert_eq!(by_runs, by_passes);
        assert!(runs_wrote > passes_wrote, "{runs_wrote} <= {passes_wrote}");
    }

    #[test]
    fn a_step_still_to_come_is_refused_only_past_memory_and_disk() {
        let dir = std::env::temp_dir();
        let how = (Spilling::Runs, "a projected step");
        let huge = (1 << 40, 1 << 41);
        // No budget, or a step that fits it: the disk is not looked at.
        assert!(check_ahead::<u64>(&Spill::unlimited(), huge, 0, how).is_ok());
        let roomy = Spill::new(1 << 30, Some(&dir));
        assert!(check_ahead::<u64>(&roomy, (1000, 2000), 0, how).is_ok());
        // Past the budget: no disk here has room for 2^41 states (tens of
        // TB), unless the files that will be gone by then free as much.
        if disk_of(&dir).is_none() {
            return; // (off Linux the free space is not known: no check)
        }
        match check_ahead::<u64>(&roomy, huge, 0, how) {
            Err(SearchError::Disk(message)) => {
                assert!(
                    message.contains("to spill a projected step: about"),
                    "{message}"
                );
                assert!(!message.contains("more by then"), "{message}");
            }
            other => panic!("{:?}", other.err()),
        }
        assert!(check_ahead::<u64>(&roomy, huge, u64::MAX / 2, how).is_ok());
    }

    #[test]
    fn memory_held_by_other_layers_counts_against_the_budget() {
        let entries = layer(5_000);
        let ctl = Control::new();
        let run = |spill: &Spill| {
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = step(
                &mut input,
                (10, 5_000),
                2,
                spill,
                expand(&ctl),
                (Spilling::Passes, "t"),
                &ctl,
            );
            all(&got.unwrap())
        };
        let spill = Spill::new(64 << 20, None);
        let want = run(&spill);
        assert_eq!(spill.written(), 0);
        spill.set_held(64 << 20);
        assert_eq!(run(&spill), want);
        assert!(spill.written() > 0, "held memory was not counted");
    }

    /// A plan of `budget` for a next layer of about `bound` states, over
    /// input shards of `lens` entries (in a file never read: planning
    /// reads only their lengths).
    fn planned(budget: u64, bound: usize, lens: &[usize]) -> usize {
        let spill = Spill::new(budget, None);
        let ctl = Control::new();
        let file = Arc::new(FileRef::kept("never-read".into()));
        let extents = (lens.iter().enumerate())
            .map(|(i, &len)| {
                let file = file.clone();
                (
                    i,
                    Extent {
                        file,
                        offset: 0,
                        len,
                    },
                )
            })
            .collect();
        let plan = Plan {
            extents,
            sizes: (10, bound, lens.iter().sum::<usize>().max(1)),
            budget,
            problem: 1,
            spill: &spill,
            what: "t",
            ctl: &ctl,
        };
        let room = budget.saturating_sub(packed_bytes(lens.iter().copied().max().unwrap_or(0)));
        assert_eq!(plan.room(), room);
        plan.passes()
    }

    #[test]
    fn passes_stay_within_the_budget_and_fall_as_it_grows() {
        let lens = [1000, 50_000, 0, 7];
        for bound in [0, 1, 64 << 10, 1 << 30, usize::MAX] {
            let each = ShardTable::<u128>::bytes_for(bound / SHARDS).max(1);
            let mut last = SHARDS;
            let budgets = (0..64).map(|b| 1u64 << b).chain([0, u64::MAX]);
            let mut budgets: Vec<u64> = budgets.collect();
            budgets.sort_unstable();
            for budget in budgets {
                let passes = planned(budget, bound, &lens);
                assert!((1..=SHARDS).contains(&passes), "{budget}, {bound}");
                assert!(passes <= last, "{budget}, {bound}: {passes} > {last}");
                last = passes;
                // A pass holds at most what the room beside the largest
                // input shard takes, unless it is one shard already.
                let tables = SHARDS.div_ceil(passes) as u64;
                let room = budget.saturating_sub(packed_bytes(50_000));
                assert!(tables == 1 || tables * each <= room, "{budget}, {bound}");
                if budget == 0 || room < each {
                    assert_eq!(passes, SHARDS, "{budget}, {bound}");
                }
                // One pass exactly when every table fits the room at once.
                let one = each.saturating_mul(SHARDS as u64) <= room;
                assert_eq!(passes == 1, one, "{budget}, {bound}");
            }
            if bound <= 1 << 30 {
                assert_eq!(last, 1, "{bound}: an unlimited budget takes passes");
            }
        }
        // More states for the same budget never plan fewer passes.
        let mut last = 1;
        for bound in [0, 1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28] {
            let passes = planned(32 << 20, bound, &lens);
            assert!(passes >= last, "{bound}");
            last = passes;
        }
        assert!(last > 1);
    }

    #[test]
    fn a_step_beyond_the_machine_is_refused_with_its_figures() {
        let entries = layer(1_000);
        let ctl = Control::new();
        // 2^44 states: about 460 TB of tables, planned in memory under no
        // budget (by runs under a small one: several TB for the first
        // group), refused before anything is allocated; under a small
        // budget with the disk for them (faked), the memory refuses too.
        let guess = 1usize << 44;
        let roomy = Spill::new(1 << 20, None).with_free_disk(u64::MAX);
        for spill in [Spill::unlimited(), roomy] {
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let how = (Spilling::Runs, "the test tables");
            let got = step(
                &mut input,
                (guess, guess),
                2,
                &spill,
                expand(&ctl),
                how,
                &ctl,
            );
            match got {
                Err(SearchError::Memory { what, bytes }) => {
                    assert!(what.contains("the test tables"), "{what}");
                    if spill.budget() == u64::MAX {
                        assert_eq!(bytes, table_bytes::<u64>(guess));
                    }
                    assert!(bytes > 1 << 40, "{bytes}");
                    assert!(bytes > spill.budget() / 3 * 2 || spill.budget() == u64::MAX);
                }
                Err(e) => panic!("{e:?}"),
                Ok(layer) => panic!("{} states made", layer.len()),
            }
        }
        // A real disk cannot hold its 544 TiB of records at their most (512
        // TiB of keys and counts, a tag byte an entry): refused for the
        // disk, with the estimate, before a file or a table is made.
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let spill = Spill::new(1 << 20, None);
        let how = (Spilling::Runs, "the test tables");
        let got = step(
            &mut input,
            (guess, guess),
            2,
            &spill,
            expand(&ctl),
            how,
            &ctl,
        );
        match got {
            Err(SearchError::Disk(msg)) => assert!(msg.contains("544.0 TiB"), "{msg}"),
            Err(e) => panic!("{e:?}"),
            Ok(layer) => panic!("{} states made", layer.len()),
        }
        assert_eq!(spill.written(), 0);
    }

    #[test]
    fn a_step_the_disk_cannot_hold_is_refused_before_any_file_is_written() {
        let entries = layer(50_000);
        let ctl = Control::new();
        let parent = std::env::temp_dir().join(format!("solvers-disk-test-{}", std::process::id()));
        std::fs::create_dir_all(&parent).unwrap();
        let want = {
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let roomy = Spill::unlimited();
            let got = step(
                &mut input,
                (10, 50_000),
                2,
                &roomy,
                expand(&ctl),
                (Spilling::Runs, "t"),
                &ctl,
            );
            all(&got.unwrap())
        };
        for how in [Spilling::Runs, Spilling::Passes] {
            // The step writes its input (50,000 entries, about 800 KB) and
            // its output: a disk of 100 KB is refused up front, the input
            // left in memory as it was; one of 64 MB takes it.
            let tight = Spill::new(1_000_000, Some(&parent)).with_free_disk(100_000);
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = step(
                &mut input,
                (10, 50_000),
                2,
                &tight,
                expand(&ctl),
                (how, "the test step"),
                &ctl,
            );
            match got {
                Err(SearchError::Disk(msg)) => {
                    assert!(msg.contains("the test step"), "{msg}");
                    assert!(msg.contains("97.7 KiB free"), "{msg}");
                }
                Err(e) => panic!("{how:?}: {e:?}"),
                Ok(_) => panic!("{how:?}: spilled past the disk"),
            }
            assert_eq!(tight.written(), 0, "{how:?}");
            assert_eq!(input.memory_len(), entries.len(), "{how:?}");
            assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 0, "{how:?}");
            let roomy = Spill::new(1_000_000, Some(&parent)).with_free_disk(64 << 20);
            let got = step(
                &mut input,
                (10, 50_000),
                2,
                &roomy,
                expand(&ctl),
                (how, "t"),
                &ctl,
            );
            assert_eq!(all(&got.unwrap()), want, "{how:?}");
            assert!(roomy.written() > 0, "{how:?}");
            assert_eq!(roomy.states(), want.len() as u64);
        }
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn a_cancelled_step_stops_whether_it_fits_or_spills() {
        let entries = layer(5_000);
        let ctl = Control::new();
        ctl.cancel();
        for budget in [0, 1 << 20, u64::MAX] {
            for how in [Spilling::Runs, Spilling::Passes] {
                let spill = Spill::new(budget, None);
                let mut input = Stored::by_shard(&entries, 1).unwrap();
                let got = step(
                    &mut input,
                    (10, 5_000),
                    2,
                    &spill,
                    expand(&ctl),
                    (how, "t"),
                    &ctl,
                );
                assert!(
                    matches!(got, Err(SearchError::Cancelled)),
                    "{how:?} within {budget}"
                );
            }
        }
    }
}
