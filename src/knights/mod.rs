//! Knight's tours: exact counting, ordered listing and streaming of tours on
//! boards of at most 64 cells, finding one tour on boards of any size, and a
//! checker.  This file holds the entry points only; each builds its search
//! with one `prepare`, so the window, graph and starts are set up in one place.
//!
//! * `board.rs`: the board model, its search window, the impossibility rules;
//! * `graph.rs`: the bitboard knight graph the exact search runs on;
//! * `search.rs`: the exact search ([`TourSearch`]) on the shared engine;
//! * `memo.rs`: its per-worker tail memo and the pool of spare tables (the
//!   key-soundness invariant is stated there);
//! * `warnsdorff.rs`: the heuristic finder for boards of any size;
//! * `construct.rs`: the block construction that finds a tour on every full
//!   rectangle that has one, in linear time (what `find_tour` uses first on
//!   rectangles of more than 64 cells);
//! * `lanes.rs`: its tours of strips 3 and 4 squares wide, which blocks
//!   joined by exchanges cannot build;
//! * `error.rs`: [`FindError`], a find's failures (it may end undecided);
//! * `frontier/`: the frontier (transfer-matrix) count, which counts tours
//!   without visiting them, on boards far past the search's 64 cells.
//!
//! Squares are numbered row-major, `index = row * cols + col`, row 0 at the
//! top.  The exact search keeps a board in one `u64`, so it takes boards whose
//! squares span at most [`MAX_SEARCH_SQUARES`] cells (rows x cols, missing
//! cells included); a shape inside a larger grid is searched in its window
//! and its tours mapped back.

mod board;
mod construct;
mod error;
pub mod frontier;
mod graph;
mod lanes;
mod memo;
mod search;
mod warnsdorff;

pub use board::{
    rectangle_has_tours, rectangle_rules_out, tour_defect, Board, Window, MAX_FIND_SQUARES,
    MAX_SEARCH_SQUARES, MOVES,
};
pub use graph::KnightGraph;
pub use memo::TailMemo;
pub use search::{TourSearch, TourTask};
pub use warnsdorff::{find_tour_bytes, warnsdorff};

// Old paths: the bindings name the errors and the plan check through here.
pub use crate::engine::check_plan_size;
pub use crate::error::{CountError, InputError, SearchError};
pub use error::FindError;

use crate::engine::{self, Control};
use crate::memory;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Which starts a search without a given start takes.
#[derive(Debug, Clone, Copy)]
enum Starts {
    /// One square per symmetry class, weighted by its size (counting).
    Classes,
    /// Every square, row-major, weight 1 (listing, in order).
    Each,
}

/// The exact search of `board` from `start` (`None`: the squares `all`
/// names), run in the board's window, and the window to map tours back.
fn prepare(
    board: &Board,
    start: Option<usize>,
    all: Starts,
    closed: bool,
) -> Result<(TourSearch, Window), CountError> {
    if let Some(s) = start {
        board.check_start(s)?;
    }
    let window = Window::of(board)?;
    // Refuse before copying: a window too large to search may be huge.
    KnightGraph::check_size(window.board())?;
    let graph = KnightGraph::new(window.board().clone())?;
    let starts = match (start, all) {
        (Some(s), _) => vec![(window.inward(s), 1)],
        (None, Starts::Classes) => TourSearch::start_classes(&graph),
        (None, Starts::Each) => TourSearch::all_starts(&graph),
    };
    let search = TourSearch::new(graph, &starts, closed)?;
    Ok((search, window))
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
    let (search, _) = prepare(&board, start, Starts::Classes, closed)?;
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 64, ctl)?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
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
    let (search, _) = prepare(&board, start, Starts::Classes, closed)?;
    let roots = search.roots();
    Ok(engine::Planned::new(search, roots, min_tasks, 64, ctl)?)
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
    let (search, window) = prepare(&board, start, Starts::Each, closed)?;
    // The roots alone: tasks are visited in order, one thread, constant memory.
    let tasks = search.roots();
    let rx = engine::stream(Arc::new(search), tasks, ctl, STREAM_BUFFER)?;
    Ok(TourReceiver { rx, window })
}

/// Tours buffered ahead of the consumer.
const STREAM_BUFFER: usize = 64;

