//! N-Queens: counting with the whole symmetry group of the square, ordered
//! enumeration, an O(n) explicit construction, and a checker.
//!
//! A placement is `cols[row]`, the column of the queen in each row, 0-based.
//! Counting lives in [`frames`] (one border frame per symmetry class, filled
//! most-constrained row first); listing and finding use the plain row-by-row
//! search here, whose order is the lexicographic order of the placements.

mod disjoint;
pub mod frames;
pub mod join;

use crate::engine::{self, Control, Splittable, Stop, SubtreeSearch, Ticker};
use crate::error::{CountError, InputError, SearchError};
use crate::memory;
use crate::symmetry::Symmetry;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Boards are bitmasks in a `u64`.
pub const MAX_SEARCH_N: usize = 64;
/// The explicit construction takes any board up to this size.
pub const MAX_CONSTRUCT_N: usize = 1 << 30;

/// The image of a placement under symmetry `s`.
fn transform_placement(s: Symmetry, cols: &[u8]) -> Vec<u8> {
    let n = cols.len();
    let mut out = vec![0u8; n];
    for (r, &c) in cols.iter().enumerate() {
        let (r2, c2) = s.map(r, c as usize, n, n);
        out[r2] = c2 as u8;
    }
    out
}

/// Whether `cols` is lexicographically smallest among its images under `group`.
fn is_least_image(cols: &[u8], group: &[Symmetry]) -> bool {
    group
        .iter()
        .all(|&s| transform_placement(s, cols).as_slice() >= cols)
}

/// A subproblem of the plain search: rows `0..placed.len()` are filled.
/// Diagonals are bit masks indexed by `row + col` (`up`) and
/// `col - row + n - 1` (`down`).
#[derive(Debug, Clone)]
pub struct QueenTask {
    cols: u64,
    up: u128,
    down: u128,
    placed: Vec<u8>,
}

/// The plain search: rows top to bottom, columns left to right, so solutions
/// come in lexicographic order (enumeration, finding).
pub struct QueenSearch {
    n: usize,
    full: u64,
}

impl QueenSearch {
    fn plain(n: usize) -> QueenSearch {
        QueenSearch {
            n,
            full: full_mask(n),
        }
    }

    fn roots(&self) -> Vec<QueenTask> {
        vec![QueenTask {
            cols: 0,
            up: 0,
            down: 0,
            placed: Vec::new(),
        }]
    }

    /// The columns still open in `row`.
    #[inline]
    fn options(&self, row: usize, cols: u64, up: u128, down: u128) -> u64 {
        let diagonals = (up >> row) as u64 | (down >> (self.n - 1 - row)) as u64;
        self.full & !(cols | diagonals)
    }

