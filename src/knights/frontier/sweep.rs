//! The precomputation of the sweep: the order in which the DP visits the
//! squares, and what each step needs to know of them.
//!
//! The board is cropped to the rectangle holding its squares and swept
//! along its longer side, one square at a time: with `h` the shorter side,
//! square `(r, c)` of the sweep (`c` along the long side) is step
//! `c * h + p`, row `r` taken `p`-th in its column: from the top (`p = r`),
//! or from the outside in (rows `0, h - 1, 1, h - 2, ...`: see
//! [`Sweep::oriented`]).  A knight move spans at most two sweep columns,
//! so the earlier neighbours of step `k` lie among steps `k - w .. k`
//! and a square has no neighbours after step `+ w`: the *frontier* is the
//! last `w` squares, `w` the longest move in steps (`2h + 1` from the
//! top, `2h + 2` from the outside in).  Where the board and the question
//! are symmetric, states are merged with their mirror images ([`Mirror`]).
//!
//! Invariants: the steps are worked out one at a time as the sweep reaches
//! them (a ring of the last squares, [`Recent`]), so a board of any
//! length costs no memory per square; a working frontier (`w` squares
//! and the new one) fits in that ring, which caps `h` at
//! [`MAX_FRONTIER_SIDE`].  The colour caps on the tour's ends (see
//! `state.rs`, "Pruning") are counted here once, from the whole board.

use super::code::{Codes, CODES_MASK, WIDE_CODES_MASK};
use super::residual::{Residual, MAX_VERTICES, RESIDUAL_COLUMNS};
use super::MAX_FRONTIER_SIDE;
use crate::error::InputError;
use crate::knights::Board;

/// What happens at one step of the sweep.  "Slots" index the step's
/// working frontier: slot `i` is square `k - w + i` (`w` the frontier's
/// width, `2h + 1` or `2h + 2`), slot `w` the square `k` itself; after the
/// step slot 0 leaves.
#[derive(Debug, Clone, Default)]
pub(super) struct Step {
    pub(super) present: bool,
    /// Slots of the present earlier neighbours of square `k`.
    pub(super) earlier: Vec<usize>,
    /// Slots whose last neighbour (or themselves) is square `k`.
    pub(super) finalize: u32,
    /// Slots that are light squares.
    pub(super) light: u32,
    /// After the shift (bit `4i` for slot `i` of the new frontier): present
    /// squares, not a pinned end, with exactly one unswept neighbour, by colour.
    pub(super) forced_light: u128,
    pub(super) forced_dark: u128,
    /// After the shift: slots of present squares with one or two unswept
    /// neighbours (bit `i` for slot `i`), those with one, and each one's
    /// unswept neighbours (bit `j`: square `k + 1 + j`).  See `state.rs`,
    /// "Pruning": the edges these squares still need.
    pub(super) needy: u32,
    pub(super) needy_one: u32,
    pub(super) unswept: [u32; RING],
    /// Pairs of `needy_one` slots whose one unswept neighbour is the same
    /// square, not the board's last: two loose ends of one fragment there
    /// would close a cycle early (see `state.rs`, "Pruning").
    pub(super) twin_ends: Vec<(u8, u8)>,
    /// Unswept squares with at most one unswept neighbour left: the edges
    /// they can still get (see `state.rs`, "Pruning").
    pub(super) starved: Vec<Starved>,
    /// The rest of the board, near its end (see `residual.rs`).
    pub(super) residual: Option<Residual>,
    /// The slots of the pinned ends (the start, and the end if given) in the
    /// working frontier.
    pub(super) pinned_slots: u32,
    /// The pinned ends finalized by the end of this step.
    pub(super) pinned_done: u32,
    /// The last square of the board.
    pub(super) last: bool,
    /// In a row count, a column's last square before the board's: the
    /// column's index, whose board ends here (see `row.rs`).
    pub(super) column_end: Option<u64>,
    /// Where the states after this step are merged with their mirror
    /// images (see [`Mirror`]): slot `i` of a state's image is slot
    /// `from[i]` of the state ([`OUTSIDE`]: a square whose image is not in
    /// the frontier, finished in every state).
    pub(super) mirror: Option<[u8; 2 * MAX_FRONTIER_SIDE + 2]>,
}

