//! The `k` cheapest covers (Knuth's DLX5): options carry nonnegative
//! costs, and [`cheapest_covers`] returns the `k` covers of least total
//! cost, cheapest first, ties in search order, the same for every thread
//! count.  Problems with bounds too: their search is Algorithm M's.
//!
//! Each primary item is first *taxed* the least cost of its options, as
//! DLX5 does: the tax is taken off the cost of every option holding the
//! item, so that every item has an option of net cost 0, no net cost is
//! negative, and a cover's cost is its net cost plus the total tax.  A
//! choice whose net cost already passes the `k`-th best cover found so far
//! (shared by every thread) is not tried (Garfinkel and Nemhauser's cutoff,
//! 1969), and expensive options are cut the sooner for the tax.
//!
//! The tree is Algorithm C's, node for node (its choice of item ignores
//! the costs), so "search order" means what it means for `covers()`.  A
//! subtree is cut only where none of its covers can be among the answer:
//! its net cost above the bound, or equal to it and every cover below it
//! later in search order than the `k`-th kept.  So the answer never
//! depends on which thread found what first.

use super::multi::MultiWalk;
use super::problem::Problem;
use super::search::{CoverSearch, Walk};
use super::walk::CoverWalk;
use crate::engine::{self, Control, Stop};
use crate::error::{CountError, InputError, SearchError};
use rayon::prelude::*;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The most an option may cost: a cover's cost (at most one option per
/// primary item) then fits a `u64` with room to spare.
pub const MAX_COST: u64 = u32::MAX as u64;

/// The most covers one call may keep.
pub const MAX_CHEAPEST: usize = 1 << 24;

/// Net costs after DLX5's taxes, and the total tax.
#[derive(Debug, Clone)]
pub struct Costs {
    net: Vec<u64>,
    tax: u64,
}

impl Costs {
    /// Tax each primary item in turn its options' least net cost so far
    /// (Knuth's order: an option's later items see what earlier ones left).
    /// An item with bounds is taxed only where every cover holds it the
    /// same number of times, `lo = hi`, and then that many times over.
    pub fn taxed(p: &Problem, costs: &[u64]) -> Result<Costs, InputError> {
        if costs.len() != p.n_options() {
            return Err(InputError(format!(
                "{} costs for {} options: give one cost to each option",
                costs.len(),
                p.n_options()
            )));
        }
        if let Some(&c) = costs.iter().find(|&&c| c > MAX_COST) {
            return Err(InputError(format!(
                "an option costs {c}, more than the most an option may cost ({MAX_COST})"
            )));
        }
        let mut net = costs.to_vec();
        let mut tax = 0u64;
        for i in 0..p.n_primary() as u32 {
            let (lo, hi) = p.bounds_of(i as usize);
            if lo != hi || lo == 0 {
                continue;
            }
            let nodes = p.nodes_of(i);
            let least = nodes
                .iter()
                .map(|&x| net[p.opt[x as usize] as usize])
                .min()
                .unwrap_or(0);
            if least > 0 {
                for &x in nodes {
                    net[p.opt[x as usize] as usize] -= least;
                }
                // At most MAX_ITEMS * MAX_COST * MAX_BOUND: 2^95 would not fit,
                // but a cover's whole cost must, so a tax past it has no cover.
                tax = tax.saturating_add(least.saturating_mul(u64::from(lo)));
            }
        }
        Ok(Costs { net, tax })
    }

    /// What every cover pays whatever it is: the sum of the taxes.
    pub fn tax(&self) -> u64 {
        self.tax
    }

    /// Option `o`'s net cost.
    #[inline(always)]
    pub fn net(&self, o: u32) -> u64 {
        self.net[o as usize]
    }
}

/// Where a cover comes in search order: the index of its task in the plan
/// (tasks are in search order), then its key within the task, compared as
/// words in order: the rank of each option chosen below the task among its
/// node's options in search order (Algorithm C's walk, which may try them
/// in another order), or how many covers the task found before it (a walk
/// that tries them in search order).  The key of a node is a prefix of its
/// covers', so it comes before them all.
pub type Place = (u64, Vec<u32>);

/// One cover kept: ordered by net cost, then by place.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Kept {
    cost: u64,
    place: Place,
    options: Vec<u32>,
}

/// The `k` best covers found so far, shared by every thread: a max-heap,
/// so the `k`-th best is on top, and its net cost in an atomic that only
/// ever goes down (`u64::MAX` until `k` are kept), read without the lock.
#[derive(Debug)]
pub struct Best {
    k: usize,
    costs: Costs,
    bound: AtomicU64,
    kept: Mutex<BinaryHeap<Kept>>,
}

impl Best {
    fn new(k: usize, costs: Costs) -> Best {
        Best {
            k,
            costs,
            bound: AtomicU64::new(u64::MAX),
            kept: Mutex::new(BinaryHeap::new()),
        }
    }

    #[inline(always)]
    pub fn net(&self, o: u32) -> u64 {
        self.costs.net(o)
    }

