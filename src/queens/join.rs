//! The quarter-board join: count n-queens solutions without backtracking
//! over the whole board.
//!
//! The board (less its middle row and column when `n` is odd) is cut into four
//! `h x h` quarters, `h = n / 2`.  Every solution puts its queens of the right
//! ("east") half in some set `S` of rows, one per east column, and the queens
//! of the west half in the other rows.  For each such row split the count is
//!
//! ```text
//!     #{ (e, w) : e an east half-placement on rows S,
//!                 w a west half-placement on the other rows,
//!                 e and w share no diagonal }
//! ```
//!
//! Rows and columns are then right by construction, and only the diagonals
//! that both halves can reach (a window of `2h - 1` diagonals in each
//! direction) decide whether `e` and `w` fit.  A half-placement is itself a
//! north quarter and a south quarter on complementary column sets, read from
//! one table of every non-attacking placement on an `h x h` quarter, indexed
//! by its (rows, columns) pair.  The pairs are counted by a bit-sliced join
//! ([`super::disjoint`]): one side's window patterns transposed into bit
//! planes 512 at a time, so one query tests 512 patterns with a few dozen
//! word operations.
//!
//! Symmetry, as in the frame counter, saves most of the work:
//! * even `n`: a row split and its mirror image top to bottom count the
//!   same, and the reflections in the two long diagonals let only solutions
//!   whose east half has no queen on a long diagonal be counted (see
//!   [`JoinSearch::splits`]); those with both long diagonals empty also use
//!   the left-right mirror (a split's complement);
//! * odd `n`: the middle row and the middle column each hold one queen.
//!   Either one queen sits in the centre (the four-split orbits again), or
//!   there are two, at `(h, c)` and `(r, h)` with `r != h != c`.  The eight
//!   symmetries of the square move that pair anywhere in its orbit, which
//!   always has eight members (the pair with `|r - h| == |c - h|` attack each
//!   other), so only `r < c < h` is counted, eight times.
//!
//! The answer never depends on the split order or on the number of threads:
//! each task's count is an exact integer and the engine adds them with
//! checked arithmetic.

mod classes;
mod pairs;
mod quarter;

pub use classes::classes;
use pairs::pair_up;
pub use pairs::Part;
pub use quarter::QuarterTable;

use super::disjoint::{self, Planes};
use crate::engine::{Control, Stop, SubtreeSearch};
use crate::error::SearchError;
use crate::memory;

/// The largest board the join takes.  The quarter table grows about 9x per
/// two sizes: 551 MB for n = 22 and 23, but 5.1 GB and 73 s (one thread) to
/// build for n = 24; past this the frame counter is the method.
pub const MAX_JOIN_N: usize = 23;
/// The smallest board the join takes (smaller boards have no room to split).
pub const MIN_JOIN_N: usize = 4;

/// What is left of the board once the middle row and column (odd `n`) are
/// filled: the free local rows of the north and south quarters, the free
/// local columns of the west and east quarters, the diagonals already taken
/// (global masks), and how many solutions each of its counted ones stands for.
#[derive(Debug, Clone)]
struct Residual {
    north_rows: u32,
    south_rows: u32,
    west_cols: u32,
    east_cols: u32,
    taken_down: u64,
    taken_up: u64,
    /// Solutions of the whole board per solution of this residual.
    weight: u64,
    /// The residual is symmetric under both mirrors: count one row split per
    /// orbit of {top-bottom mirror, complement}.
    mirrored: bool,
    /// Even `n`: count by long-diagonal classes too (see [`JoinSearch::splits`]).
    classes: bool,
}

/// A task: the root, a residual, the row splits of a residual with one set
/// of north east rows, or one row split (the inner nodes' children are
/// listed by `split`).  A count runs on the north groups (a few hundred per
/// residual): one task per split would hold 4 million tasks for n = 21.
#[derive(Debug, Clone)]
pub enum JoinTask {
    Root,
    Residual(u16),
    North {
        residual: u16,
        north: u32,
    },
    Split {
        residual: u16,
        /// East rows among the north and south quarters' local rows.
        north: u32,
        south: u32,
        /// Solutions per counted pair with a queen on a long diagonal
        /// (times 2 per such queen), and with none (see
        /// [`JoinSearch::splits`]); the residual's weight comes on top.
        weight: u8,
        weight_bare: u8,
    },
}

