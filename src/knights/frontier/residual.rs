//! Whether the edges a state still needs can all exist: the
//! rest of the board as a bipartite graph, checked for a subgraph with the
//! degrees a tour gives (an *f-factor*), near the board's end.
//!
//! After a step, every edge still to choose joins an unswept square to an
//! unswept square or to a frontier square that can still take one (a
//! frontier square unused needs two edges, a loose end one; two swept
//! squares are never joined later).  In a closed count each unswept square
//! needs two; in an open count a square that ends the tour needs one fewer,
//! and the ends still to come of each colour are known (the colour caps
//! less the ends fixed), so two more vertices stand for them, one joined to
//! every square of each colour that may end the tour; a pinned end needs
//! one edge fewer and is no other end.  A knight's move joins a light square to a dark one, so the
//! edges left must form a subgraph of this bipartite graph in which each
//! square has exactly its need: a flow problem.  A state without one has no
//! completion, whatever its labels pair up.
//!
//! The local checks of `state.rs` ("Pruning") look at one square at a time;
//! near the board's end the squares left compete for the same few edges,
//! and most of the states that pass those checks have no such subgraph:
//! 6x7 closed, from the top without the mirror, 219,100 states at its
//! widest step, of which 70,683 have one (and 34,764 a completion).  The
//! check is exact for the degrees, so it prunes only states without a
//! completion; it runs where the unswept squares are few
//! ([`RESIDUAL_COLUMNS`] sweep columns), where the squares compete, and it
//! depends only on which frontier squares need two edges or one, not on
//! the labels: each worker keeps the answers in a small cache.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The number of the next residual graph made.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// The most vertices of a residual graph (its masks are `u64`).
pub(super) const MAX_VERTICES: usize = 64;

/// Sweep columns left, at most, where a step checks the rest of the board.
pub(super) const RESIDUAL_COLUMNS: usize = 3;

/// The rest of the board after a step.  Vertices `0..width` are the
/// frontier's slots, `width + j` the unswept square `k + 1 + j`.
#[derive(Debug, Clone)]
pub(super) struct Residual {
    /// This graph's own number, which tags its answers in the cache
    /// (never two graphs with one number, whatever counts a worker runs).
    id: u64,
    width: usize,
    /// Vertices in all.
    n: usize,
    /// Light squares among the vertices.
    light: u64,
    /// Unswept vertices that are squares (each needs two edges).
    unswept: u64,
    /// Vertices that are pinned ends: one edge fewer, and no other end.
    pinned: u64,
    /// An open count: vertices `n` (light) and `n + 1` (dark) stand for
    /// the tour ends still to come, joined to every square of the other
    /// colour that can be one (see [`Self::feasible`]).
    ends: bool,
    /// Each vertex's neighbours among the vertices, where at least one of
    /// the two is unswept.
    adj: Box<[u64; MAX_VERTICES]>,
}

impl Residual {
    /// The residual graph after a step: `width` frontier slots, the
    /// unswept squares `squares` (whether each is a square, and light),
    /// `edges` between vertices, the `pinned` ends among the vertices, and
    /// whether the count is open (`ends`: two more vertices).
    pub(super) fn new(
        width: usize,
        frontier_light: u64,
        squares: &[(bool, bool)],
        edges: impl IntoIterator<Item = (usize, usize)>,
        pinned: u64,
        ends: bool,
    ) -> Residual {
        let n = width + squares.len();
        debug_assert!(n + 2 * ends as usize <= MAX_VERTICES);
        let mut light = frontier_light;
        let mut unswept = 0u64;
        for (j, &(present, is_light)) in squares.iter().enumerate() {
            if present {
                unswept |= 1 << (width + j);
                light |= (is_light as u64) << (width + j);
            }
        }
        let mut adj = Box::new([0u64; MAX_VERTICES]);
        for (a, b) in edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        if ends {
            // Every square may be a tour end but a pinned one; frontier
            // slots that are not squares never need an edge.
            let squares = ((1u64 << n) - 1) & !pinned;
            let (end_light, end_dark) = (n, n + 1);
            light |= 1 << end_light;
            adj[end_light] = squares & !light;
            adj[end_dark] = squares & light;
            for v in bits(squares) {
                adj[v] |= 1
                    << if light >> v & 1 == 1 {
                        end_dark
                    } else {
                        end_light
                    };
            }
        }
        Residual {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            width,
            n,
            light,
            unswept,
            pinned,
            ends,
            adj,
        }
    }

