//! `method="memo"`: the number of covers, memoised over what is left to
//! cover (the idea of Nishino et al.'s "dancing with decision diagrams",
//! DXZ, with Knuth's multiplicities and colours).
//!
//! The count always branches on the *first* open primary item in item
//! order (not the fewest options), so the same remaining subproblem is met
//! again and again (a tiling's frontier) and counted once.  A state packs
//! each primary item's count so far (or "closed") and each secondary item's
//! colour ([`state`]); its children choose the options of its branch item
//! and close it, so they lie in later layers, and the count runs layer by
//! layer, in parallel within each ([`layers`]).
//!
//! Invariants: sums are checked `u128`; every table grows fallibly and all
//! of them within one byte budget, past which the count is a
//! `MemoryError` naming the estimate, never an abort; every expanded state
//! polls the cancel flag; the answer is the same for every thread count.

mod layers;
mod state;
mod table;

use super::problem::Problem;
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;
use state::{Children, Layout};
use table::{Budget, Shard};

/// The default budget: half the memory available now (1 GiB where unknown).
pub fn default_budget() -> u64 {
    memory::available_bytes().map_or(1 << 30, |b| b / 2)
}

/// The number of covers of `p`, memoised, on `threads` threads, within
/// `budget` bytes of tables (only the layers still to expand are held).
pub fn count_memo(
    p: &Problem,
    budget: u64,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let lay = Layout::new(p);
    let budget = Budget::new(budget, lay.key_most);
    layers::forward(p, &lay, &budget, threads, false, ctl).map(|(total, _)| total)
}

/// A memo with every layer kept: the covers that finish each state the
/// count met, read back state by state (a uniform random cover,
/// [`super::sample`]).
pub(super) struct Memo<'p> {
    p: &'p Problem,
    lay: Layout,
    layers: Vec<Vec<Shard>>,
    /// The number of covers of the whole problem.
    pub total: u128,
}

impl<'p> Memo<'p> {
    /// Count `p`'s covers on `threads` threads, keeping every layer (within
    /// `budget` bytes), then each state's covers.
    pub fn build(
        p: &'p Problem,
        budget: u64,
        threads: usize,
        ctl: &Control,
    ) -> Result<Memo<'p>, SearchError> {
        let lay = Layout::new(p);
        let budget = Budget::new(budget, lay.key_most);
        let (total, mut kept) = layers::forward(p, &lay, &budget, threads, true, ctl)?;
        layers::backward(p, &lay, &mut kept, threads, ctl)?;
        let memo = Memo {
            p,
            lay,
            layers: kept,
            total,
        };
        if memo.covers(&memo.root()) != total {
            return Err(SearchError::Corrupt(
                "the memo's two passes disagree (a bug: please report it)".into(),
            ));
        }
        Ok(memo)
    }

    /// The state with nothing chosen.
    pub fn root(&self) -> Vec<u64> {
        self.lay.root()
    }

    /// The item `state` branches on (its first open primary item), or
    /// `None` where every primary item is closed (a cover).
    pub fn branch(&self, state: &[u64]) -> Option<u32> {
        self.lay.branch(state, 0)
    }

    /// The covers that finish `state` (1 where all is closed, 0 for a
    /// state the count never met).
    pub fn covers(&self, state: &[u64]) -> u128 {
        layers::covers_of(&self.lay, &self.layers, state)
    }

    /// A walker over the children of states, in the order the count took.
    pub fn children(&self) -> Children<'_> {
        Children::new(&self.lay, self.p)
    }
}

/// The most states `method="auto"` lets a memo count reach (its bound
/// below): past it, the search is the safer choice.
pub const AUTO_MEMO_STATES: u64 = 1 << 24;

/// Past this, [`state_bound`] stops and says `None`.
const BOUND_CAP: u64 = 1 << 40;

/// An upper bound on the states of a memo count (at most 2**40, else
/// `None`).  When item `i` is the first open one, every item touched after
/// it lies within `width` of it (an option's primary items span at most
/// `width` positions in item order), so the states are at most the sum
/// over `i` of `i`'s open counts times the values of the `width` items
/// after it, times the values every secondary item can hold (free, or each
/// way an option takes it).  Without bounds or secondary items that is
/// `n_primary * 2^width`.
pub fn state_bound(p: &Problem) -> Option<u64> {
    let np = p.n_primary();
    let mut width = 0usize;
    let mut taken: Vec<(u32, u32)> = Vec::new();
    for k in 0..p.n_options() {
        let (mut lo, mut hi) = (usize::MAX, 0);
        for (i, c) in p.option(k) {
            if (i as usize) < np {
                (lo, hi) = (lo.min(i as usize), hi.max(i as usize));
            } else {
                taken.push((i, c));
            }
        }
        width = width.max(hi.saturating_sub(lo));
    }
    taken.sort_unstable();
    taken.dedup();
    let mut secondary = 1u64;
    let mut values = 1u64;
    for (n, &(i, _)) in taken.iter().enumerate() {
        values += 1;
        if taken.get(n + 1).is_none_or(|&(next, _)| next != i) {
            secondary = secondary.saturating_mul(values).min(BOUND_CAP + 1);
            values = 1;
        }
    }
    let mut bound = 0u64;
    for i in 0..np {
        let mut states = p.bounds_of(i).1 as u64;
        for k in i + 1..np.min(i + width + 1) {
            if states == 0 || states > BOUND_CAP {
                break;
            }
            states = states.saturating_mul(p.bounds_of(k).1 as u64 + 1);
        }
        bound = bound.saturating_add(states.saturating_mul(secondary));
        if bound > BOUND_CAP {
            return None;
        }
    }
    Some(bound)
}
