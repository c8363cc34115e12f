//! [`BitWalk`]: Algorithm C over bitsets, for problems of a few thousand
//! options.
//!
//! The options still possible at a node are a bitset, `live`; each
//! primary item's options are a bitset, and so is each option's
//! *conflicts* (the options sharing a primary item with it, or a secondary
//! item unless both give it the same colour; an option conflicts with
//! itself).  Choosing an option is then one AND-NOT of `live` with its
//! conflicts into the next level's copy, the fewest-options choice is a
//! popcount of each open item's options AND `live`, and undoing a choice
//! is going back to the level's own copy.  A set of up to
//! [`FIXED_MOST`] words is walked whole by a copy of the search compiled
//! for its width; past that, each item reads only the words of `live`
//! not yet zero (a list of them is kept with each level: a few levels
//! down, most of the set is gone) or its own words, the shorter list.
//!
//! The tree is Algorithm C's, as [`Walk`](super::Walk) walks it: at each
//! node the open primary item with the fewest live options, ties to the
//! first in item order, its options in option order; so the covers come
//! in the same order.  The nodes differ where an item has one option or
//! none: the cells reject an option that leaves an item with none before
//! making a node of it, where this walk meets the dead end at the next
//! node; and this walk takes the first item with a single option without
//! reading the rest (every such forced option is taken before any
//! branching either way, so the covers and their order do not change).

use super::problem::Problem;
use super::walk::{CoverWalk, Outcome, Run};
use crate::engine::{Control, SearchError, Stop};
use crate::memory;

/// The most options the bitset walk takes: past it the tables (options
/// squared bits, 8 MiB at the most, for each walk) outgrow a core's cache.
pub const BIT_MAX_OPTIONS: usize = 1 << 13;

/// Whether `p` is searched over bitsets by `walks` walks (else by the
/// dancing cells): a problem without bounds, of at most
/// [`BIT_MAX_OPTIONS`] options, whose walks fit the `budget` given (the
/// user's `memory=`, if any) and take less than [`memory::CHECKED_BYTES`]
/// or at most a quarter of the memory available; where only the memory
/// keeps it on the cells, `ctl`'s notes (the progress line) say so.
/// `SOLVERS_COVER_KERNEL=cells` in the environment keeps every search on
/// the cells (to compare the two; the covers and their order are the same).
pub fn bits_fit(p: &Problem, walks: usize, budget: Option<u64>, ctl: &Control) -> bool {
    if p.bounded() || p.n_options() > BIT_MAX_OPTIONS {
        return false;
    }
    if std::env::var("SOLVERS_COVER_KERNEL").is_ok_and(|v| v.eq_ignore_ascii_case("cells")) {
        return false;
    }
    let need = BitWalk::bytes_for(p).saturating_mul(walks as u64);
    if let Some(budget) = budget.filter(|&budget| need > budget) {
        ctl.note(format!(
            "the bitset search's tables ({}) pass the memory budget ({}): \
             searching on the dancing cells",
            crate::error::human_bytes(need),
            crate::error::human_bytes(budget)
        ));
        return false;
    }
    // Walks of less than the size the memory checks start at are not
    // checked either (the kernel is not asked on every small call).
    if need < memory::CHECKED_BYTES || memory::available_bytes().is_none_or(|free| need <= free / 4)
    {
        return true;
    }
    ctl.note(format!(
        "the bitset search's tables ({}) pass a quarter of the memory available: \
         searching on the dancing cells",
        crate::error::human_bytes(need)
    ));
    false
}

/// Words of a set of `n` bits.
fn words(n: usize) -> usize {
    n.div_ceil(64)
}

/// Words of an option set of `n` options and the fixed width: up to
/// [`FIXED_MOST`] words (with `fixed`), walked whole by a copy of the
/// search compiled for that width (unrolled, no list of words); past it,
/// only the words not zero walked.
fn option_words(n: usize, fixed: bool) -> (usize, usize) {
    match words(n) {
        w if fixed && w <= FIXED_MOST => (w, w),
        w => (w, 0),
    }
}

