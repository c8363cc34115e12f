//! [`MultiWalk`]: Knuth's Algorithm M (TAOCP 7.2.2.1; his DLX3, and the
//! sparse sets of SSMCC), the search of problems whose primary items have
//! bounds: item `i` is in at least `lo` and at most `hi` chosen options.
//!
//! A cover is a *set* of options, found once: the search branches two ways
//! (as SSMCC does) on the first active option `x` of the item it picks,
//! taking `x` or leaving it out for the rest of the subtree, so no set is
//! reached by two orders of the same choices.  The item picked has the
//! fewest ways left, Knuth's branching degree `len + min(slack, bound) -
//! bound + 1` (`bound`: how many more options it may take; `slack`: `hi -
//! lo`); ties go to the first item, and `x` is the item's first active
//! option in option order.  Both depend only on the node (which options are
//! taken, which left out), never on how it was reached, so a task replayed
//! from the root walks the same tree as the walk that made it.
//!
//! Each item owns a slice of `set` (the nodes of its options, in the order
//! of [`Problem`]); its first `size` entries are the options still active.
//! Taking an option out swaps its node past the active prefix, so restoring
//! a size restores the nodes (in another order).  Every changed value
//! (a size, a bound, a secondary item's colour, the number of live primary
//! items) goes on the trail with its old value; undoing is popping it.
//! Items with a bound of 1 and no slack behave as Algorithm C's.

use super::problem::Problem;
use super::walk::{CoverWalk, Outcome, Run};
use crate::engine::Stop;
use crate::error::SearchError;
use crate::memory;

/// In a task, an option left out (the right branch) has this bit set.
pub const LEFT_OUT: u32 = 1 << 31;

/// The most children a node splits into (see [`CoverWalk::children`]).
const SPINE: usize = 256;

/// A secondary item not yet in a chosen option.
const OPEN: u32 = 0;
/// A secondary item in a chosen option without a colour.
const SHUT: u32 = u32::MAX;

/// One binary branch on the stack: the trail's length before it and the
/// option it takes (`taken`) or leaves out.
#[derive(Clone, Copy, Debug)]
struct Level {
    mark: u32,
    option: u32,
    taken: bool,
}

/// A node's item and its place in `set` (read together).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Nd {
    itm: u32,
    loc: u32,
}

/// What the search does at a node.
enum Choice {
    /// Every primary item is within its bounds with nothing left to add.
    Cover,
    /// Some item can no longer reach its least count.
    Dead,
    /// Branch on this option (its node).
    Branch(u32),
}

/// A worker's copy of a bounded problem's state, with its stacks.
pub struct MultiWalk {
    /// Item `i`'s nodes are `set[base[i]..base[i + 1]]`, active first.
    base: Vec<u32>,
    set: Vec<u32>,
    /// Each node's item and place in `set`.
    nd: Vec<Nd>,
    /// `val[i]`: item `i`'s active options; `val[n + i]`: primary item
    /// `i`'s bound left, or secondary item `i`'s state (`OPEN`, `SHUT` or
    /// the colour it took); `val[2n]`: the live primary items.
    val: Vec<u32>,
    /// Each primary item's `hi - lo`.
    slack: Vec<u32>,
    /// The live primary items (`live[..val[2n]]`) and each one's place.
    live: Vec<u32>,
    live_at: Vec<u32>,
    /// `(slot of val, old value)`, newest last.
    trail: Vec<(u32, u32)>,
    /// The trail's length at the root (after the items of bound 0 are shut).
    root: usize,
    levels: Vec<Level>,
    /// The options taken, in the order taken.
    path: Vec<u32>,
    n: usize,
}

impl MultiWalk {
    #[inline]
    fn set_val(&mut self, slot: usize, value: u32) {
        self.trail.push((slot as u32, self.val[slot]));
        self.val[slot] = value;
    }

    #[inline]
    fn size(&self, i: usize) -> u32 {
        self.val[i]
    }