/// Find one tour.  On a full rectangle of more than 64 cells the block
/// construction (`construct.rs`) comes first: it finds a tour wherever the
/// theorems it rests on say one exists (every closed tour, every open tour on
/// a board with a closed tour, and open tours from every start that has one
/// on odd x odd boards and 3- and 4-wide strips: tested on every start of
/// those up to 60-odd long).  Otherwise (shaped boards; on full rectangles an
/// unreached last resort), Warnsdorff's rule; on boards small enough for the exact search, a failed
/// heuristic falls back to it, so `Ok(None)` there means no tour exists.  On
/// larger boards `Ok(None)` follows from the exact colour and connectivity
/// tests and Schwenk's theorem; `Err(Unresolved)` when every method failed.
pub fn find_tour(
    board: Board,
    start: usize,
    closed: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, FindError> {
    board.check_start(start)?;
    let what = format!(
        "find_tour on a {}x{} board{}",
        board.rows(),
        board.cols(),
        if closed { " (closed)" } else { "" }
    );
    let bytes = find_tour_bytes(&board, closed).max(construct::construct_bytes(&board));
    memory::refuse_beyond_available(bytes, &what)?;
    if board.tour_impossible(start, closed, ctl)? {
        return Ok(None);
    }
    if board.cells() > MAX_SEARCH_SQUARES {
        let small = |b: &Board, s: usize, c: bool| small_tour(b, s, c, ctl);
        if let Some(path) = construct::construct(&board, start, closed, &small, ctl)? {
            return Ok(Some(path));
        }
    }
    if let Some(path) = warnsdorff(&board, start, closed, ctl)? {
        return Ok(Some(path));
    }
    exact_find(&board, start, closed, threads, ctl)
}

/// The exact search for one tour (boards spanning at most 64 cells;
/// `Err(Unresolved)` on larger ones).
fn exact_find(
    board: &Board,
    start: usize,
    closed: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, FindError> {
    let (search, window) = match prepare(board, Some(start), Starts::Each, closed) {
        Ok(prepared) => prepared,
        // Too large for the exact search: only the heuristic failed.
        Err(CountError::Input(_)) => return Err(FindError::Unresolved),
        Err(CountError::Search(e)) => return Err(FindError::Search(e)),
    };
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 64, ctl)?;
    let found = engine::find_first(&search, &tasks, threads, ctl, true)?;
    Ok(found.map(|p| p.into_iter().map(|i| window.outward(i as usize)).collect()))
}

/// A tour of a block of the construction: the exact tests, Warnsdorff's
/// rule, then the exact search (one thread) where the block spans at most 64
/// cells.  `Ok(None)`: none found (certain on at most 64 cells).
pub(crate) fn small_tour(
    board: &Board,
    start: usize,
    closed: bool,
    ctl: &Control,
) -> Result<Option<Vec<u32>>, SearchError> {
    if board.tour_impossible(start, closed, ctl)? {
        return Ok(None);
    }
    if let Some(path) = warnsdorff(board, start, closed, ctl)? {
        return Ok(Some(path));
    }
    match exact_find(board, start, closed, 1, ctl) {
        Ok(found) => Ok(found),
        Err(FindError::Search(e)) => Err(e),
        Err(_) => Ok(None),
    }
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
    fn find_tour_finds_closed_tours() {
        for n in [6, 8, 10, 20, 50] {
            let board = Board::rectangle(n, n).unwrap();
            let path = find_tour(board.clone(), 0, true, 1, &Control::new())
                .unwrap()
                .unwrap();
            assert_eq!(tour_defect(&board, &path, true), Ok(None), "closed {n}x{n}");
        }
    }

    #[test]
    fn four_wide_boards_have_open_tours_only_from_the_outer_lines() {
        for (rows, cols) in [(4, 5), (4, 6), (7, 4), (4, 9)] {
            let board = Board::rectangle(rows, cols).unwrap();
            for s in 0..rows * cols {
                // The exact search alone, as the oracle of the rule.
                let exact = exact_find(&board, s, false, 1, &Control::new()).unwrap();
                assert_eq!(
                    exact.is_none(),
                    board.four_wide_inner(s),
                    "{rows}x{cols} {s}"
                );
            }
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
    fn plans_are_capped_and_poll() {
        let board = Board::rectangle(100, 100).unwrap();
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
    fn too_large_boards_are_refused() {
        let board = Board::rectangle(9, 8).unwrap();
        assert!(matches!(
            count_tours(board, Some(0), false, 1, &Control::new()),
            Err(CountError::Input(_))
        ));
        assert!(Board::rectangle(0, 3).is_err());
    }

    #[test]
    fn a_start_off_the_board_is_refused_by_every_entry_point() {
        let board = Board::from_mask(2, 3, vec![true, true, true, true, true, false]).unwrap();
        let count = count_tours(board.clone(), Some(5), false, 1, &Control::new());
        assert!(matches!(count, Err(CountError::Input(_))));
        let stream = stream_tours(board.clone(), Some(5), false, Arc::new(Control::new()));
        assert!(matches!(stream, Err(CountError::Input(_))));
        let found = find_tour(board, 5, false, 1, &Control::new());
        assert!(matches!(found, Err(FindError::Input(_))));
    }
}
