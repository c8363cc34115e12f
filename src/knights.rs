//! Knight's tours: the knight graph of a (possibly shaped) board, exact
//! counting and ordered enumeration of tours by pruned bitboard backtracking on
//! the shared engine, Warnsdorff's rule for boards of any size, and a checker.
//!
//! Squares are numbered row-major, `index = row * cols + col`, row 0 at the top.
//! The exact search keeps a board in one `u64`, so it takes boards of at most
//! [`MAX_SEARCH_SQUARES`] cells (rows x cols, missing cells included).

use crate::engine::{self, Control, Stop, SubtreeSearch, Ticker};
pub use crate::error::{CountError, FindError, InputError, SearchError};
use crate::memory;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The seed article's move order, `(row offset, col offset)`.  Enumeration
/// follows it, so `tours()` lists tours in the order the article finds them.
pub const MOVES: [(i32, i32); 8] = [
    (2, 1),
    (1, 2),
    (-2, 1),
    (-1, 2),
    (2, -1),
    (1, -2),
    (-2, -1),
    (-1, -2),
];

/// The exact search keeps the board in one 64-bit word.
pub const MAX_SEARCH_SQUARES: usize = 64;

/// Boards larger than this are refused by the heuristic finder (memory).
pub const MAX_FIND_SQUARES: usize = 100_000_000;

/// The memory [`find_tour`] needs at its peak on `board`, in bytes, as the
/// finder's buffers add up: the board (1 byte a cell) and, while an attempt
/// runs, a degree and a visited flag per cell and a path entry (4 bytes) and
/// a search level (16 bytes) per square; for a closed tour the rotation that
/// bends an open tour shut holds the open tour and a position per cell (4
/// bytes).  The tour handed back (4 bytes a square, twice on the way to
/// Python) comes after those buffers are freed, and is smaller.
pub fn find_tour_bytes(board: &Board, closed: bool) -> u64 {
    let (cells, squares) = (board.cells() as u64, board.squares() as u64);
    let attempt = 3 * cells + 20 * squares;
    let rotation = if closed { 5 * cells + 4 * squares } else { 0 };
    attempt.max(rotation)
}

/// A rectangular grid of `rows x cols` cells, some of which may be missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    present: Vec<bool>,
}

impl Board {
    /// The full `rows x cols` board (1 byte a cell: `Err(Memory)` if even
    /// that cannot be had).
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, CountError> {
        let cells = Self::checked_cells(rows, cols)?;
        let mut present = memory::try_with_capacity(cells, "the board")?;
        present.resize(cells, true);
        Ok(Board {
            rows,
            cols,
            present,
        })
    }

    /// A shaped board: `present[row * cols + col]` tells whether the cell is a square.
    pub fn from_mask(rows: usize, cols: usize, present: Vec<bool>) -> Result<Board, InputError> {
        let cells = Self::checked_cells(rows, cols)?;
        if present.len() != cells {
            return Err(InputError(format!(
                "the mask has {} cells, but a {rows}x{cols} board has {cells}",
                present.len()
            )));
        }
        Ok(Board {
            rows,
            cols,
            present,
        })
    }