/// The most words of the secondary items' option sets built to make the
/// conflicts (past it, a bit an option of each item): 64 MiB.
const SECONDARY_SETS_MOST: usize = 1 << 23;

/// Words of the secondary items' option sets of a walk of `p` `w` words
/// wide, while its tables are built (0: none built).
fn secondary_words(p: &Problem, w: usize) -> usize {
    match (p.n_items() - p.n_primary()) * w {
        n if n <= SECONDARY_SETS_MOST => n,
        _ => 0,
    }
}

/// The widest option set walked whole, in words.
const FIXED_MOST: usize = 8;

/// `$body` with the const `$n` the fixed width `$w` of a walk (1 to 8
/// words), or 0.
macro_rules! by_width {
    ($w:expr, |$n:ident| $body:expr) => {
        match $w {
            1 => {
                const $n: usize = 1;
                $body
            }
            2 => {
                const $n: usize = 2;
                $body
            }
            3 => {
                const $n: usize = 3;
                $body
            }
            4 => {
                const $n: usize = 4;
                $body
            }
            5 => {
                const $n: usize = 5;
                $body
            }
            6 => {
                const $n: usize = 6;
                $body
            }
            7 => {
                const $n: usize = 7;
                $body
            }
            8 => {
                const $n: usize = 8;
                $body
            }
            _ => {
                const $n: usize = 0;
                $body
            }
        }
    };
}

/// One branching level: the state it branches from (the number of
/// options chosen above it) and its options to try, `choices[cur..end]`.
#[derive(Clone, Copy, Debug)]
struct Level {
    state: u32,
    start: u32,
    cur: u32,
    end: u32,
}

/// A worker's bitset tables and the stacks of a search over them.
pub struct BitWalk {
    /// Words of an option set, and of a primary-item set; the fixed width
    /// walked whole (1 to 8 words: `w`), or 0.
    w: usize,
    wi: usize,
    fixed: usize,
    /// `conflicts[o * w..]`: the options that cannot join option `o`.
    conflicts: Vec<u64>,
    /// `options_of[i * w..]`: the options of primary item `i`, and the
    /// words where it has any, `item_words[item_start[i]..item_start[i + 1]]`
    /// (a walk of no fixed width reads those or the words of `live` not
    /// zero, the shorter list).
    options_of: Vec<u64>,
    item_start: Vec<u32>,
    item_words: Vec<u32>,
    /// `items_of[o * wi..]`: option `o`'s primary items, and how many.
    items_of: Vec<u64>,
    primaries: Vec<u32>,
    /// State `s` (after `s` choices on the path): `live[s * w..]` (every
    /// word written; those not zero listed in
    /// `nonzero[s * w..][..nonzero_len[s]]`), the open primary items
    /// `open[s * wi..]` and their number.
    live: Vec<u64>,
    nonzero: Vec<u32>,
    nonzero_len: Vec<u32>,
    open: Vec<u64>,
    open_len: Vec<u32>,
    levels: Vec<Level>,
    /// The options chosen from the root, in order.
    path: Vec<u32>,
    /// Every level's options, in order (a level's options conflict with
    /// every option below it, so all of them fit once).
    choices: Vec<u32>,
}

impl BitWalk {
    /// Bytes of a walk over `p`.
    pub fn bytes_for(p: &Problem) -> u64 {
        let (o, np) = (p.n_options() as u64, p.n_primary() as u64);
        let (w, wi) = (
            option_words(o as usize, true).0 as u64,
            words(np as usize) as u64,
        );
        let states = np + 2;
        8 * (o * w + np * w + o * wi)
            + 4 * o
            + states * (8 * w + 4 * w + 4 + 8 * wi + 4)
            + 16 * states
            + 4 * states
            + 4 * (o + 1)
            + 4 * (np + 1 + np * w)
            + 8 * secondary_words(p, w as usize) as u64
    }

    pub fn new(p: &Problem, stop: Option<&Stop>) -> Result<BitWalk, SearchError> {
        BitWalk::with_widths(p, stop, true)
    }

