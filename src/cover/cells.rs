//! [`Cells`]: Knuth's dancing cells for Algorithm C (his SSXCC), one
//! worker's mutable copy of a [`Problem`].
//!
//! Each item `i` owns a slice `set[base..base + len]` of the nodes of the
//! options that contain it; its first `size` entries are the options still
//! *active* (compatible with the options chosen so far), and `nd[node].loc`
//! is a node's position in its item's slice.  Hiding a node swaps it just
//! past the active prefix and shrinks `size`: the prefix before the swap
//! point is never touched, so restoring an old `size` restores exactly the
//! nodes hidden since (in another order).  Undoing a choice is therefore
//! restoring a few sizes from the trail, not relinking anything.
//!
//! Invariants between operations:
//! * an item is *active* (`alive == ACTIVE`: not covered, not coloured) or
//!   dead (`DEAD`); the active primary items are `prim[..np]` (`ppos` is
//!   each one's place), the dead secondary ones are stacked on `dead`.
//!   While an option is being chosen its items are `COVERING`: out of the
//!   lists already, their sets still kept up to date;
//! * the active prefix of an active item holds exactly the options that
//!   contain it and agree with every choice made (no covered item, no other
//!   colour on a coloured secondary item);
//! * the trail holds `(item, old size)` once per item and phase that
//!   changed it (`stamp` marks the phase), so it never outgrows the nodes,
//!   and [`Cells::restore`] to a [`Mark`] undoes everything since.
//!
//! Choosing the item to branch on scans the active primary items, which is
//! the fastest way for the few hundred items of most puzzles but makes a
//! search quadratic in the items when they number in the hundreds of
//! thousands (a long strip).  From [`TREE_ITEMS`] primary items on, the
//! choice reads a tournament tree instead ([`Cells::choose`]): its leaves
//! hold a *lower bound* of each primary item's key `(size, item)` (the key
//! of a dead item is `u64::MAX`), so a key that goes up (a restore, a kill)
//! needs no update until the tree's minimum lands on it, and one that goes
//! down is found on the trail: every size that fell since the last choice
//! was saved there after the trail's low-water mark `low` (choices come
//! between phases, and a phase saves each item it changes), and items
//! revived by a restore are written at once.  Each choice therefore costs
//! the sizes changed since the last one times the tree's height.
//!
//! Nothing here allocates after [`Cells::new`]: every stack has its bound
//! (trail <= nodes, dead <= secondary items).  The hot loops index without
//! bounds checks; the indices come from the checked [`Problem`] (every
//! item, node and position in range), which `debug_assert`s restate.

use super::problem::Problem;
use crate::engine::Stop;
use crate::error::SearchError;
use crate::memory;

const NONE: u32 = u32::MAX;
const DEAD: u32 = 0;
const COVERING: u32 = 1;
const ACTIVE: u32 = 2;

/// From this many primary items on, [`Cells::choose`] reads a tournament
/// tree instead of scanning the active items.  Below it the scan is faster;
/// only the speed depends on it, never the item chosen.
pub(super) const TREE_ITEMS: usize = 4096;

/// An item's slice of `set`, its active length, and its bookkeeping
/// (one cache line holds four of them).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Item {
    base: u32,
    size: u32,
    alive: u32,
    /// The phase whose first change of `size` is on the trail, or `NONE`.
    stamp: u32,
}

/// A node: its item and its place in the item's set (read together).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Nd {
    itm: u32,
    loc: u32,
}

/// A node's option: its nodes `first..end` (read once per hidden option,
/// kept apart so the nodes stay small in the cache).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Span {
    first: u32,
    end: u32,
}

/// What [`Cells::restore`] returns to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    np: u32,
    dead: u32,
    trail: u32,
}

