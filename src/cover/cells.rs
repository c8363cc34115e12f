//! [`Cells`]: Knuth's dancing cells for Algorithm C (his SSXCC), one
//! worker's mutable copy of a [`Problem`].
//!
//! Each item `i` owns a slice `set[base..base + len]` of the nodes of the
//! options that contain it; its first `size` entries are the options still
//! *active* (compatible with the options chosen so far), and `loc[node]` is
//! a node's position in its item's slice.  Hiding a node swaps it just past
//! the active prefix and shrinks `size`: the prefix before the swap point is
//! never touched, so restoring an old `size` restores exactly the nodes
//! hidden since (in another order).  Undoing a choice is therefore
//! restoring a few sizes from the trail, not relinking anything.
//!
//! Invariants between operations:
//! * an item is alive (not yet covered or coloured) iff `items[i].alive`;
//!   the alive primary items are `prim[..np]` (`ppos` is each one's place);
//! * the active prefix of an alive item holds exactly the options that
//!   contain it and agree with every choice made (no covered item, no other
//!   colour on a coloured secondary item), so `size` depends only on the set
//!   of options chosen, not on the order they were chosen in;
//! * the trail holds `(item, old size)` once per item and level that
//!   changed it (`stamp` marks the level), so it never outgrows the nodes,
//!   and [`Cells::restore`] to a level's [`Mark`] undoes everything since.
//!
//! Nothing here allocates after [`Cells::new`]: every stack has its bound
//! (trail <= nodes, chosen options <= options, levels <= primary items).

use super::problem::Problem;
use crate::error::SearchError;
use crate::memory;

const NONE: u32 = u32::MAX;

/// An item's slice of `set`, its active length, and its bookkeeping
/// (one cache line holds four of them).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Item {
    base: u32,
    size: u32,
    alive: u32,
    /// The level whose first change of `size` is on the trail, or `NONE`.
    stamp: u32,
}

/// What [`Cells::restore`] returns to: the state before a level's choice.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    np: u32,
    dead: u32,
    trail: u32,
}

/// One worker's dancing cells (see the module docs).
pub struct Cells {
    pub(super) items: Vec<Item>,
    pub(super) set: Vec<u32>,
    loc: Vec<u32>,
    pub(super) prim: Vec<u32>,
    ppos: Vec<u32>,
    pub(super) np: u32,
    n_primary: u32,
    /// Secondary items covered or coloured, in order (undone by popping).
    dead: Vec<u32>,
    trail: Vec<(u32, u32)>,
}

/// The bytes one worker's [`Cells`] and search stacks take.
pub(super) fn cells_bytes(p: &Problem) -> u64 {
    let (n, i, o) = (p.n_nodes() as u64, p.n_items() as u64, p.n_options() as u64);
    let pr = p.n_primary() as u64;
    16 * i + 4 * n + 4 * n + 8 * pr + 4 * i + 8 * (n + 1) + 4 * o + 28 * (pr + 1) + 4 * (pr + 1)
}

impl Cells {
    /// The cells of `p` with nothing chosen.
    pub fn new(p: &Problem) -> Result<Cells, SearchError> {
        let what = "the search's working copy of the problem";
        let (n_items, n_nodes) = (p.n_items(), p.n_nodes());
        let mut items = memory::try_with_capacity(n_items, what)?;
        let mut set = memory::try_with_capacity(n_nodes, what)?;
        let mut loc: Vec<u32> = memory::try_zeroed(n_nodes, what)?;
        for i in 0..n_items as u32 {
            let nodes = p.nodes_of(i);
            items.push(Item {
                base: set.len() as u32,
                size: nodes.len() as u32,
                alive: 1,
                stamp: NONE,
            });
            for (k, &x) in nodes.iter().enumerate() {
                loc[x as usize] = k as u32;
                set.push(x);
            }
        }
        let n_primary = p.n_primary();
        let mut prim = memory::try_with_capacity(n_primary, what)?;
        prim.extend(0..n_primary as u32);
        let mut ppos = memory::try_with_capacity(n_primary, what)?;
        ppos.extend(0..n_primary as u32);
        Ok(Cells {
            items,
            set,
            loc,
            prim,
            ppos,
            np: n_primary as u32,
            n_primary: n_primary as u32,
            dead: memory::try_with_capacity(n_items - n_primary, what)?,
            trail: memory::try_with_capacity(n_nodes + 1, what)?,
        })
    }

