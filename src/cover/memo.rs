//! `method="memo"`: the number of covers, memoised over the set of
//! uncovered items (the idea of Nishino et al.'s "dancing with decision
//! diagrams", DXZ).
//!
//! The search always branches on the *first* uncovered primary item in item
//! order (not the fewest options), so the same remaining subproblem is met
//! again and again (a tiling's frontier), and its count is looked up instead
//! of searched.  A state is the set of covered primary items (a bitset) and
//! each secondary item's state (free, taken, or its colour): the covers of
//! the rest depend on nothing else.
//!
//! Invariants: the table maps a state to the number of ways to finish it,
//! summed with checked `u128` arithmetic; the stack of states is explicit
//! (as deep as there are primary items); the table grows fallibly within a
//! byte budget, past which the count is a `MemoryError` naming the estimate,
//! never an abort.  Every expanded state polls the cancel flag.

use super::problem::Problem;
use crate::engine::{Control, SearchError, Stop, Ticker};
use crate::memory;

const EMPTY: u32 = u32::MAX;

/// Words of a state: the primary bitset, then one word per secondary item
/// (0 free, 1 taken, `2 + colour` coloured).
fn key_words(p: &Problem) -> usize {
    p.n_primary().div_ceil(64) + (p.n_items() - p.n_primary())
}

/// Bytes a table entry takes (key, count, slot at half load).
fn entry_bytes(words: usize) -> u64 {
    8 * words as u64 + 16 + 8
}

/// An open-addressing table from states (keys of `words` words, stored
/// flat) to counts.
struct Table {
    words: usize,
    keys: Vec<u64>,
    counts: Vec<u128>,
    slots: Vec<u32>,
    budget: u64,
}

fn hash(key: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in key {
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^ (h >> 29)
}

impl Table {
    fn new(words: usize, budget: u64) -> Table {
        Table {
            words,
            keys: Vec::new(),
            counts: Vec::new(),
            slots: vec![EMPTY; 1024],
            budget,
        }
    }

    fn find(&self, key: &[u64]) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut at = hash(key) as usize & mask;
        loop {
            let e = self.slots[at];
            if e == EMPTY {
                return Err(at);
            }
            let k = e as usize * self.words;
            if &self.keys[k..k + self.words] == key {
                return Ok(e);
            }
            at = (at + 1) & mask;
        }
    }

    fn get(&self, key: &[u64]) -> Option<u128> {
        self.find(key).ok().map(|e| self.counts[e as usize])
    }

    fn insert(&mut self, key: &[u64], count: u128) -> Result<(), SearchError> {
        let n = self.counts.len();
        if 2 * (n + 1) > self.slots.len() {
            self.grow()?;
        }
        if let Err(at) = self.find(key) {
            memory::try_reserve(&mut self.keys, self.words, "the memo table")?;
            memory::try_reserve(&mut self.counts, 1, "the memo table")?;
            self.keys.extend_from_slice(key);
            self.counts.push(count);
            self.slots[at] = n as u32;
        }
        Ok(())
    }

    /// Double the slots, within the budget.
    fn grow(&mut self) -> Result<(), SearchError> {
        let states = self.counts.len() as u64;
        let next = self.slots.len() * 2;
        let need = (next as u64 / 2) * entry_bytes(self.words);
        if need > self.budget || next > u32::MAX as usize {
            return Err(SearchError::memory(
                format!(
                    "the memo table of method='memo' ({states} subproblems so far, a budget of \
                     {}; method='search' needs no table)",
                    crate::error::human_bytes(self.budget)
                ),
                need,
            ));
        }
        let mut slots: Vec<u32> = memory::try_with_capacity(next, "the memo table")?;
        slots.resize(next, EMPTY);
        self.slots = slots;
        let mask = next - 1;
        for e in 0..self.counts.len() {
            let key = &self.keys[e * self.words..(e + 1) * self.words];
            let mut at = hash(key) as usize & mask;
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = e as u32;
        }
        let reserve = self.counts.len();
        memory::try_reserve(&mut self.counts, reserve, "the memo table")?;
        memory::try_reserve(&mut self.keys, reserve * self.words, "the memo table")?;
        Ok(())
    }
}

/// The default budget: half the memory available now (1 GiB where unknown).
pub fn default_budget() -> u64 {
    memory::available_bytes().map_or(1 << 30, |b| b / 2)
}

/// Can option `o` be added to `state`?
fn fits(p: &Problem, state: &[u64], o: u32, wp: usize, np: u32) -> bool {
    p.option_nodes(o).all(|x| {
        let (i, c) = (p.itm[x], p.clr[x]);
        if i < np {
            state[i as usize / 64] >> (i % 64) & 1 == 0
        } else {
            let s = state[wp + (i - np) as usize];
            s == 0 || (c != 0 && s == c as u64 + 2)
        }
    })
}

/// Add option `o` to `state`.
fn add(p: &Problem, state: &mut [u64], o: u32, wp: usize, np: u32) {
    for x in p.option_nodes(o) {
        let (i, c) = (p.itm[x], p.clr[x]);
        if i < np {
            state[i as usize / 64] |= 1 << (i % 64);
        } else {
            state[wp + (i - np) as usize] = if c == 0 { 1 } else { c as u64 + 2 };
        }
    }
}

/// The first uncovered primary item at or after `from`, if any.
fn first_open(state: &[u64], from: u32, np: u32) -> Option<u32> {
    let mut w = from as usize / 64;
    let mut bits = !state[w] & (!0u64 << (from % 64));
    loop {
        if bits != 0 {
            let i = (w * 64) as u32 + bits.trailing_zeros();
            return (i < np).then_some(i);
        }
        w += 1;
        if w * 64 >= np as usize {
            return None;
        }
        bits = !state[w];
    }
}