    fn restore(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (slot, old) = self.trail.pop().expect("the trail is longer than the mark");
            self.val[slot as usize] = old;
        }
    }

    /// Take node `x` out of its item's active prefix.
    #[inline(always)]
    fn drop_node(&mut self, x: u32) {
        let Nd { itm, loc: at } = self.nd[x as usize];
        let i = itm as usize;
        let size = self.val[i];
        debug_assert!(
            size > 0 && at < self.base[i] + size,
            "node {x} is active in item {i}"
        );
        let last = (self.base[i] + size).wrapping_sub(1);
        // Checked: the one index a wrong size could send astray.
        let y = self.set[last as usize];
        // SAFETY: `last` is in `set` (checked above); `at` is a node's place,
        // and places are only ever set to a checked `last` or another place,
        // so it is in `set` too; `set` holds node numbers only (it is swapped,
        // never written otherwise), so `x` and `y` are in `nd`.
        unsafe {
            *self.set.get_unchecked_mut(last as usize) = x;
            *self.set.get_unchecked_mut(at as usize) = y;
            self.nd.get_unchecked_mut(x as usize).loc = last;
            self.nd.get_unchecked_mut(y as usize).loc = at;
        }
        self.trail.push((i as u32, size));
        self.val[i] = size - 1;
    }

    /// Whether item `i`'s options are frozen: a secondary item in a chosen
    /// option.
    #[inline]
    fn frozen(&self, p: &Problem, i: usize) -> bool {
        i >= p.n_primary() && self.val[self.n + i] != OPEN
    }

    /// Take option `o` out of the lists of its items other than `skip`
    /// (and the frozen ones).
    fn hide(&mut self, p: &Problem, o: u32, skip: usize) {
        for x in p.option_nodes(o) {
            let i = self.nd[x].itm as usize;
            if i != skip && !self.frozen(p, i) {
                self.drop_node(x as u32);
            }
        }
    }

    /// Primary item `i` takes no more options: its active ones go, and it
    /// leaves the live items.
    fn shut_primary(&mut self, p: &Problem, i: usize) {
        let b = self.base[i] as usize;
        for k in b..b + self.size(i) as usize {
            let o = p.opt[self.set[k] as usize];
            self.hide(p, o, i);
        }
        let n_live = self.val[2 * self.n];
        let at = self.live_at[i];
        let last = self.live[n_live as usize - 1];
        self.live[at as usize] = last;
        self.live[n_live as usize - 1] = i as u32;
        self.live_at[last as usize] = at;
        self.live_at[i] = n_live - 1;
        self.set_val(2 * self.n, n_live - 1);
    }

    /// Secondary item `i` is in a chosen option with colour `c` (0: none):
    /// its options of another colour (all, for none) go, and it freezes.
    fn shut_secondary(&mut self, p: &Problem, i: usize, c: u32) {
        let b = self.base[i] as usize;
        for k in b..b + self.size(i) as usize {
            let x = self.set[k] as usize;
            if c == 0 || p.clr[x] != c {
                self.hide(p, p.opt[x], i);
            }
        }
        self.set_val(self.n + i, if c == 0 { SHUT } else { c });
    }

    /// Choose option `o`: it leaves every list, each primary item's bound
    /// goes down (an item at 0 shuts), each open secondary item shuts.
    fn take(&mut self, p: &Problem, o: u32) {
        self.leave_out(p, o);
        for x in p.option_nodes(o) {
            let i = self.nd[x].itm as usize;
            if i < p.n_primary() {
                let bound = self.val[self.n + i] - 1;
                self.set_val(self.n + i, bound);
                if bound == 0 {
                    self.shut_primary(p, i);
                }
            } else if !self.frozen(p, i) {
                self.shut_secondary(p, i, p.clr[x]);
            }
        }
    }

    /// Leave option `o` out of the rest of the subtree.
    fn leave_out(&mut self, p: &Problem, o: u32) {
        for x in p.option_nodes(o) {
            if !self.frozen(p, self.nd[x].itm as usize) {
                self.drop_node(x as u32);
            }
        }
    }

    /// The branch at this node (see the module docs).
    fn choose(&self) -> Choice {
        let mut best: Option<(u64, u32)> = None;
        for &i in &self.live[..self.val[2 * self.n] as usize] {
            let (len, bound) = (self.size(i as usize), self.val[self.n + i as usize]);
            let s = self.slack[i as usize].min(bound);
            if len as u64 + (s as u64) < bound as u64 {
                return Choice::Dead; // fewer options than it still needs
            }
            if len == 0 {
                continue; // within its bounds, and nothing left to add
            }
            let score = len as u64 + s as u64 - bound as u64 + 1;
            if best.is_none_or(|(b, j)| (score, i) < (b, j)) {
                best = Some((score, i));
            }
        }
        match best {
            None => Choice::Cover,
            Some((_, i)) => {
                let b = self.base[i as usize] as usize;
                let active = &self.set[b..b + self.size(i as usize) as usize];
                Choice::Branch(*active.iter().min().expect("a live item with options"))
            }
        }
    }

    /// Search below the replayed node, each node and cover through `run`;
    /// with `PRICED` (a priced `run`), every cover goes to the run's best
    /// instead, and an option whose net cost it does not admit is left out
    /// without being taken.
    fn search<const COUNT: bool, const PRICED: bool>(
        &mut self,
        p: &Problem,
        run: &mut Run,
    ) -> Outcome {
        let base = self.levels.len();
        // The net cost of the options taken (a priced search's).
        let Some(mut cost) = run.start_cost(&self.path) else {
            return Ok(Some(true));
        };
        loop {
            if let Some(outcome) = run.node()? {
                return Ok(outcome);
            }
            match self.choose() {
                Choice::Cover => {
                    if PRICED {
                        run.offer(cost, &self.path);
                    } else if let Some(outcome) = run.cover::<COUNT>(&self.path)? {
                        return Ok(outcome);
                    }
                }
                Choice::Dead => {}
                Choice::Branch(x) => {
                    let option = p.opt[x as usize];
                    // A priced search takes an option only if it can afford it.
                    let then = if PRICED {
                        let then = cost + run.net(option);
                        run.affords(then).then_some(then)
                    } else {
                        Some(cost)
                    };
                    self.levels.push(Level {
                        mark: self.trail.len() as u32,
                        option,
                        taken: then.is_some(),
                    });
                    if let Some(then) = then {
                        cost = then;
                        self.path.push(option);
                        self.take(p, option);
                    } else {
                        self.leave_out(p, option); // too dear: the other branch only
                    }
                    continue;
                }
            }
            // Back to the newest branch still to take its other way.
            loop {
                if self.levels.len() == base {
                    return Ok(Some(true));
                }
                let level = self.levels[self.levels.len() - 1];
                self.restore(level.mark as usize);
                if level.taken {
                    self.path.pop();
                    if PRICED {
                        cost -= run.net(level.option);
                    }
                    let depth = self.levels.len();
                    self.levels[depth - 1].taken = false;
                    self.leave_out(p, level.option);
                    break;
                }
                self.levels.pop();
            }
        }
    }
}

