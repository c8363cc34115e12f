//! Knight's tours for Python: `count_tours` (search), `count_tours_frontier`
//! (the frontier DP), `find_tour`, `tour_defect` and the `TourStream` class.
//! Each converts its arguments into a [`Board`] and a start square (checked
//! again here, although `solvers.knights` validates first) and hands the
//! work to [`crate::knights`] or [`crate::knights::frontier`] through the runtime.

use super::options::RunOptions;
use super::packed::{packed, unpacked};
use super::plan::CountPlan;
use super::runtime::{cancellable, cancellable_polling, interruptible, report, Stream};
use super::runtime::{receiver_source, stream_class};
use crate::engine::Control;
use crate::error::{human_bytes, CountError};
use crate::knights::frontier;
use crate::knights::{self, Board};
use crate::layers::Spill;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// A board as Python gives it: `(rows, cols, mask)`, the mask (row by
/// row, `True` on a square of the board) `None` for the whole rectangle.
pub(super) type BoardSpec = (usize, usize, Option<Vec<bool>>);

/// The board of `rows` x `cols`, or of the squares `mask` marks.
pub(super) fn board_from((rows, cols, mask): BoardSpec) -> PyResult<Board> {
    Ok(match mask {
        None => Board::rectangle(rows, cols)?,
        Some(mask) => Board::from_mask(rows, cols, mask)?,
    })
}

/// The index of square `start`, which must be on the board's grid.
pub(super) fn start_index(board: &Board, start: (usize, usize)) -> PyResult<usize> {
    let (r, c) = start;
    if r >= board.rows() || c >= board.cols() {
        return Err(PyValueError::new_err(format!(
            "start ({r}, {c}) is off the {}x{} board",
            board.rows(),
            board.cols()
        )));
    }
    Ok(r * board.cols() + c)
}

/// [`board_from`] and, unless `None` (every square), [`start_index`].
pub(super) fn board_and_start(
    board: BoardSpec,
    start: Option<(usize, usize)>,
) -> PyResult<(Board, Option<usize>)> {
    let board = board_from(board)?;
    let start = start.map(|s| start_index(&board, s)).transpose()?;
    Ok((board, start))
}

/// Whether no tour of the full `rows x cols` rectangle starts on `start`
/// (`None`: anywhere), by theorem (`knights::rectangle_rules_out`).
#[pyfunction]
#[pyo3(signature = (rows, cols, start, closed))]
pub(super) fn rectangle_rules_out(
    rows: usize,
    cols: usize,
    start: Option<(usize, usize)>,
    closed: bool,
) -> bool {
    knights::rectangle_rules_out(rows, cols, start, closed)
}

/// Count knight's tours; `start=None` sums over every square.
#[pyfunction]
#[pyo3(signature = (board, start, closed, run))]
pub(super) fn count_tours(
    py: Python<'_>,
    board: BoardSpec,
    start: Option<(usize, usize)>,
    closed: bool,
    run: &RunOptions,
) -> PyResult<u128> {
    let (board, start) = board_and_start(board, start)?;
    let threads = run.workers();
    cancellable(py, run, move |ctl| {
        knights::count_tours(board, start, closed, threads, ctl)
    })
}

/// Count knight's tours by the frontier DP (`frontier::count_paths_within`);
/// returns `(high, low, states in the widest layer, bytes spilled)`: the
/// count is `high * 2**128 + low` (it can pass 128 bits on long boards).
/// The run's `progress(done, total)` hears steps of the sweep; its memory
/// budget is the bytes past which layers spill to files in a new directory
/// inside its spill directory (the system's temporary directory if
/// `None`); its checkpoint, a directory where each finished layer is saved,
/// and from which a count called again goes on.  `end`: tours that end
/// there (from `start`, open; `frontier::count_paths_between`).
#[pyfunction]
#[pyo3(signature = (board, start, closed, run, end=None))]
pub(super) fn count_tours_frontier(
    py: Python<'_>,
    board: BoardSpec,
    start: Option<(usize, usize)>,
    closed: bool,
    run: &RunOptions,
    end: Option<(usize, usize)>,
) -> PyResult<(u128, u128, u64, u64)> {
    let (board, start) = board_and_start(board, start)?;
    let threads = run.workers();
    let end = end.map(|e| start_index(&board, e)).transpose()?;
    let ends = match (start, end) {
        (_, None) => None,
        (Some(s), Some(e)) => Some((s, e)),
        (None, Some(_)) => {
            return Err(PyValueError::new_err("an end square needs a start square"));
        }
    };
    let (counted, spilled) = run_frontier(py, run, move |storage, ctl| {
        Ok(match ends {
            Some(ends) if !closed => {
                frontier::count_paths_between(&board, ends, threads, storage, ctl)?
            }
            Some(_) => {
                return Err(CountError::from(crate::error::InputError(
                    "an end square goes with open tours, not closed=True".into(),
                )))
            }
            None => frontier::count_paths_within(&board, start, closed, threads, storage, ctl)?,
        })
    })?;
    Ok((counted.tours.hi, counted.tours.lo, counted.widest, spilled))
}