/// The quarter-join count of the `n x n` board.
pub struct JoinSearch {
    n: usize,
    h: usize,
    odd: usize,
    quarter: QuarterTable,
    residuals: Vec<Residual>,
}

/// Per-worker lists, reused from task to task.
pub struct JoinScratch {
    east: Vec<u64>,
    west: Vec<u64>,
    north_part: Part,
    south_part: Part,
    planes: Planes,
}

impl JoinSearch {
    pub fn new(n: usize, ctl: &Control) -> Result<JoinSearch, SearchError> {
        assert!((MIN_JOIN_N..=MAX_JOIN_N).contains(&n));
        let h = n / 2;
        let odd = n % 2;
        let quarter = QuarterTable::new(h, ctl)?;
        let all = (1u32 << h) - 1;
        let mut residuals = Vec::new();
        if odd == 0 {
            residuals.push(Residual {
                north_rows: all,
                south_rows: all,
                west_cols: all,
                east_cols: all,
                taken_down: 0,
                taken_up: 0,
                weight: 1,
                mirrored: true,
                classes: true,
            });
        } else {
            // The centre queen.
            let (d, u) = diagonals_of(n, h, h);
            residuals.push(Residual {
                north_rows: all,
                south_rows: all,
                west_cols: all,
                east_cols: all,
                taken_down: d,
                taken_up: u,
                weight: 1,
                mirrored: true,
                classes: false,
            });
            // Queens at (h, c) and (r, h), r < c < h: north row r, west column c.
            for c in 0..h {
                for r in 0..c {
                    let (d1, u1) = diagonals_of(n, h, c);
                    let (d2, u2) = diagonals_of(n, r, h);
                    residuals.push(Residual {
                        north_rows: all & !(1 << r),
                        south_rows: all,
                        west_cols: all & !(1 << c),
                        east_cols: all,
                        taken_down: d1 | d2,
                        taken_up: u1 | u2,
                        weight: 8,
                        mirrored: false,
                        classes: false,
                    });
                }
            }
        }
        Ok(JoinSearch {
            n,
            h,
            odd,
            quarter,
            residuals,
        })
    }

    pub fn roots(&self) -> Vec<JoinTask> {
        vec![JoinTask::Root]
    }

    /// Reverse the low `h` bits.
    fn reverse(&self, bits: u32) -> u32 {
        bits.reverse_bits() >> (32 - self.h)
    }

    /// The row splits of residual `i` whose north east rows are `north`, one
    /// per orbit when the residual is mirrored.
    ///
    /// Even `n` also uses the diagonal reflections, by classes.  The main
    /// diagonal crosses only the NW and SE quarters, the anti-diagonal only
    /// NE and SW, and each holds at most one queen.  Reflecting in the
    /// anti-diagonal swaps NW and SE and keeps NE and SW; reflecting in the
    /// main diagonal swaps NE and SW and keeps NW and SE.  So the solutions
    /// with the main-diagonal queen in SE are as many as those with it in
    /// NW, and likewise for NE against SW: only solutions whose east half
    /// has no queen on a long diagonal are counted, twice for each long
    /// diagonal whose queen sits in the west half.  Those classes are
    /// closed under the top-bottom mirror (it turns NW into SW, SE into NE),
    /// so one split per mirror pair is counted.  The class with both long
    /// diagonals empty is also closed under the left-right mirror, so it is
    /// counted on one split of each four-orbit (`weight_bare`).
    fn splits(&self, i: usize, north: u32, out: &mut Vec<JoinTask>) {
        let r = &self.residuals[i];
        let east = r.east_cols.count_ones();
        let key = |n: u32, s: u32| (n as u64) << 32 | s as u64;
        let Some(need) = east.checked_sub(north.count_ones()) else {
            return;
        };
        for south in submasks(r.south_rows) {
            if south.count_ones() != need {
                continue;
            }
            let (mut weight, mut weight_bare) = (1u8, 1u8);
            if r.mirrored {
                let me = key(north, south);
                let flip = key(self.reverse(south), self.reverse(north));
                let (cn, cs) = (r.north_rows & !north, r.south_rows & !south);
                let comp = key(cn, cs);
                let both = key(self.reverse(cs), self.reverse(cn));
                let size = |orbit: &mut [u64]| {
                    orbit.sort_unstable();
                    1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u8
                };
                let least4 = me <= flip && me <= comp && me <= both;
                if r.classes {
                    if flip < me {
                        continue;
                    }
                    weight = size(&mut [me, flip]);
                    weight_bare = if least4 {
                        size(&mut [me, flip, comp, both])
                    } else {
                        0
                    };
                } else {
                    if !least4 {
                        continue;
                    }
                    weight = size(&mut [me, flip, comp, both]);
                    weight_bare = weight;
                }
            }
            out.push(JoinTask::Split {
                residual: i as u16,
                north,
                south,
                weight,
                weight_bare,
            });
        }
    }

