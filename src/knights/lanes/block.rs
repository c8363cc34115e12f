//! The lanes' small blocks (at most 64 cells): knight adjacency, the cells
//! a move from a port, and the exact search for disjoint paths (lanes) that
//! cover a block, with colour and connectivity pruning.

/// A small `h x w` block (at most 64 cells) for the exact lane search.
pub(super) struct Block {
    pub(super) h: usize,
    pub(super) w: usize,
    adj: Vec<u64>,
}

/// One path to find: from `from`, ending on a cell of `to`.
#[derive(Clone, Copy)]
pub(super) struct Lane {
    pub(super) from: usize,
    pub(super) to: u64,
}

impl Block {
    pub(super) fn new(h: usize, w: usize) -> Block {
        let mut adj = vec![0u64; h * w];
        for (i, a) in adj.iter_mut().enumerate() {
            let (r, c) = ((i / w) as i64, (i % w) as i64);
            for (dr, dc) in super::super::MOVES {
                let (rr, cc) = (r + dr as i64, c + dc as i64);
                if rr >= 0 && cc >= 0 && rr < h as i64 && cc < w as i64 {
                    *a |= 1 << (rr as usize * w + cc as usize);
                }
            }
        }
        Block { h, w, adj }
    }

    pub(super) fn full(&self) -> u64 {
        if self.h * self.w == 64 {
            u64::MAX
        } else {
            (1u64 << (self.h * self.w)) - 1
        }
    }

    pub(super) fn cols_mask(&self, cols: &[usize]) -> u64 {
        let mut m = 0;
        for r in 0..self.h {
            for &c in cols {
                m |= 1 << (r * self.w + c);
            }
        }
        m
    }

    /// Whether the colours allow paths from the lanes' starts to their ends
    /// covering the block: a path of `L` cells from a cell of colour `x` has
    /// one more of `x` than of the other when `L` is odd (its end of colour
    /// `x`), as many when even, so the block's colour surplus must be a sum
    /// of those terms.
    pub(super) fn colours_allow(&self, lanes: &[Lane]) -> bool {
        let light = |i: usize| (i / self.w + i % self.w) % 2 == 0;
        let mut lights = 0u64;
        for i in 0..self.h * self.w {
            if light(i) {
                lights |= 1 << i;
            }
        }
        let n = (self.h * self.w) as i64;
        let surplus = 2 * lights.count_ones() as i64 - n; // light minus dark
                                                          // The sums reachable so far.
        let mut sums = vec![0i64];
        for l in lanes {
            let sign = if light(l.from) { 1 } else { -1 };
            let same = if light(l.from) { lights } else { !lights };
            let mut terms = Vec::new();
            if l.to & same != 0 {
                terms.push(sign); // ends on its own colour: odd length
            }
            if l.to & !same != 0 {
                terms.push(0);
            }
            let mut next: Vec<i64> = sums
                .iter()
                .flat_map(|s| terms.iter().map(move |t| s + t))
                .collect();
            next.sort_unstable();
            next.dedup();
            sums = next;
        }
        sums.contains(&surplus)
    }

    /// Disjoint paths, one per lane in order, covering the block, or `None`
    /// (also when `budget` nodes run out).
    pub(super) fn cover(&self, lanes: &[Lane], budget: &mut u64) -> Option<Vec<Vec<u8>>> {
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
pub(super) fn knight(r1: i64, c1: i64, r2: i64, c2: i64) -> bool {
    let (dr, dc) = ((r1 - r2).abs(), (c1 - c2).abs());
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

/// The cells of a `h x w` block (columns `cols`) a knight's move from the
/// cell `(r, c)` given relative to the block's left edge.
pub(super) fn ports(b: &Block, cols: &[usize], r: usize, c: i64) -> u64 {
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
pub(super) const BUDGET: u64 = 200_000;

/// The cells of block `b` a knight's move from `(r, c)`, a cell given in the
/// block's coordinates (`c` may lie outside it).
pub(super) fn near(b: &Block, r: usize, c: i64) -> u64 {
    let mut m = 0;
    for i in 0..b.h * b.w {
        if knight((i / b.w) as i64, (i % b.w) as i64, r as i64, c) {
            m |= 1 << i;
        }
    }
    m
}