    /// [`BitWalk::new`], with (`fixed`) or without the copies of the search
    /// for fixed widths (the tests walk both ways).
    pub(super) fn with_widths(
        p: &Problem,
        stop: Option<&Stop>,
        fixed: bool,
    ) -> Result<BitWalk, SearchError> {
        let (n_opt, np) = (p.n_options(), p.n_primary());
        let ((w, fixed), wi) = (option_words(n_opt, fixed), words(np));
        let what = "the bitset search's tables";
        let mut conflicts: Vec<u64> = memory::try_zeroed(n_opt * w, what)?;
        let mut options_of: Vec<u64> = memory::try_zeroed(np * w, what)?;
        let mut items_of: Vec<u64> = memory::try_zeroed(n_opt * wi, what)?;
        let mut primaries: Vec<u32> = memory::try_zeroed(n_opt, what)?;
        // Each item's options first (the secondary items' too, where their
        // sets take at most `SECONDARY_SETS_MOST` words), then an option's
        // conflicts as the union of its items' sets: a few words an item
        // instead of a bit an option of it.
        let n_sec = p.n_items() - np;
        let sec_w = if secondary_words(p, w) > 0 { w } else { 0 };
        let mut secondary: Vec<u64> = memory::try_zeroed(n_sec * sec_w, what)?;
        for o in 0..n_opt {
            for x in p.option_nodes(o as u32) {
                let i = p.itm[x] as usize;
                if i < np {
                    items_of[o * wi + i / 64] |= 1 << (i % 64);
                    primaries[o] += 1;
                    options_of[i * w + o / 64] |= 1 << (o % 64);
                } else if sec_w > 0 {
                    secondary[(i - np) * w + o / 64] |= 1 << (o % 64);
                }
            }
        }
        for o in 0..n_opt {
            if o % 1024 == 0 && stop.is_some_and(Stop::now) {
                return Err(SearchError::Cancelled);
            }
            let row = &mut conflicts[o * w..(o + 1) * w];
            for x in p.option_nodes(o as u32) {
                let (i, c) = (p.itm[x] as usize, p.clr[x]);
                let set = if i < np {
                    &options_of[i * w..(i + 1) * w]
                } else if c == 0 && sec_w > 0 {
                    &secondary[(i - np) * w..(i - np + 1) * w]
                } else {
                    // A colour: every option of the item but those of the
                    // same colour.
                    for &y in p.nodes_of(i as u32) {
                        if c == 0 || p.clr[y as usize] != c {
                            let other = p.opt[y as usize] as usize;
                            row[other / 64] |= 1 << (other % 64);
                        }
                    }
                    continue;
                };
                for (r, &b) in row.iter_mut().zip(set) {
                    *r |= b;
                }
            }
        }
        drop(secondary);
        let mut item_start: Vec<u32> = memory::try_with_capacity(np + 1, what)?;
        let mut item_words: Vec<u32> = memory::try_with_capacity(p.n_nodes().min(np * w), what)?;
        for i in 0..np {
            item_start.push(item_words.len() as u32);
            let row = &options_of[i * w..(i + 1) * w];
            item_words.extend((0..w as u32).filter(|&k| row[k as usize] != 0));
        }
        item_start.push(item_words.len() as u32);
        let states = np + 2;
        let mut walk = BitWalk {
            w,
            wi,
            fixed,
            conflicts,
            options_of,
            item_start,
            item_words,
            items_of,
            primaries,
            live: memory::try_zeroed(states * w, what)?,
            nonzero: memory::try_zeroed(states * w, what)?,
            nonzero_len: memory::try_zeroed(states, what)?,
            open: memory::try_zeroed(states * wi, what)?,
            open_len: memory::try_zeroed(states, what)?,
            levels: memory::try_with_capacity(states, what)?,
            path: memory::try_with_capacity(states, what)?,
            choices: memory::try_zeroed(n_opt + 1, what)?,
        };
        // The root: every option live, every primary item open.
        for o in 0..n_opt {
            walk.live[o / 64] |= 1 << (o % 64);
        }
        // Every state's list of words starts as all of them: a walk of a
        // fixed width keeps it so (it never lists the words not zero).
        for state in 0..states {
            for k in 0..w {
                walk.nonzero[state * w + k] = k as u32;
            }
            walk.nonzero_len[state] = w as u32;
        }
        for i in 0..np {
            walk.open[i / 64] |= 1 << (i % 64);
        }
        walk.open_len[0] = np as u32;
        Ok(walk)
    }