/// One worker's dancing cells (see the module docs).
pub struct Cells {
    items: Vec<Item>,
    set: Vec<u32>,
    nd: Vec<Nd>,
    span: Vec<Span>,
    prim: Vec<u32>,
    ppos: Vec<u32>,
    pub(super) np: u32,
    n_primary: u32,
    dead: Vec<u32>,
    trail: Vec<(u32, u32)>,
    /// Active primary items seen dropping to one option while choosing
    /// (Knuth's forced moves): the next node branches on one of them
    /// without a scan.  Emptied on every backtrack.
    force: Vec<u32>,
    /// The tournament tree of the items' key lower bounds (see the module
    /// docs): node `k`'s children are `2k` and `2k + 1`, item `m`'s leaf is
    /// `leaves + m`.  Empty below [`TREE_ITEMS`] primary items.
    tree: Vec<u64>,
    leaves: u32,
    /// The trail's length at the last choice, or less: the sizes that fell
    /// since are saved after it.
    low: u32,
}

/// The bytes one worker's [`Cells`] and search stacks take.
pub(super) fn cells_bytes(p: &Problem) -> u64 {
    let (n, i, o) = (p.n_nodes() as u64, p.n_items() as u64, p.n_options() as u64);
    let pr = p.n_primary() as u64;
    let tree = if pr as usize >= TREE_ITEMS {
        16 * pr.next_power_of_two()
    } else {
        0
    };
    16 * i + 4 * n + 16 * n + 8 * pr + 4 * i + 8 * (n + 1) + 4 * o + 40 * (pr + 1) + tree
}

/// An item's key in the choice: the fewest active options first, ties to
/// the first item.
#[inline(always)]
fn key(size: u32, m: u32) -> u64 {
    (u64::from(size) << 32) | u64::from(m)
}

// Unchecked indexing for the hot loops (see the module docs).
macro_rules! at {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len());
        // SAFETY: indices come from the checked problem (module docs).
        unsafe { *$v.get_unchecked(i) }
    }};
}
macro_rules! at_mut {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len());
        // SAFETY: as for `at!`.
        unsafe { $v.get_unchecked_mut(i) }
    }};
}

impl Cells {
    /// The cells of `p` with nothing chosen.
    pub fn new(p: &Problem) -> Result<Cells, SearchError> {
        Cells::with_tree(p, p.n_primary() >= TREE_ITEMS, None)
    }

    /// [`Cells::new`], `Err(Cancelled)` soon after `stop` is set: a problem
    /// of millions of options takes a while to lay out.
    pub(super) fn stoppable(p: &Problem, stop: &Stop) -> Result<Cells, SearchError> {
        Cells::with_tree(p, p.n_primary() >= TREE_ITEMS, Some(stop))
    }