/// Run a frontier count, `count`, on the run's thread with the layers
/// kept as the run says (the memory budget, unlimited without one; the
/// spill directory; the checkpoint directory) and its bar hearing
/// [`poll_frontier`]; what it found, and the bytes it spilled.
fn run_frontier<T: Send + 'static>(
    py: Python<'_>,
    run: &RunOptions,
    count: impl FnOnce(frontier::Storage<'_>, &Control) -> Result<T, CountError> + Send + 'static,
) -> PyResult<(T, u64)> {
    let progress = run.bar(py);
    let memory = run.budget()?.unwrap_or(u64::MAX);
    let spill = Arc::new(Spill::new(memory, run.spill_directory()));
    let checkpoint = run.checkpoint_directory().map(std::path::Path::to_path_buf);
    let spilling = spill.clone();
    let mut said = String::new();
    let poll = |ctl: &Control| poll_frontier(progress.as_ref(), &spill, &mut said, ctl);
    cancellable_polling(py, Some(run), poll, move |ctl| {
        let storage = frontier::Storage {
            spill: &spilling,
            checkpoint: checkpoint.as_deref(),
        };
        let found = count(storage, ctl)?;
        Ok::<_, CountError>((found, spilling.written()))
    })
}

/// What a frontier count's bar hears at each poll: the sweep's notes (the
/// last layer's states, the steps ahead as projected) and, once layers
/// spill, the bytes written and the disk left; `said` keeps the last note.
fn poll_frontier(
    progress: Option<&Bound<'_, PyAny>>,
    spill: &Spill,
    said: &mut String,
    ctl: &Control,
) -> PyResult<()> {
    let Some(bar) = progress else {
        return Ok(());
    };
    let fresh = ctl.take_notes();
    let written = spill.written();
    if (!fresh.is_empty() || written > 0) && bar.hasattr("note")? {
        let spilling = if written > 0 {
            let free = match spill.free_disk() {
                Some(free) => format!(", {} free", human_bytes(free)),
                None => String::new(),
            };
            let (to, dir) = (human_bytes(written), spill.directory().display());
            format!("; spilling: {to} written to {dir}{free}")
        } else {
            String::new()
        };
        // Each step's note once, in order; with none new, the last again
        // with the bytes written since.
        let said_before = fresh.is_empty();
        for text in fresh {
            *said = text;
            bar.call_method1("note", (format!("{said}{spilling}"),))?;
        }
        if said_before {
            bar.call_method1("note", (format!("{said}{spilling}"),))?;
        }
    }
    report(Some(bar), ctl)
}

/// A 256-bit count as `(high, low)`: `high * 2**128 + low`.
type Split256 = (u128, u128);

/// Count the knight's tours of every board `rows x 1 ... rows x cols`
/// (over every start) in one frontier sweep (`frontier::count_row`);
/// returns `([(high, low) per board], states in the widest layer, bytes
/// spilled)`, each count `high * 2**128 + low`.  The run's options as for
/// `count_tours_frontier`: steps heard, memory budget and spill directory,
/// checkpoint (which keeps the row read so far).
#[pyfunction]
#[pyo3(signature = (rows, cols, closed, run))]
pub(super) fn count_tours_row(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    closed: bool,
    run: &RunOptions,
) -> PyResult<(Vec<Split256>, u64, u64)> {
    let threads = run.workers();
    let (counted, spilled) = run_frontier(py, run, move |storage, ctl| {
        frontier::count_row(rows, cols, closed, threads, storage, ctl)
    })?;
    let tours = counted.tours.iter().map(|t| (t.hi, t.lo)).collect();
    Ok((tours, counted.widest, spilled))
}