/// An unswept square that has at most one unswept neighbour left, after a
/// step: the frontier squares it can still take edges from decide whether
/// it can have the degree a tour gives it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Starved {
    /// Its swept neighbours, as slots of the frontier after the step (bit
    /// `4i` for slot `i`).
    pub(super) swept: u128,
    /// Its unswept neighbours (0 or 1).
    pub(super) unswept: u32,
    pub(super) light: bool,
    /// A pinned end (which takes one edge, and is no extra tour end).
    pub(super) pinned: bool,
}

/// In [`Step::mirror`]: the image of the slot's square lies outside the
/// frontier (so both are finished).
pub(super) const OUTSIDE: u8 = u8::MAX;

/// The reflection of the sweep's rows, `r -> h - 1 - r`, when the board and
/// the question are symmetric under it: the board's squares, and the pinned
/// ends (if any) all on its axis, the middle row of an odd `h`.
///
/// After a step that leaves the swept squares of the current column
/// symmetric (the column's last square; with the squares taken from the
/// outside in, every second one) the squares left to sweep are symmetric
/// too, and so is the frontier (its live squares: those with a neighbour
/// left to sweep).  A state and its mirror image then have the same number
/// of completions (a completion of one, reflected, is a completion of the
/// other), so the DP keeps one of the two (the smaller key) with both
/// counts: about half the states at that step, and the steps after it
/// expand only the representatives.  Each such step carries the
/// permutation of the frontier's slots ([`Step::mirror`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Mirror {
    /// The reflection swaps the two colours (an even `h`): the tour ends
    /// already fixed, counted by colour in the key, swap too.
    pub(super) swaps_colours: bool,
}

/// The board as the DP sweeps it.  The steps are worked out one at a time
/// as the sweep reaches them (from the board, a few squares around the
/// step), so a board of any length costs no memory per square beyond the
/// board itself.
#[derive(Clone)]
pub(super) struct Sweep<'a> {
    board: &'a Board,
    /// The start and the end as given (board cells), to sweep again.
    ends: (Option<usize>, Option<usize>),
    /// Whether each sweep column is taken from the outside in.
    pub(super) outside_in: bool,
    /// Squares per sweep column: the shorter side.
    h: usize,
    /// The order of the rows within a sweep column (`order[p]`: the row
    /// taken `p`-th; see [`Sweep::oriented`]) and its inverse.
    order: [usize; MAX_FRONTIER_SIDE],
    pos: [usize; MAX_FRONTIER_SIDE],
    /// Whether a sweep column is a board column (the sweep runs along the rows).
    by_columns: bool,
    /// Slots of the frontier after a step.
    pub(super) width: usize,
    /// Bit `4i` for each of them.
    pub(super) ones: u128,
    /// The last present square's sweep index: the sweep has `last + 1` steps.
    pub(super) last: usize,
    /// The pinned ends (the start, and the end if given): each one's sweep
    /// index and its last neighbour's.
    pinned: Vec<(usize, usize)>,
    pub(super) closed: bool,
    /// Tour ends still allowed per colour (light, dark), the pinned ends'
    /// taken out; `None`: the colour counts rule out every tour.
    pub(super) caps: Option<(u32, u32)>,
    /// Tour ends still allowed in all (the caps' sum, but in a row count).
    pub(super) ends_cap: u32,
    /// A row count: every board of the sweep's first columns ends a term,
    /// so only rules true of each of them prune (see `row.rs`).
    pub(super) row: bool,
    /// The reflection that merges states at column ends, where the board
    /// and the question allow it.
    pub(super) mirror: Option<Mirror>,
    /// The bits of a key that hold the codes (see `code.rs`): 60, or 63
    /// for a closed count's frontier of 18 squares.
    pub(super) codes_mask: u64,
    /// Whether keys hold the tour ends fixed (in the 4 bits over 60
    /// bits of codes); a closed count with 18 squares fixes none.
    pub(super) ends_in_key: bool,
}

