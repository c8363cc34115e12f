//! Tours of strips 3 or 4 squares wide (any length), built as a chain of
//! small blocks joined end to end.  Cycles of 3-row blocks cannot be joined
//! by exchanging edges (the corners force every edge near a block's end), so
//! here the tour is concatenated from paths, each covering a block between
//! two ports a knight's move from the neighbouring blocks' ports:
//!
//! * open tours from a start in an end block: one lane, left to right (the
//!   board mirrored when the start lies near the right end);
//! * closed tours (3 x n, n even): two lanes, out along the strip and back,
//!   joined by a U-turn block at each end.
//!
//! The middle blocks repeat one pattern, found once by a small exact search
//! (depth first, fewest onward moves first, connectivity pruning) on a block
//! of at most 64 cells; the end blocks are searched for the widths the length
//! needs.  The work is a few searches on small blocks plus copying the
//! pattern, linear in the squares.

use super::board::Board;
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;

/// A small `h x w` block (at most 64 cells) for the exact lane search.
struct Block {
    h: usize,
    w: usize,
    adj: Vec<u64>,
}

/// One path to find: from `from`, ending on a cell of `to`.
#[derive(Clone, Copy)]
struct Lane {
    from: usize,
    to: u64,
}

impl Block {
    fn new(h: usize, w: usize) -> Block {
        let mut adj = vec![0u64; h * w];
        for (i, a) in adj.iter_mut().enumerate() {
            let (r, c) = ((i / w) as i64, (i % w) as i64);
            for (dr, dc) in super::MOVES {
                let (rr, cc) = (r + dr as i64, c + dc as i64);
                if rr >= 0 && cc >= 0 && rr < h as i64 && cc < w as i64 {
                    *a |= 1 << (rr as usize * w + cc as usize);
                }
            }
        }
        Block { h, w, adj }
    }

    fn full(&self) -> u64 {
        if self.h * self.w == 64 {
            u64::MAX
        } else {
            (1u64 << (self.h * self.w)) - 1
        }
    }

    fn cols_mask(&self, cols: &[usize]) -> u64 {
        let mut m = 0;
        for r in 0..self.h {
            for &c in cols {
                m |= 1 << (r * self.w + c);
            }
        }
        m
    }

    /// Disjoint paths, one per lane in order, covering the block, or `None`
    /// (also when `budget` nodes run out).
    fn cover(&self, lanes: &[Lane], budget: &mut u64) -> Option<Vec<Vec<u8>>> {
        let starts: u64 = lanes.iter().map(|l| 1u64 << l.from).fold(0, |a, b| a | b);
        if starts.count_ones() as usize != lanes.len() {
            return None;
        }
        let mut paths: Vec<Vec<u8>> = lanes.iter().map(|l| vec![l.from as u8]).collect();
        let ok = self.dfs(lanes, 0, starts, &mut paths, budget);
        ok.then_some(paths)
    }

    fn dfs(
        &self,
        lanes: &[Lane],
        k: usize,
        used: u64,
        paths: &mut Vec<Vec<u8>>,
        budget: &mut u64,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let full = self.full();
        let head = *paths[k].last().unwrap() as usize;
        let last = k + 1 == lanes.len();
        if lanes[k].to >> head & 1 == 1 {
            if last && used == full {
                return true;
            }
            if !last && self.dfs(lanes, k + 1, used, paths, budget) {
                return true;
            }
        }
        if used == full {
            return false;
        }
        // Every free cell must be reachable from a head still to move.
        let free = full & !used;
        let mut seen = 1u64 << head;
        for l in &lanes[k + 1..] {
            seen |= 1 << l.from;
        }
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                let v = f.trailing_zeros() as usize;
                f &= f - 1;
                next |= self.adj[v] & free;
            }
            frontier = next & !seen;
            seen |= next;
        }
        if free & !seen != 0 {
            return false;
        }
        let mut moves: Vec<(u32, usize)> = Vec::with_capacity(8);
        let mut m = self.adj[head] & free;
        while m != 0 {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            moves.push(((self.adj[v] & free).count_ones(), v));
        }
        moves.sort_unstable();
        for (_, v) in moves {
            paths[k].push(v as u8);
            if self.dfs(lanes, k, used | 1 << v, paths, budget) {
                return true;
            }
            paths[k].pop();
        }
        false
    }
}

