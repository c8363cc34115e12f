//! The states of the DP: a frontier as a `u64` key, and one
//! step's children of a key (join, finish, renumbering).
//!
//! A *state* is what the frontier squares know about the edges chosen so
//! far (a partial set of tour edges among swept squares): each frontier
//! square is unused (degree 0), finished (degree 2, or finalized, or not a
//! square), or a loose end (degree 1) of a path fragment, labelled so that
//! the two ends of one fragment share a label; a label seen once is a
//! fragment whose other end is one of the tour's two ends and has already
//! left.  Labels are renumbered in order of first appearance, so equal
//! frontiers give equal states; a state packs into a `u64` key (the codes in
//! 60 bits, see `code.rs`, and 4 bits for the ends already fixed; a closed
//! count fixes no end, so a frontier of 18 squares takes 63 bits and the
//! top bit), which caps the shorter side at
//! [`MAX_FRONTIER_SIDE`](super::MAX_FRONTIER_SIDE).
//! Processing square `k` chooses which of its edges to earlier squares are
//! used (none, one or two), joins the fragments (joining both ends of one
//! fragment closes a cycle: allowed only as the very last edge of a closed
//! count), and *finalizes* every square whose last neighbour is `k`: degree
//! 0 is a dead state, degree 1 makes it an end of the tour.  States with
//! equal keys are merged, counts added.  A key is never 0 (the fixed ends
//! are stored plus one), so 0 marks a free table slot.
//!
//! # Pruning
//!
//! * A tour has at most two ends (none when closed), a pinned start (and a
//!   pinned end) is one of them, taking one edge, and their colours are fixed by the two-colouring: with as many
//!   light as dark squares the ends differ in colour, with one more of a
//!   colour both ends have it.  An unused square with one unswept neighbour
//!   left must become an end, so it counts as one already.
//! * A path that is complete (both its ends fixed) before the last square
//!   leaves squares uncovered.
//! * In a closed count every square takes two edges: a frontier square
//!   with no edge and two unswept neighbours needs both, a loose end with
//!   one unswept neighbour needs it.  An unswept square needed three times,
//!   or by both ends of one fragment (closing a cycle) unless it is the last
//!   square, ends the state.
//! * An unswept square with one unswept neighbour or none (`Step::starved`)
//!   gets its edges from those and from the frontier squares next to it
//!   that can still take one (unused, or a loose end): in a closed count it
//!   needs two, in an open count one, and with exactly one it must be a tour
//!   end (counted against the colour caps).
//! * In the board's last sweep columns, the rest of the board must have a
//!   subgraph giving every square the edges it still needs (`residual.rs`).
//!
//! Every rule removes only states without a completion: the counts never
//! depend on them.

use super::code::Codes;
use super::layer::Done;
use super::sweep::{Step, Sweep, OUTSIDE};

/// Codes of a frontier square; labels of loose ends are `2..`.
const UNUSED: u8 = 0;
pub(super) const DONE: u8 = 1;
/// The label of a fragment made in this step (renumbered before packing).
const FRESH: u8 = 15;

/// The top bits of a row count's term key, `TERM | c` for the board of the
/// first `c + 1` columns: no state's (its fixed ends are at most 9 there).
pub(super) const TERM: u64 = 0xf << 60;

/// The widest frontier that works in a `u64` (with the new square: 16 slots).
const NARROW: usize = 15;