    /// The window patterns of one half: the north quarter (origin row 0) on
    /// local rows `north`, the south quarter on `south`, both in the quarter
    /// column block starting at global column `col0` with free local columns
    /// `cols`.  Appends `(down window) | (up window) << (2h - 1)` per
    /// placement, with a weight above [`disjoint::WEIGHT_SHIFT`] when
    /// `weights` is given: `weights[k]`, `k` the placement's queens on the
    /// `marks` (north, south) of the local diagonal words; weight 0 drops it.
    /// Placements with a queen on `skip` (north, south) are left out.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn half<const FAST: bool>(
        &self,
        r: &Residual,
        (north, south): (u32, u32),
        col0: usize,
        cols: u32,
        skip: (u64, u64),
        marks: (u64, u64),
        weights: Option<[u64; 3]>,
        bufs: (&mut Part, &mut Part),
        out: &mut Vec<u64>,
    ) -> Result<(), SearchError> {
        let n = self.n;
        let h = self.h;
        let south0 = h + self.odd;
        let len_bits = 2 * h - 1;
        let lo = h + self.odd;
        let window = (1u64 << len_bits) - 1;
        let k = north.count_ones();
        // Global down diagonal r - c + n - 1 = local (r - c + h - 1) + shift;
        // global up diagonal r + c = local (r + c) + row0 + col0.
        let (down_n, up_n) = (n - h - col0, col0);
        let (down_s, up_s) = (south0 + n - h - col0, south0 + col0);
        let (buf_n, buf_s) = bufs;
        // What to OR into a key, and whether to keep it, by its marks.
        let (tag, keep) = match weights {
            None => ([0; 3], [true; 3]),
            Some(w) => (w.map(|w| w << disjoint::WEIGHT_SHIFT), w.map(|w| w != 0)),
        };
        for cn in submasks(cols) {
            if cn.count_ones() != k {
                continue;
            }
            let cs = cols & !cn;
            self.load(r, north, cn, (down_n, up_n), skip.0, marks.0, buf_n)?;
            if buf_n.down.is_empty() {
                continue;
            }
            self.load(r, south, cs, (down_s, up_s), skip.1, marks.1, buf_s)?;
            for (&dn, &un) in buf_n.down.iter().zip(&buf_n.up) {
                // Every pair is written; only the good ones are kept (half
                // of the pairs clash, at random: a branch would mispredict
                // on every other one).
                let need = buf_s.down.len() + 4;
                if out.capacity() - out.len() < need {
                    // Doubling, as `reserve` would, but a failure is a
                    // MemoryError rather than an abort.
                    memory::try_reserve(out, need.max(out.len()), "the join's half lists")?;
                }
                let len = out.len();
                let spare = out.spare_capacity_mut();
                let kept =
                    pair_up::<FAST>((dn, un), buf_s, (lo, window, len_bits), (tag, keep), spare);
                // SAFETY: pair_up initialised the first `kept` spare slots.
                unsafe { out.set_len(len + kept) };
            }
        }
        Ok(())
    }

    /// The placements of quarter cell `(rows, cols)` with their diagonals
    /// moved to the board's, less those on taken diagonals or on `skip`:
    /// `(down, up | mark << 63)`, the mark set if a queen is on `mark`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn load(
        &self,
        r: &Residual,
        rows: u32,
        cols: u32,
        (down_shift, up_shift): (usize, usize),
        skip: u64,
        mark: u64,
        out: &mut Part,
    ) -> Result<(), SearchError> {
        let cell = self.quarter.cell(rows, cols);
        out.down.clear();
        out.up.clear();
        memory::try_reserve(&mut out.down, cell.len(), "the join's quarter cells")?;
        memory::try_reserve(&mut out.up, cell.len(), "the join's quarter cells")?;
        let down = out.down.spare_capacity_mut();
        let up = out.up.spare_capacity_mut();
        let mut len = 0;
        for &diag in cell {
            let d = (diag & 0xffff_ffff) << down_shift;
            let u = (diag >> 32) << up_shift;
            let ok = d & r.taken_down | u & r.taken_up | diag & skip == 0;
            down[len].write(d);
            up[len].write(u | ((diag & mark != 0) as u64) << 63);
            len += ok as usize;
        }
        // SAFETY: the first `len` elements of both are initialised.
        unsafe {
            out.down.set_len(len);
            out.up.set_len(len);
        }
        Ok(())
    }

    crate::cpu::kernels! {
        /// Solutions of one row split (times the residual's weight, which
        /// the caller applies), on the CPU's best kernels.
        fn count_split / count_split_plain / count_split_v3 = count_split_with(
            task: (usize, u32, u32, u8, u8), scratch: &mut JoinScratch, stop: &Stop,
        ) -> Result<u64, SearchError>
    }

    #[inline(always)]
    fn count_split_with<const FAST: bool>(
        &self,
        (residual, north, south, weight, weight_bare): (usize, u32, u32, u8, u8),
        scratch: &mut JoinScratch,
        stop: &Stop,
    ) -> Result<u64, SearchError> {
        let r = &self.residuals[residual];
        let h = self.h;
        let JoinScratch {
            east,
            west,
            north_part,
            south_part,
            planes,
        } = scratch;
        east.clear();
        west.clear();
        // The local long-diagonal cells: r == c is down bit h - 1, r + c ==
        // h - 1 is up bit h - 1 (the board's main diagonal runs through NW
        // and SE on their own main diagonals, the anti-diagonal through NE
        // and SW on theirs).
        let main = 1u64 << (h - 1);
        let anti = 1u64 << (32 + h - 1);
        let (skip_east, marks_west) = if r.classes {
            ((anti, main), (main, anti))
        } else {
            ((0, 0), (0, 0))
        };
        let (w, bare) = (weight as u64, weight_bare as u64);
        self.half::<FAST>(
            r,
            (north, south),
            h + self.odd,
            r.east_cols,
            skip_east,
            (0, 0),
            None,
            (north_part, south_part),
            east,
        )?;
        if east.is_empty() {
            return Ok(0);
        }
        self.half::<FAST>(
            r,
            (r.north_rows & !north, r.south_rows & !south),
            0,
            r.west_cols,
            (0, 0),
            marks_west,
            Some([bare, 2 * w, 4 * w]),
            (north_part, south_part),
            west,
        )?;
        if west.is_empty() {
            return Ok(0);
        }
        disjoint::count_disjoint::<FAST>(east, west, planes, stop)
    }
}