    /// Whether the frontier's `unused` slots (two edges each) and `loose`
    /// ends (one each), bit `4i` for slot `i`, and the unswept squares (two
    /// each) can all get their edges, a pinned end one fewer; in an open
    /// count `(light, dark)` squares of each colour become tour ends (one
    /// edge fewer), as the vertices of the ends take one edge of theirs.
    /// Answers are cached per worker.
    #[inline]
    pub(super) fn feasible(&self, unused: u128, loose: u128, (light, dark): (u32, u32)) -> bool {
        debug_assert!(light < 3 && dark < 3 && (self.ends || light + dark == 0));
        let pattern = pattern(unused | loose << 1) | ((light * 3 + dark) as u64) << 36;
        let at = (pattern.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CACHE_BITS)) as usize;
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.graph != self.id + 1 {
                // Another graph's answers: a worker starts each step afresh.
                cache.entries.clear();
                if cache.entries.try_reserve_exact(1 << CACHE_BITS).is_err() {
                    // No memory for the answers: work each one out.
                    return self.solve(unused, loose, (light, dark));
                }
                cache.entries.resize(1 << CACHE_BITS, 0);
                cache.graph = self.id + 1;
            }
            let entry = &mut cache.entries[at];
            if *entry >> 2 == pattern && *entry & 2 != 0 {
                return *entry & 1 == 1;
            }
            let ok = self.solve(unused, loose, (light, dark));
            *entry = pattern << 2 | 2 | ok as u64;
            ok
        })
    }

    /// [`Self::feasible`] worked out: a flow from the light vertices to
    /// the dark ones, by augmenting paths over the vertices' masks.
    fn solve(&self, unused: u128, loose: u128, (light, dark): (u32, u32)) -> bool {
        let mut deficit = [0u8; MAX_VERTICES];
        let mut active = 0u64;
        for (v, d) in deficit.iter_mut().enumerate().take(self.n) {
            let need = match v < self.width {
                true => 2 * (unused >> (4 * v) & 1) as u8 + (loose >> (4 * v) & 1) as u8,
                false => 2 * (self.unswept >> v & 1) as u8,
            };
            *d = need.saturating_sub((self.pinned >> v & 1) as u8);
            active |= ((*d > 0) as u64) << v;
        }
        if self.ends {
            // The light vertex of the ends meets the dark squares that end.
            deficit[self.n] = dark as u8;
            deficit[self.n + 1] = light as u8;
            active |= ((dark > 0) as u64) << self.n | ((light > 0) as u64) << (self.n + 1);
        }
        let light = self.light & active;
        let dark = !self.light & active;
        let total = |mask: u64| bits(mask).map(|v| deficit[v] as u32).sum::<u32>();
        if total(light) != total(dark) {
            return false;
        }
        let mut flow = Flow {
            deficit,
            used: [0; MAX_VERTICES],
            users: [0; MAX_VERTICES],
        };
        // Greedy first: most of the need is met without a path.
        for u in bits(light) {
            for y in bits(self.adj[u] & dark) {
                if flow.deficit[u] == 0 {
                    break;
                }
                if flow.deficit[y] > 0 {
                    flow.add(u, y);
                    flow.deficit[u] -= 1;
                    flow.deficit[y] -= 1;
                }
            }
        }
        for u in bits(light) {
            while flow.deficit[u] > 0 {
                if !self.augment(&mut flow, u, dark) {
                    return false;
                }
            }
        }
        true
    }

    /// One more unit of flow out of light vertex `u`, along a path that
    /// alternates unused and used edges to a dark vertex short of its need.
    fn augment(&self, flow: &mut Flow, u: usize, dark: u64) -> bool {
        let mut by_dark = [0u8; MAX_VERTICES];
        let mut by_light = [0u8; MAX_VERTICES];
        let (mut seen_light, mut seen_dark) = (1u64 << u, 0u64);
        let mut queue = [0u8; MAX_VERTICES];
        let (mut head, mut tail) = (0, 1);
        queue[0] = u as u8;
        while head < tail {
            let x = queue[head] as usize;
            head += 1;
            for y in bits(self.adj[x] & dark & !flow.used[x] & !seen_dark) {
                seen_dark |= 1 << y;
                by_dark[y] = x as u8;
                if flow.deficit[y] > 0 {
                    // Flip the path back to `u`.
                    flow.deficit[y] -= 1;
                    flow.deficit[u] -= 1;
                    let mut at = y;
                    loop {
                        let x = by_dark[at] as usize;
                        flow.add(x, at);
                        if x == u {
                            return true;
                        }
                        let before = by_light[x] as usize;
                        flow.remove(x, before);
                        at = before;
                    }
                }
                for z in bits(flow.users[y] & !seen_light) {
                    seen_light |= 1 << z;
                    by_light[z] = y as u8;
                    queue[tail] = z as u8;
                    tail += 1;
                }
            }
        }
        false
    }
}