    /// [`Cells::new`], choosing by the tree (`tree`) or by the scan
    /// whatever the size (the tests compare the two on small problems), and
    /// polling `stop` if given.
    pub(super) fn with_tree(
        p: &Problem,
        tree: bool,
        stop: Option<&Stop>,
    ) -> Result<Cells, SearchError> {
        // A look at the stop every 65,536 options or items.
        let poll = |k: usize| {
            if k & 0xffff == 0 && stop.is_some_and(Stop::now) {
                Err(SearchError::Cancelled)
            } else {
                Ok(())
            }
        };
        let what = "the search's working copy of the problem";
        let (n_items, n_nodes) = (p.n_items(), p.n_nodes());
        let mut items = memory::try_with_capacity(n_items, what)?;
        let mut set = memory::try_with_capacity(n_nodes, what)?;
        let mut nd = memory::try_with_capacity(n_nodes, what)?;
        let mut span = memory::try_with_capacity(n_nodes, what)?;
        for k in 0..p.n_options() as u32 {
            poll(k as usize)?;
            let r = p.option_nodes(k);
            for x in r.clone() {
                nd.push(Nd {
                    itm: p.itm[x],
                    loc: 0,
                });
                span.push(Span {
                    first: r.start as u32,
                    end: r.end as u32,
                });
            }
        }
        for i in 0..n_items as u32 {
            poll(i as usize)?;
            let nodes = p.nodes_of(i);
            items.push(Item {
                base: set.len() as u32,
                size: nodes.len() as u32,
                alive: ACTIVE,
                stamp: NONE,
            });
            for (k, &x) in nodes.iter().enumerate() {
                nd[x as usize].loc = k as u32;
                set.push(x);
            }
        }
        let n_primary = p.n_primary();
        let mut prim = memory::try_with_capacity(n_primary, what)?;
        prim.extend(0..n_primary as u32);
        let mut ppos = memory::try_with_capacity(n_primary, what)?;
        ppos.extend(0..n_primary as u32);
        let (tree, leaves) = if tree && n_primary > 0 {
            let leaves = n_primary.next_power_of_two();
            let mut tree: Vec<u64> = memory::try_zeroed(2 * leaves, what)?;
            tree[leaves..].fill(u64::MAX);
            for (m, it) in items.iter().take(n_primary).enumerate() {
                tree[leaves + m] = key(it.size, m as u32);
            }
            for k in (1..leaves).rev() {
                tree[k] = tree[2 * k].min(tree[2 * k + 1]);
            }
            (tree, leaves as u32)
        } else {
            (Vec::new(), 0)
        };
        Ok(Cells {
            items,
            set,
            nd,
            span,
            prim,
            ppos,
            np: n_primary as u32,
            n_primary: n_primary as u32,
            dead: memory::try_with_capacity(n_items - n_primary, what)?,
            trail: memory::try_with_capacity(n_nodes + 1, what)?,
            force: memory::try_with_capacity(n_primary + 1, what)?,
            tree,
            leaves,
            low: 0,
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
            let it = at_mut!(self.items, m);
            it.size = size;
            it.stamp = NONE;
        }
        self.low = self.low.min(mark.trail);
        for k in self.np..mark.np {
            at_mut!(self.items, at!(self.prim, k)).alive = ACTIVE;
        }
        if !self.tree.is_empty() {
            // Revived items' keys fell (from the dead key): written now.
            for k in self.np..mark.np {
                let m = at!(self.prim, k);
                self.set_leaf(m, key(at!(self.items, m).size, m));
            }
        }
        self.np = mark.np;
        while self.dead.len() > mark.dead as usize {
            let m = self.dead.pop().unwrap_or(0);
            at_mut!(self.items, m).alive = ACTIVE;
        }
    }

    /// A forced item to branch on (one option left, or none: a dead end),
    /// if one was seen since the last backtrack.  Forced choices commute
    /// (each leaves the others forced, or kills the node), so taking one
    /// before the scan's choice changes neither the covers nor their order.
    #[inline]
    pub(super) fn forced(&mut self) -> Option<(u32, u32)> {
        while let Some(m) = self.force.pop() {
            let it = at!(self.items, m);
            if it.alive == ACTIVE && it.size <= 1 {
                return Some((m, it.size));
            }
        }
        None
    }

    /// Forget the forced items (their subtree is left).
    #[inline]
    pub(super) fn unforce(&mut self) {
        self.force.clear();
    }

    /// The primary item to branch on: the fewest active options, ties to
    /// the first in item order; `(item, its active options)`.  The scan
    /// always reads every active item (no early exit at an item with no
    /// option: the branch it costs outweighs the scan it saves).
    #[inline]
    pub(super) fn choose(&mut self) -> (u32, u32) {
        if !self.tree.is_empty() {
            return self.choose_in_tree();
        }
        // The least (size, item) pair, without a branch per item: the
        // order of `prim` is scrambled by kills, so a compare-and-branch
        // scan mispredicts often; a min of packed keys does not.
        let mut best = u64::MAX;
        for &m in &self.prim[..self.np as usize] {
            best = best.min(key(at!(self.items, m).size, m));
        }
        (best as u32, (best >> 32) as u32)
    }

    /// The item's key now: `u64::MAX` if it is not active.
    #[inline]
    fn true_key(&self, m: u32) -> u64 {
        let it = at!(self.items, m);
        if it.alive == ACTIVE {
            key(it.size, m)
        } else {
            u64::MAX
        }
    }

    /// Write item `m`'s leaf and the minima above it (up to the first that
    /// does not change).
    #[inline]
    fn set_leaf(&mut self, m: u32, value: u64) {
        let mut k = (self.leaves + m) as usize;
        *at_mut!(self.tree, k) = value;
        while k > 1 {
            let up = k >> 1;
            let least = at!(self.tree, 2 * up).min(at!(self.tree, 2 * up + 1));
            if at!(self.tree, up) == least {
                break;
            }
            *at_mut!(self.tree, up) = least;
            k = up;
        }
    }

    /// [`Cells::choose`] by the tree (see the module docs): the sizes that
    /// fell since the last choice written, then the tree's minimum made
    /// exact until it is an item's true key.
    fn choose_in_tree(&mut self) -> (u32, u32) {
        debug_assert!(self.np > 0);
        for t in self.low as usize..self.trail.len() {
            let m = at!(self.trail, t).0;
            if m < self.n_primary {
                self.set_leaf(m, self.true_key(m));
            }
        }
        self.low = self.trail.len() as u32;
        loop {
            let best = at!(self.tree, 1);
            let m = best as u32;
            let now = self.true_key(m);
            if now == best {
                return (m, (best >> 32) as u32);
            }
            debug_assert!(now > best, "a leaf above its item's key");
            self.set_leaf(m, now);
        }
    }

    /// The active nodes of item `m`.
    #[inline]
    pub(super) fn active(&self, m: u32) -> &[u32] {
        let it = self.items[m as usize];
        &self.set[it.base as usize..(it.base + it.size) as usize]
    }

    /// The option of node `x`.
    #[inline]
    pub(super) fn option_of(&self, p: &Problem, x: u32) -> u32 {
        at!(p.opt, x)
    }

    /// Branch on item `m`: cover it, hiding all its options (once for the
    /// whole node; each branch then chooses one with [`Cells::choose_rest`]).
    pub(super) fn branch_on(&mut self, m: u32, phase: u32) {
        self.kill(m);
        let it = at!(self.items, m);
        for k in it.base..it.base + it.size {
            self.hide::<false>(at!(self.set, k), phase);
        }
    }

    /// Choose option `o` whole (replaying a task): no dead-end check, so
    /// the state is always complete.
    pub(super) fn choose_option(&mut self, p: &Problem, o: u32, phase: u32) {
        let r = p.option_nodes(o);
        self.choose_nodes::<false, true>(&p.clr, r.start as u32, r.end as u32, phase);
    }

    /// Choose the option of node `x` after [`Cells::branch_on`] its item:
    /// cover its other uncoloured items and colour its coloured ones.
    /// `false` if that leaves an active primary item with no option (the
    /// state is then partial: the caller restores it).
    #[inline]
    pub(super) fn choose_rest(&mut self, x: u32, phase: u32) -> bool {
        let n = at!(self.span, x);
        self.choose_nodes::<true, false>(&[], n.first, n.end, phase)
    }

    /// Mark the still-active items of nodes `first..end` as being covered.
    #[inline]
    fn take_items(&mut self, first: u32, end: u32) {
        for z in first..end {
            let m = at!(self.nd, z).itm;
            if at!(self.items, m).alive == ACTIVE {
                self.kill(m);
                at_mut!(self.items, m).alive = COVERING;
            }
        }
    }

    /// Choose nodes `first..end`: an uncoloured item hides all its other
    /// options, a coloured one those of another colour (`clr`, the nodes'
    /// colours, read only if `COLOURED`: without, every item is uncoloured).
    #[inline]
    fn choose_nodes<const CHECK: bool, const COLOURED: bool>(
        &mut self,
        clr: &[u32],
        first: u32,
        end: u32,
        phase: u32,
    ) -> bool {
        self.take_items(first, end);
        for z in first..end {
            let m = at!(self.nd, z).itm;
            let it = at!(self.items, m);
            if it.alive != COVERING {
                continue;
            }
            let c = if COLOURED { at!(clr, z) } else { 0 };
            for k in it.base..it.base + it.size {
                let y = at!(self.set, k);
                if (c == 0 || at!(clr, y) != c) && !self.hide::<CHECK>(y, phase) && CHECK {
                    return false;
                }
            }
            at_mut!(self.items, m).alive = DEAD;
        }
        true
    }

    /// [`Cells::choose_rest`] in a problem with colours.
    #[inline]
    pub(super) fn choose_rest_coloured(&mut self, p: &Problem, x: u32, phase: u32) -> bool {
        let n = at!(self.span, x);
        self.choose_nodes::<true, true>(&p.clr, n.first, n.end, phase)
    }

    /// Item `m` leaves the lists of active items.
    #[inline]
    fn kill(&mut self, m: u32) {
        at_mut!(self.items, m).alive = DEAD;
        if m < self.n_primary {
            let last = self.np - 1;
            let (pos, other) = (at!(self.ppos, m), at!(self.prim, last));
            *at_mut!(self.prim, pos) = other;
            *at_mut!(self.ppos, other) = pos;
            *at_mut!(self.prim, last) = m;
            *at_mut!(self.ppos, m) = last;
            self.np = last;
        } else {
            self.dead.push(m);
        }
    }

    /// Take the option of node `y` out of the sets of its other items that
    /// are not dead (never out of `y`'s own item's set, which the caller is
    /// walking).  With `CHECK`, `false` as soon as an active primary item
    /// is left with no option.
    #[inline(always)]
    fn hide<const CHECK: bool>(&mut self, y: u32, phase: u32) -> bool {
        // Disjoint borrows: the compiler keeps every base pointer in a
        // register (stores into one array cannot move another).
        let Cells {
            items,
            set,
            nd,
            span,
            trail,
            force,
            n_primary,
            ..
        } = self;
        let s = at!(span, y);
        let mut a = Arrays {
            items,
            set,
            nd,
            trail,
            force,
            n_primary: *n_primary,
            phase,
        };
        // The option's nodes around `y` (its own item's set is not touched).
        a.hide::<CHECK>(s.first, y) && a.hide::<CHECK>(y + 1, s.end)
    }
}

/// The arrays [`Cells::hide`] writes, borrowed apart.
struct Arrays<'a> {
    items: &'a mut [Item],
    set: &'a mut [u32],
    nd: &'a mut [Nd],
    trail: &'a mut Vec<(u32, u32)>,
    force: &'a mut Vec<u32>,
    n_primary: u32,
    phase: u32,
}