impl Sweep<'_> {
    /// The first layer: every frontier slot before the board, nothing fixed.
    pub(super) fn first_key(&self) -> u64 {
        match self.width <= NARROW {
            true => self.key(u64::from_mask(self.ones), 0, 0),
            false => self.key(self.ones, 0, 0),
        }
    }

    /// The finished states: every frontier square done.
    pub(super) fn done(&self) -> Done {
        Done {
            codes: self.first_key() & self.codes_mask,
            mask: self.codes_mask,
        }
    }

    /// Every state that `key` goes on to at `step`, passed to `emit`.
    #[inline]
    pub(super) fn expand(&self, step: &Step, key: u64, emit: &mut impl FnMut(u64)) {
        if key & TERM == TERM {
            return emit(key); // a row count's term, carried to the end
        }
        match self.width <= NARROW {
            true => self.expand_in::<u64>(step, key, emit),
            false => self.expand_in::<u128>(step, key, emit),
        }
    }

    /// [`Self::expand`] in a working frontier of type `W`: slot `i` in
    /// nibble `i`, the key's codes and the new square in slot `width`.
    #[inline]
    fn expand_in<W: Codes>(&self, step: &Step, key: u64, emit: &mut impl FnMut(u64)) {
        let w = self.width;
        let codes = W::unpack(key & self.codes_mask);
        let ends = match self.ends_in_key {
            true => (key >> 60) as u32 - 1,
            false => 0,
        };
        let (tl, td) = (ends / 3, ends % 3);
        if !step.present {
            self.finish(step, codes | W::small(DONE as u64) << (4 * w), tl, td, emit);
            return;
        }
        self.finish(step, codes, tl, td, emit);
        for (a, &ya) in step.earlier.iter().enumerate() {
            let Some(one) = self.join(step, codes, ya) else {
                continue;
            };
            self.finish(step, one, tl, td, emit);
            for &yb in &step.earlier[a + 1..] {
                if let Some(two) = self.join(step, one, yb) {
                    self.finish(step, two, tl, td, emit);
                } else if let Some(c) = step.column_end {
                    // A closed row count's cycle through every square so far.
                    if self.closed && self.closes_all(one, yb) {
                        emit(TERM | c);
                    }
                }
            }
        }
    }

    /// Add the edge from the new square (slot `width`) to slot `y`; `None`
    /// if the edge cannot be a tour edge here.
    #[inline]
    fn join<W: Codes>(&self, step: &Step, codes: W, y: usize) -> Option<W> {
        let x = self.width;
        let (cx, cy) = (nibble(codes, x), nibble(codes, y));
        // A pinned end takes one edge at most.
        let pinned = |slot: usize| step.pinned_slots >> slot & 1 == 1;
        if cy == DONE || (pinned(y) && cy != UNUSED) || (pinned(x) && cx != UNUSED) {
            return None;
        }
        let fifteen = W::small(15);
        let set = |codes: W, cx: u8, cy: u8| {
            let cleared = codes & !(fifteen << (4 * x)) & !(fifteen << (4 * y));
            cleared | W::small(cx as u64) << (4 * x) | W::small(cy as u64) << (4 * y)
        };
        Some(match (cx, cy) {
            (UNUSED, UNUSED) => set(codes, FRESH, FRESH),
            (UNUSED, l) => set(codes, l, DONE),
            (l, UNUSED) => set(codes, DONE, l),
            (l, m) if l == m => {
                // Both ends of one fragment: a cycle, the very last edge only.
                if !(self.closed && step.last) {
                    return None;
                }
                set(codes, DONE, DONE)
            }
            (l, m) => {
                // The other ends of the two fragments now end one fragment.
                let joined = set(codes, DONE, DONE);
                let at_m = zero_nibbles(joined ^ (W::small(m as u64) * W::ONES)) * fifteen;
                joined ^ (at_m & (W::small((l ^ m) as u64) * W::ONES))
            }
        })
    }

    /// Finalize, prune, shift and pack a state after its edges are chosen.
    #[inline]
    fn finish<W: Codes>(
        &self,
        step: &Step,
        mut codes: W,
        mut tl: u32,
        mut td: u32,
        emit: &mut impl FnMut(u64),
    ) {
        let Some((cap_l, cap_d)) = self.caps else {
            return;
        };
        let mut fin = step.finalize;
        while fin != 0 {
            let i = fin.trailing_zeros() as usize;
            fin &= fin - 1;
            match nibble(codes, i) {
                UNUSED => return,
                DONE => {}
                c => {
                    if step.pinned_slots >> i & 1 == 0 {
                        if step.light >> i & 1 == 1 {
                            tl += 1;
                        } else {
                            td += 1;
                        }
                    }
                    codes = codes ^ W::small((c ^ DONE) as u64) << (4 * i);
                }
            }
        }
        if tl > cap_l || td > cap_d || tl + td > self.ends_cap {
            return;
        }
        debug_assert_eq!(nibble(codes, 0), DONE);
        let codes = codes >> 4;
        let ones = W::from_mask(self.ones);
        let unused = zero_nibbles(codes) & ones;
        if let Some(c) = step.column_end {
            // An open row count's path through every square so far: no
            // square unused, its two ends fixed or loose (see `row.rs`).
            let loose = ((codes >> 1 | codes >> 2 | codes >> 3) & ones).count_ones();
            if !self.closed && unused == W::small(0) && tl + td + loose == 2 {
                emit(TERM | c);
            }
        }
        let mut forced_l = (unused & W::from_mask(step.forced_light)).count_ones();
        let mut forced_d = (unused & W::from_mask(step.forced_dark)).count_ones();
        if !step.starved.is_empty() {
            // Frontier squares that can take one more edge or two.
            let open = ones & !zero_nibbles(codes ^ W::ONES);
            for s in &step.starved {
                let edges = (open & W::from_mask(s.swept)).count_ones() + s.unswept;
                match (self.closed, edges) {
                    (true, 0 | 1) | (false, 0) => return,
                    (false, 1) if !s.pinned => match s.light {
                        true => forced_l += 1,
                        false => forced_d += 1,
                    },
                    _ => {}
                }
            }
        }
        let forced = tl + td + forced_l + forced_d;
        if tl + forced_l > cap_l || td + forced_d > cap_d || forced > self.ends_cap {
            return;
        }
        let labels = (codes >> 1 | codes >> 2 | codes >> 3) & ones;
        if self.closed && !needs_fit(step, codes) {
            return;
        }
        if let Some(rest) = &step.residual {
            // The tour ends still to come, of each colour (none if closed).
            let ends = (cap_l - tl, cap_d - td);
            if !rest.feasible(unused.wide(), labels.wide(), ends) {
                return;
            }
        }
        if !self.closed && labels == W::small(0) && !step.last {
            // Both tour ends fixed and no loose end: the path is complete
            // (or there is none yet, if no end is fixed).
            let fixed = tl + td + step.pinned_done;
            if fixed == 2 {
                return;
            }
        }
        let out = renumbered(codes, labels, self.closed);
        let mut key = self.key(out, tl, td);
        if let Some(from) = &step.mirror {
            key = key.min(self.mirrored(from, out, tl, td));
        }
        emit(key);
    }

    /// Whether the edge from the new square (slot `width`, a loose end)
    /// to slot `y` closes a cycle through every square swept: they end one
    /// fragment, and every other slot is finished.
    #[inline]
    fn closes_all<W: Codes>(&self, codes: W, y: usize) -> bool {
        let (x, l) = (self.width, nibble(codes, self.width));
        let done = W::from_mask(self.ones) | W::small(DONE as u64) << (4 * x);
        let ends = W::small((l ^ DONE) as u64);
        l > DONE && nibble(codes, y) == l && codes ^ (ends << (4 * x)) ^ (ends << (4 * y)) == done
    }

    /// The key of the mirror image of a state (codes `codes`, renumbered;
    /// `tl`, `td` tour ends fixed) after a step whose squares swept are
    /// symmetric, `from` the slots' permutation: see
    /// [`super::sweep::Mirror`].
    #[inline]
    fn mirrored<W: Codes>(&self, from: &[u8], codes: W, tl: u32, td: u32) -> u64 {
        let Some(mirror) = self.mirror else {
            return self.key(codes, tl, td);
        };
        let mut image = W::small(0);
        for (i, &j) in from.iter().enumerate().take(self.width) {
            let code = match j {
                // The image of a square outside the frontier: finished, so
                // the square is too (a live square's image is live).
                OUTSIDE if nibble(codes, i) != DONE => return self.key(codes, tl, td),
                OUTSIDE => DONE,
                j => nibble(codes, j as usize),
            };
            image = image | W::small(code as u64) << (4 * i);
        }
        let ones = W::from_mask(self.ones);
        let labels = (image >> 1 | image >> 2 | image >> 3) & ones;
        let (tl, td) = match mirror.swaps_colours {
            true => (td, tl),
            false => (tl, td),
        };
        self.key(renumbered(image, labels, self.closed), tl, td)
    }

    /// The key of a state: its codes, and the fixed ends `(light, dark)`
    /// on top; never 0, so 0 marks a free table slot.  A closed count has
    /// no ends to fix: its top bit alone marks the key (under it, the 63
    /// bits of a frontier of 18 squares).
    #[inline]
    fn key<W: Codes>(&self, codes: W, tl: u32, td: u32) -> u64 {
        match self.ends_in_key {
            true => codes.pack() | ((tl * 3 + td + 1) as u64) << 60,
            false => {
                debug_assert_eq!((tl, td), (0, 0));
                codes.pack() | 1 << 63
            }
        }
    }
}

