//! Constructing a tour on a full rectangle in time linear in its squares:
//! tile the board with small blocks, cover each block with cycles (or, for
//! the one block holding the start of an open tour on a board with no closed
//! tour, a path from the start), then merge the pieces into one by exchanges
//! of two edges across block boundaries, and read the tour off.
//!
//! Why it works (the theorems it rests on):
//!
//! * Schwenk (1991): an `m x n` board, `m <= n`, has a closed tour unless `m`
//!   and `n` are both odd, `m` is 1, 2 or 4, or `m = 3` and `n` is 4, 6 or 8.
//!   The blocks are chosen among such boards (one even side of 6, 8 or 10 and
//!   another of 5 to 9; on 3-row boards 3 x 10 ... 3 x 18), so each has a
//!   closed tour; a closed tour of the whole board read from any square is
//!   also an open tour from it.
//! * Conrad et al. (1994), Lin and Wei (2005, "Optimal algorithms for
//!   constructing knight's tours on arbitrary n x m chessboards", Discrete
//!   Applied Math. 146): open tours exist unless `m = 1 < n`, `m = 2`, `m = 3`
//!   and `n` is 3, 5 or 6, or `m = n = 4`; on a board of odd area an open tour
//!   starts on the majority colour.  On a board with no closed tour (odd x
//!   odd, 3 x odd, 4 x n) the block holding the start gets odd sides (the
//!   other bands are even), so the start keeps the majority colour of its
//!   block, and that block is covered by an open tour from the start (exact
//!   search on at most 64 cells, Warnsdorff's rule above); 4-row blocks have
//!   no closed tour, so they are covered by several cycles (a 2-factor: a
//!   degree-2 matching of the bipartite knight graph).
//! * The exchange: if `a-b` is an edge of one piece and `c-d` of another, and
//!   `a-c`, `b-d` are knight moves, then replacing `a-b`, `c-d` by `a-c`,
//!   `b-d` joins the pieces into one (a cycle with a cycle gives a cycle, a
//!   path with a cycle gives a path with the same ends).  Pieces are joined
//!   across each block boundary, as long as two different pieces meet there.
//!
//! Each block cover is found once per block size (a few dozen cells, by the
//! existing finders) and copied: a cell stores its two tour neighbours as move
//! numbers, which do not depend on where the block lies, so tiling is a copy
//! of bytes and a 3 x 10^6 board is the same 3 x 10 block repeated.  The
//! joins look only near boundaries, so the whole is linear in the squares.
//! The exchanges are greedy: where no join is found the construction gives
//! up (`Ok(None)`), and `find_tour` falls back to Warnsdorff's rule.  Every
//! tour is checked with [`tour_defect`] before it is returned.  The unit tests
//! (and `tests/knights/test_find_table.py`) run every rectangle up to 60 x 60, which
//! uses every block size and every arrangement of bands the partitions make.
//!
//! Memory: one byte a cell for the links (two move numbers), a few bytes a
//! block, the tour (4 bytes a square) and the check (a byte a cell); see
//! [`construct_bytes`].

mod cover;
mod plan;

use super::board::{tour_defect, Board, MOVES};
use crate::engine::Control;
use crate::error::SearchError;
use crate::memory;
use cover::{move_between, Cover, NONE};
use plan::{plans, Plan};
use std::collections::HashMap;

/// The peak memory of [`construct`] in bytes: the links (1 byte a cell), the
/// tour (4 bytes a square) and the verification (1 byte a cell); the block
/// tables are small next to them.
pub fn construct_bytes(board: &Board) -> u64 {
    let cells = board.cells() as u64;
    6 * cells + 64 * (board.rows() + board.cols()) as u64
}

/// A tour of a small board by the existing finders: Warnsdorff's rule, then
/// the exact search where the board spans at most 64 cells.
pub(super) type SmallFinder<'a> =
    &'a dyn Fn(&Board, usize, bool) -> Result<Option<Vec<u32>>, SearchError>;

/// Union-find over pieces.
struct Pieces {
    parent: Vec<u32>,
    joins: usize,
}

impl Pieces {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }
}

