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
mod tests;