/// Placements of any number of non-attacking queens on an `h x h` board,
/// `h = 0..=12` (the quarter table's length, from `walk_quarter`; a test
/// checks the small ones).
const PLACEMENTS: [u64; 13] = [
    1,
    2,
    5,
    18,
    87,
    462,
    2_635,
    16_870,
    118_969,
    915_442,
    7_535_369,
    66_807_234,
    633_443_407,
];

/// Refuse a join the machine cannot hold, naming the estimate: the quarter
/// table (its index of `4^h` cells and its placements) and, per worker, the
/// two half lists and their sieve copies.
pub fn check_memory(n: usize, threads: usize) -> Result<(), SearchError> {
    let need = memory_estimate(n, crate::engine::workers(threads));
    crate::memory::check_available(need, &format!("the quarter-board join of n = {n}"))
}

/// Bytes the join of `n` needs on `workers` threads: the quarter table
/// (exact) and, per worker, the half lists of one row split with their
/// sieve copies, estimated at a quarter of the table's placements' bytes
/// (measured: n = 20 peaks at 87 MB on 2 threads with a 64 MB table, n = 21
/// at the figure in `docs/memory.md`).
pub fn memory_estimate(n: usize, workers: usize) -> u64 {
    let h = n / 2;
    let placements = PLACEMENTS[h.min(12)] * 8;
    let table = (1u64 << (2 * h)) * 4 + placements;
    let lists = (placements / 4).max(1 << 20);
    table + workers as u64 * lists
}

