//! The covers of single blocks, stored as links (each cell's two neighbours
//! as move numbers): one tour of the block, or a 2-factor (cycles covering
//! every cell) by augmenting paths.

use super::super::board::{Board, MOVES};

/// No neighbour in a link nibble.
pub(super) const NONE: u8 = 0xF;

/// A cover of one block: each cell's two neighbours (move numbers, `NONE`
/// where a path ends), and which piece each cell belongs to.
#[derive(Debug, Clone)]
pub(super) struct Cover {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) link: Vec<u8>,
    pub(super) piece: Vec<u8>,
    pub(super) pieces: u32,
}

pub(super) fn move_between(cols: usize, a: usize, b: usize) -> u8 {
    let (ra, ca) = ((a / cols) as i64, (a % cols) as i64);
    let (rb, cb) = ((b / cols) as i64, (b % cols) as i64);
    let d = ((rb - ra) as i32, (cb - ca) as i32);
    MOVES
        .iter()
        .position(|&m| m == d)
        .expect("consecutive squares are a knight's move apart") as u8
}

fn add_link(link: &mut [u8], a: usize, m: u8) {
    if link[a] & 0xF == NONE {
        link[a] = (link[a] & 0xF0) | m;
    } else {
        link[a] = (link[a] & 0x0F) | (m << 4);
    }
}

impl Cover {
    /// The cover made of one tour (a cycle if `closed`).
    pub(super) fn of_tour(rows: usize, cols: usize, tour: &[u32], closed: bool) -> Cover {
        let cells = rows * cols;
        let mut link = vec![0xFFu8; cells];
        let n = tour.len();
        let edges = if closed { n } else { n - 1 };
        for i in 0..edges {
            let (a, b) = (tour[i] as usize, tour[(i + 1) % n] as usize);
            add_link(&mut link, a, move_between(cols, a, b));
            add_link(&mut link, b, move_between(cols, b, a));
        }
        Cover {
            rows,
            cols,
            link,
            piece: vec![0; cells],
            pieces: 1,
        }
    }

    /// A 2-factor (every cell on a cycle) of the knight graph of the block,
    /// by augmenting paths for a degree-2 matching between the colours.
    pub(super) fn two_factor(rows: usize, cols: usize) -> Option<Cover> {
        let board = Board::rectangle(rows, cols).ok()?;
        let cells = rows * cols;
        let light: Vec<bool> = (0..cells).map(|i| Board::is_light(i, cols)).collect();
        let mut matched = vec![[usize::MAX; 2]; cells];
        let deg = |m: &[usize; 2]| m.iter().filter(|&&x| x != usize::MAX).count();
        loop {
            // BFS from light cells with room, alternating unmatched
            // (light -> dark) and matched (dark -> light) edges.
            let mut prev = vec![usize::MAX; cells];
            let mut seen = vec![false; cells];
            let mut queue = std::collections::VecDeque::new();
            for v in 0..cells {
                if light[v] && deg(&matched[v]) < 2 {
                    seen[v] = true;
                    queue.push_back(v);
                }
            }
            let mut found = None;
            'bfs: while let Some(v) = queue.pop_front() {
                if light[v] {
                    for u in board.neighbours(v) {
                        if !seen[u] && !matched[v].contains(&u) {
                            seen[u] = true;
                            prev[u] = v;
                            if deg(&matched[u]) < 2 {
                                found = Some(u);
                                break 'bfs;
                            }
                            queue.push_back(u);
                        }
                    }
                } else {
                    for &u in matched[v].iter().filter(|&&u| u != usize::MAX) {
                        if !seen[u] {
                            seen[u] = true;
                            prev[u] = v;
                            queue.push_back(u);
                        }
                    }
                }
            }
            let Some(mut u) = found else { break };
            // Flip the path: its matched edges leave, then the others join.
            let mut path = vec![u];
            while prev[u] != usize::MAX {
                u = prev[u];
                path.push(u);
            }
            for pair in path.windows(2) {
                let (x, y) = (pair[0], pair[1]);
                if !light[y] {
                    // y dark, x light: a matched edge, leaving.
                    let s = matched[y].iter().position(|&z| z == x)?;
                    matched[y][s] = usize::MAX;
                    let s = matched[x].iter().position(|&z| z == y)?;
                    matched[x][s] = usize::MAX;
                }
            }
            for pair in path.windows(2) {
                let (x, y) = (pair[0], pair[1]);
                if light[y] {
                    let s = matched[y].iter().position(|&z| z == usize::MAX)?;
                    matched[y][s] = x;
                    let s = matched[x].iter().position(|&z| z == usize::MAX)?;
                    matched[x][s] = y;
                }
            }
        }
        if matched.iter().any(|m| deg(m) != 2) {
            return None;
        }
        let mut link = vec![0xFFu8; cells];
        for (a, m) in matched.iter().enumerate() {
            for &b in m {
                add_link(&mut link, a, move_between(cols, a, b));
            }
        }
        // Number the cycles.
        let mut piece = vec![u8::MAX; cells];
        let mut pieces = 0u32;
        for s in 0..cells {
            if piece[s] != u8::MAX {
                continue;
            }
            let (mut prev, mut cur) = (usize::MAX, s);
            loop {
                piece[cur] = pieces as u8;
                let next = matched[cur].iter().copied().find(|&x| x != prev)?;
                prev = cur;
                cur = next;
                if cur == s {
                    break;
                }
            }
            pieces += 1;
            if pieces >= 250 {
                return None;
            }
        }
        Some(Cover {
            rows,
            cols,
            link,
            piece,
            pieces,
        })
    }
}
