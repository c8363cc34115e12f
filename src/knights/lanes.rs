//! Tours of strips 3 or 4 squares wide (any length), built as a chain of
//! small blocks joined end to end.  Cycles of 3-row blocks cannot be joined
//! by exchanging edges (the corners force every edge near a block's end), so
//! here the tour is concatenated from paths, each covering a block between
//! two ports a knight's move from the neighbouring blocks' ports:
//!
//! * closed tours (3 x n, n even): two lanes, out along the strip and back,
//!   joined by a U-turn block at each end;
//! * open tours from any start (3 x odd n, and 4 x n from a start near an
//!   end): the start's block `[a, a + ws)` holds three lanes, from the start
//!   out to the left side, from the left side's return across to the right
//!   side, and from the right side's return to the end of the tour.  Each
//!   side is middle blocks (two lanes, out and back) closed by a U-turn tail,
//!   the left side mirrored; with `a = 0` there is no left side and the start's
//!   block has two lanes.
//!
//! On a 4-wide strip an open tour makes exactly one move between the two
//! inner lines (see `Board::four_wide_inner`: the classes "outer of one
//! colour + inner of the other" are joined only by such moves, and each
//! class's path runs outer-inner-outer, so the tour is one class, one move
//! across, the other class).  A U-turn tail is one lane through both classes,
//! so it holds that move, and two sides would make two: on 4-wide strips the
//! start's block lies at an end (`a = 0`), and a start deeper inside is left
//! to the block construction of `construct.rs` (2-factors joined by edge
//! exchanges around a path block from the start).
//!
//! The middle blocks repeat one pattern, found once per process by a small
//! exact search (depth first, fewest onward moves first, connectivity and
//! colour pruning) on a block of at most 64 cells, with its U-turn tails;
//! the start's blocks are searched once per shape, start and ports (a cache
//! of a few kilobytes).  The work is a few searches on small blocks plus
//! copying the pattern, linear in the squares.

mod block;

use super::board::Board;
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;
use block::{knight, near, ports, Block, Lane, BUDGET};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

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
    /// The block mirrored (its column `c` drawn at `w - 1 - c`).
    mirror: bool,
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
            mirror: false,
        });
    }

    fn mirrored(&mut self, at: usize, w: usize, path: &[u8], count: usize, step: i64) {
        self.run(at, w, path, count, step);
        self.runs.last_mut().unwrap().mirror = true;
    }
}

/// Widths of the repeated middle block tried, best first.
const MIDDLE: [usize; 5] = [8, 6, 10, 7, 9];

/// Build a closed tour of an `h x len` strip: lanes out and back through the
/// middle blocks, a U-turn block at each end.
fn two_lanes(h: usize, len: usize) -> Option<Chain> {
    for w in MIDDLE {
        let mid = Block::new(h, w);
        for lanes in middle_lanes(&mid) {
            let (el, er) = (lanes[0].from, lanes[1].from);
            let ((elr, elc), (err, erc)) = ((el / w, el % w), (er / w, er % w));
            let mut budget = BUDGET;
            let Some(pattern) = mid.cover(&lanes, &mut budget) else {
                continue;
            };
            let yb = *pattern[1].last().unwrap() as usize; // back lane's exit
            let (ybr, ybc) = (yb / w, yb % w);
            let ports = ((elr, elc), (err, erc), (ybr, ybc));
            if let Some(chain) = ends(h, len, w, ports, &pattern) {
                return Some(chain);
            }
        }
    }
    None
}