    fn checked_cells(rows: usize, cols: usize) -> Result<usize, InputError> {
        if rows == 0 || cols == 0 {
            return Err(InputError(format!(
                "a board needs at least one row and one column, got {rows}x{cols}"
            )));
        }
        match rows.checked_mul(cols) {
            Some(cells) if cells <= MAX_FIND_SQUARES => Ok(cells),
            _ => Err(InputError(format!(
                "a {rows}x{cols} board has more than {MAX_FIND_SQUARES} cells, the largest supported"
            ))),
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn cells(&self) -> usize {
        self.present.len()
    }

    /// Number of squares (present cells).
    pub fn squares(&self) -> usize {
        self.present.iter().filter(|&&p| p).count()
    }

    pub fn is_square(&self, index: usize) -> bool {
        self.present.get(index).copied().unwrap_or(false)
    }

    /// The square a knight reaches from `index` with move `m` of [`MOVES`].
    #[inline]
    pub fn jump(&self, index: usize, m: usize) -> Option<usize> {
        let (dr, dc) = MOVES[m];
        let r = (index / self.cols) as i64 + dr as i64;
        let c = (index % self.cols) as i64 + dc as i64;
        if r < 0 || c < 0 || r >= self.rows as i64 || c >= self.cols as i64 {
            return None;
        }
        let to = r as usize * self.cols + c as usize;
        self.present[to].then_some(to)
    }

    /// The knight moves from `index`, in the seed's order.
    pub fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        (0..8).filter_map(move |m| self.jump(index, m))
    }

    pub fn is_knight_move(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = ((a / self.cols) as i64, (a % self.cols) as i64);
        let (rb, cb) = ((b / self.cols) as i64, (b % self.cols) as i64);
        let (dr, dc) = ((ra - rb).abs(), (ca - cb).abs());
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// The symmetries of the rectangle (4, or 8 when square) that map the
    /// set of present cells onto itself, as index permutations.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.rows, self.cols);
        // The 8 maps of the square (the last 4 swap rows and columns, so
        // they are symmetries of a rectangle only when it is square).
        let map = |k: usize, r: usize, c: usize| {
            let (r, c) = if k >= 4 { (c, r) } else { (r, c) };
            let (h, w) = if k >= 4 { (cols, rows) } else { (rows, cols) };
            let r = if k & 1 == 1 { h - 1 - r } else { r };
            let c = if k & 2 == 2 { w - 1 - c } else { c };
            (r, c)
        };
        let count = if rows == cols { 8 } else { 4 };
        (0..count)
            .map(|k| {
                (0..self.cells())
                    .map(|i| {
                        let (r, c) = map(k, i / cols, i % cols);
                        r * cols + c
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|perm| (0..self.cells()).all(|i| self.present[i] == self.present[perm[i]]))
            .collect()
    }

    /// `true` if every square can reach every other by knight moves.  On
    /// the largest boards this takes seconds, so it polls `ctl`.
    pub fn is_connected(&self, ctl: &Control) -> Result<bool, SearchError> {
        let Some(first) = (0..self.cells()).find(|&i| self.present[i]) else {
            return Ok(false);
        };
        let squares = self.squares();
        let mut seen: Vec<bool> = memory::try_zeroed(self.cells(), "a connectivity check")?;
        // Each square is pushed at most once: the stack never reallocates.
        let mut stack: Vec<u32> = memory::try_with_capacity(squares, "a connectivity check")?;
        stack.push(first as u32);
        seen[first] = true;
        let mut reached = 1;
        while let Some(v) = stack.pop() {
            if reached % (1 << 16) == 0 && ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            for u in self.neighbours(v as usize) {
                if !seen[u] {
                    seen[u] = true;
                    reached += 1;
                    stack.push(u as u32);
                }
            }
        }
        Ok(reached == squares)
    }

    /// `(light, dark)` square counts of the chessboard colouring.
    pub fn colour_counts(&self) -> (usize, usize) {
        let light = (0..self.cells())
            .filter(|&i| self.present[i] && Self::is_light(i, self.cols))
            .count();
        (light, self.squares() - light)
    }

    fn is_light(index: usize, cols: usize) -> bool {
        (index / cols + index % cols) % 2 == 0
    }

    /// A cheap, exact "no tour from `start`" test: a disconnected knight graph,
    /// or colour counts a path (or cycle) from `start` cannot have.
    pub fn tour_impossible(
        &self,
        start: usize,
        closed: bool,
        ctl: &Control,
    ) -> Result<bool, SearchError> {
        let n = self.squares();
        if n == 1 {
            return Ok(closed);
        }
        if !self.is_connected(ctl)? {
            return Ok(true);
        }
        let (light, dark) = self.colour_counts();
        let (same, other) = if Self::is_light(start, self.cols) {
            (light, dark)
        } else {
            (dark, light)
        };
        // A path from `start` alternates colours: start's colour holds ceil(n/2).
        if same != n.div_ceil(2) || other != n / 2 {
            return Ok(true);
        }
        Ok(closed && (n % 2 == 1 || self.schwenk_excludes_cycle()))
    }

    /// Schwenk's theorem (1991): an `m x n` board, `m <= n`, has a closed tour
    /// unless `m` and `n` are both odd, `m` is 1, 2 or 4, or `m = 3` and `n` is
    /// 4, 6 or 8.  Only for full rectangles.
    fn schwenk_excludes_cycle(&self) -> bool {
        if self.present.iter().any(|&p| !p) {
            return false;
        }
        let (m, n) = (self.rows.min(self.cols), self.rows.max(self.cols));
        (m % 2 == 1 && n % 2 == 1) || matches!(m, 1 | 2 | 4) || (m == 3 && matches!(n, 4 | 6 | 8))
    }
}

/// The smallest rectangle of a board that holds all its squares: the exact
/// search runs there, so a shape drawn inside a large grid still fits in 64
/// bits.  Maps square indices between the two boards.
#[derive(Debug, Clone)]
pub struct Window {
    small: Board,
    top: usize,
    left: usize,
    cols: usize,
}

impl Window {
    /// The window of `board` (a copy of its squares' rectangle: `Err(Memory)`
    /// if that cannot be had).
    pub fn of(board: &Board) -> Result<Window, SearchError> {
        let squares = (0..board.cells()).filter(|&i| board.is_square(i));
        let (mut top, mut bottom, mut left, mut right) = (usize::MAX, 0, usize::MAX, 0);
        for i in squares {
            let (r, c) = (i / board.cols, i % board.cols);
            (top, bottom) = (top.min(r), bottom.max(r));
            (left, right) = (left.min(c), right.max(c));
        }
        let (top, bottom, left, right) = if top == usize::MAX {
            // No squares: keep the board as it is (every search finds nothing).
            (0, board.rows - 1, 0, board.cols - 1)
        } else {
            (top, bottom, left, right)
        };
        let (rows, cols) = (bottom - top + 1, right - left + 1);
        let mut present = memory::try_with_capacity(rows * cols, "the board's window")?;
        present.extend(
            (0..rows * cols)
                .map(|i| board.is_square((top + i / cols) * board.cols + left + i % cols)),
        );
        Ok(Window {
            small: Board {
                rows,
                cols,
                present,
            },
            top,
            left,
            cols: board.cols,
        })
    }

    pub fn board(&self) -> &Board {
        &self.small
    }

    /// The window's index of a square of the full board (which must be a square).
    pub fn inward(&self, index: usize) -> usize {
        let (r, c) = (index / self.cols, index % self.cols);
        (r - self.top) * self.small.cols + (c - self.left)
    }

    /// The full board's index of a square of the window.
    pub fn outward(&self, index: usize) -> u32 {
        let (r, c) = (index / self.small.cols, index % self.small.cols);
        ((r + self.top) * self.cols + c + self.left) as u32
    }
}

/// Why a sequence of squares (indices `row * cols + col`) is not a knight's
/// tour, or `Ok(None)` if it is one; `Err(Memory)` if its bookkeeping (a
/// byte a cell) cannot be had.
pub fn tour_defect(
    board: &Board,
    path: &[u32],
    closed: bool,
) -> Result<Option<String>, SearchError> {
    let squares = board.squares();
    if path.len() != squares {
        return Ok(Some(format!(
            "a tour visits all {squares} squares, this sequence has {}",
            path.len()
        )));
    }
    let mut seen: Vec<bool> = memory::try_zeroed(board.cells(), "checking a tour")?;
    for (step, &sq) in path.iter().enumerate() {
        let sq = sq as usize;
        if !board.is_square(sq) {
            return Ok(Some(format!("step {step} is not a square of the board")));
        }
        if seen[sq] {
            let (r, c) = (sq / board.cols, sq % board.cols);
            return Ok(Some(format!("step {step} revisits square ({r}, {c})")));
        }
        seen[sq] = true;
        if step > 0 && !board.is_knight_move(path[step - 1] as usize, sq) {
            return Ok(Some(format!(
                "steps {} and {step} are not a knight's move apart",
                step - 1
            )));
        }
    }
    let closes = |last: u32, first: u32| board.is_knight_move(last as usize, first as usize);
    if closed && (path.len() < 2 || !closes(path[path.len() - 1], path[0])) {
        return Ok(Some(
            "the last square is not a knight's move from the first".into(),
        ));
    }
    Ok(None)
}

/// The knight graph of a board of at most 64 cells, as bitboards.
#[derive(Debug, Clone)]
pub struct KnightGraph {
    board: Board,
    all: u64,
    light: u64,
    nbr: Vec<u64>,
    /// Neighbours of each square in the seed's move order.
    order: Vec<Vec<u8>>,
    /// Bit-parallel knight moves: `(shift, cells whose move stays on the board)`.
    shifts: Vec<(i32, u64)>,
}

impl KnightGraph {
    pub fn new(board: Board) -> Result<KnightGraph, InputError> {
        if board.cells() > MAX_SEARCH_SQUARES {
            return Err(InputError(format!(
                "exact tour search works on boards whose squares span at most \
                 {MAX_SEARCH_SQUARES} cells (rows x cols), this one spans {}",
                board.cells()
            )));
        }
        let cells = board.cells();
        let mut all = 0u64;
        let mut light = 0u64;
        let mut nbr = vec![0u64; cells];
        let mut order = vec![Vec::new(); cells];
        for (i, (mask, list)) in nbr.iter_mut().zip(order.iter_mut()).enumerate() {
            if !board.is_square(i) {
                continue;
            }
            all |= 1 << i;
            if Board::is_light(i, board.cols) {
                light |= 1 << i;
            }
            for j in board.neighbours(i) {
                *mask |= 1 << j;
                list.push(j as u8);
            }
        }
        let mut shifts = Vec::new();
        for (m, &(dr, dc)) in MOVES.iter().enumerate() {
            let mut src = 0u64;
            for i in 0..cells {
                if board.is_square(i) && board.jump(i, m).is_some() {
                    src |= 1 << i;
                }
            }
            if src != 0 {
                shifts.push((dr * board.cols as i32 + dc, src));
            }
        }
        Ok(KnightGraph {
            board,
            all,
            light,
            nbr,
            order,
            shifts,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every cell of `within` reachable from `seed` by knight moves inside `within`.
    #[inline]
    fn reach(&self, seed: u64, within: u64) -> u64 {
        let within = within | seed;
        let mut reached = seed;
        loop {
            let mut next = reached;
            for &(shift, src) in &self.shifts {
                let x = reached & src;
                next |= if shift > 0 { x << shift } else { x >> (-shift) };
            }
            next &= within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

/// A subproblem of the tour search: a path prefix and what it leaves.
#[derive(Debug, Clone)]
pub struct TourTask {
    /// The squares visited so far, in order; the last one is the knight.
    pub path: Vec<u8>,
    /// Squares not yet visited.
    unvisited: u64,
    /// The unvisited square (at most one) that can only be the tour's end.
    end: u64,
    /// For closed tours, the start square the tour must return to; else 0.
    home: u64,
    /// How many tours each tour below this task stands for (symmetry).
    weight: u64,
}

/// Squares whose tails are memoised: a tail is the number of ways to finish
/// from a knight square through a set of unvisited squares, which depends on
/// nothing else, and the same tails recur under many different prefixes.
const MEMO_MIN: u32 = 4;
const MEMO_MAX: u32 = 24;
const MEMO_BITS: u32 = 16;
/// Connectivity of the unvisited squares is checked while at least this many
/// remain (enumeration; counting checks only near the root, see `new`).
const CONNECT_MIN: u32 = 6;

/// A lossy direct-mapped table of tail counts, one per worker thread.
///
/// Per worker, not shared: a shared table scaled worse (1.65x instead of
/// 1.85x on two threads, 6x6), its cache lines bouncing between the cores.
/// A slot is `[key, count << TAG_BITS | tag]`; a full slot is overwritten.
///
/// Tables are kept for the next count (first touches of fresh memory cost
/// page faults, ~1.5 us per 4 KiB here).  Entries are stamped with an epoch
/// that changes whenever a table passes to another search, so entries of
/// other searches are misses and no clearing is needed; a search that counts
/// its subproblems in several calls (`engine::count_each`) keeps its entries.
pub struct TailMemo {
    table: Option<MemoTable>,
    shift: u32,
    epoch: u64,
}

struct MemoTable {
    slots: Box<[u64]>,
    epoch: u64,
    /// The [`TourSearch::generation`] whose entries the table holds.
    owner: u64,
}

/// A number for each [`TourSearch`] built in this process.
static GENERATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Tables returned by finished counts, for reuse.
static SPARE_TABLES: Mutex<Vec<MemoTable>> = Mutex::new(Vec::new());
const SPARE_LIMIT: usize = 8;
const EPOCH_BITS: u32 = 10;
const TAG_BITS: u32 = 14 + EPOCH_BITS;

impl TailMemo {
    /// A table for the search numbered `owner`: one of its own if a spare is
    /// left, else any spare (restamped) or a new one (`Err(Memory)` if none
    /// can be had).
    fn new(bits: u32, owner: u64) -> Result<Self, SearchError> {
        let len = 2usize << bits;
        let reused = {
            let mut spare = SPARE_TABLES.lock().unwrap_or_else(|p| p.into_inner());
            let fits = |t: &MemoTable| t.slots.len() == len;
            let at = (spare.iter().position(|t| fits(t) && t.owner == owner))
                .or_else(|| spare.iter().position(fits));
            at.map(|i| spare.swap_remove(i))
        };
        let mut table = match reused {
            Some(table) => table,
            None => MemoTable {
                // Zeroed pages come from the OS lazily: untouched slots cost nothing.
                slots: memory::try_zeroed(len, "a memo table of tour tails")?.into_boxed_slice(),
                epoch: 0,
                owner: 0,
            },
        };
        if table.owner != owner || table.epoch == 0 {
            table.owner = owner;
            table.epoch = (table.epoch + 1) & ((1 << EPOCH_BITS) - 1);
            if table.epoch == 0 {
                // The stamps wrapped around: forget everything once.
                table.slots.fill(0);
                table.epoch = 1;
            }
        }
        Ok(TailMemo {
            shift: 64 - bits,
            epoch: table.epoch,
            table: Some(table),
        })
    }

    #[inline]
    fn slot(&self, unvisited: u64, tag: u64) -> usize {
        let h = (unvisited ^ tag.rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        2 * (h >> self.shift) as usize
    }

    /// `tag` identifies the rest of the key (14 bits); the epoch is added here.
    #[inline]
    fn get(&self, unvisited: u64, tag: u64) -> Option<u64> {
        let tag = tag | self.epoch << 14;
        let i = self.slot(unvisited, tag);
        let slots = &self.table.as_ref()?.slots;
        let mask = (1 << TAG_BITS) - 1;
        (slots[i] == unvisited && slots[i + 1] & mask == tag).then_some(slots[i + 1] >> TAG_BITS)
    }

    #[inline]
    fn put(&mut self, unvisited: u64, tag: u64, count: u64) {
        if count >> (64 - TAG_BITS) != 0 {
            return;
        }
        let tag = tag | self.epoch << 14;
        let i = self.slot(unvisited, tag);
        if let Some(table) = self.table.as_mut() {
            table.slots[i] = unvisited;
            table.slots[i + 1] = (count << TAG_BITS) | tag;
        }
    }
}

impl Drop for TailMemo {
    fn drop(&mut self) {
        if let Some(table) = self.table.take() {
            let mut spare = SPARE_TABLES.lock().unwrap_or_else(|p| p.into_inner());
            if spare.len() < SPARE_LIMIT {
                spare.push(table);
            }
        }
    }
}

/// Directed knight's tours (Hamiltonian paths of the knight graph), open or
/// closed, from chosen start squares.
pub struct TourSearch {
    graph: KnightGraph,
    roots: Vec<TourTask>,
    memo_bits: u32,
    count_connect_min: u32,
    /// This search's number: memo entries are shared by its calls only.
    generation: u64,
}

impl TourSearch {
    /// Tours from each of `starts` (`(square, weight)`); `closed` asks for
    /// tours that end a knight's move from their start.
    pub fn new(
        graph: KnightGraph,
        starts: &[(usize, u64)],
        closed: bool,
    ) -> Result<TourSearch, CountError> {
        let mut roots = Vec::new();
        for &(start, weight) in starts {
            if !graph.board.is_square(start) {
                return Err(InputError(format!(
                    "the start ({}, {}) is not a square of the board",
                    start / graph.board.cols,
                    start % graph.board.cols
                ))
                .into());
            }
            if let Some(task) = Self::root(&graph, start, closed, weight)? {
                roots.push(task);
            }
        }
        // A small table that stays in L2 beats a big one that misses to DRAM
        // (measured: 2^16 slots beat 2^18 and 2^20 on 5x7 and 6x6).
        let squares = graph.board.squares() as u32;
        let bits = squares.saturating_sub(12).clamp(10, MEMO_BITS);
        // While counting, the memo already makes a split-off part cheap, so the
        // connectivity fill pays only near the root (measured on 4x7..6x6).
        let count_connect_min = squares.saturating_sub(8).max(CONNECT_MIN);
        Ok(TourSearch {
            graph,
            roots,
            memo_bits: bits,
            count_connect_min,
            generation: GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// Every square as a start, each with weight 1 (for enumeration).
    pub fn all_starts(graph: &KnightGraph) -> Vec<(usize, u64)> {
        (0..graph.board.cells())
            .filter(|&i| graph.board.is_square(i))
            .map(|i| (i, 1))
            .collect()
    }

    /// One start per symmetry class of squares, weighted by the class size:
    /// the count from a square equals the count from its image.
    pub fn start_classes(graph: &KnightGraph) -> Vec<(usize, u64)> {
        let syms = graph.board.symmetries();
        let mut classes = Vec::new();
        for i in 0..graph.board.cells() {
            if !graph.board.is_square(i) {
                continue;
            }
            let mut orbit: Vec<usize> = syms.iter().map(|p| p[i]).collect();
            orbit.sort_unstable();
            orbit.dedup();
            if orbit[0] == i {
                classes.push((i, orbit.len() as u64));
            }
        }
        classes
    }

    pub fn graph(&self) -> &KnightGraph {
        &self.graph
    }

    pub fn roots(&self) -> Vec<TourTask> {
        self.roots.clone()
    }

    /// The task at the start, or `None` if the board rules out every tour.
    fn root(
        graph: &KnightGraph,
        start: usize,
        closed: bool,
        weight: u64,
    ) -> Result<Option<TourTask>, SearchError> {
        let sbit = 1u64 << start;
        let unvisited = graph.all & !sbit;
        let home = if closed { sbit } else { 0 };
        let mut task = TourTask {
            path: vec![start as u8],
            unvisited,
            end: 0,
            home,
            weight,
        };
        if unvisited == 0 {
            return Ok(Some(task));
        }
        // At most 64 squares: too quick to need the caller's cancel flag.
        if graph
            .board
            .tour_impossible(start, closed, &Control::new())?
        {
            return Ok(None);
        }
        let avail = unvisited | sbit;
        let mut rest = unvisited;
        while rest != 0 {
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let degree = (graph.nbr[u] & avail).count_ones();
            if degree == 0 || (degree == 1 && closed) {
                return Ok(None);
            }
            if degree == 1 {
                task.end |= 1 << u;
            }
        }
        if task.end.count_ones() > 1 {
            return Ok(None);
        }
        Ok(Some(task))
    }

    /// Move the knight from `head` to `to`: the `end` square of the new
    /// position, or `None` if no tour can follow.  The rules:
    /// * an unvisited square with no way in, or (open tours) one way in and no
    ///   way out, while another square already has to be the end;
    /// * the forced end on the wrong colour for the remaining path length;
    /// * unvisited squares the knight can no longer reach.
    #[inline]
    fn step(
        &self,
        head: usize,
        unvisited: u64,
        end: u64,
        home: u64,
        to: usize,
        connect_min: u32,
    ) -> Option<u64> {
        let g = &self.graph;
        let to_bit = 1u64 << to;
        let left = unvisited & !to_bit;
        if left == 0 {
            return Some(0);
        }
        let avail = left | to_bit | home;
        if home != 0 && g.nbr[home.trailing_zeros() as usize] & (left | to_bit) == 0 {
            return None;
        }
        let mut new_end = end & left;
        // Only the old head's neighbours lost an exit.
        let mut touched = g.nbr[head] & left;
        while touched != 0 {
            let u = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let degree = (g.nbr[u] & avail).count_ones();
            if degree <= 1 {
                if degree == 0 || home != 0 {
                    return None;
                }
                new_end |= 1 << u;
            }
        }
        if new_end != 0 {
            if new_end & (new_end - 1) != 0 {
                return None;
            }
            let e = new_end.trailing_zeros() as usize;
            let remaining = left.count_ones();
            // Colours alternate: the end has the knight's colour iff an even
            // number of squares remains.
            let same = ((g.light >> to) ^ (g.light >> e)) & 1 == 0;
            if same != (remaining % 2 == 0) {
                return None;
            }
            if remaining > 1 && g.nbr[e] & avail == to_bit {
                return None;
            }
        }
        if left.count_ones() >= connect_min && g.reach(to_bit, left) & left != left {
            return None;
        }
        Some(new_end)
    }

    #[inline]
    fn candidates(&self, head: usize, unvisited: u64, end: u64) -> u64 {
        let moves = self.graph.nbr[head] & unvisited;
        // The forced end may only be entered last.
        if end != 0 && unvisited != end {
            moves & !end
        } else {
            moves
        }
    }

    #[inline]
    fn closes(&self, head: usize, home: u64) -> bool {
        home == 0 || self.graph.nbr[head] & home != 0
    }

    #[allow(clippy::too_many_arguments)]
    fn count_below(
        &self,
        head: usize,
        unvisited: u64,
        end: u64,
        home: u64,
        memo: &mut TailMemo,
        ticker: &mut Ticker,
        stop: &Stop,
    ) -> Result<u64, SearchError> {
        if unvisited == 0 {
            return Ok(self.closes(head, home) as u64);
        }
        ticker.tick(stop)?;
        let remaining = unvisited.count_ones();
        let memoised = (MEMO_MIN..=MEMO_MAX).contains(&remaining);
        let tag = (head as u64 + 1) | ((home.trailing_zeros() as u64 & 0x7F) << 7);
        if memoised {
            if let Some(n) = memo.get(unvisited, tag) {
                return Ok(n);
            }
        }
        let mut moves = self.candidates(head, unvisited, end);
        let mut total = 0u64;
        while moves != 0 {
            let to = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            if let Some(new_end) = self.step(head, unvisited, end, home, to, self.count_connect_min)
            {
                let below = self.count_below(
                    to,
                    unvisited & !(1 << to),
                    new_end,
                    home,
                    memo,
                    ticker,
                    stop,
                )?;
                total = total.checked_add(below).ok_or(SearchError::Overflow)?;
            }
        }
        if memoised {
            memo.put(unvisited, tag, total);
        }
        Ok(total)
    }

    #[allow(clippy::too_many_arguments)]
    fn visit_below(
        &self,
        path: &mut Vec<u8>,
        unvisited: u64,
        end: u64,
        home: u64,
        ticker: &mut Ticker,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let head = *path.last().expect("a task holds its start") as usize;
        if unvisited == 0 {
            return Ok(!self.closes(head, home) || emit(path.clone()));
        }
        ticker.tick(stop)?;
        let moves = self.candidates(head, unvisited, end);
        for &to in &self.graph.order[head] {
            if moves >> to & 1 == 0 {
                continue;
            }
            let to = to as usize;
            if let Some(new_end) = self.step(head, unvisited, end, home, to, CONNECT_MIN) {
                path.push(to as u8);
                let go = self.visit_below(
                    path,
                    unvisited & !(1 << to),
                    new_end,
                    home,
                    ticker,
                    stop,
                    emit,
                )?;
                path.pop();
                if !go {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

impl SubtreeSearch for TourSearch {
    type Task = TourTask;
    type Solution = Vec<u8>;
    type Scratch = TailMemo;

    fn scratch(&self) -> Result<TailMemo, SearchError> {
        TailMemo::new(self.memo_bits, self.generation)
    }

    fn split(&self, task: &TourTask, out: &mut Vec<TourTask>) -> bool {
        if task.unvisited == 0 {
            return false;
        }
        let head = *task.path.last().expect("a task holds its start") as usize;
        let moves = self.candidates(head, task.unvisited, task.end);
        for &to in &self.graph.order[head] {
            if moves >> to & 1 == 0 {
                continue;
            }
            let to = to as usize;
            if let Some(end) = self.step(head, task.unvisited, task.end, task.home, to, CONNECT_MIN)
            {
                let mut path = task.path.clone();
                path.push(to as u8);
                out.push(TourTask {
                    path,
                    unvisited: task.unvisited & !(1 << to),
                    end,
                    home: task.home,
                    weight: task.weight,
                });
            }
        }
        true
    }

    fn count(
        &self,
        task: &TourTask,
        memo: &mut TailMemo,
        stop: &Stop,
    ) -> Result<u128, SearchError> {
        let head = *task.path.last().expect("a task holds its start") as usize;
        let mut ticker = Ticker::new();
        let n = self.count_below(
            head,
            task.unvisited,
            task.end,
            task.home,
            memo,
            &mut ticker,
            stop,
        )?;
        (n as u128)
            .checked_mul(task.weight as u128)
            .ok_or(SearchError::Overflow)
    }

    fn visit(
        &self,
        task: &TourTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let mut path = task.path.clone();
        let mut ticker = Ticker::new();
        self.visit_below(
            &mut path,
            task.unvisited,
            task.end,
            task.home,
            &mut ticker,
            stop,
            emit,
        )
    }
}

/// Count tours on `board` from `start` (`None`: from every square) on
/// `threads` workers (`0`: one per core).
pub fn count_tours(
    board: Board,
    start: Option<usize>,
    closed: bool,
    threads: usize,
    ctl: &Control,
) -> Result<u128, CountError> {
    let (window, start) = windowed(&board, start)?;
    let graph = KnightGraph::new(window.small)?;
    let starts = match start {
        Some(s) => vec![(s, 1)],
        None => TourSearch::start_classes(&graph),
    };
    let search = TourSearch::new(graph, &starts, closed)?;
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 64, ctl)?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
}

/// `Err` if a plan of `min_tasks` subproblems is more than a plan may hold.
pub fn check_plan_size(min_tasks: usize) -> Result<(), InputError> {
    if min_tasks > engine::MAX_PLAN_TASKS {
        return Err(InputError(format!(
            "a plan holds at most {} subproblems, {min_tasks} were asked for",
            engine::MAX_PLAN_TASKS
        )));
    }
    Ok(())
}

/// The count of [`count_tours`] split into at least `min_tasks` independent
/// subproblems (fewer if the tree is smaller), the same on every machine.
/// Polls `ctl` while planning.
pub fn plan_tours(
    board: Board,
    start: Option<usize>,
    closed: bool,
    min_tasks: usize,
    ctl: &Control,
) -> Result<engine::Planned<TourSearch>, CountError> {
    check_plan_size(min_tasks)?;
    let (window, start) = windowed(&board, start)?;
    let graph = KnightGraph::new(window.small)?;
    let starts = match start {
        Some(s) => vec![(s, 1)],
        None => TourSearch::start_classes(&graph),
    };
    let search = TourSearch::new(graph, &starts, closed)?;
    let roots = search.roots();
    Ok(engine::Planned::new(search, roots, min_tasks, 64, ctl)?)
}

/// The search window of `board`, and `start` in it.
fn windowed(board: &Board, start: Option<usize>) -> Result<(Window, Option<usize>), CountError> {
    if let Some(s) = start {
        if !board.is_square(s) {
            return Err(InputError(format!(
                "the start ({}, {}) is not a square of the board",
                s / board.cols,
                s % board.cols
            ))
            .into());
        }
    }
    let window = Window::of(board)?;
    let start = start.map(|s| window.inward(s));
    Ok((window, start))
}

/// Tours arriving from a stream, as square indices of the full board.
pub struct TourReceiver {
    rx: Receiver<Vec<u8>>,
    window: Window,
}

impl TourReceiver {
    /// The next tour, waiting at most `timeout` for it.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Vec<u32>, RecvTimeoutError> {
        let tour = self.rx.recv_timeout(timeout)?;
        Ok(tour
            .into_iter()
            .map(|i| self.window.outward(i as usize))
            .collect())
    }
}

/// Stream every tour on `board` from `start` (`None`: each square in turn,
/// row-major) in the seed's move order, through a bounded channel fed by a
/// producer thread; the producer ends when the receiver is dropped or `ctl`
/// is cancelled.
pub fn stream_tours(
    board: Board,
    start: Option<usize>,
    closed: bool,
    ctl: Arc<Control>,
) -> Result<TourReceiver, CountError> {
    let (window, start) = windowed(&board, start)?;
    let graph = KnightGraph::new(window.small.clone())?;
    let starts = match start {
        Some(s) => vec![(s, 1)],
        None => TourSearch::all_starts(&graph),
    };
    let search = TourSearch::new(graph, &starts, closed)?;
    // The roots alone: tasks are visited in order, one thread, constant memory.
    let tasks = search.roots();
    let rx = engine::stream(Arc::new(search), tasks, ctl, STREAM_BUFFER)?;
    Ok(TourReceiver { rx, window })
}

/// Tours buffered ahead of the consumer.
const STREAM_BUFFER: usize = 64;

// ---------------------------------------------------------------------------
// Finding one tour on a board of any size: Warnsdorff's rule.

/// How the finder orders moves of equal onward degree.
#[derive(Debug, Clone, Copy)]
enum TieBreak {
    /// Arnd Roth's rule: the square farthest from the centre first.
    FarFromCentre,
    /// The seed's move order.
    MoveOrder,
    /// A fixed pseudo-random order per square (a retry after a failure).
    Shuffled(u64),
}

/// Retries of the finder with pseudo-random tie-breaks after the two fixed rules.
const SHUFFLED_ATTEMPTS: u64 = 48;

/// One level of the finder's depth-first search: the moves to try, best first.
struct Level {
    moves: [u8; 8],
    len: u8,
    next: u8,
    /// The square that can only be the tour's last (`NO_END`: none yet).
    end: u32,
}

const NO_END: u32 = u32::MAX;

/// Narrow boards (at most this wide) of at most `FIND_CONNECT_CELLS` cells get
/// the (linear-time) connectivity check at every move: it is what makes 3 x n
/// and 5 x n boards solvable, while on wide boards Warnsdorff's rule rarely
/// splits the board and the check would make the finder quadratic.
const FIND_CONNECT_WIDTH: usize = 6;
const FIND_CONNECT_CELLS: usize = 4_000;

/// The exact search's pruning rules, for the finder's array-based board:
/// after the knight moved from `h` to `to`, only `h`'s neighbours lost a way
/// in or out, so only they are checked.
struct Pruner<'a> {
    board: &'a Board,
    closed: bool,
    connect: bool,
    squares: usize,
    /// Flood-fill marks, stamped per fill so they never need clearing.
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl<'a> Pruner<'a> {
    fn new(board: &'a Board, closed: bool) -> Self {
        let connect =
            board.rows.min(board.cols) <= FIND_CONNECT_WIDTH && board.cells() <= FIND_CONNECT_CELLS;
        Pruner {
            board,
            closed,
            connect,
            squares: board.squares(),
            mark: if connect {
                vec![0; board.cells()]
            } else {
                Vec::new()
            },
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// Whether a tour can still follow `path`; updates the forced `end`.
    fn viable(&mut self, end: &mut u32, path: &[u32], visited: &[bool], degree: &[u8]) -> bool {
        let board = self.board;
        let to = path[path.len() - 1] as usize;
        let from = path[path.len() - 2] as usize;
        let left = self.squares - path.len();
        if left == 0 {
            return true;
        }
        for u in board.neighbours(from) {
            if visited[u] {
                continue;
            }
            // Ways in or out: unvisited neighbours (the start too, for closed
            // tours), plus the knight itself.
            let ways = degree[u] as u32 + board.is_knight_move(u, to) as u32;
            if ways == 0 || (ways == 1 && self.closed) {
                return false;
            }
            if ways == 1 {
                if *end != NO_END && *end as usize != u {
                    return false;
                }
                *end = u as u32;
            }
        }
        if *end != NO_END {
            let e = *end as usize;
            if visited[e] {
                *end = NO_END;
            } else {
                // Colours alternate along the path.
                let same = Board::is_light(e, board.cols) == Board::is_light(to, board.cols);
                if same != (left % 2 == 0) {
                    return false;
                }
                if left > 1 && degree[e] == 0 {
                    return false;
                }
            }
        }
        !self.connect || self.reaches_all(to, left, visited)
    }

    /// Whether every unvisited square is reachable from `from` through unvisited squares.
    fn reaches_all(&mut self, from: usize, left: usize, visited: &[bool]) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.stack.clear();
        self.stack.push(from as u32);
        let mut reached = 0;
        while let Some(v) = self.stack.pop() {
            for u in self.board.neighbours(v as usize) {
                if !visited[u] && self.mark[u] != stamp {
                    self.mark[u] = stamp;
                    reached += 1;
                    self.stack.push(u as u32);
                }
            }
        }
        reached == left
    }
}

/// Find a tour from `start` by Warnsdorff's rule (always move to the square
/// with the fewest onward moves), backtracking within a budget when the rule
/// walks into a dead end, and retrying with other tie-breaks.  `Ok(None)`
/// means every attempt ran out of budget: no claim about existence.
pub fn warnsdorff(
    board: &Board,
    start: usize,
    closed: bool,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    let squares = board.squares();
    // Many short attempts beat a few long ones: a dead end usually stems from
    // a choice made long before it shows, which backtracking cannot reach
    // cheaply, while a fresh tie-break order avoids it (measured on 3 x n).
    let budget = 2 * squares as u64 + 20_000;
    let shuffles = SHUFFLED_ATTEMPTS;
    let attempts = [TieBreak::FarFromCentre, TieBreak::MoveOrder]
        .into_iter()
        .chain((1..=shuffles).map(TieBreak::Shuffled));
    for tie in attempts {
        // Steering straight for a closed tour works on small boards; give it
        // little rope, since bending an open tour shut is the reliable way.
        let direct = if closed {
            1_000 + squares as u64 / 100
        } else {
            budget
        };
        let steer = Steer {
            closed,
            home_bias: closed,
        };
        if let Some(path) = warnsdorff_attempt(board, start, steer, tie, direct, ctl)? {
            return Ok(Some(path));
        }
        if closed {
            // An open tour that keeps the start's neighbours for last ends
            // near the start, so few rotations close it.
            let steer = Steer {
                closed: false,
                home_bias: true,
            };
            // Warnsdorff's rule spirals inwards from the border and ends near
            // the middle, so an open tour begun in the middle ends near where
            // it began.  The cycle is re-rooted at `start` afterwards.
            // On narrow boards there is no spiral, and a path from the middle
            // must cross it twice: begin at the given start there instead.
            let middle = middle_square(board).unwrap_or(start);
            let narrow = board.rows.min(board.cols) < 6;
            let origins: &[usize] = if narrow { &[start, middle] } else { &[middle] };
            for &origin in origins {
                if let Some(open) = warnsdorff_attempt(board, origin, steer, tie, budget, ctl)? {
                    if let Some(cycle) = close_by_rotation(board, open, start, ctl)? {
                        return Ok(Some(cycle));
                    }
                }
            }
        }
    }
    Ok(None)
}

/// Turn an open tour into a closed one by Pósa rotations: if the last square
/// `e` is a knight's move from `path[i]`, then `path[..=i]` followed by
/// `path[i+1..]` reversed is again a tour, now ending at `path[i+1]`.
/// Rotate (preferring short reversals) until the end is a move from the
/// start, then re-root the cycle at `start`.
fn close_by_rotation(
    board: &Board,
    mut path: Vec<u32>,
    start: usize,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    let n = path.len();
    if n < 4 {
        return Ok(None);
    }
    let mut pos = memory::try_with_capacity(board.cells(), "closing a tour")?;
    pos.resize(board.cells(), u32::MAX);
    for (i, &sq) in path.iter().enumerate() {
        pos[sq as usize] = i as u32;
    }
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut work = 0u64;
    let work_budget = 200 * n as u64 + 1_000_000;
    let first = path[0] as usize;
    let mut options: Vec<usize> = Vec::with_capacity(8);
    while work < work_budget {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let end = path[n - 1] as usize;
        if board.is_knight_move(end, first) {
            let at = path
                .iter()
                .position(|&s| s as usize == start)
                .expect("a tour holds its start");
            path.rotate_left(at);
            return Ok(Some(path));
        }
        options.clear();
        let mut closing = None;
        for u in board.neighbours(end) {
            let i = pos[u] as usize;
            if i + 2 >= n {
                continue;
            }
            options.push(i);
            if board.is_knight_move(path[i + 1] as usize, first) && closing.is_none_or(|c| i > c) {
                closing = Some(i);
            }
        }
        if options.is_empty() {
            return Ok(None);
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let i = match closing {
            Some(i) => i,
            // Mostly walk the end towards the start, sometimes anywhere, so
            // the walk cannot get stuck in a cycle.
            None if rng % 4 != 0 => *options
                .iter()
                .min_by_key(|&&i| (knight_distance(board, path[i + 1] as usize, first), n - i))
                .expect("options is not empty"),
            None => options[(rng >> 8) as usize % options.len()],
        };
        path[i + 1..].reverse();
        for (k, &sq) in path.iter().enumerate().skip(i + 1) {
            pos[sq as usize] = k as u32;
        }
        work += (n - i) as u64;
    }
    Ok(None)
}

/// What one Warnsdorff attempt aims for.
#[derive(Debug, Clone, Copy)]
struct Steer {
    /// Only accept a tour that ends a knight's move from the start.
    closed: bool,
    /// Count the start as an open neighbour, so its neighbours come last.
    home_bias: bool,
}

fn warnsdorff_attempt(
    board: &Board,
    start: usize,
    steer: Steer,
    tie: TieBreak,
    budget: u64,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    let Steer { closed, home_bias } = steer;
    let cells = board.cells();
    let squares = board.squares();
    // Onward degree: unvisited neighbours, plus the start for closed tours,
    // which stays "open" because the tour has to come back to it.
    // Every buffer is allocated at its full size up front, fallibly: on the
    // largest boards they take gigabytes (see `find_tour_bytes`).
    let what = "the tour finder's buffers";
    let mut degree: Vec<u8> = memory::try_with_capacity(cells, what)?;
    degree.extend((0..cells).map(|i| {
        if board.is_square(i) {
            board.neighbours(i).count() as u8
        } else {
            0
        }
    }));
    let mut visited: Vec<bool> = memory::try_zeroed(cells, what)?;
    let mut path: Vec<u32> = memory::try_with_capacity(squares, what)?;
    let mut levels: Vec<Level> = memory::try_with_capacity(squares, what)?;
    let (cr, cc) = (
        (board.rows as f64 - 1.0) / 2.0,
        (board.cols as f64 - 1.0) / 2.0,
    );
    let far = |i: usize| {
        let (r, c) = ((i / board.cols) as f64, (i % board.cols) as f64);
        (r - cr) * (r - cr) + (c - cc) * (c - cc)
    };
    let shuffle_key = |i: usize, m: usize, seed: u64| {
        let x = (i as u64) << 3 | m as u64;
        (x ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            .rotate_left(31)
    };
    let home_neighbours =
        |visited: &[bool]| board.neighbours(start).filter(|&u| !visited[u]).count();

    let enter = |v: usize, visited: &mut Vec<bool>, degree: &mut Vec<u8>| {
        visited[v] = true;
        if !(home_bias && v == start) {
            for u in board.neighbours(v) {
                degree[u] -= 1;
            }
        }
    };
    let leave = |v: usize, visited: &mut Vec<bool>, degree: &mut Vec<u8>| {
        visited[v] = false;
        if !(home_bias && v == start) {
            for u in board.neighbours(v) {
                degree[u] += 1;
            }
        }
    };

    enter(start, &mut visited, &mut degree);
    path.push(start as u32);
    let mut prune = Pruner::new(board, closed);
    let mut root_end = NO_END;
    for u in 0..cells {
        if board.is_square(u) && !visited[u] {
            let ways = degree[u] as u32 + board.is_knight_move(u, start) as u32;
            if ways == 0 || (ways == 1 && (closed || root_end != NO_END)) {
                return Ok(None);
            }
            if ways == 1 {
                root_end = u as u32;
            }
        }
    }
    let mut backtracks = 0u64;
    let mut polls = 0u32;
    let mut home_left = if closed { home_neighbours(&visited) } else { 1 };
    loop {
        polls = polls.wrapping_add(1);
        if polls & 0xFFF == 0 && ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        if path.len() == squares {
            let last = *path.last().unwrap() as usize;
            if !closed || board.is_knight_move(last, start) {
                return Ok(Some(path));
            }
        } else if path.len() == levels.len() + 1 {
            // Order the moves from the new head, best first.
            let head = *path.last().unwrap() as usize;
            let left = squares - path.len();
            let mut level = Level {
                moves: [0; 8],
                len: 0,
                next: 0,
                end: NO_END,
            };
            let mut keyed: [(u8, f64, u64, u8); 8] = [(0, 0.0, 0, 0); 8];
            let mut n = 0;
            for m in 0..8 {
                if let Some(to) = board.jump(head, m) {
                    if visited[to] {
                        continue;
                    }
                    let d = degree[to];
                    // A square with no way on can only be the last one.
                    if d == 0 && left > 1 {
                        continue;
                    }
                    let tb = match tie {
                        TieBreak::FarFromCentre => (-far(to), 0),
                        TieBreak::MoveOrder => (0.0, 0),
                        TieBreak::Shuffled(seed) => (0.0, shuffle_key(head, m, seed)),
                    };
                    keyed[n] = (d, tb.0, tb.1, m as u8);
                    n += 1;
                }
            }
            keyed[..n].sort_by(|a, b| {
                a.0.cmp(&b.0)
                    .then(a.1.total_cmp(&b.1))
                    .then(a.2.cmp(&b.2))
                    .then(a.3.cmp(&b.3))
            });
            for (k, key) in keyed[..n].iter().enumerate() {
                level.moves[k] = key.3;
            }
            level.len = n as u8;
            level.end = levels.last().map_or(root_end, |l| l.end);
            // A closed tour comes home through a square next to the start:
            // with none of them left unvisited, this position is a dead end.
            if closed && home_left == 0 {
                level.len = 0;
            }
            if path.len() >= 2 && !prune.viable(&mut level.end, &path, &visited, &degree) {
                level.len = 0;
            }
            // The forced end is entered last, never before.
            if level.end != NO_END && left > 1 {
                let mut kept = 0;
                for k in 0..level.len as usize {
                    let m = level.moves[k] as usize;
                    if board.jump(head, m) != Some(level.end as usize) {
                        level.moves[kept] = level.moves[k];
                        kept += 1;
                    }
                }
                level.len = kept as u8;
            }
            levels.push(level);
        }
        // Take the next untried move at the deepest level, or back up.
        let depth = levels.len() - 1;
        let head = path[depth] as usize;
        let level = &mut levels[depth];
        if level.next < level.len {
            let m = level.moves[level.next as usize] as usize;
            level.next += 1;
            let to = board
                .jump(head, m)
                .expect("ordered moves stay on the board");
            enter(to, &mut visited, &mut degree);
            if closed && board.is_knight_move(to, start) {
                home_left -= 1;
            }
            path.push(to as u32);
        } else {
            levels.pop();
            if levels.is_empty() {
                return Ok(None);
            }
            let v = path.pop().unwrap() as usize;
            leave(v, &mut visited, &mut degree);
            if closed && board.is_knight_move(v, start) {
                home_left += 1;
            }
            backtracks += 1;
            if backtracks > budget {
                return Ok(None);
            }
        }
    }
}

/// The square nearest the centre of the board.
fn middle_square(board: &Board) -> Option<usize> {
    let (r, c) = (board.rows / 2, board.cols / 2);
    let centre = r * board.cols + c;
    (0..board.cells())
        .filter(|&i| board.is_square(i))
        .min_by_key(|&i| knight_distance(board, i, centre))
}

/// A cheap lower-bound-like estimate of the knight moves between two cells.
fn knight_distance(board: &Board, a: usize, b: usize) -> usize {
    let dr = (a / board.cols).abs_diff(b / board.cols);
    let dc = (a % board.cols).abs_diff(b % board.cols);
    dr.max(dc).div_ceil(2).max((dr + dc).div_ceil(3))
}

/// Find one tour: Warnsdorff's rule first; on boards small enough for the exact
/// search, a failed heuristic falls back to it, so `Ok(None)` there means no
/// tour exists.  On larger boards `Ok(None)` also follows from the exact
/// colour and connectivity tests; `Err(Unresolved)` when only the heuristic failed.
pub fn find_tour(
    board: Board,
    start: usize,
    closed: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, FindError> {
    if !board.is_square(start) {
        return Err(FindError::Input(InputError(format!(
            "the start ({}, {}) is not a square of the board",
            start / board.cols,
            start % board.cols
        ))));
    }
    let what = format!(
        "find_tour on a {}x{} board{}",
        board.rows,
        board.cols,
        if closed { " (closed)" } else { "" }
    );
    memory::refuse_beyond_available(find_tour_bytes(&board, closed), &what)?;
    if board.tour_impossible(start, closed, ctl)? {
        return Ok(None);
    }
    if let Some(path) = warnsdorff(&board, start, closed, ctl)? {
        return Ok(Some(path));
    }
    let window = Window::of(&board)?;
    if window.small.cells() > MAX_SEARCH_SQUARES {
        return Err(FindError::Unresolved);
    }
    let small_start = window.inward(start);
    let graph = KnightGraph::new(window.small.clone())?;
    let search = TourSearch::new(graph, &[(small_start, 1)], closed).map_err(|e| match e {
        CountError::Input(e) => FindError::Input(e),
        CountError::Search(e) => FindError::Search(e),
    })?;
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 64, ctl)?;
    let found = engine::find_first(&search, &tasks, threads, ctl, true)?;
    Ok(found.map(|p| p.into_iter().map(|i| window.outward(i as usize)).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(rows: usize, cols: usize, start: Option<(usize, usize)>, closed: bool) -> u128 {
        let board = Board::rectangle(rows, cols).unwrap();
        let start = start.map(|(r, c)| r * cols + c);
        count_tours(board, start, closed, 2, &Control::new()).unwrap()
    }

    /// The seed's plain backtracking, as an independent oracle.
    fn plain(board: &Board, path: &mut Vec<usize>, seen: &mut Vec<bool>, closed: bool) -> u64 {
        if path.len() == board.squares() {
            let ok = !closed || board.is_knight_move(*path.last().unwrap(), path[0]);
            return ok as u64;
        }
        let head = *path.last().unwrap();
        let mut n = 0;
        for to in board.neighbours(head).collect::<Vec<_>>() {
            if !seen[to] {
                seen[to] = true;
                path.push(to);
                n += plain(board, path, seen, closed);
                path.pop();
                seen[to] = false;
            }
        }
        n
    }

    #[test]
    fn published_figures() {
        assert_eq!(count(3, 4, Some((2, 0)), false), 2);
        assert_eq!(count(4, 7, Some((3, 0)), false), 1682);
        assert_eq!(count(5, 5, Some((4, 0)), false), 304);
        assert_eq!(count(5, 5, None, false), 1728);
    }

    #[test]
    fn agrees_with_plain_backtracking_on_small_boards() {
        for (rows, cols) in [
            (1, 1),
            (3, 3),
            (3, 4),
            (4, 3),
            (3, 5),
            (4, 4),
            (2, 5),
            (3, 6),
        ] {
            let board = Board::rectangle(rows, cols).unwrap();
            for start in 0..rows * cols {
                for closed in [false, true] {
                    let mut seen = vec![false; rows * cols];
                    seen[start] = true;
                    let want = plain(&board, &mut vec![start], &mut seen, closed) as u128;
                    let got = count_tours(board.clone(), Some(start), closed, 1, &Control::new())
                        .unwrap();
                    assert_eq!(got, want, "{rows}x{cols} from {start}, closed={closed}");
                }
            }
        }
    }

    #[test]
    fn enumeration_follows_the_seed_order() {
        let graph = KnightGraph::new(Board::rectangle(3, 4).unwrap()).unwrap();
        let search = TourSearch::new(graph, &[(8, 1)], false).unwrap();
        let mut tours = Vec::new();
        for task in engine::plan(&search, search.roots(), 5, 64, &Control::new()).unwrap() {
            search
                .visit(&task, &Stop::new(&Control::new()), &mut |t| {
                    tours.push(t);
                    true
                })
                .unwrap();
        }
        assert_eq!(
            tours,
            vec![
                vec![8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4],
                vec![8, 6, 0, 9, 7, 1, 10, 4, 2, 11, 5, 3],
            ]
        );
    }

    #[test]
    fn warnsdorff_finds_open_and_closed_tours() {
        for n in [5, 6, 8, 12, 31, 100] {
            let board = Board::rectangle(n, n).unwrap();
            let path = warnsdorff(&board, 0, false, &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(tour_defect(&board, &path, false), Ok(None));
        }
        for n in [6, 8, 10, 20, 50] {
            let board = Board::rectangle(n, n).unwrap();
            let path = find_tour(board.clone(), 0, true, 1, &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(tour_defect(&board, &path, true), Ok(None), "closed {n}x{n}");
        }
    }

    #[test]
    fn find_tour_is_certain_on_small_boards() {
        let board = Board::rectangle(4, 4).unwrap();
        for s in 0..16 {
            assert_eq!(
                find_tour(board.clone(), s, false, 2, &Control::new()),
                Ok(None)
            );
        }
        let board = Board::rectangle(3, 4).unwrap();
        let path = find_tour(board.clone(), 8, false, 2, &Control::new())
            .unwrap()
            .unwrap();
        assert_eq!(tour_defect(&board, &path, false), Ok(None));
    }

    #[test]
    fn schwenk_theorem_agrees_with_exact_search() {
        for rows in 1..=6 {
            for cols in rows..=8 {
                if rows * cols > 36 {
                    continue;
                }
                let board = Board::rectangle(rows, cols).unwrap();
                let graph = KnightGraph::new(board.clone()).unwrap();
                // Bypass `tour_impossible` (which uses the theorem): search directly.
                let search = TourSearch {
                    roots: Vec::new(),
                    ..TourSearch::new(graph, &[], true).unwrap()
                };
                let sbit = 1u64;
                let root = TourTask {
                    path: vec![0],
                    unvisited: search.graph.all & !sbit,
                    end: 0,
                    home: sbit,
                    weight: 1,
                };
                let tasks = engine::plan(&search, vec![root], 16, 64, &Control::new()).unwrap();
                let cycles = engine::count(&search, &tasks, 2, &Control::new()).unwrap();
                let exists = rows * cols > 1 && cycles > 0;
                assert_eq!(exists, !board.schwenk_excludes_cycle(), "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn a_shape_in_a_large_grid_is_searched_in_its_window() {
        // The 3x4 board drawn at rows 5..8, columns 9..13 of a 12x20 grid.
        let (rows, cols) = (12, 20);
        let present = (0..rows * cols)
            .map(|i| (5..8).contains(&(i / cols)) && (9..13).contains(&(i % cols)))
            .collect();
        let board = Board::from_mask(rows, cols, present).unwrap();
        let corner = 7 * cols + 9;
        let n = count_tours(board.clone(), Some(corner), false, 2, &Control::new()).unwrap();
        assert_eq!(n, 2);
        assert_eq!(
            count_tours(board.clone(), None, false, 2, &Control::new()),
            Ok(16)
        );
        let ctl = Arc::new(Control::new());
        let rx = stream_tours(board.clone(), Some(corner), false, ctl).unwrap();
        let first = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(first[0] as usize, corner);
        assert_eq!(tour_defect(&board, &first, false), Ok(None));
        let found = find_tour(board.clone(), corner, false, 1, &Control::new()).unwrap();
        assert_eq!(tour_defect(&board, &found.unwrap(), false), Ok(None));
        assert_eq!(find_tour(board, corner, true, 1, &Control::new()), Ok(None));
    }

    #[test]
    fn memory_is_estimated_and_plans_are_capped() {
        let board = Board::rectangle(100, 100).unwrap();
        // 3 bytes a cell and 20 a square while an attempt runs.
        assert_eq!(find_tour_bytes(&board, false), 230_000);
        assert_eq!(find_tour_bytes(&board, true), 230_000);
        let err = plan_tours(
            board,
            None,
            false,
            engine::MAX_PLAN_TASKS + 1,
            &Control::new(),
        );
        assert!(matches!(err, Err(CountError::Input(_))));
        let ctl = Control::new();
        ctl.cancel();
        let board = Board::rectangle(8, 8).unwrap();
        let err = plan_tours(board, None, false, 1 << 20, &ctl);
        assert!(matches!(
            err,
            Err(CountError::Search(SearchError::Cancelled))
        ));
    }

    #[test]
    fn a_board_without_squares_has_no_tour_and_no_panic() {
        let board = Board::from_mask(2, 2, vec![false; 4]).unwrap();
        // A closed tour needs at least two squares.
        assert!(tour_defect(&board, &[], true).unwrap().is_some());
        assert!(!board.is_connected(&Control::new()).unwrap());
    }

    #[test]
    fn too_large_boards_are_refused() {
        let board = Board::rectangle(9, 8).unwrap();
        assert!(matches!(
            count_tours(board, Some(0), false, 1, &Control::new()),
            Err(CountError::Input(_))
        ));
        assert!(Board::rectangle(0, 3).is_err());
    }
}