    /// State `s + 1`: state `s` with option `o` chosen (`N`: the fixed
    /// width, or 0).
    #[inline(always)]
    fn choose<const N: usize>(&mut self, s: usize, o: usize) {
        let (w, wi) = (self.w, self.wi);
        let (below, above) = self.live.split_at_mut((s + 1) * w);
        let (from, to) = (&below[s * w..], &mut above[..w]);
        let conflicts = &self.conflicts[o * w..(o + 1) * w];
        if N > 0 {
            for k in 0..N {
                to[k] = from[k] & !conflicts[k];
            }
        } else {
            // Every word is written (a zero one too), so that an item's own
            // list of words may read any of them.
            let nz_to = &mut self.nonzero[(s + 1) * w..(s + 2) * w];
            let mut n = 0;
            for k in 0..w {
                let v = from[k] & !conflicts[k];
                to[k] = v;
                nz_to[n] = k as u32;
                n += (v != 0) as usize;
            }
            self.nonzero_len[s + 1] = n as u32;
        }
        let (below, above) = self.open.split_at_mut((s + 1) * wi);
        let items = &self.items_of[o * wi..(o + 1) * wi];
        for k in 0..wi {
            above[k] = below[s * wi + k] & !items[k];
        }
        self.open_len[s + 1] = self.open_len[s] - self.primaries[o];
    }