    /// Place a queen at `(row, col)`.
    #[inline]
    fn place(&self, row: usize, col: u32, cols: u64, up: u128, down: u128) -> (u64, u128, u128) {
        (
            cols | 1 << col,
            up | 1 << (row + col as usize),
            down | 1 << (col as usize + self.n - 1 - row),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn visit_below(
        &self,
        placed: &mut Vec<u8>,
        cols: u64,
        up: u128,
        down: u128,
        ticker: &mut Ticker,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let row = placed.len();
        if row == self.n {
            return Ok(emit(placed.clone()));
        }
        ticker.tick(stop)?;
        let mut options = self.options(row, cols, up, down);
        while options != 0 {
            let col = options.trailing_zeros();
            options &= options - 1;
            let (c, u, d) = self.place(row, col, cols, up, down);
            placed.push(col as u8);
            let go = self.visit_below(placed, c, u, d, ticker, stop, emit)?;
            placed.pop();
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl SubtreeSearch for QueenSearch {
    type Task = QueenTask;
    type Solution = Vec<u8>;
    type Scratch = ();

    fn scratch(&self) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, task: &QueenTask, out: &mut Vec<QueenTask>) -> bool {
        let row = task.placed.len();
        if row == self.n {
            return false;
        }
        let mut options = self.options(row, task.cols, task.up, task.down);
        while options != 0 {
            let col = options.trailing_zeros();
            options &= options - 1;
            let (cols, up, down) = self.place(row, col, task.cols, task.up, task.down);
            let mut placed = task.placed.clone();
            placed.push(col as u8);
            out.push(QueenTask {
                cols,
                up,
                down,
                placed,
            });
        }
        true
    }

    fn count(&self, task: &QueenTask, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
        engine::count_by_visiting(self, task, stop)
    }

    fn visit(
        &self,
        task: &QueenTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        let mut placed = task.placed.clone();
        let mut ticker = Ticker::new();
        self.visit_below(
            &mut placed,
            task.cols,
            task.up,
            task.down,
            &mut ticker,
            stop,
            emit,
        )
    }
}

fn check_search_n(n: usize) -> Result<(), InputError> {
    if n == 0 || n > MAX_SEARCH_N {
        return Err(InputError(format!(
            "n must be between 1 and {MAX_SEARCH_N} for counting and listing, got {n}"
        )));
    }
    Ok(())
}

/// How [`count_queens`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The join where it is faster (see [`Method::resolve`]), else frames.
    Auto,
    /// The quarter-board join ([`join`]): `4 <= n <= 23`.
    Join,
    /// Backtracking one border frame per symmetry class ([`frames`]).
    Frames,
}

/// The join is the faster method from this size on (below it both take
/// milliseconds and the frames need no table).
pub const JOIN_FROM_N: usize = 12;

impl Method {
    /// The method named `name` (`"auto"`, `"join"` or `"frames"`).
    pub fn parse(name: &str) -> Result<Method, InputError> {
        match name {
            "auto" => Ok(Method::Auto),
            "join" => Ok(Method::Join),
            "frames" => Ok(Method::Frames),
            _ => Err(InputError(format!(
                "method must be 'auto', 'join' or 'frames', got {name:?}"
            ))),
        }
    }

    /// The method that counts `n`: `Auto` is the join for
    /// `JOIN_FROM_N <= n <= MAX_JOIN_N`, frames otherwise; an explicit
    /// `Join` outside its range is refused with the range named.
    pub fn resolve(self, n: usize) -> Result<Method, InputError> {
        let joinable = (join::MIN_JOIN_N..=join::MAX_JOIN_N).contains(&n);
        match self {
            Method::Auto if joinable && n >= JOIN_FROM_N => Ok(Method::Join),
            Method::Auto => Ok(Method::Frames),
            Method::Join if !joinable => Err(InputError(format!(
                "method='join' counts boards of {} to {} queens, got n = {n} \
                 (method='frames' counts up to {MAX_SEARCH_N})",
                join::MIN_JOIN_N,
                join::MAX_JOIN_N
            ))),
            m => Ok(m),
        }
    }
}

/// The number of solutions of the n-queens problem, or with `unique` the
/// number of classes under the 8 symmetries of the board.  The answer is
/// the same for every `method` and every `threads`.
pub fn count_queens(
    n: usize,
    unique: bool,
    method: Method,
    threads: usize,
    ctl: &Control,
) -> Result<u128, CountError> {
    check_search_n(n)?;
    let method = method.resolve(n)?;
    if n == 1 {
        return Ok(1);
    }
    if method == Method::Join {
        join::check_memory(n, threads)?;
        let search = join::JoinSearch::new(n, ctl)?;
        let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 4, ctl)?;
        let all = engine::count(&search, &tasks, threads, ctl)?;
        return Ok(if unique {
            join::classes(n, all, ctl)?
        } else {
            all
        });
    }
    let search = frames::FrameSearch::new(n, unique, ctl)?;
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), n, ctl)?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
}

/// A plan of [`count_queens`] by one method or the other.
pub enum QueensPlan {
    Frames(engine::Planned<frames::FrameSearch>),
    /// The join's subproblems count all solutions; `unique` turns their sum
    /// into classes ([`join::classes`]).
    Join {
        planned: engine::Planned<join::JoinSearch>,
        n: usize,
        unique: bool,
    },
}

impl QueensPlan {
    /// The plan's subproblems, whichever method it splits.
    fn splittable(&self) -> &dyn Splittable {
        match self {
            QueensPlan::Frames(planned) => planned,
            QueensPlan::Join { planned, .. } => planned,
        }
    }
}

impl Splittable for QueensPlan {
    fn len(&self) -> usize {
        self.splittable().len()
    }