/// A square's neighbours as sweep indices, ascending (at most 8).
#[derive(Clone, Copy, Default)]
struct Neighbours {
    at: [usize; 8],
    len: usize,
}

impl Neighbours {
    fn all(&self) -> &[usize] {
        &self.at[..self.len]
    }
}

/// What a step needs to know of a square of its working frontier.
#[derive(Clone, Copy, Default)]
pub(super) struct SquareInfo {
    present: bool,
    light: bool,
    /// The step at which the square is finalized.
    last: usize,
    nbrs: Neighbours,
}

/// The longest sweep column taken from the outside in: its frontier (a
/// square more than from the top, `2h + 2`) fits the 17 squares of a key,
/// and in a closed count (no tour ends in the key) the 18 of a column of 8.
pub(super) const OUTSIDE_IN_SIDE: usize = 7;

/// The most squares of a frontier whose key also holds the tour ends.
const KEY_SQUARES: usize = 17;

/// Squares in the ring [`Recent`].
pub(super) const RING: usize = 32;

/// The working frontier's squares (at most [`RING`]), each worked out once,
/// when the sweep reaches it: square `j` in slot `j % RING`.
pub(super) struct Recent([SquareInfo; RING]);

// A working frontier (the `2h + 1` squares and the new one, or `2h + 2`
// taken from the outside in) fits in `Recent` and in the slot masks (`u32`)
// of a `Step`; so does a frontier taken from the outside in in a key.
const _: () = assert!(2 * MAX_FRONTIER_SIDE + 2 <= RING && RING <= 32);
const _: () = assert!(2 * OUTSIDE_IN_SIDE + 2 <= KEY_SQUARES);
const _: () = assert!(2 * MAX_FRONTIER_SIDE + 2 <= KEY_SQUARES + 1);

impl Recent {
    pub(super) fn new() -> Recent {
        Recent([SquareInfo::default(); RING])
    }
}

/// The tour ends still allowed per colour, `(light, dark)`, on a board of
/// `(light, dark)` squares, once the pinned ends (`true`: a light square)
/// have taken theirs; `None` if the colours rule out every tour.  A closed
/// tour has no ends and as many squares of each colour; an open one has
/// ends of unlike colour on a balanced board, both of the colour with one
/// square more otherwise.
pub(super) fn end_caps(
    (light, dark): (usize, usize),
    closed: bool,
    pinned: &[bool],
) -> Option<(u32, u32)> {
    let caps = match (closed, light.cmp(&dark)) {
        (true, std::cmp::Ordering::Equal) => return Some((0, 0)),
        (true, _) => return None,
        (false, std::cmp::Ordering::Equal) => (1u32, 1u32),
        (false, _) if light == dark + 1 => (2, 0),
        (false, _) if dark == light + 1 => (0, 2),
        (false, _) => return None,
    };
    pinned
        .iter()
        .try_fold(caps, |(l, d), &is_light| match is_light {
            true => l.checked_sub(1).map(|l| (l, d)),
            false => d.checked_sub(1).map(|d| (l, d)),
        })
}