/// `codes` with its labels (bit `4i` of `labels` for each slot `i` that
/// holds one) renumbered `2, 3, ...` in order of first appearance, so equal
/// frontiers give equal states.  `closed`: every label marks two loose
/// ends, so [`renumbered_in_pairs`] takes half the rounds; an open count's
/// labels are often alone (a fragment ending at a tour end), where the
/// slot-by-slot loop is cheaper.
#[inline]
fn renumbered<W: Codes>(codes: W, labels: W, closed: bool) -> W {
    match closed {
        true => renumbered_in_pairs(codes, labels),
        false => renumbered_by_slots(codes, labels),
    }
}

/// [`renumbered`] a slot at a time.
#[inline]
fn renumbered_by_slots<W: Codes>(codes: W, mut labels: W) -> W {
    // `map` holds the new label of label `c` in nibble `c` (kept in a
    // register: an array on the stack made this loop a third slower).
    let mut map = 0u64;
    let mut next = 2u64;
    let mut out = codes;
    while labels != W::small(0) {
        let at = labels.trailing_zeros() as usize;
        labels = labels & (labels - W::small(1));
        let c = (codes >> at).low_nibble() as u64;
        let mut to = (map >> (4 * c)) & 15;
        if to == 0 {
            to = next;
            map |= next << (4 * c);
            next += 1;
        }
        out = out ^ W::small(c ^ to) << at;
    }
    debug_assert!(next <= 15);
    out
}

