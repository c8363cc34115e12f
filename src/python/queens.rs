//! N-Queens for Python: `count_queens`, `search_queens`, `construct_queens`,
//! `placement_defect` and the `QueenStream` class, each a call into
//! [`crate::queens`] through the runtime.

use super::options::RunOptions;
use super::packed::{packed_from, unpacked};
use super::plan::CountPlan;
use super::runtime::{cancellable, interruptible, receiver_source, stream_class, Stream};
use crate::engine::Control;
use crate::queens;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// Count n-queens solutions (or symmetry classes with `unique`).
#[pyfunction]
#[pyo3(signature = (n, unique, run, method="auto"))]
pub(super) fn count_queens(
    py: Python<'_>,
    n: usize,
    unique: bool,
    run: &RunOptions,
    method: &str,
) -> PyResult<u128> {
    let method = queens::Method::parse(method)?;
    let threads = run.workers();
    cancellable(py, run, move |ctl| {
        queens::count_queens(n, unique, method, threads, ctl)
    })
}

/// The method `count_queens` uses for `n` (`"join"` or `"frames"`).
#[pyfunction]
#[pyo3(signature = (n, method="auto"))]
pub(super) fn queens_method(n: usize, method: &str) -> PyResult<&'static str> {
    let method = queens::Method::parse(method)?.resolve(n)?;
    Ok(match method {
        queens::Method::Join => "join",
        _ => "frames",
    })
}

/// One placement by parallel backtracking, as one byte per row, or `None`.
#[pyfunction]
#[pyo3(signature = (n, deterministic, run))]
pub(super) fn search_queens(
    py: Python<'_>,
    n: usize,
    deterministic: bool,
    run: &RunOptions,
) -> PyResult<Option<Py<PyBytes>>> {
    let threads = run.workers();
    let found = cancellable(py, run, move |ctl| {
        queens::search_queens(n, threads, deterministic, ctl)
    })?;
    Ok(found.map(|p| PyBytes::new(py, &p).unbind()))
}

/// One placement by explicit construction, as little-endian `u32` columns,
/// written straight into the bytes object.  Refused up front (`ValueError`)
/// when those bytes and the Python array made from them (4 bytes a queen
/// each) are more than the machine has.
#[pyfunction]
pub(super) fn construct_queens(py: Python<'_>, n: usize) -> PyResult<Option<Py<PyBytes>>> {
    let Some(columns) = queens::construction(n)? else {
        return Ok(None);
    };
    let need = (n as u64).saturating_mul(8);
    crate::memory::refuse_beyond_available(need, &format!("find_queens({n})"))?;
    packed_from(py, n, columns, "the placement's columns").map(Some)
}

/// Why `cols` (little-endian `u32` columns) is not a solution, or `None`.
#[pyfunction]
pub(super) fn placement_defect(py: Python<'_>, cols: &[u8]) -> PyResult<Option<String>> {
    let cols = unpacked(cols, "column numbers")?;
    Ok(py.detach(|| queens::placement_defect(&cols))?)
}

receiver_source!(queens::PlacementReceiver => Vec<u8>);

stream_class! {
    /// A lazy stream of n-queens solutions in lexicographic order, each as
    /// one byte per row.
    pub(super) QueenStream(queens::PlacementReceiver) -> Py<PyBytes>,
    |py, cols| Ok(PyBytes::new(py, &cols).unbind()),
    {
        #[new]
        fn new(n: usize, unique: bool) -> PyResult<Self> {
            let ctl = Arc::new(Control::new());
            let rx = queens::stream_queens(n, unique, ctl.clone())?;
            Ok(QueenStream(Stream::cancelling(rx, ctl)))
        }
    }
}

/// The plan of `count_queens` with at least `min_tasks` subproblems.
#[pyfunction]
#[pyo3(signature = (n, unique, min_tasks, method="auto"))]
pub(super) fn queens_plan(
    py: Python<'_>,
    n: usize,
    unique: bool,
    min_tasks: usize,
    method: &str,
) -> PyResult<CountPlan> {
    let method = queens::Method::parse(method)?;
    let plan = interruptible(py, move |ctl| {
        queens::plan_queens(n, unique, method, min_tasks, ctl)
    })?;
    Ok(CountPlan::of(plan))
}

/// Add the queens' names to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_names!(m;
        constants: {
            "MAX_QUEENS_SEARCH_N" => queens::MAX_SEARCH_N,
            "MAX_QUEENS_CONSTRUCT_N" => queens::MAX_CONSTRUCT_N,
            "MAX_QUEENS_JOIN_N" => queens::join::MAX_JOIN_N,
        };
        functions: [
            count_queens,
            queens_method,
            search_queens,
            construct_queens,
            placement_defect,
            queens_plan,
        ];
        classes: [QueenStream]);
    Ok(())
}