/// The edges of a flow, both ways, and what each vertex still needs.
struct Flow {
    deficit: [u8; MAX_VERTICES],
    /// A light vertex's dark partners.
    used: [u64; MAX_VERTICES],
    /// A dark vertex's light partners.
    users: [u64; MAX_VERTICES],
}

impl Flow {
    fn add(&mut self, light: usize, dark: usize) {
        self.used[light] |= 1 << dark;
        self.users[dark] |= 1 << light;
    }

    fn remove(&mut self, light: usize, dark: usize) {
        self.used[light] &= !(1 << dark);
        self.users[dark] &= !(1 << light);
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let v = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            v
        })
    })
}

/// Answers kept per worker: 2^18 entries of 8 bytes.
const CACHE_BITS: u32 = 18;

/// A worker's answers for one graph: each entry is a pattern (see
/// [`pattern`], and the ends over it) shifted up two, with a bit that marks the entry used and
/// the answer in bit 0.
#[derive(Default)]
struct Cache {
    /// The graph's number plus one (0: none yet).
    graph: u64,
    entries: Vec<u64>,
}

/// The needs of a frontier's slots (bits `4i` and `4i + 1` of `x` for slot
/// `i < 18`) closed up to two bits a slot: 36 bits.
#[inline]
fn pattern(x: u128) -> u64 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    debug_assert_eq!(hi >> 8, 0);
    let y = (lo | lo >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    let y = (y | y >> 4) & 0x00ff_00ff_00ff_00ff;
    let y = (y | y >> 8) & 0x0000_ffff_0000_ffff;
    let y = (y | y >> 16) & 0xffff_ffff;
    y | ((hi | hi >> 2) & 15) << 32
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `squares` (no frontier, nothing pinned, no ends) with
    /// `edges` have the degrees the residual asks for.
    fn covered(squares: &[(bool, bool)], edges: &[(usize, usize)]) -> bool {
        let g = Residual::new(0, 0, squares, edges.iter().copied(), 0, false);
        g.solve(0, 0, (0, 0))
    }

    /// A 4-cycle a-b-c-d (a, c light), all unswept: each needs two edges,
    /// which the cycle gives; a path a-b-c-d does not.
    #[test]
    fn a_cycle_has_its_degrees_and_a_path_does_not() {
        let squares = [(true, true), (true, false), (true, true), (true, false)];
        assert!(covered(&squares, &[(0, 1), (1, 2), (2, 3), (3, 0)]));
        assert!(!covered(&squares, &[(0, 1), (1, 2), (2, 3)]));
    }

    #[test]
    fn frontier_slots_need_what_their_codes_say() {
        // Slot 0 (light) and slot 1 (dark) of the frontier, one unswept dark
        // square u (vertex 2) joined to slot 0 and an unswept light v
        // (vertex 3) joined to slot 1 and to u.
        let squares = [(true, false), (true, true)];
        let g = Residual::new(2, 0b01, &squares, [(0, 2), (1, 3), (2, 3)], 0, false);
        // u and v need two each: slot 0 -> u, u -> v, v -> slot 1; so both
        // slots are loose ends (one edge each).
        assert!(!g.solve(1 | 1 << 4, 0, (0, 0)));
        assert!(g.solve(0, 1 | 1 << 4, (0, 0)));
        assert!(!g.solve(0, 1, (0, 0)));
        assert!(g.feasible(0, 1 | 1 << 4, (0, 0)));
        assert!(!g.feasible(0, 1, (0, 0)));
    }

    #[test]
    fn agrees_with_every_subset_of_edges_on_small_graphs() {
        // Random bipartite graphs of up to 9 vertices (up to 3 of them
        // frontier slots with random needs), closed and open (pinned ends,
        // tour ends to come of each colour), against a brute force over
        // every subset of their edges.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut yes, mut no, mut open_yes) = (0, 0, 0);
        for _ in 0..16_000 {
            let width = next(4) as usize;
            let unswept = 1 + next(6) as usize;
            let n = width + unswept;
            let colour: Vec<bool> = (0..n).map(|_| next(2) == 1).collect();
            let squares: Vec<(bool, bool)> =
                (width..n).map(|v| (next(8) != 0, colour[v])).collect();
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if colour[a] != colour[b] && (a >= width || b >= width) && next(3) != 0 {
                        edges.push((a, b));
                    }
                }
            }
            if edges.len() > 12 {
                continue;
            }
            let (mut unused, mut loose) = (0u128, 0u128);
            let mut need = vec![0u32; n];
            for (v, need) in need.iter_mut().enumerate() {
                if v < width {
                    match next(3) {
                        0 => {}
                        1 => (unused |= 1 << (4 * v), *need = 2).1,
                        _ => (loose |= 1 << (4 * v), *need = 1).1,
                    }
                } else if squares[v - width].0 {
                    *need = 2;
                }
            }
            let open = next(2) == 1;
            let pinned = match open {
                true => (0..n).fold(0u64, |m, v| m | ((next(6) == 0) as u64) << v),
                false => 0,
            };
            for (v, need) in need.iter_mut().enumerate() {
                *need = need.saturating_sub((pinned >> v & 1) as u32);
            }
            let ends = match open {
                true => (next(3) as u32, next(3) as u32),
                false => (0, 0),
            };
            let frontier_light = (0..width).fold(0u64, |m, v| m | (colour[v] as u64) << v);
            let g = Residual::new(
                width,
                frontier_light,
                &squares,
                edges.iter().copied(),
                pinned,
                open,
            );
            let brute = (0u32..1 << edges.len()).any(|subset| {
                let mut degree = vec![0u32; n];
                for (e, &(a, b)) in edges.iter().enumerate() {
                    if subset >> e & 1 == 1 {
                        degree[a] += 1;
                        degree[b] += 1;
                    }
                }
                // Each vertex has its need, or one less as a tour end (not
                // a pinned one), with the tour ends of each colour given.
                let mut ended = (0, 0);
                for v in 0..n {
                    if degree[v] == need[v] {
                        continue;
                    }
                    if pinned >> v & 1 == 1 || degree[v] + 1 != need[v] {
                        return false;
                    }
                    match colour[v] {
                        true => ended.0 += 1,
                        false => ended.1 += 1,
                    }
                }
                ended == ends
            });
            assert_eq!(
                g.solve(unused, loose, ends),
                brute,
                "{edges:?} {need:?} {colour:?} {width} {pinned:b} {ends:?}"
            );
            assert_eq!(g.feasible(unused, loose, ends), brute);
            (yes, no) = (yes + brute as u32, no + !brute as u32);
            open_yes += (brute && open && ends != (0, 0)) as u32;
        }
        assert!(
            yes > 100 && no > 100 && open_yes > 30,
            "{yes} with a subgraph ({open_yes} open), {no} without"
        );
    }

    #[test]
    fn a_pattern_holds_each_slots_two_bits_in_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (mut x, mut want) = (0u128, 0u64);
            for i in 0..18 {
                let two = seed.rotate_left(2 * i as u32 + 5) & 3;
                x |= (two as u128) << (4 * i);
                want |= two << (2 * i);
            }
            assert_eq!(pattern(x), want);
        }
    }

    #[test]
    fn augmenting_paths_undo_a_greedy_choice() {
        // Light l0, l1; dark d0, d1 (all unswept, two edges each) in the
        // graph l0-d0, l0-d1, l1-d0, l1-d1: a 4-cycle, found even when the
        // greedy pass starts badly.  With l1-d1 missing it has no 2-factor.
        let squares = [(true, true), (true, true), (true, false), (true, false)];
        assert!(covered(&squares, &[(0, 2), (0, 3), (1, 2), (1, 3)]));
        assert!(!covered(&squares, &[(0, 2), (0, 3), (1, 2)]));
    }
}