/// Append to a stack whose capacity was reserved for every push.
#[inline(always)]
fn push_reserved<T>(v: &mut Vec<T>, value: T) {
    debug_assert!(v.len() < v.capacity());
    let len = v.len();
    // SAFETY: in capacity (the callers' bounds: the trail saves each item
    // once a phase, and each save comes with a hidden node, at most all
    // nodes on one path; an item is forced at most once between
    // backtracks, and only primary items are).
    unsafe {
        v.as_mut_ptr().add(len).write(value);
        v.set_len(len + 1);
    }
}

impl Arrays<'_> {
    /// [`Cells::hide`] for nodes `first..end`.
    #[inline(always)]
    fn hide<const CHECK: bool>(&mut self, first: u32, end: u32) -> bool {
        for z in first..end {
            let m = at!(self.nd, z).itm;
            let it = at_mut!(self.items, m);
            if it.alive == DEAD {
                continue;
            }
            if it.stamp != self.phase {
                push_reserved(self.trail, (m, it.size));
                it.stamp = self.phase;
            }
            let last = it.size - 1;
            it.size = last;
            let (base, alive) = (it.base, it.alive);
            let pos = at!(self.nd, z).loc;
            let other = at!(self.set, base + last);
            *at_mut!(self.set, base + last) = z;
            *at_mut!(self.set, base + pos) = other;
            at_mut!(self.nd, other).loc = pos;
            at_mut!(self.nd, z).loc = last;
            if CHECK && last <= 1 && alive == ACTIVE && m < self.n_primary {
                if last == 0 {
                    return false;
                }
                push_reserved(self.force, m);
            }
        }
        true
    }
}
