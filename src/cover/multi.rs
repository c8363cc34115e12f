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
//! (a bound, a need, a secondary item's frozen mark, the number of live
//! primary items) goes on the trail with its old value; undoing is popping
//! it.  A size
//! goes there once a decision (the first time it changes after a mark),
//! not once a node: a node's hides take hundreds of options out of a few
//! dozen items.  Items with a bound of 1 and no slack behave as Algorithm
//! C's.
//!
//! The work is where SSMCC's is.  A take or a leave-out stops as soon as
//! some item is left with fewer options than it needs, even partway
//! through an option (the child is dead whatever the rest would do, and a
//! dead state is only ever restored); the node after a left-out option
//! looks only at its parent's item (the parent's choice stands unless that
//! item runs out); and where the item has no option to spare, the option
//! is not left out at all, as that child would be dead.  None of these
//! changes the live nodes of the tree: the debug build checks each against
//! the full look.

use super::multi_drop::{drop_nodes, drop_shut, Nd, Shut, FROZEN, NEED, SAVED, SIZE};
use super::problem::Problem;
use super::walk::{CoverWalk, Outcome, Run};
use crate::engine::Stop;
use crate::error::SearchError;
use crate::memory;

/// In a task, an option left out (the right branch) has this bit set.
pub const LEFT_OUT: u32 = 1 << 31;

/// The most children a node splits into (see [`CoverWalk::children`]).
const SPINE: usize = 256;

/// Where primary item `i`'s bound is in `val`, for `n` items.
#[inline(always)]
fn state(n: usize, i: usize) -> usize {
    4 * n + i
}

/// One binary branch on the stack: the trail's length before it, the
/// option it takes (`taken`) or leaves out, and the item it branched on.
#[derive(Clone, Copy, Debug)]
struct Level {
    mark: u32,
    option: u32,
    item: u32,
    taken: bool,
    /// Whether the item had no option to spare (as many as it needs), so
    /// that leaving the option out would leave it short: the other branch
    /// is dead and is not walked (SSMCC's branching degree 1).
    last: bool,
}

/// What the search does at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// Every primary item is within its bounds with nothing left to add.
    Cover,
    /// Some item can no longer reach its least count.
    Dead,
    /// Branch on this option (its node).
    Branch(u32),
}

/// What the search knows of a node's choice before looking.
#[derive(Clone, Copy)]
enum Next {
    /// Nothing: look at every live item.
    Choose,
    /// Its parent branched on this item and it leaves that option out.
    After(u32),
    /// An item has fewer options than it needs.
    Dead,
}