    fn count_each(
        &self,
        which: &[usize],
        threads: usize,
        ctl: &Control,
        finished: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, CountError> {
        self.splittable().count_each(which, threads, ctl, finished)
    }

    /// The join's sum counts every solution; `unique` asks for classes.
    fn total(&self, sum: u128, ctl: &Control) -> Result<u128, CountError> {
        match *self {
            QueensPlan::Join {
                n, unique: true, ..
            } => Ok(join::classes(n, sum, ctl)?),
            _ => Ok(sum),
        }
    }
}

/// The count of [`count_queens`] split into at least `min_tasks` independent
/// subproblems (fewer if the tree is smaller), the same on every machine.
/// Polls `ctl` while planning.
pub fn plan_queens(
    n: usize,
    unique: bool,
    method: Method,
    min_tasks: usize,
    ctl: &Control,
) -> Result<QueensPlan, CountError> {
    check_search_n(n)?;
    engine::check_plan_size(min_tasks)?;
    if method.resolve(n)? == Method::Join {
        join::check_memory(n, 1)?;
        let search = join::JoinSearch::new(n, ctl)?;
        let roots = search.roots();
        let planned = engine::Planned::new(search, roots, min_tasks, 4, ctl)?;
        return Ok(QueensPlan::Join { planned, n, unique });
    }
    // One queen: no frames; the blank board's one task counts its 1 solution.
    let search = if n == 1 {
        frames::FrameSearch::blank(1)
    } else {
        frames::FrameSearch::new(n, unique, ctl)?
    };
    let roots = search.roots();
    Ok(QueensPlan::Frames(engine::Planned::new(
        search, roots, min_tasks, n, ctl,
    )?))
}

/// Solutions arriving from a stream, in lexicographic order.
pub struct PlacementReceiver {
    rx: Receiver<Vec<u8>>,
}

impl PlacementReceiver {
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        self.rx.recv_timeout(timeout)
    }
}

/// Stream every solution (with `unique`: the lexicographically least of each
/// symmetry class) in lexicographic order of the column lists.
pub fn stream_queens(
    n: usize,
    unique: bool,
    ctl: Arc<Control>,
) -> Result<PlacementReceiver, CountError> {
    check_search_n(n)?;
    let search = Arc::new(UniqueFilter {
        inner: QueenSearch::plain(n),
        unique,
    });
    let tasks = search.inner.roots();
    let rx = engine::stream(search, tasks, ctl, 64)?;
    Ok(PlacementReceiver { rx })
}

/// The plain search, optionally keeping only the least member of each class.
struct UniqueFilter {
    inner: QueenSearch,
    unique: bool,
}

impl SubtreeSearch for UniqueFilter {
    type Task = QueenTask;
    type Solution = Vec<u8>;
    type Scratch = ();

    fn scratch(&self) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, task: &QueenTask, out: &mut Vec<QueenTask>) -> bool {
        self.inner.split(task, out)
    }

    fn count(&self, task: &QueenTask, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
        engine::count_by_visiting(self, task, stop)
    }

    fn visit(
        &self,
        task: &QueenTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        if !self.unique {
            return self.inner.visit(task, stop, emit);
        }
        self.inner.visit(task, stop, &mut |cols| {
            !is_least_image(&cols, Symmetry::non_identity()) || emit(cols)
        })
    }
}

/// One placement by parallel backtracking, most constrained row first; with
/// `deterministic`, the lexicographically first (rows in order), whatever the
/// thread count.
pub fn search_queens(
    n: usize,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
) -> Result<Option<Vec<u8>>, CountError> {
    check_search_n(n)?;
    let min_tasks = engine::tasks_for(threads);
    if deterministic {
        let search = QueenSearch::plain(n);
        let tasks = engine::plan(&search, search.roots(), min_tasks, n, ctl)?;
        return Ok(engine::find_first(&search, &tasks, threads, ctl, true)?);
    }
    let search = frames::FrameSearch::blank(n);
    let tasks = engine::plan(&search, search.roots(), min_tasks, n, ctl)?;
    Ok(engine::find_first(&search, &tasks, threads, ctl, false)?)
}