    /// The open primary item of state `s` with the fewest live options,
    /// ties to the first; `(item, its live options)` (no item: a cover).
    #[inline(always)]
    fn fewest<const N: usize>(&self, s: usize) -> (usize, u32) {
        let w = self.w;
        let live = &self.live[s * w..(s + 1) * w];
        let nz = &self.nonzero[s * w..s * w + self.nonzero_len[s] as usize];
        let mut best = (usize::MAX, u32::MAX);
        for (k, &word) in self.open[s * self.wi..(s + 1) * self.wi].iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let i = 64 * k + b.trailing_zeros() as usize;
                b &= b - 1;
                let row = &self.options_of[i * w..(i + 1) * w];
                let mut c = 0;
                if N > 0 {
                    for k in 0..N {
                        c += (row[k] & live[k]).count_ones();
                    }
                }
                let own =
                    &self.item_words[self.item_start[i] as usize..self.item_start[i + 1] as usize];
                let words = if own.len() < nz.len() { own } else { nz };
                for &x in words.iter().take(if N > 0 { 0 } else { words.len() }) {
                    // SAFETY: every listed word is below `w`, the length
                    // of both sets.
                    let (r, l) = unsafe {
                        (
                            *row.get_unchecked(x as usize),
                            *live.get_unchecked(x as usize),
                        )
                    };
                    c += (r & l).count_ones();
                }
                if c < best.1 {
                    best = (i, c);
                    if c <= 1 {
                        // No item has fewer but a dead one, and one with a
                        // single option is taken either way before any
                        // branching: the covers come in the same order.
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Item `i`'s live options in state `s`, in order, written at
    /// `choices[at..]`; their number.
    #[inline(always)]
    fn list<const N: usize>(&mut self, s: usize, i: usize, at: usize) -> usize {
        let w = self.w;
        let live = &self.live[s * w..(s + 1) * w];
        let nz = &self.nonzero[s * w..s * w + self.nonzero_len[s] as usize];
        let row = &self.options_of[i * w..(i + 1) * w];
        let own = &self.item_words[self.item_start[i] as usize..self.item_start[i + 1] as usize];
        let mut n = at;
        // A fixed width's list is every word (see `BitWalk::new`); either
        // list is in order.
        for &x in if own.len() < nz.len() { own } else { nz } {
            let mut b = row[x as usize] & live[x as usize];
            while b != 0 {
                self.choices[n] = 64 * x + b.trailing_zeros();
                n += 1;
                b &= b - 1;
            }
        }
        n - at
    }

    /// The search below the current node, each node and cover through
    /// `run` (inlined whole into each copy of [`BitWalk::dispatch`], so
    /// that the popcounts of the `FAST` copy are `popcnt`).
    #[inline(always)]
    fn search<const COUNT: bool, const FAST: bool, const N: usize>(
        &mut self,
        run: &mut Run,
    ) -> Outcome {
        let mut top = 0usize;
        loop {
            if let Some(outcome) = run.node()? {
                return Ok(outcome);
            }
            let s = self.path.len();
            if self.open_len[s] == 0 {
                if let Some(outcome) = run.cover::<COUNT>(&self.path)? {
                    return Ok(outcome);
                }
            } else {
                let (i, size) = self.fewest::<N>(s);
                if size > 0 {
                    if COUNT && self.open_len[s] == 1 {
                        if let Some(outcome) = run.covers(size as u128)? {
                            return Ok(outcome);
                        }
                    } else {
                        let n = self.list::<N>(s, i, top);
                        self.levels.push(Level {
                            state: s as u32,
                            start: top as u32,
                            cur: top as u32,
                            end: (top + n) as u32,
                        });
                        top += n;
                    }
                }
            }
            // The next option to try, backtracking past finished levels.
            loop {
                let Some(level) = self.levels.last_mut() else {
                    return Ok(Some(true));
                };
                if level.cur == level.end {
                    top = level.start as usize;
                    self.levels.pop();
                    continue;
                }
                let o = self.choices[level.cur as usize];
                level.cur += 1;
                let s = level.state as usize;
                self.path.truncate(s);
                self.path.push(o);
                self.choose::<N>(s, o as usize);
                break;
            }
        }
    }

    /// [`BitWalk::search`] compiled with popcnt where the CPU has it.
    fn dispatch<const COUNT: bool>(&mut self, run: &mut Run) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast() {
            // SAFETY: the CPU has every feature the wrapper enables.
            return unsafe { self.search_v3::<COUNT>(run) };
        }
        by_width!(self.fixed, |N| self.search::<COUNT, false, N>(run))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn search_v3<const COUNT: bool>(&mut self, run: &mut Run) -> Outcome {
        by_width!(self.fixed, |N| self.search::<COUNT, true, N>(run))
    }
}

impl CoverWalk for BitWalk {
    fn bytes(p: &Problem) -> u64 {
        BitWalk::bytes_for(p)
    }

    fn max_depth(p: &Problem) -> usize {
        p.n_primary() + 1
    }

    fn new(p: &Problem, stop: Option<&Stop>) -> Result<BitWalk, SearchError> {
        BitWalk::new(p, stop)
    }

    fn reset(&mut self) {
        self.levels.clear();
        self.path.clear();
    }

    fn replay(&mut self, _p: &Problem, task: &[u32]) {
        self.reset();
        for &o in task {
            by_width!(self.fixed, |N| self
                .choose::<N>(self.path.len(), o as usize));
            self.path.push(o);
        }
    }

    fn children(&mut self, _p: &Problem) -> Option<Vec<Vec<u32>>> {
        let s = self.path.len();
        if self.open_len[s] == 0 {
            return None;
        }
        let (i, size) = by_width!(self.fixed, |N| self.fewest::<N>(s));
        let n = if size == 0 {
            0
        } else {
            self.list::<0>(s, i, 0)
        };
        Some(self.choices[..n].iter().map(|&o| vec![o]).collect())
    }

    fn run_within<const COUNT: bool>(&mut self, _p: &Problem, run: &mut Run) -> Outcome {
        debug_assert!(!run.is_priced(), "the cheapest covers search the cells");
        self.levels.clear();
        self.dispatch::<COUNT>(run)
    }
}