/// A worker's copy of a bounded problem's state, with its stacks.
pub struct MultiWalk {
    /// Item `i`'s nodes are `set[base..base + len]`, active first
    /// (`base`: `val[4i]`; `len`: `p`'s).
    set: Vec<u32>,
    /// Each node's item and place in `set`.
    nd: Vec<Nd>,
    /// Item `i`'s four words, together so that a drop reads one cache
    /// line: `val[4i]` where its nodes start in `set`, `val[4i + 1]` its
    /// active options, `val[4i + 2]` how many more options it needs (its
    /// bound less its slack; for a secondary item 0, or [`FROZEN`] once in
    /// a chosen option), `val[4i + 3]` the epoch its size was last saved in
    /// (see [`MultiWalk::next_epoch`]).  Then `val[4n + i]`: primary item
    /// `i`'s bound left; `val[5n]`: the live primary items.  The trail
    /// holds places in `val`.
    val: Vec<u32>,
    /// Each primary item's `hi - lo`.
    slack: Vec<u32>,
    /// The live primary items (`live[..val[5n]]`) and each one's place.
    live: Vec<u32>,
    live_at: Vec<u32>,
    /// `(slot of val, old value)`, newest last.
    trail: Vec<(u32, u32)>,
    /// The trail's length at the root (after the items of bound 0 are shut).
    root: usize,
    levels: Vec<Level>,
    /// The options taken, in the order taken.
    path: Vec<u32>,
    epoch: u32,
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
        self.val[4 * i + SIZE]
    }

    /// Where item `i`'s nodes start in `set`.
    #[inline]
    fn base(&self, i: usize) -> usize {
        self.val[4 * i] as usize
    }

    /// Back to the state at `mark` (a length of the trail).
    fn restore(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (slot, old) = self.trail.pop().expect("the trail is longer than the mark");
            self.val[slot as usize] = old;
        }
        self.next_epoch();
    }

    /// The trail's length, as a mark to restore to later.
    fn mark(&mut self) -> u32 {
        self.next_epoch();
        self.trail.len() as u32
    }

    /// A new epoch: changes from here on save each item's size again.
    /// Every mark and every restore starts one, so each mark's later
    /// changes save the size it had at the mark.
    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            for i in 0..self.n {
                self.val[4 * i + SAVED] = 0;
            }
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// The arrays the drops change, borrowed apart, and the epoch.
    #[inline]
    #[allow(clippy::type_complexity)] // the drops' arguments, as they take them
    fn drop_parts(&mut self) -> (&mut [u32], &mut [Nd], &mut [u32], &mut Vec<(u32, u32)>, u32) {
        let MultiWalk {
            set,
            nd,
            val,
            epoch,
            trail,
            ..
        } = self;
        (set, nd, val, trail, *epoch)
    }

    /// [`drop_nodes`] on this walk's arrays.
    #[inline]
    fn drop_nodes(&mut self, nodes: std::ops::Range<usize>) -> bool {
        let (set, nd, val, trail, epoch) = self.drop_parts();
        drop_nodes(set, nd, val, trail, epoch, nodes)
    }

    /// Whether item `i`'s options are frozen: a secondary item in a chosen
    /// option.
    #[inline]
    fn frozen(&self, p: &Problem, i: usize) -> bool {
        i >= p.n_primary() && self.val[4 * i + NEED] == FROZEN
    }

    /// Take option `o` out of the lists of its items (but the frozen
    /// ones); whether an item is left with fewer options than it needs.
    #[inline]
    fn hide(&mut self, p: &Problem, o: u32) -> bool {
        self.drop_nodes(p.option_nodes(o))
    }

    /// Primary item `i` takes no more options: it freezes (so that its
    /// list stays as the loop below reads it, and nothing is counted
    /// against its need), its active options but `keep` go, and it leaves
    /// the live items.  Stops early, returning `true`, as soon as an item is
    /// left with fewer options than it needs.
    fn shut_primary(&mut self, p: &Problem, i: usize, keep: u32) -> bool {
        if self.shut(p, i, keep, 0) {
            return true;
        }
        let n_live = self.val[5 * self.n];
        let at = self.live_at[i];
        let last = self.live[n_live as usize - 1];
        self.live[at as usize] = last;
        self.live[n_live as usize - 1] = i as u32;
        self.live_at[last as usize] = at;
        self.live_at[i] = n_live - 1;
        self.set_val(5 * self.n, n_live - 1);
        false
    }

    /// Item `i` freezes, and its active options go but `keep` and those
    /// of colour `c` (if not 0: a secondary item in chosen option `keep`
    /// with colour `c`); whether an item is left with fewer options
    /// than it needs (the drops stop there).
    fn shut(&mut self, p: &Problem, i: usize, keep: u32, c: u32) -> bool {
        self.set_val(4 * i + NEED, FROZEN);
        let b = self.base(i);
        let shut = Shut {
            list: b..b + self.size(i) as usize,
            opt: &p.opt,
            starts: &p.starts,
            clr: &p.clr,
            keep,
            c,
            secondary: p.n_items() > p.n_primary(),
        };
        let n = self.n;
        let (set, nd, val, trail, epoch) = self.drop_parts();
        drop_shut(set, nd, val, trail, epoch, n, &shut)
    }

    /// Choose option `o`: each primary item's bound goes down, an item at
    /// 0 shuts and `o` leaves the others; each open secondary item shuts.
    /// As SSMCC does, it stops as soon as an item is left with fewer
    /// options than it needs, returning `false`: the node is dead, and
    /// [`MultiWalk::choose`] would say so of the state left (sizes only
    /// shrink), but the rest of the work is saved.
    fn take(&mut self, p: &Problem, o: u32) -> bool {
        // The bounds first, so that no drop below counts against an item
        // that `o` itself covers.
        for x in p.option_nodes(o) {
            let i = self.nd[x].itm as usize;
            if i < p.n_primary() {
                let bound = self.val[state(self.n, i)] - 1;
                self.set_val(state(self.n, i), bound);
                let left = bound.saturating_sub(self.slack[i]);
                if left != self.val[4 * i + NEED] {
                    self.set_val(4 * i + NEED, left);
                }
            }
        }
        for x in p.option_nodes(o) {
            let i = self.nd[x].itm as usize;
            let dead = if i < p.n_primary() {
                if self.val[state(self.n, i)] == 0 {
                    self.shut_primary(p, i, o)
                } else {
                    self.drop_nodes(x..x + 1)
                }
            } else if !self.frozen(p, i) {
                self.shut(p, i, o, p.clr[x])
            } else {
                false
            };
            if dead {
                return false;
            }
        }
        true
    }

    /// Leave option `o` out of the rest of the subtree; whether an item is
    /// left with fewer options than it needs.
    fn leave_out(&mut self, p: &Problem, o: u32) -> bool {
        self.hide(p, o)
    }

    /// The branch at this node (see the module docs).  An item needs
    /// `need = bound - min(slack, bound)` more options; its degree is
    /// `len - need + 1`.
    fn choose(&self) -> Choice {
        let mut best: Option<(u32, u32)> = None;
        for &i in &self.live[..self.val[5 * self.n] as usize] {
            let (len, least) = (self.size(i as usize), self.val[4 * i as usize + NEED]);
            if len < least {
                return Choice::Dead; // fewer options than it still needs
            }
            if len == 0 {
                continue; // within its bounds, and nothing left to add
            }
            let score = len - least + 1;
            if best.is_none_or(|(b, j)| (score, i) < (b, j)) {
                best = Some((score, i));
            }
        }
        match best {
            None => Choice::Cover,
            Some((_, i)) => self.first_option(i as usize),
        }
    }

    /// Branch on item `i`'s first active option (in option order).
    fn first_option(&self, i: usize) -> Choice {
        let b = self.base(i);
        let active = &self.set[b..b + self.size(i) as usize];
        Choice::Branch(*active.iter().min().expect("a live item with options"))
    }

    /// [`MultiWalk::choose`] at a live node whose parent branched on
    /// `item` and which leaves that branch's option out.  Only the option's
    /// items changed, each by one option less, so the parent's choice
    /// stands unless `item` has no option left: an item `j` that scores as
    /// low as `item` now did so before as well, so it comes after `item`
    /// (the parent's tie went to `item`).
    fn choose_after(&self, item: u32) -> Choice {
        let i = item as usize;
        let choice = if self.size(i) == 0 {
            self.choose()
        } else {
            self.first_option(i)
        };
        debug_assert_eq!(choice, self.choose(), "the choice after a branch on {item}");
        choice
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
        // What is known of the next node's choice before looking.
        let mut next = Next::Choose;
        loop {
            if let Some(outcome) = run.node()? {
                return Ok(outcome);
            }
            let choice = match next {
                Next::Choose => self.choose(),
                Next::After(item) => self.choose_after(item),
                Next::Dead => {
                    debug_assert_eq!(self.choose(), Choice::Dead, "a node found dead");
                    Choice::Dead
                }
            };
            match choice {
                Choice::Cover => {
                    if PRICED {
                        run.offer(cost, None, &self.path);
                    } else if let Some(outcome) = run.cover::<COUNT>(&self.path)? {
                        return Ok(outcome);
                    }
                }
                Choice::Dead => {}
                Choice::Branch(x) => {
                    let option = p.opt[x as usize];
                    let item = self.nd[x as usize].itm;
                    // A priced search takes an option only if it can afford it.
                    let then = if PRICED {
                        let then = cost + run.net(option);
                        run.affords(then, || None).then_some(then)
                    } else {
                        Some(cost)
                    };
                    let i = item as usize;
                    let last = self.size(i) == self.val[4 * i + NEED];
                    let mark = self.mark();
                    self.levels.push(Level {
                        mark,
                        option,
                        item,
                        taken: then.is_some(),
                        last,
                    });
                    let live = if let Some(then) = then {
                        cost = then;
                        self.path.push(option);
                        self.take(p, option)
                    } else {
                        !self.leave_out(p, option) // too dear: the other branch only
                    };
                    next = if !live {
                        Next::Dead
                    } else if then.is_some() {
                        Next::Choose
                    } else {
                        Next::After(item)
                    };
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
                    if level.last {
                        if cfg!(debug_assertions) {
                            let dead = self.leave_out(p, level.option);
                            debug_assert!(dead, "the option left out of {}", level.item);
                            self.restore(level.mark as usize);
                        }
                        self.levels.pop();
                        continue;
                    }
                    let depth = self.levels.len();
                    self.levels[depth - 1].taken = false;
                    next = if self.leave_out(p, level.option) {
                        Next::Dead
                    } else {
                        Next::After(level.item)
                    };
                    break;
                }
                self.levels.pop();
            }
        }
    }
}