/// One state being expanded: its branch item, the next of the item's
/// nodes to try, and the covers found so far.
struct Frame {
    item: u32,
    next: u32,
    total: u128,
}

/// The number of covers of `p`, memoised, within `budget` bytes of table.
pub fn count_memo(p: &Problem, budget: u64, ctl: &Control) -> Result<u128, SearchError> {
    Memo::build(p, budget, ctl).map(|memo| memo.total)
}

/// A memo filled by one count: the covers of every state the count met,
/// to be read back state by state (a uniform random cover, [`super::sample`]).
pub(super) struct Memo<'p> {
    p: &'p Problem,
    table: Table,
    np: u32,
    wp: usize,
    /// The number of covers of the whole problem.
    pub total: u128,
}

impl<'p> Memo<'p> {
    /// Count `p`'s covers, keeping the table (within `budget` bytes).
    pub fn build(p: &'p Problem, budget: u64, ctl: &Control) -> Result<Memo<'p>, SearchError> {
        let (total, table) = fill(p, budget, ctl)?;
        Ok(Memo {
            p,
            table,
            np: p.n_primary() as u32,
            wp: p.n_primary().div_ceil(64),
            total,
        })
    }

    /// The state with nothing covered.
    pub fn root(&self) -> Vec<u64> {
        vec![0; self.table.words]
    }

    /// The item `state` branches on (its first uncovered primary item), or
    /// `None` where every primary item is covered.
    pub fn branch(&self, state: &[u64]) -> Option<u32> {
        first_open(state, 0, self.np)
    }

    /// The covers that finish `state`, a state the count met (one where
    /// all is covered, none where it never met it).
    pub fn covers(&self, state: &[u64]) -> u128 {
        match self.branch(state) {
            None => 1,
            Some(_) => self.table.get(state).unwrap_or(0),
        }
    }

    /// Whether option `o` fits `state`; if it does, `next` (a state of the
    /// same size) becomes `state` with `o` added.
    pub fn with(&self, state: &[u64], o: u32, next: &mut [u64]) -> bool {
        if !fits(self.p, state, o, self.wp, self.np) {
            return false;
        }
        next.copy_from_slice(state);
        add(self.p, next, o, self.wp, self.np);
        true
    }
}

/// The count of [`count_memo`], and its table.
fn fill(p: &Problem, budget: u64, ctl: &Control) -> Result<(u128, Table), SearchError> {
    let np = p.n_primary() as u32;
    let wp = p.n_primary().div_ceil(64);
    let words = key_words(p);
    let what = "the memo count's stack";
    let depth = p.n_primary() + 1;
    let mut states: Vec<u64> = memory::try_zeroed(depth.saturating_mul(words), what)?;
    let mut frames: Vec<Frame> = memory::try_with_capacity(depth, what)?;
    let mut table = Table::new(words, budget);
    let stop = Stop::new(ctl);
    let mut ticker = Ticker::new();
    // The value of the state just reached at depth `frames.len()`.
    let mut found: Option<u128>;
    loop {
        ticker.tick(&stop)?;
        let d = frames.len();
        let state = &states[d * words..(d + 1) * words];
        let from = if d == 0 { 0 } else { frames[d - 1].item };
        match first_open(state, from, np) {
            None => found = Some(1),
            Some(item) => match table.get(state) {
                Some(v) => found = Some(v),
                None => {
                    frames.push(Frame {
                        item,
                        next: 0,
                        total: 0,
                    });
                    found = None;
                }
            },
        }
        // Hand finished values up; step the top frame to its next option.
        loop {
            let d = frames.len();
            let Some(top) = frames.last_mut() else {
                return Ok((found.unwrap_or(0), table));
            };
            if let Some(v) = found.take() {
                top.total = top.total.checked_add(v).ok_or(SearchError::Overflow)?;
            }
            let nodes = p.nodes_of(top.item);
            let (parent, child) = states.split_at_mut(d * words);
            let state = &parent[(d - 1) * words..];
            let mut next = None;
            while (top.next as usize) < nodes.len() {
                let o = p.opt[nodes[top.next as usize] as usize];
                top.next += 1;
                if fits(p, state, o, wp, np) {
                    next = Some(o);
                    break;
                }
            }
            match next {
                Some(o) => {
                    let child = &mut child[..words];
                    child.copy_from_slice(state);
                    add(p, child, o, wp, np);
                    break;
                }
                None => {
                    let total = top.total;
                    frames.pop();
                    table.insert(state, total)?;
                    found = Some(total);
                }
            }
        }
    }
}

/// The most states `method="auto"` lets a memo count reach (its bound
/// below): past it, the search is the safer choice.
pub const AUTO_MEMO_STATES: u64 = 1 << 24;

/// An upper bound on the states of a memo count, when the problem has no
/// secondary items: when item `i` is the first uncovered one, every covered
/// item after it lies within `width` of it (an option's primary items span
/// at most `width` positions in item order), so there are at most
/// `n_primary * 2^width` states.  `None` when there are secondary items
/// (their states are not bounded this way) or the bound overflows.
pub fn state_bound(p: &Problem) -> Option<u64> {
    if p.n_items() != p.n_primary() {
        return None;
    }
    let mut width = 0u32;
    for k in 0..p.n_options() {
        let (lo, hi) = p
            .option(k)
            .fold((u32::MAX, 0), |(lo, hi), (i, _)| (lo.min(i), hi.max(i)));
        width = width.max(hi - lo);
    }
    (p.n_primary() as u64).checked_mul(1u64.checked_shl(width)?)
}