/// A knight's move between `(r1, c1)` and `(r2, c2)`.
fn knight(r1: i64, c1: i64, r2: i64, c2: i64) -> bool {
    let (dr, dc) = ((r1 - r2).abs(), (c1 - c2).abs());
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

/// The cells of a `h x w` block (columns `cols`) a knight's move from the
/// cell `(r, c)` given relative to the block's left edge.
fn ports(b: &Block, cols: &[usize], r: usize, c: i64) -> u64 {
    let mut m = 0;
    for rr in 0..b.h {
        for &cc in cols {
            if knight(rr as i64, cc as i64, r as i64, c) {
                m |= 1 << (rr * b.w + cc);
            }
        }
    }
    m
}

/// Node budget of one block search.
const BUDGET: u64 = 200_000;

/// The lane chain: runs of blocks, in tour order, each run the same path
/// (cells numbered in its block) repeated `count` times, `step` columns apart.
struct Chain {
    paths: Vec<Vec<u8>>,
    runs: Vec<Run>,
}

struct Run {
    at: i64,
    w: usize,
    path: usize,
    count: usize,
    step: i64,
}

impl Chain {
    fn run(&mut self, at: usize, w: usize, path: &[u8], count: usize, step: i64) {
        self.paths.push(path.to_vec());
        self.runs.push(Run {
            at: at as i64,
            w,
            path: self.paths.len() - 1,
            count,
            step,
        });
    }
}

/// Widths of the repeated middle block tried, best first.
const MIDDLE: [usize; 5] = [8, 6, 10, 7, 9];

/// Build a tour of an `h x len` strip: lanes out and back through the
/// middle blocks, a U-turn block at the right end, and at the left end a
/// U-turn block (closed) or, for an open tour from `(sr, sc)` (`sc` small),
/// a block with two lanes: from the start out, and the way back to its end.
fn two_lanes(h: usize, len: usize, open: Option<(usize, usize)>) -> Option<Chain> {
    for w in MIDDLE {
        let mid = Block::new(h, w);
        let left = [0, 1];
        let right = [w - 2, w - 1];
        let lmask = mid.cols_mask(&left);
        let rmask = mid.cols_mask(&right);
        for el in 0..h * w {
            if lmask >> el & 1 == 0 {
                continue;
            }
            for er in 0..h * w {
                if rmask >> er & 1 == 0 {
                    continue;
                }
                let (elr, elc) = (el / w, el % w);
                let (err, erc) = (er / w, er % w);
                // Out: el -> x, x a move from el in the next block.  Back:
                // er -> y, the next block's y (y + w) a move from er.
                let out_to = ports(&mid, &right, elr, (elc + w) as i64);
                let mut back_to = 0u64;
                for r in 0..h {
                    for &c in &left {
                        if knight(r as i64, (c + w) as i64, err as i64, erc as i64) {
                            back_to |= 1 << (r * w + c);
                        }
                    }
                }
                let mut budget = BUDGET;
                let lanes = [
                    Lane {
                        from: el,
                        to: out_to,
                    },
                    Lane {
                        from: er,
                        to: back_to,
                    },
                ];
                let Some(pattern) = mid.cover(&lanes, &mut budget) else {
                    continue;
                };
                let yb = *pattern[1].last().unwrap() as usize; // back lane's exit
                let (ybr, ybc) = (yb / w, yb % w);
                let ports = ((elr, elc), (err, erc), (ybr, ybc));
                if let Some(chain) = ends(h, len, w, ports, &pattern, open) {
                    return Some(chain);
                }
            }
        }
    }
    None
}

/// The U-turn blocks of a closed chain for the middle pattern `pattern`.
type Ports = ((usize, usize), (usize, usize), (usize, usize));

fn ends(
    h: usize,
    len: usize,
    w: usize,
    (el, er, yb): Ports,
    pattern: &[Vec<u8>],
    open: Option<(usize, usize)>,
) -> Option<Chain> {
    let xo = *pattern[0].last().unwrap() as usize; // out lane's exit
    let (xor, xoc) = (xo / w, xo % w);
    let low = open.map_or(4, |(_, sc)| (sc + 3).max(4));
    for ws in low..=(low + w) {
        if h * ws > 64 || ws + w > len {
            break;
        }
        // Left U-turn [0, ws): from a (a move from the back lane's exit of
        // block 2, at column ws + yb.1) to b (a move from el of block 2).
        let first = Block::new(h, ws);
        let rc = [ws - 2, ws - 1];
        let mut found_first = None;
        for a in 0..h * ws {
            let (ar, ac) = (a / ws, a % ws);
            if !rc.contains(&ac) || !knight(ar as i64, ac as i64, yb.0 as i64, (ws + yb.1) as i64) {
                continue;
            }
            let to = ports(&first, &rc, el.0, (ws + el.1) as i64) & !(1 << a);
            let mut budget = BUDGET;
            let lanes = match open {
                None => vec![Lane { from: a, to }],
                // The start's lane out, then the way back from a to anywhere.
                Some((sr, sc)) => vec![
                    Lane {
                        from: sr * ws + sc,
                        to: to & !(1 << a),
                    },
                    Lane {
                        from: a,
                        to: first.full(),
                    },
                ],
            };
            if let Some(p) = first.cover(&lanes, &mut budget) {
                found_first = Some(p);
                break;
            }
        }
        let Some(head) = found_first else { continue };
        let rest = len - ws;
        for k in [rest / w, (rest / w).wrapping_sub(1)] {
            if k == 0 || k == usize::MAX {
                continue;
            }
            let we = rest - k * w;
            if we < 4 || h * we > 64 {
                continue;
            }
            // Right U-turn [0, we) after the last middle block: from c (a
            // move from the out lane's exit, at column xoc - w) to d (a move
            // from that block's back entry er, at column erc - w).
            let lastb = Block::new(h, we);
            let lc = [0, 1];
            for c in 0..h * we {
                let (cr, cc) = (c / we, c % we);
                let (xc, ec) = (xoc as i64 - w as i64, er.1 as i64 - w as i64);
                if !lc.contains(&cc) || !knight(cr as i64, cc as i64, xor as i64, xc) {
                    continue;
                }
                let mut to = 0u64;
                for r in 0..h {
                    for &dc in &lc {
                        if knight(r as i64, dc as i64, er.0 as i64, ec) {
                            to |= 1 << (r * we + dc);
                        }
                    }
                }
                to &= !(1 << c);
                let mut budget = BUDGET;
                let Some(tail) = lastb.cover(&[Lane { from: c, to }], &mut budget) else {
                    continue;
                };
                let mut chain = Chain {
                    paths: Vec::new(),
                    runs: Vec::new(),
                };
                chain.run(0, ws, &head[0], 1, 0);
                chain.run(ws, w, &pattern[0], k, w as i64);
                chain.run(ws + k * w, we, &tail[0], 1, 0);
                chain.run(ws + (k - 1) * w, w, &pattern[1], k, -(w as i64));
                if open.is_some() {
                    chain.run(0, ws, &head[1], 1, 0);
                }
                return Some(chain);
            }
        }
    }
    None
}

/// A tour of the full `rows x cols` board with its short side 3 or 4 and the
/// long side at least 16, from `start`; `Ok(None)` where no chain applies.
pub(super) fn strip_tour(
    board: &Board,
    start: usize,
    closed: bool,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    let (rows, cols) = (board.rows(), board.cols());
    let across = rows <= cols; // the strip runs along the columns
    let (h, len) = if across { (rows, cols) } else { (cols, rows) };
    if !(3..=4).contains(&h) || len < 16 {
        return Ok(None);
    }
    let (r, c) = (start / cols, start % cols);
    let (sr, sc) = if across { (r, c) } else { (c, r) };
    // Strip coordinates (row i of h, column j of len) to a board index, the
    // strip mirrored (column j -> len-1-j) when `flip`.
    let index = |i: usize, j: usize, flip: bool| -> u32 {
        let j = if flip { len - 1 - j } else { j };
        (if across { i * cols + j } else { j * cols + i }) as u32
    };
    let cycle = closed || (h == 3 && len % 2 == 0);
    let (chain, flip) = if cycle {
        (two_lanes(h, len, None), false)
    } else if sc < len / 2 {
        (two_lanes(h, len, Some((sr, sc))), false)
    } else {
        (two_lanes(h, len, Some((sr, len - 1 - sc))), true)
    };
    let Some(chain) = chain else { return Ok(None) };
    let squares = rows * cols;
    let mut tour: Vec<u32> = memory::try_with_capacity(squares, "the tour")?;
    let cells: usize = chain
        .runs
        .iter()
        .map(|r| r.count * chain.paths[r.path].len())
        .sum();
    if cells != squares {
        return Ok(None);
    }
    for run in &chain.runs {
        let path = &chain.paths[run.path];
        for t in 0..run.count {
            if t % 4096 == 0 && ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let at = (run.at + t as i64 * run.step) as usize;
            for &v in path {
                let (i, j) = (v as usize / run.w, v as usize % run.w);
                tour.push(index(i, at + j, flip));
            }
        }
    }
    if tour.len() != squares {
        return Ok(None);
    }
    if cycle {
        let at = tour.iter().position(|&s| s as usize == start);
        let Some(at) = at else { return Ok(None) };
        tour.rotate_left(at);
    }
    Ok(Some(tour))
}