/// [`renumbered`] a label at a time: each round finds every slot holding
/// the first label left and writes its new number into all of them.
#[inline]
fn renumbered_in_pairs<W: Codes>(codes: W, mut labels: W) -> W {
    let mut out = codes & !(labels * W::small(15));
    let mut next = 2u64;
    while labels != W::small(0) {
        let at = labels.trailing_zeros() as usize;
        let c = (codes >> at).low_nibble() as u64;
        let same = zero_nibbles(codes ^ (W::small(c) * W::ONES)) & labels;
        out = out | (same * W::small(next));
        labels = labels & !same;
        next += 1;
    }
    debug_assert!(next <= 15);
    out
}

/// Whether the edges that frontier squares of a closed count still need
/// can all be had (see "Pruning"): an unswept square takes two edges at
/// most, and it closes a fragment into a cycle only as the last square.
///
/// Branch-free over the step's needy slots (the same slots for every state
/// of a step, so the loop itself predicts well): the codes decide only
/// which masks are added.  Branching on each code instead cost a quarter
/// of a closed count's time in mispredictions.
#[inline]
fn needs_fit<W: Codes>(step: &Step, codes: W) -> bool {
    let (mut once, mut twice, mut over) = (0u32, 0u32, 0u32);
    let mut needy = step.needy;
    while needy != 0 {
        let i = needy.trailing_zeros() as usize;
        needy &= needy - 1;
        let code = nibble(codes, i);
        // An unused square needs each unswept neighbour it has (two; one is
        // refused earlier, as a forced end); a loose end needs its one.
        let one_way = step.needy_one >> i & 1;
        let takes = (code == UNUSED) as u32 | ((code > DONE) as u32 & one_way);
        let need = step.unswept[i] & takes.wrapping_neg();
        over |= twice & need;
        twice |= once & need;
        once |= need;
    }
    let mut cycle = false;
    for &(a, b) in &step.twin_ends {
        let (ca, cb) = (nibble(codes, a as usize), nibble(codes, b as usize));
        cycle |= (ca == cb) & (ca > DONE);
    }
    over == 0 && !cycle
}

/// Bit `4i` set where nibble `i` of `x` is 0.
#[inline]
fn zero_nibbles<W: Codes>(x: W) -> W {
    !(x | x >> 1 | x >> 2 | x >> 3) & W::ONES
}

#[inline]
fn nibble<W: Codes>(x: W, i: usize) -> u8 {
    (x >> (4 * i)).low_nibble()
}