/// Bytes one walk over `p` holds: the sets (4 bytes a node) and each node's
/// item and place (8), the items' eight values, a trail of at most two entries
/// a node and two an item, and the stacks of at most one level an option.
pub fn multi_bytes(p: &Problem) -> u64 {
    let (nodes, items, options) = (p.n_nodes() as u64, p.n_items() as u64, p.n_options() as u64);
    12 * nodes + 4 * 8 * items + 8 * (2 * nodes + 2 * items + 1) + 16 * (options + 1)
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
        let mut set: Vec<u32> = memory::try_with_capacity(nodes, what)?;
        set.extend_from_slice(&p.item_nodes);
        let mut nd: Vec<Nd> = memory::try_with_capacity(nodes, what)?;
        nd.extend(p.itm.iter().map(|&itm| Nd { itm, loc: 0 }));
        for (at, &x) in set.iter().enumerate() {
            nd[x as usize].loc = at as u32;
        }
        let mut val: Vec<u32> = memory::try_zeroed(5 * n + 1, what)?;
        let mut slack: Vec<u32> = memory::try_zeroed(np, what)?;
        for i in 0..n {
            val[4 * i] = p.item_start[i];
            val[4 * i + SIZE] = p.item_start[i + 1] - p.item_start[i];
        }
        for (i, s) in slack.iter_mut().enumerate() {
            let (lo, hi) = p.bounds_of(i);
            val[state(n, i)] = hi;
            val[4 * i + NEED] = lo.min(FROZEN - 1); // a need of 2**32 - 1 is as dead
            *s = hi - lo;
        }
        val[5 * n] = np as u32;
        let mut live: Vec<u32> = memory::try_with_capacity(np, what)?;
        live.extend(0..np as u32);
        let mut live_at: Vec<u32> = memory::try_with_capacity(np, what)?;
        live_at.extend(0..np as u32);
        let mut walk = MultiWalk {
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
            epoch: 1,
            n,
        };
        // Items that take no option at all shut at the root.  A shut that
        // leaves an item short stops partway, so the root is dead and the
        // rest are not shut (the search finds it dead and goes no further).
        for i in 0..np {
            if walk.val[state(n, i)] == 0
                && walk.live_at[i] < walk.val[5 * n]
                && walk.shut_primary(p, i, u32::MAX)
            {
                break;
            }
        }
        walk.root = walk.mark() as usize;
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
            let mark = self.mark();
            self.levels.push(Level {
                mark,
                option,
                item: u32::MAX, // never read: a search below never backs into it
                taken: false,   // finished: a search below never backs into it
                last: false,
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