impl<'a> Sweep<'a> {
    /// The sweep of `board` for tours from `start` (every square if `None`)
    /// to `end` (any square if `None`; only with a start, never closed).
    pub(super) fn new(
        board: &'a Board,
        ends: (Option<usize>, Option<usize>),
        closed: bool,
    ) -> Result<Sweep<'a>, InputError> {
        Sweep::oriented(board, ends, closed, board.rows() <= board.cols())
    }

    /// [`Sweep::new`] along the rows (`by_columns`) or down the columns,
    /// whichever side is shorter (the tests sweep the longer way too).
    ///
    /// Each sweep column is taken from the outside in (rows `0, h - 1, 1,
    /// h - 2, ...`) on square boards whose columns the key holds that way
    /// (up to [`OUTSIDE_IN_SIDE`]; a closed count's key holds columns of 8
    /// that way too, but 8x8 has more states so) and on boards a column
    /// longer than wide
    /// with columns of up to 6, from the top otherwise.  From the outside in
    /// the swept part of a column is symmetric every second square, so the
    /// mirror merges states there too (see [`Mirror`]), and the widest
    /// layers of those boards are narrower (6x6 closed: 137,245 states from
    /// the top, 54,009 from the outside in, 27,177 with the mirror); on
    /// longer boards its frontier, a square longer, makes more states than
    /// it saves (6x8 closed: 639,085 from the top with the mirror, 777,824
    /// from the outside in; docs/performance.md has the figures).
    pub(super) fn oriented(
        board: &'a Board,
        ends: (Option<usize>, Option<usize>),
        closed: bool,
        by_columns: bool,
    ) -> Result<Sweep<'a>, InputError> {
        let (h, long) = match by_columns {
            true => (board.rows(), board.cols()),
            false => (board.cols(), board.rows()),
        };
        // Measured (docs/performance.md): from the outside in gains on
        // square boards and on boards a column longer up to columns of 6;
        // 7x8 closed has more states that way (and columns of 7 work in
        // 128 bits, which costs time).
        let outside_in = long == h || (long == h + 1 && h < OUTSIDE_IN_SIDE);
        // 8x8 closed (a frontier of 18 squares, which only a closed count's
        // key holds) has more states from the outside in: 809,493,661 at
        // the widest, against 537,379,009 from the top with the mirror.
        let outside_in = outside_in && h <= OUTSIDE_IN_SIDE;
        Sweep::ordered(board, ends, closed, by_columns, outside_in)
    }

    /// [`Sweep::oriented`], each column taken from the outside in or from
    /// the top.
    pub(super) fn ordered(
        board: &'a Board,
        (start, end): (Option<usize>, Option<usize>),
        closed: bool,
        by_columns: bool,
        outside_in: bool,
    ) -> Result<Sweep<'a>, InputError> {
        let (rows, cols) = (board.rows(), board.cols());
        let h = if by_columns { rows } else { cols };
        if h > MAX_FRONTIER_SIDE {
            return Err(InputError(format!(
                "the frontier count works on boards whose squares fit in a rectangle with a \
                 shorter side of at most {MAX_FRONTIER_SIDE} (the longer side may be any \
                 length); this one needs {rows}x{cols}"
            )));
        }
        let mut order = [0; MAX_FRONTIER_SIDE];
        for (p, row) in order.iter_mut().enumerate().take(h) {
            *row = match outside_in {
                true if p % 2 == 0 => p / 2,
                true => h - 1 - p / 2,
                false => p,
            };
        }
        let mut pos = [0; MAX_FRONTIER_SIDE];
        for p in 0..h {
            pos[order[p]] = p;
        }
        // The frontier spans the longest knight move in sweep indices:
        // `2h + 1` taken from the top ((r, c) to (r + 1, c + 2)), `2h + 2`
        // from the outside in (row 0, taken first, to row 1, taken third,
        // two columns on).
        let moves = [(1, 2), (1, -2), (2, 1), (2, -1)];
        let longest = (0..h as isize)
            .flat_map(|r| moves.iter().map(move |&(dc, dr)| (r, dc, r + dr)))
            .filter(|&(_, _, to)| (0..h as isize).contains(&to))
            .map(|(r, dc, to)| {
                dc * h as isize + pos[to as usize] as isize - pos[r as usize] as isize
            })
            .max();
        let width = (longest.unwrap_or(0) as usize).max(2 * h + 1);
        // A key holds 17 squares and the tour ends, or 18 and no ends.
        if width > KEY_SQUARES && !closed {
            return Err(InputError(format!(
                "an open count takes sweep columns of 8 from the top only: from the outside \
                 in, its frontier of {width} squares and the tour ends do not fit a key"
            )));
        }
        let mut sweep = Sweep {
            board,
            ends: (start, end),
            outside_in,
            h,
            order,
            pos,
            by_columns,
            width,
            ones: u128::ONES >> (128 - 4 * width),
            last: 0,
            pinned: Vec::new(),
            closed,
            caps: None,
            ends_cap: 0,
            row: false,
            mirror: None,
            codes_mask: match width > KEY_SQUARES {
                true => WIDE_CODES_MASK,
                false => CODES_MASK,
            },
            ends_in_key: width <= KEY_SQUARES,
        };
        let len = rows * cols;
        // Every cycle passes through every square: a closed count needs no
        // pinned start (the conversion to directed tours does the rest).
        let ends: Vec<usize> = match closed {
            true => Vec::new(),
            false => start
                .into_iter()
                .chain(end)
                .map(|s| sweep.to_sweep(s))
                .collect(),
        };
        sweep.pinned = (ends.iter())
            .map(|&s| (s, sweep.last_neighbour(s, &sweep.neighbours(s))))
            .collect();
        sweep.last = (0..len).rev().find(|&k| sweep.present(k)).unwrap_or(0);

        let ends_light: Vec<bool> = ends.iter().map(|&s| sweep.light(s)).collect();
        sweep.caps = end_caps(board.colour_counts(), closed, &ends_light);
        sweep.ends_cap = sweep.caps.map_or(0, |(l, d)| l + d);
        sweep.mirror = sweep.mirror_of(&ends);
        Ok(sweep)
    }

    /// The same count swept with each column taken from the outside in or
    /// from the top (the benches' and the tests' comparison).
    pub(super) fn reordered(&self, outside_in: bool) -> Result<Sweep<'a>, InputError> {
        let (board, closed, by_columns) = (self.board, self.closed, self.by_columns);
        Sweep::ordered(board, self.ends, closed, by_columns, outside_in)
    }

    /// Squares per sweep column (a step's position in its column is its
    /// index modulo this).
    pub(super) fn column(&self) -> usize {
        self.h
    }

    /// The first step whose states are checked against the rest of the
    /// board as a degree problem (see [`Self::residual_after`]; where its
    /// graph fits the masks).
    pub(super) fn pruned_from(&self) -> usize {
        self.last.saturating_sub(RESIDUAL_COLUMNS * self.h)
    }

    /// The same sweep with no mirror merging (the reference it is
    /// measured and tested against).
    pub(super) fn unmirrored(mut self) -> Self {
        self.mirror = None;
        self
    }

    /// The reflection of the sweep's rows if the board is symmetric under
    /// it and every pinned end (sweep index in `ends`) lies on its axis;
    /// `None` otherwise (merging a state with its image would then change
    /// the answer).
    fn mirror_of(&self, ends: &[usize]) -> Option<Mirror> {
        let len = self.board.rows() * self.board.cols();
        if (0..len).any(|k| self.present(k) != self.present(self.flip(k))) {
            return None;
        }
        if ends.iter().any(|&s| self.flip(s) != s) {
            return None;
        }
        Some(Mirror {
            swaps_colours: self.h % 2 == 0,
        })
    }

    /// The sweep index of the mirror image of square `k`.
    fn flip(&self, k: usize) -> usize {
        let h = self.h;
        let row = self.order[k % h];
        k - k % h + self.pos[h - 1 - row]
    }

    /// The slots' permutation of the mirror at step `k` (see
    /// [`Step::mirror`]), if the squares swept then are symmetric.
    fn mirror_at(&self, k: usize) -> Option<[u8; 2 * MAX_FRONTIER_SIDE + 2]> {
        self.mirror?;
        let (h, p) = (self.h, k % self.h);
        if (0..=p).any(|q| self.pos[h - 1 - self.order[q]] > p) {
            return None;
        }
        let mut from = [OUTSIDE; 2 * MAX_FRONTIER_SIDE + 2];
        for (i, slot) in from.iter_mut().enumerate().take(self.width) {
            // Slot i of the frontier after the step is square
            // k + 1 + i - width (none: before the board, finished).
            let Some(q) = (k + 1 + i).checked_sub(self.width) else {
                continue;
            };
            let image = self.flip(q);
            if image <= k && image + self.width > k {
                *slot = (image + self.width - 1 - k) as u8;
            }
        }
        Some(from)
    }

    /// The rest of the board after step `k`, where [`RESIDUAL_COLUMNS`]
    /// sweep columns or fewer are left and the graph fits its masks (an
    /// open count's takes two vertices more, for the tour ends).
    fn residual_after(&self, k: usize) -> Option<Residual> {
        let (width, left) = (self.width, self.last.checked_sub(k)?);
        let ends = !self.closed;
        if self.row
            || left > RESIDUAL_COLUMNS * self.h
            || width + left + 2 * ends as usize > MAX_VERTICES
        {
            return None;
        }
        // Slot i of the frontier after the step is square k + 1 + i - width;
        // vertex width + j the unswept square k + 1 + j.
        let vertex = |q: usize| q + width - 1 - k;
        let mut frontier_light = 0u64;
        for i in 0..width {
            if let Some(q) = (k + 1 + i).checked_sub(width) {
                frontier_light |= ((self.present(q) && self.light(q)) as u64) << i;
            }
        }
        let unswept = k + 1..=self.last;
        let squares: Vec<(bool, bool)> = unswept
            .clone()
            .map(|q| (self.present(q), self.light(q)))
            .collect();
        let edges: Vec<(usize, usize)> = unswept
            .flat_map(|q| {
                let nbrs = self.neighbours(q);
                (0..nbrs.len).map(move |i| (vertex(q), vertex(nbrs.at[i])))
            })
            .collect();
        let pinned = (self.pinned.iter())
            .filter(|&&(s, _)| s + width > k)
            .fold(0u64, |m, &(s, _)| m | 1 << vertex(s));
        Some(Residual::new(
            width,
            frontier_light,
            &squares,
            edges,
            pinned,
            ends,
        ))
    }

    /// The sweep index of board cell `i`.
    fn to_sweep(&self, i: usize) -> usize {
        let cols = self.board.cols();
        let (r, c) = (i / cols, i % cols);
        if self.by_columns {
            c * self.h + self.pos[r]
        } else {
            r * self.h + self.pos[c]
        }
    }

    /// The board cell of sweep index `k`.
    fn cell(&self, k: usize) -> usize {
        let cols = self.board.cols();
        let row = self.order[k % self.h];
        let (r, c) = if self.by_columns {
            (row, k / self.h)
        } else {
            (k / self.h, row)
        };
        r * cols + c
    }

    fn present(&self, k: usize) -> bool {
        self.board.is_square(self.cell(k))
    }

    fn light(&self, k: usize) -> bool {
        let i = self.cell(k);
        let cols = self.board.cols();
        (i / cols + i % cols) % 2 == 0
    }

    /// The neighbours of sweep square `k` (none if it is not a square).
    fn neighbours(&self, k: usize) -> Neighbours {
        let mut n = Neighbours { at: [0; 8], len: 0 };
        if self.present(k) {
            for u in self.board.neighbours(self.cell(k)) {
                n.at[n.len] = self.to_sweep(u);
                n.len += 1;
            }
            n.at[..n.len].sort_unstable();
        }
        n
    }

    /// The step at which square `k` is finalized: its last neighbour's, or its own.
    fn last_neighbour(&self, k: usize, n: &Neighbours) -> usize {
        n.all().last().copied().unwrap_or(k).max(k)
    }

    /// What a step needs to know of square `k`.
    fn info(&self, k: usize) -> SquareInfo {
        let nbrs = self.neighbours(k);
        SquareInfo {
            present: self.present(k),
            light: self.light(k),
            last: self.last_neighbour(k, &nbrs),
            nbrs,
        }
    }

    /// The ring as it is before step `k`: the squares before `k`.
    pub(super) fn recent_before(&self, k: usize) -> Recent {
        let mut recent = Recent::new();
        for j in k.saturating_sub(RING)..k {
            self.step_at(j, &mut recent);
        }
        recent
    }

    /// What happens at step `k` (square `k` of the sweep); `recent` holds
    /// the squares before `k` and gets `k`'s.
    pub(super) fn step_at(&self, k: usize, recent: &mut Recent) -> Step {
        recent.0[k % RING] = self.info(k);
        let width = self.width;
        // Slot i of the working frontier is square k + i - width.
        let square = |i: usize| (k + i).checked_sub(width);
        // A row count's boards end at every column's last square.
        let ends_board = |j: usize| j == self.last || (self.row && j % self.h == self.h - 1);
        let mut step = Step {
            present: recent.0[k % RING].present,
            last: k == self.last,
            column_end: (self.row && ends_board(k) && k != self.last)
                .then_some((k / self.h) as u64),
            mirror: self.mirror_at(k),
            pinned_done: self.pinned.iter().filter(|&&(_, done)| done <= k).count() as u32,
            ..Step::default()
        };
        let is_pinned = |j: usize| self.pinned.iter().any(|&(s, _)| s == j);
        for i in 0..=width {
            let Some(j) = square(i) else { continue };
            let SquareInfo {
                present,
                light,
                last,
                ref nbrs,
            } = recent.0[j % RING];
            if present && light {
                step.light |= 1 << i;
            }
            if present && last == k {
                step.finalize |= 1 << i;
            }
            if is_pinned(j) {
                step.pinned_slots |= 1 << i;
            }
            if i == 0 || !present || is_pinned(j) {
                continue;
            }
            let later = nbrs.all().iter().filter(|&&u| u > k);
            let mask = later.map(|&u| 1u32 << (u - k - 1)).fold(0, |m, b| m | b);
            let unswept = mask.count_ones();
            if unswept == 1 || unswept == 2 {
                step.needy |= 1 << (i - 1);
                step.needy_one |= ((unswept == 1) as u32) << (i - 1);
                step.unswept[i - 1] = mask;
            }
            if unswept == 1 {
                if light {
                    step.forced_light |= 1 << (4 * (i - 1));
                } else {
                    step.forced_dark |= 1 << (4 * (i - 1));
                }
            }
        }
        // The bits of the unswept squares that may close the cycle: the
        // board's last square (a row count's: each column's last).
        let last_unswept = (k + 1..(k + 33).min(self.last + 1))
            .filter(|&j| ends_board(j))
            .fold(0u32, |m, j| m | 1 << (j - k - 1));
        let mut ones = step.needy_one;
        while ones != 0 {
            let a = ones.trailing_zeros() as usize;
            ones &= ones - 1;
            let need = step.unswept[a];
            if need & last_unswept != 0 {
                continue;
            }
            let mut rest = ones;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if step.unswept[b] == need {
                    step.twin_ends.push((a as u8, b as u8));
                }
            }
        }
        // Squares past this one, each as it will be when its turn comes: the
        // edges it can have are those from frontier squares still open and
        // from its unswept neighbours.
        // (In a row count, those of this column: a board may end before
        // the next.)
        let end = match self.row {
            true => (k - k % self.h + self.h - 1).min(self.last),
            false => self.last,
        };
        for u in (k + 1..=k + width).take_while(|&u| u <= end) {
            if !self.present(u) {
                continue;
            }
            let nbrs = self.neighbours(u);
            let unswept = nbrs.all().iter().filter(|&&q| q > k).count() as u32;
            if unswept >= 2 {
                continue;
            }
            let swept = (nbrs.all().iter())
                .filter(|&&q| q <= k)
                .fold(0u128, |m, &q| m | 1 << (4 * (q + width - 1 - k)));
            step.starved.push(Starved {
                swept,
                unswept,
                light: self.light(u),
                pinned: is_pinned(u),
            });
        }
        step.residual = self.residual_after(k);
        if step.present {
            step.earlier = (recent.0[k % RING].nbrs.all().iter())
                .filter(|&&u| u < k)
                .map(|&u| u + width - k)
                .collect();
        }
        step
    }
}
