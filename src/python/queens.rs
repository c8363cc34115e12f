//! N-Queens for Python: `count_queens`, `search_queens`, `construct_queens`,
//! `placement_defect` and the `QueenStream` class, each a call into
//! [`crate::queens`] through the runtime.

use super::packed::{packed_from, unpacked};
use super::runtime::{cancellable, Source, Stream};
use crate::engine::Control;
use crate::queens;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

/// Count n-queens solutions (or symmetry classes with `unique`).
#[pyfunction]
#[pyo3(signature = (n, unique, threads, progress=None, timeout=None, method="auto"))]
pub(super) fn count_queens(
    py: Python<'_>,
    n: usize,
    unique: bool,
    threads: usize,
    progress: Option<Bound<'_, PyAny>>,
    timeout: Option<f64>,
    method: &str,
) -> PyResult<u128> {
    let method = queens::Method::parse(method)?;
    cancellable(py, timeout, progress, move |ctl| {
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
#[pyo3(signature = (n, threads, deterministic, timeout=None))]
pub(super) fn search_queens(
    py: Python<'_>,
    n: usize,
    threads: usize,
    deterministic: bool,
    timeout: Option<f64>,
) -> PyResult<Option<Py<PyBytes>>> {
    let found = cancellable(py, timeout, None, move |ctl| {
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

impl Source for queens::PlacementReceiver {
    type Item = Vec<u8>;

    fn recv_timeout(&self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        queens::PlacementReceiver::recv_timeout(self, timeout)
    }
}

/// A lazy stream of n-queens solutions in lexicographic order.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct QueenStream(Stream<queens::PlacementReceiver>);

#[pymethods]
impl QueenStream {
    #[new]
    fn new(n: usize, unique: bool) -> PyResult<Self> {
        let ctl = Arc::new(Control::new());
        let rx = queens::stream_queens(n, unique, ctl.clone())?;
        Ok(QueenStream(Stream::cancelling(rx, ctl)))
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next placement as one byte per row, or `StopIteration`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        let cols = self.0.next(py)?;
        Ok(cols.map(|c| PyBytes::new(py, &c).unbind()))
    }

    /// Stop the producer thread; the stream then ends.
    fn close(&self, py: Python<'_>) {
        self.0.close(py);
    }
}