/// The construction's state: the board's links and the block tables.
struct Layout<'a> {
    cols: usize,
    plan: &'a Plan,
    covers: &'a [Cover],
    /// Per block, its cover's index in `covers`.
    kind: Vec<u16>,
    /// Per block, its first piece number.
    base: Vec<u32>,
    link: Vec<u8>,
    pieces: Pieces,
}

impl Layout<'_> {
    fn block(&self, rb: usize, cb: usize) -> usize {
        rb * self.plan.cols.count() + cb
    }

    /// The piece of `cell`, which lies in block `(rb, cb)`.
    fn piece(&mut self, cell: usize, rb: usize, cb: usize) -> u32 {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let b = self.block(rb, cb);
        let cover = &self.covers[self.kind[b] as usize];
        let local = (r - self.plan.rows.starts[rb]) * cover.cols + (c - self.plan.cols.starts[cb]);
        let p = self.base[b] + cover.piece[local] as u32;
        self.pieces.find(p)
    }

    fn target(&self, a: usize, m: u8) -> usize {
        let (dr, dc) = MOVES[m as usize];
        let r = (a / self.cols) as i64 + dr as i64;
        let c = (a % self.cols) as i64 + dc as i64;
        r as usize * self.cols + c as usize
    }

    fn neighbours(&self, a: usize) -> [Option<usize>; 2] {
        let l = self.link[a];
        let f = |m: u8| (m != NONE).then(|| self.target(a, m));
        [f(l & 0xF), f(l >> 4)]
    }

    fn is_move(&self, a: usize, b: usize) -> bool {
        let dr = (a / self.cols).abs_diff(b / self.cols);
        let dc = (a % self.cols).abs_diff(b % self.cols);
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    fn move_to(&self, a: usize, b: usize) -> u8 {
        move_between(self.cols, a, b)
    }

    /// Replace `a`'s neighbour `old` by `new`.
    fn relink(&mut self, a: usize, old: usize, new: usize) {
        let (mo, mn) = (self.move_to(a, old), self.move_to(a, new));
        let l = self.link[a];
        self.link[a] = if l & 0xF == mo {
            (l & 0xF0) | mn
        } else {
            (l & 0x0F) | (mn << 4)
        };
    }

    /// Join pieces across cells `a` of block `x` and the cells of block `y`
    /// (or inside `x` when `x == y`), wherever an exchange is found.
    fn join(&mut self, x: (usize, usize), y: (usize, usize), cells: &[usize]) {
        let (ry0, ry1) = (self.plan.rows.starts[y.0], self.plan.rows.starts[y.0 + 1]);
        let (cy0, cy1) = (self.plan.cols.starts[y.1], self.plan.cols.starts[y.1 + 1]);
        for &a in cells {
            let (ar, ac) = ((a / self.cols) as i64, (a % self.cols) as i64);
            for &(dr, dc) in MOVES.iter() {
                let (r, c) = (ar + dr as i64, ac + dc as i64);
                if r < ry0 as i64 || r >= ry1 as i64 || c < cy0 as i64 || c >= cy1 as i64 {
                    continue;
                }
                let cc = r as usize * self.cols + c as usize;
                let (pa, pc) = (self.piece(a, x.0, x.1), self.piece(cc, y.0, y.1));
                if pa == pc {
                    continue;
                }
                'pairs: for b in self.neighbours(a).into_iter().flatten() {
                    for d in self.neighbours(cc).into_iter().flatten() {
                        if self.is_move(b, d) {
                            self.relink(a, b, cc);
                            self.relink(b, a, d);
                            self.relink(cc, d, a);
                            self.relink(d, cc, b);
                            self.pieces.parent[pa as usize] = pc;
                            self.pieces.joins += 1;
                            break 'pairs;
                        }
                    }
                }
            }
        }
    }

    /// The cells of block `(rb, cb)` in the rows `r0..r1` and columns `c0..c1`
    /// (clipped to the block).
    fn cells(
        &self,
        rb: usize,
        cb: usize,
        rows: (usize, usize),
        cols: (usize, usize),
    ) -> Vec<usize> {
        let (br0, br1) = (self.plan.rows.starts[rb], self.plan.rows.starts[rb + 1]);
        let (bc0, bc1) = (self.plan.cols.starts[cb], self.plan.cols.starts[cb + 1]);
        let mut v = Vec::new();
        for r in rows.0.max(br0)..rows.1.min(br1) {
            for c in cols.0.max(bc0)..cols.1.min(bc1) {
                v.push(r * self.cols + c);
            }
        }
        v
    }
}

