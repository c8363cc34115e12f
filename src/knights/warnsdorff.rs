//! Finding one tour on a board of any size (up to `MAX_FIND_SQUARES` cells):
//! Warnsdorff's rule (always move to the square with the fewest onward
//! moves) with the exact search's pruning rules on an array board, a
//! bounded backtrack, retries with other tie-breaks, and Pósa rotations that
//! bend an open tour shut.  A failure here proves nothing: `find_tour`
//! (in `mod.rs`) falls back to the exact search where a board is small enough.
//!
//! Memory: every buffer is allocated fallibly at its full size up front, and
//! [`find_tour_bytes`] states the peak, which `find_tour` checks first.

use super::board::Board;
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;

/// The memory [`find_tour`](super::find_tour) needs at its peak on `board`, in bytes, as the
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

#[cfg(test)]
mod tests {
    use super::super::board::tour_defect;
    use super::*;

    #[test]
    fn warnsdorff_finds_open_tours() {
        for n in [5, 6, 8, 12, 31, 100] {
            let board = Board::rectangle(n, n).unwrap();
            let path = warnsdorff(&board, 0, false, &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(tour_defect(&board, &path, false), Ok(None));
        }
    }

    #[test]
    fn memory_is_estimated() {
        let board = Board::rectangle(100, 100).unwrap();
        // 3 bytes a cell and 20 a square while an attempt runs.
        assert_eq!(find_tour_bytes(&board, false), 230_000);
        assert_eq!(find_tour_bytes(&board, true), 230_000);
    }
}