    /// The state to come back to.
    #[inline]
    pub(super) fn mark(&self) -> Mark {
        Mark {
            np: self.np,
            dead: self.dead.len() as u32,
            trail: self.trail.len() as u32,
        }
    }

    /// Undo everything since `mark` was taken.
    #[inline]
    pub(super) fn restore(&mut self, mark: Mark) {
        while self.trail.len() > mark.trail as usize {
            let (m, size) = self.trail.pop().unwrap_or((0, 0));
            let it = &mut self.items[m as usize];
            it.size = size;
            it.stamp = NONE;
        }
        for k in self.np..mark.np {
            self.items[self.prim[k as usize] as usize].alive = 1;
        }
        self.np = mark.np;
        while self.dead.len() > mark.dead as usize {
            let m = self.dead.pop().unwrap_or(0);
            self.items[m as usize].alive = 1;
        }
    }

    /// The primary item to branch on: the fewest active options, ties to
    /// the first in item order; `(item, its active options)`.  A forced
    /// item (one option or none) is taken as soon as it is seen: forced
    /// choices commute (each leaves the others forced, or kills the node),
    /// so which one comes first changes neither the covers nor their order.
    #[inline]
    pub(super) fn choose(&self) -> (u32, u32) {
        let mut best = NONE;
        let mut fewest = u32::MAX;
        for &m in &self.prim[..self.np as usize] {
            let s = self.items[m as usize].size;
            if s < fewest || (s == fewest && m < best) {
                best = m;
                fewest = s;
                if s <= 1 {
                    break;
                }
            }
        }
        (best, fewest)
    }

    /// The active nodes of item `m`.
    #[inline]
    pub(super) fn active(&self, m: u32) -> &[u32] {
        let it = self.items[m as usize];
        &self.set[it.base as usize..(it.base + it.size) as usize]
    }

    /// Choose option `o` at level `level`: cover its uncoloured items
    /// (hiding every other option that holds them) and colour its coloured
    /// ones (hiding the options that give them another colour).
    #[inline]
    pub(super) fn apply(&mut self, p: &Problem, o: u32, level: u32) {
        for x in p.option_nodes(o) {
            let m = p.itm[x];
            // Dead: a secondary item already given this option's colour.
            if self.items[m as usize].alive == 0 {
                continue;
            }
            self.kill(m);
            let c = p.clr[x];
            let it = self.items[m as usize];
            // `m` is dead now, so hiding never touches its own slice.
            for k in it.base..it.base + it.size {
                let y = self.set[k as usize];
                if c == 0 || p.clr[y as usize] != c {
                    self.hide(p, y, level);
                }
            }
        }
    }

    /// Item `m` is covered (or coloured): out of the alive lists.
    #[inline]
    fn kill(&mut self, m: u32) {
        self.items[m as usize].alive = 0;
        if m < self.n_primary {
            let last = self.np - 1;
            let (at, other) = (self.ppos[m as usize], self.prim[last as usize]);
            self.prim[at as usize] = other;
            self.ppos[other as usize] = at;
            self.prim[last as usize] = m;
            self.ppos[m as usize] = last;
            self.np = last;
        } else {
            self.dead.push(m);
        }
    }

    /// Take the option of node `y` out of every alive item's active set.
    #[inline]
    fn hide(&mut self, p: &Problem, y: u32, level: u32) {
        for z in p.option_nodes(p.opt[y as usize]) {
            let m = p.itm[z];
            let it = &mut self.items[m as usize];
            if it.alive == 0 {
                continue;
            }
            if it.stamp != level {
                self.trail.push((m, it.size));
                it.stamp = level;
            }
            let last = it.size - 1;
            it.size = last;
            let base = it.base;
            let at = self.loc[z];
            let other = self.set[(base + last) as usize];
            self.set[(base + last) as usize] = z as u32;
            self.set[(base + at) as usize] = other;
            self.loc[other as usize] = at;
            self.loc[z] = last;
        }
    }
}