/// Build a tour of the full `rows x cols` rectangle `board` from `start`, or
/// `Ok(None)` where the construction does not apply or gives up.
pub(super) fn construct(
    board: &Board,
    start: usize,
    closed: bool,
    small: SmallFinder<'_>,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    if board.present.iter().any(|&p| !p) {
        return Ok(None);
    }
    let (rows, cols) = (board.rows(), board.cols());
    if matches!(rows.min(cols), 3 | 4) {
        let tour = super::lanes::strip_tour(board, start, closed, ctl)?;
        match tour {
            Some(t) if tour_defect(board, &t, closed)?.is_none() => return Ok(Some(t)),
            Some(_) => {
                debug_assert!(false, "the lane construction built a wrong tour");
                return Ok(None);
            }
            None => {}
        }
    }
    let mut cache: HashMap<(usize, usize), Option<Cover>> = HashMap::new();
    for plan in plans(rows, cols, start, closed) {
        if let Some(tour) = build(board, &plan, start, closed, small, &mut cache, ctl)? {
            return Ok(Some(tour));
        }
    }
    Ok(None)
}

/// The cover of a plain `h x w` block: a closed tour where one exists, else a 2-factor.
fn plain_cover(
    h: usize,
    w: usize,
    small: SmallFinder<'_>,
    cache: &mut HashMap<(usize, usize), Option<Cover>>,
) -> Result<Option<Cover>, SearchError> {
    if let Some(c) = cache.get(&(h, w)) {
        return Ok(c.clone());
    }
    let block = Board::rectangle(h, w).map_err(|_| SearchError::memory("a block", 0))?;
    let (m, n) = (h.min(w), h.max(w));
    let schwenk = (m % 2 == 1 && n % 2 == 1) || matches!(m, 1 | 2 | 4) || (m == 3 && n < 10);
    let cover = if schwenk {
        Cover::two_factor(h, w)
    } else {
        small(&block, 0, true)?.map(|t| Cover::of_tour(h, w, &t, true))
    };
    cache.insert((h, w), cover.clone());
    Ok(cover)
}