/// The rounds of a frontier count spread over tasks (`frontier::steps`):
/// `(steps, 0, 0)`, or `(0, high, low)` for a count whose answer,
/// `high * 2**128 + low`, needs no sweep.
#[pyfunction]
#[pyo3(signature = (board, start, closed))]
pub(super) fn frontier_steps(
    board: BoardSpec,
    start: Option<(usize, usize)>,
    closed: bool,
) -> PyResult<(usize, u128, u128)> {
    let (board, start) = board_and_start(board, start)?;
    Ok(match frontier::steps(&board, start, closed)? {
        Ok(steps) => (steps, 0, 0),
        Err(answer) => (0, answer.hi, answer.lo),
    })
}

/// The directed tours of a frontier count that found `high * 2**128 + low`
/// undirected paths, as `(high, low)` (`frontier::tours_from_paths`).
#[pyfunction]
#[pyo3(signature = (board, start, closed, high, low))]
pub(super) fn frontier_tours(
    board: BoardSpec,
    start: Option<(usize, usize)>,
    closed: bool,
    high: u128,
    low: u128,
) -> PyResult<(u128, u128)> {
    let (board, start) = board_and_start(board, start)?;
    let paths = crate::layers::U256 { hi: high, lo: low };
    let tours =
        frontier::tours_from_paths(&board, start, closed, paths).map_err(CountError::from)?;
    Ok((tours.hi, tours.lo))
}

/// One task of a frontier count's round (`frontier::round`): with
/// `(step, owner, parts)`, the pieces `inputs` (`(path, offset, states)`
/// records of counts of type `width`) of owner `owner` of `parts` summed,
/// expanded by sweep step `step`, and split by owner into the file `out`;
/// `total` (`(high, low)`) is the layer's total before the step.  Returns `(pieces, states, high, low,
/// width)`: each owner's piece `(offset, states)` in `out` or `None`, the
/// partition's states, the total written (at the last step: the finished
/// paths) and its count type.
#[pyfunction]
#[pyo3(signature = (board, ends, round, layer, out, run))]
#[allow(clippy::type_complexity)]
pub(super) fn frontier_round(
    py: Python<'_>,
    board: BoardSpec,
    ends: (Option<(usize, usize)>, bool),
    round: (usize, usize, usize),
    layer: (Vec<(std::path::PathBuf, u64, usize)>, u8, (u128, u128)),
    out: std::path::PathBuf,
    run: &RunOptions,
) -> PyResult<(Vec<Option<(u64, usize)>>, usize, u128, u128, u8)> {
    let ((start, closed), (step, owner, parts)) = (ends, round);
    let (inputs, width, total) = layer;
    let (board, start) = board_and_start(board, start)?;
    let threads = run.workers();
    let inputs: Vec<frontier::Piece> = (inputs.into_iter())
        .map(|(path, offset, len)| frontier::Piece { path, offset, len })
        .collect();
    let total = Some(crate::layers::U256 {
        hi: total.0,
        lo: total.1,
    });
    let made = cancellable(py, run, move |ctl| {
        frontier::round(
            &board,
            (start, closed),
            step,
            (owner, parts),
            (&inputs, width, total),
            &out,
            threads,
            ctl,
        )
    })?;
    Ok((
        made.pieces,
        made.states,
        made.total.hi,
        made.total.lo,
        made.width,
    ))
}

/// Find one tour; returns the squares as little-endian `u32` indices, or `None`.
#[pyfunction]
#[pyo3(signature = (board, start, closed, run))]
pub(super) fn find_tour(
    py: Python<'_>,
    board: BoardSpec,
    start: (usize, usize),
    closed: bool,
    run: &RunOptions,
) -> PyResult<Option<Py<PyBytes>>> {
    let board = board_from(board)?;
    let start = start_index(&board, start)?;
    let threads = run.workers();
    let path = cancellable(py, run, move |ctl| {
        knights::find_tour(board, start, closed, threads, ctl)
    })?;
    path.map(|p| packed(py, &p, "the tour's squares"))
        .transpose()
}