/// One placement in O(n) by the classic explicit construction (Hoffman,
/// Loessi and Moore, 1969), or `None` for n = 2, 3.  Columns are 0-based.
/// The placement takes 4 bytes a queen (`Err(Memory)` if they cannot be
/// had); [`construction`] yields the same columns without storing them.
pub fn construct_queens(n: usize) -> Result<Option<Vec<u32>>, CountError> {
    let Some(columns) = construction(n)? else {
        return Ok(None);
    };
    let mut cols = memory::try_with_capacity(n, "the placement")?;
    cols.extend(columns);
    Ok(Some(cols))
}

/// The columns of [`construct_queens`], row by row, computed one at a time
/// (so a caller can write them straight where they are wanted), or `None`
/// for n = 2, 3.
pub fn construction(
    n: usize,
) -> Result<Option<impl ExactSizeIterator<Item = u32> + Send>, InputError> {
    if n == 0 || n > MAX_CONSTRUCT_N {
        return Err(InputError(format!(
            "n must be between 1 and {MAX_CONSTRUCT_N}, got {n}"
        )));
    }
    if n == 2 || n == 3 {
        return Ok(None);
    }
    Ok(Some((0..n).map(move |row| constructed_column(n, row))))
}

/// The column (0-based) of the queen in `row` of the explicit construction.
/// Its 1-based columns are the evens `2, 4, ...` then the odds `1, 3, ...`,
/// with the classic repairs: for n = 6k + 2 the odds run `3, 1, 7, 9, ...,
/// 5` (5 moved last); for n = 6k + 3 the evens run `4, 6, ..., 2` and the
/// odds `5, 7, ..., 1, 3`.
#[inline]
fn constructed_column(n: usize, row: usize) -> u32 {
    let evens = n / 2;
    let odds = n - evens;
    let one_based = if row < evens {
        let j = row;
        match n % 6 {
            3 if j == evens - 1 => 2,
            3 => 2 * j + 4,
            _ => 2 * j + 2,
        }
    } else {
        let j = row - evens;
        match n % 6 {
            2 if j == 0 => 3,
            2 if j == 1 => 1,
            2 if j == odds - 1 => 5,
            2 => 2 * j + 3,
            3 if j == odds - 2 => 1,
            3 if j == odds - 1 => 3,
            3 => 2 * j + 5,
            _ => 2 * j + 1,
        }
    };
    (one_based - 1) as u32
}