    /// Whether a cover of net cost `cost` at `place` (made only when the
    /// cost ties the bound) or later in search order could still be among
    /// the `k` best.
    #[inline]
    pub fn admits(&self, cost: u64, place: impl FnOnce() -> Place) -> bool {
        let bound = self.bound.load(Ordering::Relaxed);
        if cost != bound {
            return cost < bound;
        }
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        match kept.peek() {
            Some(top) if kept.len() == self.k => place() < top.place,
            _ => true,
        }
    }

    /// Keep the cover `options` (in the order chosen) of net cost `cost`
    /// at `place` if it is among the `k` best so far.
    pub fn offer(&self, cost: u64, place: Place, options: &[u32]) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() == self.k {
            match kept.peek() {
                Some(top) if (cost, &place) < (top.cost, &top.place) => {
                    kept.pop();
                }
                _ => return,
            }
        }
        let mut sorted = options.to_vec();
        sorted.sort_unstable();
        kept.push(Kept {
            cost,
            place,
            options: sorted,
        });
        if kept.len() == self.k {
            if let Some(top) = kept.peek() {
                self.bound.store(top.cost, Ordering::Relaxed);
            }
        }
    }

    /// The covers kept, cheapest first (ties in search order), each with
    /// its whole cost.
    fn into_sorted(self) -> Vec<(u64, Vec<u32>)> {
        let kept = self.kept.into_inner().unwrap_or_else(|e| e.into_inner());
        kept.into_sorted_vec()
            .into_iter()
            .map(|k| (k.cost + self.costs.tax, k.options))
            .collect()
    }
}

/// A search below one task that prices its covers: the shared best, the
/// task's place and the covers it has offered so far.
pub struct Priced<'a> {
    pub best: &'a Best,
    task: u64,
    offered: u64,
}

impl<'a> Priced<'a> {
    pub fn new(best: &'a Best, task: u64) -> Priced<'a> {
        Priced {
            best,
            task,
            offered: 0,
        }
    }

    /// The net cost of `path` (a replayed task's options), if a search
    /// below it may still find one of the best covers.
    pub fn start(&self, path: &[u32]) -> Option<u64> {
        let cost = path.iter().map(|&o| self.best.net(o)).sum();
        self.best
            .admits(cost, || (self.task, Vec::new()))
            .then_some(cost)
    }

    /// The place of key `key` in this task.
    fn place(&self, key: Option<Vec<u32>>) -> Place {
        let key = key.unwrap_or_else(|| {
            let n = self.offered;
            vec![(n >> 32) as u32, n as u32]
        });
        (self.task, key)
    }

    /// Whether a choice that brings the net cost to `cost` may be tried:
    /// at key `key` (made only where the cost ties the bound), or, for
    /// `None`, after the covers offered so far.
    #[inline]
    pub fn admits(&self, cost: u64, key: impl FnOnce() -> Option<Vec<u32>>) -> bool {
        self.best.admits(cost, || self.place(key()))
    }

    /// A cover of net cost `cost`, its options in the order chosen, at key
    /// `key` (`None`: after the covers offered so far).
    pub fn offer(&mut self, cost: u64, key: Option<Vec<u32>>, options: &[u32]) {
        self.best.offer(cost, self.place(key), options);
        self.offered += 1;
    }
}

/// The `k` cheapest covers of `p` under `costs` (one per option), cheapest
/// first, ties in search order, each as its cost and its options
/// ascending; fewer where there are fewer covers.  On `threads` threads
/// sharing one bound; the answer does not depend on them.
pub fn cheapest_covers(
    p: Arc<Problem>,
    costs: &[u64],
    k: usize,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<(u64, Vec<u32>)>, CountError> {
    if k > MAX_CHEAPEST {
        return Err(InputError(format!(
            "k is {k}: cheapest_covers keeps at most {MAX_CHEAPEST} covers"
        ))
        .into());
    }
    let best = Best::new(k, Costs::taxed(&p, costs)?);
    if k == 0 {
        return Ok(Vec::new());
    }
    if p.bounded() {
        priced::<MultiWalk>(p, &best, threads, ctl)?;
    } else {
        priced::<Walk>(p, &best, threads, ctl)?;
    }
    Ok(best.into_sorted())
}

/// Every task of `p`'s plan on `threads` threads, priced into `best`.
fn priced<W: CoverWalk>(
    p: Arc<Problem>,
    best: &Best,
    threads: usize,
    ctl: &Control,
) -> Result<(), CountError> {
    let workers = engine::workers(threads);
    super::count::check_memory::<W>(&p, workers)?;
    let search = CoverSearch::<W>::new(p);
    let tasks = if workers == 1 {
        search.roots()
    } else {
        super::count::plan_tasks(&search, threads, ctl)?
    };
    ctl.start(tasks.len());
    let below = |index: usize, task: &Vec<u32>| -> Result<(), SearchError> {
        let stop = Stop::new(ctl);
        search.priced_below(task, best, index as u64, &stop)?;
        ctl.finish_one();
        Ok(())
    };
    if workers == 1 {
        for (index, task) in tasks.iter().enumerate() {
            below(index, task)?;
        }
    } else {
        engine::with_pool(threads, || {
            tasks
                .par_iter()
                .with_max_len(1)
                .enumerate()
                .try_for_each(|(index, task)| below(index, task))
        })??;
    }
    Ok(())
}