/// Why `path` (little-endian `u32` square indices) is not a tour, or `None`.
#[pyfunction]
#[pyo3(signature = (board, path, closed))]
pub(super) fn tour_defect(
    py: Python<'_>,
    board: BoardSpec,
    path: &[u8],
    closed: bool,
) -> PyResult<Option<String>> {
    let board = board_from(board)?;
    let path = unpacked(path, "square indices")?;
    Ok(py.detach(|| knights::tour_defect(&board, &path, closed))?)
}

receiver_source!(knights::TourReceiver => Vec<u32>);

stream_class! {
    /// A lazy stream of tours produced by a Rust thread in the seed's move
    /// order, each as little-endian `u32` square indices.
    pub(super) TourStream(knights::TourReceiver) -> Py<PyBytes>,
    |py, tour| packed(py, &tour, "a tour"),
    {
        #[new]
        #[pyo3(signature = (board, start, closed))]
        fn new(board: BoardSpec, start: Option<(usize, usize)>, closed: bool) -> PyResult<Self> {
            let (board, start) = board_and_start(board, start)?;
            let ctl = Arc::new(crate::engine::Control::new());
            let rx = knights::stream_tours(board, start, closed, ctl.clone())?;
            Ok(TourStream(Stream::cancelling(rx, ctl)))
        }
    }
}

/// The plan of `count_tours` with at least `min_tasks` subproblems.
#[pyfunction]
#[pyo3(signature = (board, start, closed, min_tasks))]
pub(super) fn tours_plan(
    py: Python<'_>,
    board: BoardSpec,
    start: Option<(usize, usize)>,
    closed: bool,
    min_tasks: usize,
) -> PyResult<CountPlan> {
    let (board, start) = board_and_start(board, start)?;
    let plan = interruptible(py, move |ctl| {
        knights::plan_tours(board, start, closed, min_tasks, ctl)
    })?;
    Ok(CountPlan::of(plan))
}

/// A pair of end squares, `(start, end)`, as `(row, col)`.
type EndSquares = ((usize, usize), (usize, usize));

/// The plan of `count_tours(..., method="pairs")`: open tours from `start`
/// (every square if `None`) by pairs of ends up to symmetry, each counted
/// by the frontier DP within the run's memory budget, spilling into its
/// spill directory; with the pairs, `((start, end), weight)` in board
/// coordinates, one per subproblem, in order.
#[pyfunction]
#[pyo3(signature = (board, start, run))]
pub(super) fn tour_pairs_plan(
    board: BoardSpec,
    start: Option<(usize, usize)>,
    run: &RunOptions,
) -> PyResult<(CountPlan, Vec<(EndSquares, u64)>)> {
    let (board, start) = board_and_start(board, start)?;
    let spill = run.spill_directory().map(std::path::Path::to_path_buf);
    let plan = frontier::PairPlan::new(board, start, run.budget()?, spill)?;
    let at = |i: usize| (i / plan.board().cols(), i % plan.board().cols());
    let pairs = (plan.pairs().iter())
        .map(|q| ((at(q.start), at(q.end)), q.weight))
        .collect();
    Ok((CountPlan::of(plan), pairs))
}

impl From<knights::FindError> for PyErr {
    fn from(e: knights::FindError) -> PyErr {
        match e {
            knights::FindError::Input(e) => e.into(),
            knights::FindError::Search(e) => e.into(),
            e @ knights::FindError::Unresolved => PyRuntimeError::new_err(e.to_string()),
        }
    }
}

/// Add the tours' names to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_names!(m;
        constants: {
            "MAX_SEARCH_SQUARES" => knights::MAX_SEARCH_SQUARES,
            "MAX_FIND_SQUARES" => knights::MAX_FIND_SQUARES,
            "MAX_FRONTIER_SIDE" => frontier::MAX_FRONTIER_SIDE,
            "MAX_ROW_COLS" => frontier::MAX_ROW_COLS,
        };
        functions: [
            count_tours,
            rectangle_rules_out,
            count_tours_frontier,
            count_tours_row,
            frontier_steps,
            frontier_tours,
            frontier_round,
            find_tour,
            tour_defect,
            tours_plan,
            tour_pairs_plan,
        ];
        classes: [TourStream]);
    Ok(())
}