/// Bytes one walk over `p` holds: the sets (4 bytes a node) and each node's
/// item and place (8), the items' six values, a trail of at most two entries
/// a node and two an item, and the stacks of at most one level an option.
pub fn multi_bytes(p: &Problem) -> u64 {
    let (nodes, items, options) = (p.n_nodes() as u64, p.n_items() as u64, p.n_options() as u64);
    12 * nodes + 4 * 6 * items + 8 * (2 * nodes + 2 * items + 1) + 16 * (options + 1)
}

impl CoverWalk for MultiWalk {
    fn bytes(p: &Problem) -> u64 {
        multi_bytes(p)
    }

    fn max_depth(p: &Problem) -> usize {
        p.n_options() + 1
    }

    fn new(p: &Problem, stop: Option<&Stop>) -> Result<MultiWalk, SearchError> {
        if stop.is_some_and(|s| s.now()) {
            return Err(SearchError::Cancelled);
        }
        let what = "the search's copy of the problem";
        let (n, np, nodes) = (p.n_items(), p.n_primary(), p.n_nodes());
        let mut base: Vec<u32> = memory::try_with_capacity(n + 1, what)?;
        base.extend_from_slice(&p.item_start);
        let mut set: Vec<u32> = memory::try_with_capacity(nodes, what)?;
        set.extend_from_slice(&p.item_nodes);
        let mut nd: Vec<Nd> = memory::try_with_capacity(nodes, what)?;
        nd.extend(p.itm.iter().map(|&itm| Nd { itm, loc: 0 }));
        for (at, &x) in set.iter().enumerate() {
            nd[x as usize].loc = at as u32;
        }
        let mut val: Vec<u32> = memory::try_zeroed(2 * n + 1, what)?;
        let mut slack: Vec<u32> = memory::try_zeroed(np, what)?;
        for i in 0..n {
            val[i] = base[i + 1] - base[i];
        }
        for (i, s) in slack.iter_mut().enumerate() {
            let (lo, hi) = p.bounds_of(i);
            val[n + i] = hi;
            *s = hi - lo;
        }
        val[2 * n] = np as u32;
        let mut live: Vec<u32> = memory::try_with_capacity(np, what)?;
        live.extend(0..np as u32);
        let mut live_at: Vec<u32> = memory::try_with_capacity(np, what)?;
        live_at.extend(0..np as u32);
        let mut walk = MultiWalk {
            base,
            set,
            nd,
            val,
            slack,
            live,
            live_at,
            trail: memory::try_with_capacity(2 * nodes + 2 * n + 1, what)?,
            root: 0,
            levels: memory::try_with_capacity(p.n_options() + 1, what)?,
            path: memory::try_with_capacity(p.n_options() + 1, what)?,
            n,
        };
        // Items that take no option at all shut at the root.
        for i in 0..np {
            if walk.val[n + i] == 0 && walk.live_at[i] < walk.val[2 * n] {
                walk.shut_primary(p, i);
            }
        }
        walk.root = walk.trail.len();
        Ok(walk)
    }