fn build(
    board: &Board,
    plan: &Plan,
    start: usize,
    closed: bool,
    small: SmallFinder<'_>,
    cache: &mut HashMap<(usize, usize), Option<Cover>>,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    let (rows, cols) = (board.rows(), board.cols());
    let (nrb, ncb) = (plan.rows.count(), plan.cols.count());
    // The covers: one per block size, plus the start's block.
    let mut covers: Vec<Cover> = Vec::new();
    let mut index: HashMap<(usize, usize), u16> = HashMap::new();
    let mut row_sizes: Vec<usize> = (0..nrb).map(|i| plan.rows.size(i)).collect();
    row_sizes.sort_unstable();
    row_sizes.dedup();
    let mut col_sizes: Vec<usize> = (0..ncb).map(|i| plan.cols.size(i)).collect();
    col_sizes.sort_unstable();
    col_sizes.dedup();
    let special = match plan.special {
        Some((rb, cb)) => {
            let (r0, c0) = (plan.rows.starts[rb], plan.cols.starts[cb]);
            let (h, w) = (plan.rows.size(rb), plan.cols.size(cb));
            let local = (start / cols - r0) * w + (start % cols - c0);
            let block = Board::rectangle(h, w).map_err(|_| SearchError::memory("a block", 0))?;
            match small(&block, local, false)? {
                Some(t) => {
                    covers.push(Cover::of_tour(h, w, &t, false));
                    Some((rb, cb))
                }
                None => return Ok(None),
            }
        }
        None => None,
    };
    for &h in &row_sizes {
        for &w in &col_sizes {
            // Only sizes that occur away from the special block matter, but
            // the set is small: cover them all.
            match plain_cover(h, w, small, cache)? {
                Some(c) => {
                    index.insert((h, w), covers.len() as u16);
                    covers.push(c);
                }
                None => {
                    // Needed unless it is only the special block's size.
                    let only_special = special.is_some_and(|(rb, cb)| {
                        (0..nrb).all(|i| plan.rows.size(i) != h || i == rb)
                            && (0..ncb).all(|j| plan.cols.size(j) != w || j == cb)
                    });
                    if !only_special {
                        return Ok(None);
                    }
                }
            }
        }
    }
    let blocks = nrb * ncb;
    let what = "the tour construction";
    let mut kind: Vec<u16> = memory::try_with_capacity(blocks, what)?;
    let mut base: Vec<u32> = memory::try_with_capacity(blocks, what)?;
    let mut total = 0u32;
    for rb in 0..nrb {
        for cb in 0..ncb {
            let k = if special == Some((rb, cb)) {
                0
            } else {
                index[&(plan.rows.size(rb), plan.cols.size(cb))]
            };
            kind.push(k);
            base.push(total);
            total += covers[k as usize].pieces;
        }
    }
    let mut link: Vec<u8> = memory::try_zeroed(rows * cols, what)?;
    for rb in 0..nrb {
        if rb % 64 == 0 && ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let r0 = plan.rows.starts[rb];
        for cb in 0..ncb {
            let cover = &covers[kind[rb * ncb + cb] as usize];
            let c0 = plan.cols.starts[cb];
            for r in 0..cover.rows {
                let at = (r0 + r) * cols + c0;
                link[at..at + cover.cols]
                    .copy_from_slice(&cover.link[r * cover.cols..(r + 1) * cover.cols]);
            }
        }
    }
    let mut parent: Vec<u32> = memory::try_with_capacity(total as usize, what)?;
    parent.extend(0..total);
    let mut lay = Layout {
        cols,
        plan,
        covers: &covers,
        kind,
        base,
        link,
        pieces: Pieces { parent, joins: 0 },
    };
    let needed = total as usize - 1;
    for _pass in 0..3 {
        for rb in 0..nrb {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            let (r0, r1) = (plan.rows.starts[rb], plan.rows.starts[rb + 1]);
            for cb in 0..ncb {
                if lay.pieces.joins == needed {
                    break;
                }
                let (c0, c1) = (plan.cols.starts[cb], plan.cols.starts[cb + 1]);
                let b = lay.block(rb, cb);
                if covers[lay.kind[b] as usize].pieces > 1 {
                    let all = lay.cells(rb, cb, (r0, r1), (c0, c1));
                    lay.join((rb, cb), (rb, cb), &all);
                }
                if cb + 1 < ncb {
                    let edge = lay.cells(rb, cb, (r0, r1), (c1.saturating_sub(2), c1));
                    lay.join((rb, cb), (rb, cb + 1), &edge);
                }
                if rb + 1 < nrb {
                    let edge = lay.cells(rb, cb, (r1.saturating_sub(2), r1), (c0, c1));
                    lay.join((rb, cb), (rb + 1, cb), &edge);
                }
            }
        }
        if lay.pieces.joins == needed {
            break;
        }
    }
    if lay.pieces.joins != needed {
        return Ok(None);
    }
    // Read the tour from the start.
    let squares = rows * cols;
    let mut tour: Vec<u32> = memory::try_with_capacity(squares, what)?;
    tour.push(start as u32);
    let (mut prev, mut cur) = (usize::MAX, start);
    for step in 1..squares {
        if step % (1 << 20) == 0 && ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let next = lay
            .neighbours(cur)
            .into_iter()
            .flatten()
            .find(|&x| x != prev);
        let Some(next) = next else { return Ok(None) };
        tour.push(next as u32);
        prev = cur;
        cur = next;
    }
    drop(lay);
    // Never hand back a wrong tour.
    if tour_defect(board, &tour, closed)?.is_some() {
        debug_assert!(false, "the construction built a wrong tour");
        return Ok(None);
    }
    Ok(Some(tour))
}

#[cfg(test)]
mod tests;