/// Why `cols` is not an n-queens solution, or `Ok(None)` if it is: O(n)
/// time, and a bit per column and diagonal (`Err(Memory)` if those cannot
/// be had: 5 bits a queen, 640 MiB for 2^30 queens).
pub fn placement_defect(cols: &[u32]) -> Result<Option<String>, SearchError> {
    let n = cols.len();
    if n == 0 {
        return Ok(Some("a placement needs at least one queen".into()));
    }
    let words = |bits: usize| bits.div_ceil(64);
    let what = "checking a placement";
    let mut column: Vec<u64> = memory::try_zeroed(words(n), what)?;
    let mut down: Vec<u64> = memory::try_zeroed(words(2 * n - 1), what)?;
    let mut up: Vec<u64> = memory::try_zeroed(words(2 * n - 1), what)?;
    // Set bit `i` of `set`; whether it was set already.
    let taken = |set: &mut [u64], i: usize| {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let was = set[word] & bit != 0;
        set[word] |= bit;
        was
    };
    for (row, &c) in cols.iter().enumerate() {
        let c = c as usize;
        if c >= n {
            return Ok(Some(format!(
                "row {row}: column {c} is off the {n}x{n} board"
            )));
        }
        let (d, u) = (row + n - 1 - c, row + c);
        if taken(&mut column, c) {
            return Ok(Some(format!("row {row}: column {c} already holds a queen")));
        }
        // Both diagonals are marked before either is judged, as before.
        let (on_down, on_up) = (taken(&mut down, d), taken(&mut up, u));
        if on_down || on_up {
            return Ok(Some(format!(
                "row {row}: the queen shares a diagonal with an earlier one"
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A000170: [u128; 14] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    ];
    const A002562: [u128; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

    #[test]
    fn published_counts() {
        for (i, &want) in A000170.iter().enumerate() {
            let n = i + 1;
            for threads in [1, 2] {
                for method in [Method::Auto, Method::Frames, Method::Join] {
                    if method == Method::Join && n < join::MIN_JOIN_N {
                        continue;
                    }
                    assert_eq!(
                        count_queens(n, false, method, threads, &Control::new()),
                        Ok(want),
                        "n={n} {method:?}"
                    );
                }
            }
        }
        for (i, &want) in A002562.iter().enumerate() {
            let n = i + 1;
            for method in [Method::Auto, Method::Frames, Method::Join] {
                if method == Method::Join && n < join::MIN_JOIN_N {
                    continue;
                }
                assert_eq!(
                    count_queens(n, true, method, 2, &Control::new()),
                    Ok(want),
                    "unique n={n} {method:?}"
                );
            }
        }
    }

    #[test]
    fn methods_are_parsed_and_resolved() {
        assert_eq!(Method::parse("join"), Ok(Method::Join));
        assert!(Method::parse("fast").is_err());
        assert_eq!(Method::Auto.resolve(8), Ok(Method::Frames));
        assert_eq!(Method::Auto.resolve(JOIN_FROM_N), Ok(Method::Join));
        assert_eq!(
            Method::Auto.resolve(join::MAX_JOIN_N + 1),
            Ok(Method::Frames)
        );
        assert!(Method::Join.resolve(3).is_err());
        assert!(Method::Join.resolve(join::MAX_JOIN_N + 1).is_err());
    }

    #[test]
    fn streams_in_lexicographic_order() {
        let rx = stream_queens(8, false, Arc::new(Control::new())).unwrap();
        let mut all = Vec::new();
        while let Ok(p) = rx.recv_timeout(Duration::from_secs(10)) {
            all.push(p);
        }
        assert_eq!(all.len(), 92);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        let rx = stream_queens(8, true, Arc::new(Control::new())).unwrap();
        let mut unique = 0;
        while rx.recv_timeout(Duration::from_secs(10)).is_ok() {
            unique += 1;
        }
        assert_eq!(unique, 12);
    }

    /// The construction as the classic recipe states it, list by list.
    fn recipe(n: usize) -> Vec<u32> {
        let mut evens: Vec<u32> = (2..=n as u32).step_by(2).collect();
        let mut odds: Vec<u32> = (1..=n as u32).step_by(2).collect();
        match n % 6 {
            2 => {
                odds.swap(0, 1);
                let five = odds.remove(2);
                odds.push(five);
            }
            3 => {
                let two = evens.remove(0);
                evens.push(two);
                odds.drain(0..2);
                odds.extend([1, 3]);
            }
            _ => {}
        }
        evens.into_iter().chain(odds).map(|c| c - 1).collect()
    }

    #[test]
    fn construction_is_valid() {
        for n in 1..300 {
            match construct_queens(n).unwrap() {
                None => assert!(n == 2 || n == 3),
                Some(p) => {
                    assert_eq!(placement_defect(&p), Ok(None), "n={n}");
                    assert_eq!(p, recipe(n), "n={n}");
                }
            }
        }
        for n in [6 * 1000 + 2, 6 * 1000 + 3, 100_001] {
            let p = construct_queens(n).unwrap().unwrap();
            assert_eq!(placement_defect(&p), Ok(None), "n={n}");
        }
        assert!(construct_queens(0).is_err());
        assert!(construct_queens(MAX_CONSTRUCT_N + 1).is_err());
    }

    #[test]
    fn defects_are_found() {
        let d = |cols: &[u32]| placement_defect(cols).unwrap().unwrap();
        assert!(d(&[]).contains("at least one queen"));
        assert!(d(&[0, 4]).contains("off the 2x2 board"));
        assert!(d(&[1, 3, 1, 2]).contains("row 2: column 1 already"));
        assert!(d(&[0, 1, 3, 2]).contains("row 1: the queen shares a diagonal"));
        assert_eq!(placement_defect(&[1, 3, 0, 2]), Ok(None));
        // Past 64 columns the bit sets span several words.
        let mut p = construct_queens(130).unwrap().unwrap();
        p.swap(70, 100);
        assert!(d(&p).contains("diagonal"), "{}", d(&p));
    }

    #[test]
    fn deterministic_search_finds_the_first() {
        for threads in [1, 2, 8] {
            let p = search_queens(8, threads, true, &Control::new()).unwrap();
            assert_eq!(p, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
        }
        assert_eq!(search_queens(3, 2, false, &Control::new()), Ok(None));
    }
}