    fn reset(&mut self) {
        self.restore(self.root);
        self.levels.clear();
        self.path.clear();
    }

    fn replay(&mut self, p: &Problem, task: &[u32]) {
        self.reset();
        for &d in task {
            let option = d & !LEFT_OUT;
            let taken = d & LEFT_OUT == 0;
            self.levels.push(Level {
                mark: self.trail.len() as u32,
                option,
                taken: false, // finished: a search below never backs into it
            });
            if taken {
                self.path.push(option);
                self.take(p, option);
            } else {
                self.leave_out(p, option);
            }
        }
    }

    /// The node's subtrees along its right spine: taking the option it
    /// branches on, then (that option left out) taking the next node's, and
    /// so on, as Algorithm C's children are its item's options.  Split two
    /// ways instead, a plan would be a chain whose last task holds most of
    /// the tree.  Past [`SPINE`] nodes the rest of the spine is one child.
    fn children(&mut self, p: &Problem) -> Option<Vec<Vec<u32>>> {
        let mut out = Vec::new();
        let mut spine = Vec::new();
        loop {
            match self.choose() {
                Choice::Cover if spine.is_empty() => return None,
                Choice::Dead => return Some(out),
                Choice::Branch(x) if spine.len() < SPINE => {
                    let o = p.opt[x as usize];
                    let mut taken = spine.clone();
                    taken.push(o);
                    out.push(taken);
                    spine.push(o | LEFT_OUT);
                    self.leave_out(p, o);
                }
                _ => {
                    out.push(spine); // a cover, or the rest of a long spine
                    return Some(out);
                }
            }
        }
    }

    fn run_within<const COUNT: bool>(&mut self, p: &Problem, run: &mut Run) -> Outcome {
        if run.is_priced() {
            self.search::<false, true>(p, run)
        } else {
            self.search::<COUNT, false>(p, run)
        }
    }
}