/// The global diagonals `(r - c + n - 1, r + c)` of square `(r, c)` as bits.
fn diagonals_of(n: usize, r: usize, c: usize) -> (u64, u64) {
    (1u64 << (r + n - 1 - c), 1u64 << (r + c))
}

/// Every submask of `mask`, from `mask` down to 0.
fn submasks(mask: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(mask);
    std::iter::from_fn(move || {
        let here = next?;
        next = if here == 0 {
            None
        } else {
            Some((here - 1) & mask)
        };
        Some(here)
    })
}

impl SubtreeSearch for JoinSearch {
    type Task = JoinTask;
    type Solution = ();
    type Scratch = JoinScratch;

    fn scratch(&self, _: &Stop) -> Result<JoinScratch, SearchError> {
        Ok(JoinScratch {
            east: Vec::new(),
            west: Vec::new(),
            north_part: Part::default(),
            south_part: Part::default(),
            planes: Planes::default(),
        })
    }

    fn split(&self, task: &JoinTask, out: &mut Vec<JoinTask>) -> bool {
        match task {
            JoinTask::Root => {
                out.extend((0..self.residuals.len()).map(|i| JoinTask::Residual(i as u16)));
                true
            }
            &JoinTask::Residual(i) => {
                let r = &self.residuals[i as usize];
                let east = r.east_cols.count_ones();
                let mut norths: Vec<u32> = submasks(r.north_rows)
                    .filter(|north| north.count_ones() <= east)
                    .collect();
                norths.reverse(); // from the empty set up, as the splits come
                out.extend(
                    norths
                        .into_iter()
                        .map(|north| JoinTask::North { residual: i, north }),
                );
                true
            }
            &JoinTask::North { residual, north } => {
                self.splits(residual as usize, north, out);
                true
            }
            JoinTask::Split { .. } => false,
        }
    }

    fn count(
        &self,
        task: &JoinTask,
        scratch: &mut JoinScratch,
        stop: &Stop,
    ) -> Result<u128, SearchError> {
        let mut tasks = Vec::new();
        match task {
            &JoinTask::Split {
                residual,
                north,
                south,
                weight,
                weight_bare,
            } => {
                if stop.now() {
                    return Err(SearchError::Cancelled);
                }
                let residual = residual as usize;
                let task = (residual, north, south, weight, weight_bare);
                let pairs = self.count_split(task, scratch, stop)?;
                (pairs as u128)
                    .checked_mul(self.residuals[residual].weight as u128)
                    .ok_or(SearchError::Overflow)
            }
            _ => {
                self.split(task, &mut tasks);
                let mut total = 0u128;
                for t in &tasks {
                    let c = self.count(t, scratch, stop)?;
                    total = total.checked_add(c).ok_or(SearchError::Overflow)?;
                }
                Ok(total)
            }
        }
    }

    fn visit(
        &self,
        _task: &JoinTask,
        _stop: &Stop,
        _emit: &mut dyn FnMut(()) -> bool,
    ) -> Result<bool, SearchError> {
        // The join counts pairs of half-placements; it never builds a
        // solution to hand out (listing uses the row-by-row search).
        Ok(true)
    }
}

#[cfg(test)]
mod tests;