/// The lanes a middle block `w` wide may carry, in the order they are
/// tried: out from a cell `el` of its two left columns to the cells of its
/// two right columns a move from `el` in the next block, and back from a
/// cell `er` of its right columns to the cells of its left columns a move
/// from `er` in the block before (every block of a chain is the same).
fn middle_lanes(mid: &Block) -> impl Iterator<Item = [Lane; 2]> + '_ {
    let w = mid.w;
    let lmask = mid.cols_mask(&[0, 1]);
    let rmask = mid.cols_mask(&[w - 2, w - 1]);
    let cells = move |mask: u64| (0..mid.h * w).filter(move |&i| mask >> i & 1 == 1);
    cells(lmask).flat_map(move |el| {
        cells(rmask).map(move |er| {
            let (elr, elc) = (el / w, el % w);
            let (err, erc) = (er / w, er % w);
            [
                Lane {
                    from: el,
                    to: near(mid, elr, (elc + w) as i64) & rmask,
                },
                Lane {
                    from: er,
                    to: near(mid, err, erc as i64 - w as i64) & lmask,
                },
            ]
        })
    })
}

/// The U-turn blocks of a closed chain for the middle pattern `pattern`.
type Ports = ((usize, usize), (usize, usize), (usize, usize));

fn ends(h: usize, len: usize, w: usize, (el, er, yb): Ports, pattern: &[Vec<u8>]) -> Option<Chain> {
    let xo = *pattern[0].last().unwrap() as usize; // out lane's exit
    let (xor, xoc) = (xo / w, xo % w);
    let low = 4;
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
            let lanes = [Lane { from: a, to }];
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
        (two_lanes(h, len), false)
    } else {
        // The start's block with three lanes (two at an end of the strip),
        // the nearer end on the left, the other orientation if that fails.
        let mirror = len - 1 - sc;
        let try_one = |c: usize| three_lanes(h, len, (sr, c));
        let first = sc <= mirror;
        let (c1, c2) = if first { (sc, mirror) } else { (mirror, sc) };
        match try_one(c1) {
            Some(chain) => (Some(chain), !first),
            None => (try_one(c2), first),
        }
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
                let j = if run.mirror { run.w - 1 - j } else { j };
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

/// The repeated middle block of a strip `h` wide for open tours from a start
/// deep inside: its two lanes (out, back) and the U-turn tails that close
/// them, by width (`tails[we]`, widths 4 up to 64 / h).
struct Middle {
    w: usize,
    pattern: Vec<Vec<u8>>,
    tails: Vec<Option<Vec<u8>>>,
}

impl Middle {
    /// `(row, col)` of cell `v` of a block `w` wide.
    fn at(v: u8, w: usize) -> (usize, usize) {
        (v as usize / w, v as usize % w)
    }

    /// The first pattern (widths of [`MIDDLE`], ports in order) whose tails
    /// exist for every even width modulo `w`: a side of any even length from
    /// `w + 2` on is then `k` middle blocks and one tail (the start's block
    /// takes the parity of the rest).
    fn find(h: usize) -> Option<Middle> {
        for w in MIDDLE {
            let mid = Block::new(h, w);
            for lanes in middle_lanes(&mid) {
                let mut budget = BUDGET;
                let Some(pattern) = mid.cover(&lanes, &mut budget) else {
                    continue;
                };
                let mut m = Middle {
                    w,
                    pattern,
                    tails: Vec::new(),
                };
                for we in 0..=(64 / h).min(w + 6) {
                    let t = if we >= 4 { m.tail(h, we) } else { None };
                    m.tails.push(t);
                }
                let every = (0..w)
                    .step_by(2)
                    .all(|r| (4..m.tails.len()).any(|we| we % w == r && m.tails[we].is_some()));
                if every {
                    return Some(m);
                }
            }
        }
        None
    }

    /// The U-turn block `h x we` after a middle block: from a cell a move
    /// from the out lane's exit to one a move from the back lane's entry.
    fn tail(&self, h: usize, we: usize) -> Option<Vec<u8>> {
        let w = self.w;
        let (xr, xc) = Middle::at(*self.pattern[0].last().unwrap(), w);
        let (er, ec) = Middle::at(self.pattern[1][0], w);
        let b = Block::new(h, we);
        let to = near(&b, er, ec as i64 - w as i64);
        let from = near(&b, xr, xc as i64 - w as i64);
        for c in 0..h * we {
            if from >> c & 1 == 0 {
                continue;
            }
            let mut budget = BUDGET;
            let lane = Lane {
                from: c,
                to: to & !(1 << c),
            };
            if let Some(p) = b.cover(&[lane], &mut budget) {
                return p.into_iter().next();
            }
        }
        None
    }

    /// A side of `len` columns beyond the start's block: `(k, we)`, `k`
    /// middle blocks then a tail `we` wide, fewest tail columns first.
    fn side(&self, len: usize) -> Option<(usize, usize)> {
        (4..self.tails.len())
            .filter(|&we| we <= len && (len - we) % self.w == 0 && self.tails[we].is_some())
            .map(|we| ((len - we) / self.w, we))
            .next()
    }

    /// The first and last cells of a side `(k, we)` in its own coordinates
    /// (column 0 next to the start's block).
    fn side_ends(&self, (k, we): (usize, usize)) -> ((usize, usize), (usize, usize)) {
        if k > 0 {
            let first = Middle::at(self.pattern[0][0], self.w);
            let last = Middle::at(*self.pattern[1].last().unwrap(), self.w);
            (first, last)
        } else {
            let t = self.tails[we].as_ref().unwrap();
            (Middle::at(t[0], we), Middle::at(*t.last().unwrap(), we))
        }
    }
}

type SideEnds = ((usize, usize), (usize, usize));

/// The start's block `h x ws` with three lanes: from the start out to the
/// left side, from the left side's return across to the right side, and
/// from the right side's return to anywhere; with no left side (the block at
/// the strip's end), two: from the start to the right side, and back.
fn start_block(
    h: usize,
    ws: usize,
    start: usize,
    left: Option<SideEnds>,
    (rf, rl): SideEnds,
) -> Option<Vec<Vec<u8>>> {
    let b = Block::new(h, ws);
    let to_right = near(&b, rf.0, (ws + rf.1) as i64);
    let from_right = near(&b, rl.0, (ws + rl.1) as i64);
    let cells = |m: u64| (0..h * ws).filter(move |&i| m >> i & 1 == 1);
    let mut tries: Vec<Vec<Lane>> = Vec::new();
    match left {
        Some((lf, ll)) => {
            let to_left = near(&b, lf.0, -1 - lf.1 as i64);
            let from_left = near(&b, ll.0, -1 - ll.1 as i64);
            for x in cells(from_left) {
                for y in cells(from_right) {
                    tries.push(vec![
                        Lane {
                            from: start,
                            to: to_left,
                        },
                        Lane {
                            from: x,
                            to: to_right,
                        },
                        Lane {
                            from: y,
                            to: b.full(),
                        },
                    ]);
                }
            }
        }
        None => {
            for y in cells(from_right) {
                tries.push(vec![
                    Lane {
                        from: start,
                        to: to_right,
                    },
                    Lane {
                        from: y,
                        to: b.full(),
                    },
                ]);
            }
        }
    }
    for lanes in tries {
        if !b.colours_allow(&lanes) {
            continue;
        }
        let mut budget = BUDGET / 4;
        if let Some(p) = b.cover(&lanes, &mut budget) {
            return Some(p);
        }
    }
    None
}

/// Start blocks searched for once per process, by shape, start and ports.
/// A few kilobytes.
type BlockCache = HashMap<Vec<usize>, Option<Vec<Vec<u8>>>>;

fn cache() -> &'static Mutex<BlockCache> {
    static CACHE: OnceLock<Mutex<BlockCache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The middle pattern of strips `h` wide, searched once per process.
fn middle(h: usize) -> Option<Arc<Middle>> {
    type Found = HashMap<usize, Option<Arc<Middle>>>;
    static MIDDLES: OnceLock<Mutex<Found>> = OnceLock::new();
    let all = MIDDLES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
    all.entry(h)
        .or_insert_with(|| Middle::find(h).map(Arc::new))
        .clone()
}

fn cached_start_block(
    h: usize,
    ws: usize,
    start: usize,
    left: Option<SideEnds>,
    right: SideEnds,
) -> Option<Vec<Vec<u8>>> {
    let ((a, b), (c, d)) = left.unwrap_or(((99, 99), (99, 99)));
    let ((e, f), (g, i)) = right;
    let key = vec![1, h, ws, start, a, b, c, d, e, f, g, i];
    if let Some(s) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return s.clone();
    }
    let s = start_block(h, ws, start, left, right);
    cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, s.clone());
    s
}

/// Widest start block tried.
fn max_start_width(h: usize) -> usize {
    (64 / h).min(12)
}

/// An open tour of an `h x len` strip from `(sr, sc)`: the start's block
/// `[a, a + ws)` with three lanes, a side on each hand (middle blocks then a
/// U-turn tail, the left side mirrored), visited left first; with `a = 0`
/// (the only choice on 4-wide strips, see the module notes) two lanes and
/// the right side alone.
fn three_lanes(h: usize, len: usize, (sr, sc): (usize, usize)) -> Option<Chain> {
    let m = middle(h)?;
    for ws in 3..=max_start_width(h) {
        if ws > len {
            break;
        }
        // Block starts `a` holding the start, nearest to centring it first;
        // on 4-wide strips only `a = 0` (see above).
        let lo = (sc + 1).saturating_sub(ws);
        let hi = if h == 4 { 0 } else { sc.min(len - ws) };
        let centre = sc.saturating_sub(ws / 2);
        let mut starts: Vec<usize> = (lo..=hi).collect();
        starts.sort_by_key(|&a| a.abs_diff(centre));
        for a in starts {
            if let Some(chain) = sides(h, len, (sr, sc), (a, ws), &m) {
                return Some(chain);
            }
        }
    }
    None
}

/// The chain of [`three_lanes`] with the start's block `[a, a + ws)`, the
/// left side none when `a = 0`.
fn sides(
    h: usize,
    len: usize,
    (sr, sc): (usize, usize),
    (a, ws): (usize, usize),
    m: &Middle,
) -> Option<Chain> {
    let (ml, mr) = (m, m);
    // The left side: none (the block at the end) or a full one.
    let left = if a == 0 {
        Some(None)
    } else {
        ml.side(a).map(Some)
    };
    let (Some(left), Some(right)) = (left, mr.side(len - a - ws)) else {
        return None;
    };
    let local = sr * ws + (sc - a);
    let ends = left.map(|l| ml.side_ends(l));
    let lanes = cached_start_block(h, ws, local, ends, mr.side_ends(right))?;
    let mut chain = Chain {
        paths: Vec::new(),
        runs: Vec::new(),
    };
    chain.run(a, ws, &lanes[0], 1, 0);
    if let Some((kl, wl)) = left {
        let (w, out, back) = (ml.w, &ml.pattern[0], &ml.pattern[1]);
        if kl > 0 {
            chain.mirrored(a - w, w, out, kl, -(w as i64));
        }
        chain.mirrored(0, wl, ml.tails[wl].as_ref()?, 1, 0);
        if kl > 0 {
            chain.mirrored(wl, w, back, kl, w as i64);
        }
        chain.run(a, ws, &lanes[1], 1, 0);
    }
    let (kr, wr) = right;
    let (w, out, back) = (mr.w, &mr.pattern[0], &mr.pattern[1]);
    let r0 = a + ws;
    if kr > 0 {
        chain.run(r0, w, out, kr, w as i64);
    }
    chain.run(r0 + kr * w, wr, mr.tails[wr].as_ref()?, 1, 0);
    if kr > 0 {
        chain.run(r0 + (kr - 1) * w, w, back, kr, -(w as i64));
    }
    chain.run(a, ws, lanes.last()?, 1, 0);
    Some(chain)
}

#[cfg(test)]
mod tests;
