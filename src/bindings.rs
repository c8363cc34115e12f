//! The pyo3 module `solvers._core`: argument conversion, GIL release,
//! Ctrl-C/timeouts/progress polling and error mapping.  No search logic lives
//! here; the Python package (`python/solvers`) validates inputs first and
//! these functions check again, so a bad call is a Python exception, never a panic.

use crate::engine::{self, Control, SearchError};
use crate::frontier;
use crate::knights::{self, Board, CountError, FindError, InputError};
use crate::peg;
use crate::queens;
use pyo3::exceptions::{
    PyMemoryError, PyOverflowError, PyRuntimeError, PyTimeoutError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a waiting call wakes to check for Ctrl-C, timeouts and progress.
const POLL: Duration = Duration::from_millis(20);

/// How long a cancelled call waits for its search to stop.  Every search
/// polls its cancel flag (plans, frontier steps and the finder's
/// connectivity check included), so it stops within milliseconds; should
/// one not, the call returns after this bound anyway and the search thread
/// is left to end on its own (detached), its answer dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

fn input_error(e: InputError) -> PyErr {
    PyValueError::new_err(e.0)
}

fn search_error(e: SearchError) -> PyErr {
    match e {
        SearchError::Cancelled => PyRuntimeError::new_err("the search was cancelled"),
        SearchError::Overflow => PyOverflowError::new_err(
            "the count does not fit the 128-bit counter (no answer is better than a wrong one)",
        ),
        SearchError::Pool(msg) => PyRuntimeError::new_err(msg),
        e @ SearchError::Memory { .. } => PyMemoryError::new_err(e.to_string()),
    }
}

fn count_error(e: CountError) -> PyErr {
    match e {
        CountError::Input(e) => input_error(e),
        CountError::Search(e) => search_error(e),
    }
}

/// Run `job` on its own thread while this one, with the GIL released, waits
/// for it in short slices; between slices it checks for Ctrl-C (then cancels
/// the job and raises `KeyboardInterrupt`), the timeout (`TimeoutError`),
/// and reports progress to `progress(done, total)`.
fn run_cancellable<R: Send + 'static>(
    py: Python<'_>,
    ctl: Arc<Control>,
    progress: Option<Bound<'_, PyAny>>,
    timeout: Option<f64>,
    job: impl FnOnce() -> PyResult<R> + Send + 'static,
) -> PyResult<R> {
    let report = |ctl: &Control| -> PyResult<()> {
        if let Some(callback) = &progress {
            callback.call1(ctl.progress())?;
        }
        Ok(())
    };
    run_polling(py, ctl, timeout, report, job)
}

/// [`run_cancellable`] with any `poll(ctl)` run between slices instead of a
/// progress callback; an error from it cancels the job and is raised.
fn run_polling<R: Send + 'static>(
    py: Python<'_>,
    ctl: Arc<Control>,
    timeout: Option<f64>,
    mut poll: impl FnMut(&Control) -> PyResult<()>,
    job: impl FnOnce() -> PyResult<R> + Send + 'static,
) -> PyResult<R> {
    let deadline = match timeout {
        None => None,
        // A timeout too long for a Duration (or an Instant) is no limit at all.
        Some(t) if t.is_finite() && t >= 0.0 => Duration::try_from_secs_f64(t)
            .ok()
            .and_then(|d| Instant::now().checked_add(d)),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "timeout must be a non-negative number of seconds, got {t}"
            )))
        }
    };
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("solvers-search".into())
        .spawn(move || {
            let _ = tx.send(job());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("could not start a search thread: {e}")))?;
    let mut rx = rx;
    let stop = |ctl: &Control,
                rx: Receiver<PyResult<R>>,
                worker: std::thread::JoinHandle<()>,
                err: PyErr|
     -> PyErr {
        ctl.cancel();
        // The search polls the flag every few thousand nodes: this is quick.
        py.detach(move || match rx.recv_timeout(CANCEL_GRACE) {
            Err(RecvTimeoutError::Timeout) => drop(worker), // detached
            _ => drop(worker.join()),
        });
        err
    };
    loop {
        let (got, back) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (got, rx)
        });
        rx = back;
        match got {
            Ok(result) => {
                let _ = worker.join();
                return result;
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread stopped without an answer",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Err(e) = py.check_signals() {
            return Err(stop(&ctl, rx, worker, e));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            let e = PyTimeoutError::new_err(format!(
                "no answer within the timeout of {} s",
                timeout.unwrap_or_default()
            ));
            return Err(stop(&ctl, rx, worker, e));
        }
        if let Err(e) = poll(&ctl) {
            return Err(stop(&ctl, rx, worker, e));
        }
    }
}

fn board_from(rows: usize, cols: usize, mask: Option<Vec<bool>>) -> PyResult<Board> {
    match mask {
        None => Board::rectangle(rows, cols).map_err(count_error),
        Some(mask) => Board::from_mask(rows, cols, mask).map_err(input_error),
    }
}

fn start_index(board: &Board, start: (usize, usize)) -> PyResult<usize> {
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

/// Count knight's tours; `start=None` sums over every square.
#[pyfunction]
#[pyo3(signature = (rows, cols, mask, start, closed, threads, progress=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn count_tours(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    mask: Option<Vec<bool>>,
    start: Option<(usize, usize)>,
    closed: bool,
    threads: usize,
    progress: Option<Bound<'_, PyAny>>,
    timeout: Option<f64>,
) -> PyResult<u128> {
    let board = board_from(rows, cols, mask)?;
    let start = start.map(|s| start_index(&board, s)).transpose()?;
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    run_cancellable(py, ctl, progress, timeout, move || {
        knights::count_tours(board, start, closed, threads, &job_ctl).map_err(count_error)
    })
}

/// Count knight's tours by the frontier DP (`frontier::count_paths`);
/// returns `(high, low, states in the widest layer)`: the count is
/// `high * 2**128 + low` (it can pass 128 bits on long boards).  `progress(done, total)`
/// reports steps of the sweep.
#[pyfunction]
#[pyo3(signature = (rows, cols, mask, start, closed, threads, progress=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn count_tours_frontier(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    mask: Option<Vec<bool>>,
    start: Option<(usize, usize)>,
    closed: bool,
    threads: usize,
    progress: Option<Bound<'_, PyAny>>,
    timeout: Option<f64>,
) -> PyResult<(u128, u128, u64)> {
    let board = board_from(rows, cols, mask)?;
    let start = start.map(|s| start_index(&board, s)).transpose()?;
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    let report = Arc::new(frontier::Report::new());
    let job_report = report.clone();
    let poll = |_: &Control| -> PyResult<()> {
        if let Some(callback) = &progress {
            callback.call1(report.progress())?;
        }
        Ok(())
    };
    run_polling(py, ctl, timeout, poll, move || {
        let n =
            frontier::count_paths_reporting(&board, start, closed, threads, &job_ctl, &job_report)
                .map_err(count_error)?;
        Ok((
            n.hi,
            n.lo,
            job_report.widest.load(std::sync::atomic::Ordering::Relaxed),
        ))
    })
}

/// A count split into subproblems that other processes can count: the
/// tasks of a deterministic plan, addressed by index.
enum Plan {
    Tours(engine::Planned<knights::TourSearch>),
    Queens(engine::Planned<queens::frames::FrameSearch>),
}

impl Plan {
    fn len(&self) -> usize {
        match self {
            Plan::Tours(p) => p.len(),
            Plan::Queens(p) => p.len(),
        }
    }

    fn count_each(
        &self,
        which: &[usize],
        threads: usize,
        ctl: &Control,
        finished: &(dyn Fn(usize, u128) + Sync),
    ) -> Result<Vec<u128>, SearchError> {
        match self {
            Plan::Tours(p) => p.count_each(which, threads, ctl, finished),
            Plan::Queens(p) => p.count_each(which, threads, ctl, finished),
        }
    }
}

/// The subproblems of a tours or queens count (see `solvers.dist`).
#[pyclass(frozen, module = "solvers._core")]
struct CountPlan {
    plan: Arc<Plan>,
}

#[pymethods]
impl CountPlan {
    /// The plan of `count_tours` with at least `min_tasks` subproblems.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, mask, start, closed, min_tasks))]
    fn tours(
        py: Python<'_>,
        rows: usize,
        cols: usize,
        mask: Option<Vec<bool>>,
        start: Option<(usize, usize)>,
        closed: bool,
        min_tasks: usize,
    ) -> PyResult<CountPlan> {
        let board = board_from(rows, cols, mask)?;
        let start = start.map(|s| start_index(&board, s)).transpose()?;
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let plan = run_cancellable(py, ctl, None, None, move || {
            knights::plan_tours(board, start, closed, min_tasks, &job_ctl).map_err(count_error)
        })?;
        Ok(CountPlan {
            plan: Arc::new(Plan::Tours(plan)),
        })
    }

    /// The plan of `count_queens` with at least `min_tasks` subproblems.
    #[staticmethod]
    fn queens(py: Python<'_>, n: usize, unique: bool, min_tasks: usize) -> PyResult<CountPlan> {
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let plan = run_cancellable(py, ctl, None, None, move || {
            queens::plan_queens(n, unique, min_tasks, &job_ctl).map_err(count_error)
        })?;
        Ok(CountPlan {
            plan: Arc::new(Plan::Queens(plan)),
        })
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    /// The counts of the subproblems `which`, in that order.  `finished`,
    /// if given, is called every few hundredths of a second with the
    /// `[(index, count), ...]` finished since its last call (and once at the
    /// end), so a caller can record them as they come.
    #[pyo3(signature = (which, threads, progress=None, timeout=None, finished=None))]
    fn count_each(
        &self,
        py: Python<'_>,
        which: Vec<usize>,
        threads: usize,
        progress: Option<Bound<'_, PyAny>>,
        timeout: Option<f64>,
        finished: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u128>> {
        let len = self.plan.len();
        if let Some(&bad) = which.iter().find(|&&i| i >= len) {
            return Err(PyValueError::new_err(format!(
                "subproblem {bad} is not in this plan of {len}"
            )));
        }
        let plan = self.plan.clone();
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let done: Arc<Mutex<Vec<(usize, u128)>>> = Arc::default();
        let sink = done.clone();
        let hand_over = |finished: &Option<Bound<'_, PyAny>>| -> PyResult<()> {
            let batch = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
            match finished {
                Some(callback) if !batch.is_empty() => callback.call1((batch,)).map(drop),
                _ => Ok(()),
            }
        };
        let poll = |ctl: &Control| -> PyResult<()> {
            if let Some(callback) = &progress {
                callback.call1(ctl.progress())?;
            }
            hand_over(&finished)
        };
        let keep = finished.is_some();
        let counts = run_polling(py, ctl, timeout, poll, move || {
            let record = |i: usize, n: u128| {
                if keep {
                    sink.lock().unwrap_or_else(|e| e.into_inner()).push((i, n));
                }
            };
            plan.count_each(&which, threads, &job_ctl, &record)
                .map_err(search_error)
        })?;
        hand_over(&finished)?;
        Ok(counts)
    }
}

/// Square indices as the bytes of little-endian `u32`s.
fn packed(py: Python<'_>, squares: &[u32], what: &str) -> PyResult<Py<PyBytes>> {
    packed_from(py, squares.len(), squares.iter().copied(), what)
}

/// `len` values as the bytes of little-endian `u32`s, written straight into
/// the new bytes object (with the GIL released): no copy in between, and a
/// `MemoryError` naming `what` if Python cannot allocate it.
fn packed_from(
    py: Python<'_>,
    len: usize,
    values: impl Iterator<Item = u32> + Send,
    what: &str,
) -> PyResult<Py<PyBytes>> {
    let bytes = len.saturating_mul(4);
    let fill = |buf: &mut [u8]| {
        py.detach(|| {
            for (out, value) in buf.chunks_exact_mut(4).zip(values) {
                out.copy_from_slice(&value.to_le_bytes());
            }
        });
        Ok(())
    };
    match PyBytes::new_with(py, bytes, fill) {
        Ok(b) => Ok(b.unbind()),
        Err(e) if e.is_instance_of::<PyMemoryError>(py) => {
            Err(search_error(SearchError::memory(what, bytes as u64)))
        }
        Err(e) => Err(e),
    }
}

/// The inverse of [`packed`]: bytes of little-endian `u32`s (`what` they
/// hold), borrowed where they can be (little-endian and aligned, as the
/// bytes of a Python `bytes` are), else copied into fallible memory.
fn unpacked<'a>(bytes: &'a [u8], what: &str) -> PyResult<std::borrow::Cow<'a, [u32]>> {
    if bytes.len() % 4 != 0 {
        return Err(PyValueError::new_err(format!(
            "packed {what} come as 4 bytes each, got {} bytes",
            bytes.len()
        )));
    }
    // SAFETY: every bit pattern is a valid `u32`.
    let (head, words, tail) = unsafe { bytes.align_to::<u32>() };
    if cfg!(target_endian = "little") && head.is_empty() && tail.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(words));
    }
    let mut values = crate::memory::try_with_capacity(bytes.len() / 4, &format!("the {what}"))
        .map_err(search_error)?;
    values.extend((bytes.chunks_exact(4)).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    Ok(std::borrow::Cow::Owned(values))
}

/// Find one tour; returns the squares as little-endian `u32` indices, or `None`.
#[pyfunction]
#[pyo3(signature = (rows, cols, mask, start, closed, threads, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn find_tour(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    mask: Option<Vec<bool>>,
    start: (usize, usize),
    closed: bool,
    threads: usize,
    timeout: Option<f64>,
) -> PyResult<Option<Py<PyBytes>>> {
    let board = board_from(rows, cols, mask)?;
    let start = start_index(&board, start)?;
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    let path = run_cancellable(py, ctl, None, timeout, move || {
        knights::find_tour(board, start, closed, threads, &job_ctl).map_err(|e| match e {
            FindError::Input(e) => input_error(e),
            FindError::Search(e) => search_error(e),
            FindError::Unresolved => PyRuntimeError::new_err(e.to_string()),
        })
    })?;
    path.map(|p| packed(py, &p, "the tour's squares"))
        .transpose()
}

/// Why `path` (little-endian `u32` square indices) is not a tour, or `None`.
#[pyfunction]
#[pyo3(signature = (rows, cols, mask, path, closed))]
fn tour_defect(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    mask: Option<Vec<bool>>,
    path: &[u8],
    closed: bool,
) -> PyResult<Option<String>> {
    let board = board_from(rows, cols, mask)?;
    let path = unpacked(path, "square indices")?;
    py.detach(|| knights::tour_defect(&board, &path, closed))
        .map_err(search_error)
}

/// Wait, with the GIL released, for the next item of a stream, checking for
/// Ctrl-C between short waits; `None` once the stream has ended.
fn next_item<T: Send>(
    py: Python<'_>,
    recv: impl Fn() -> Result<T, RecvTimeoutError> + Sync,
) -> PyResult<Option<T>> {
    loop {
        match py.detach(&recv) {
            Ok(item) => return Ok(Some(item)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
        }
    }
}

/// A lazy stream of tours produced by a Rust thread in the seed's move order.
#[pyclass(module = "solvers._core")]
struct TourStream {
    rx: Mutex<knights::TourReceiver>,
    ctl: Arc<Control>,
}

#[pymethods]
impl TourStream {
    #[new]
    #[pyo3(signature = (rows, cols, mask, start, closed))]
    fn new(
        rows: usize,
        cols: usize,
        mask: Option<Vec<bool>>,
        start: Option<(usize, usize)>,
        closed: bool,
    ) -> PyResult<Self> {
        let board = board_from(rows, cols, mask)?;
        let start = start.map(|s| start_index(&board, s)).transpose()?;
        let ctl = Arc::new(Control::new());
        let rx = knights::stream_tours(board, start, closed, ctl.clone()).map_err(count_error)?;
        Ok(TourStream {
            rx: Mutex::new(rx),
            ctl,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next tour as little-endian `u32` square indices, or `StopIteration`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        let tour = next_item(py, || {
            let rx = self.rx.lock().unwrap_or_else(|p| p.into_inner());
            rx.recv_timeout(POLL)
        })?;
        tour.map(|t| packed(py, &t, "a tour")).transpose()
    }

    /// Stop the producer thread; the stream then ends.
    fn close(&self) {
        self.ctl.cancel();
    }
}

impl Drop for TourStream {
    fn drop(&mut self) {
        self.ctl.cancel();
    }
}

/// Count n-queens solutions (or symmetry classes with `unique`).
#[pyfunction]
#[pyo3(signature = (n, unique, threads, progress=None, timeout=None))]
fn count_queens(
    py: Python<'_>,
    n: usize,
    unique: bool,
    threads: usize,
    progress: Option<Bound<'_, PyAny>>,
    timeout: Option<f64>,
) -> PyResult<u128> {
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    run_cancellable(py, ctl, progress, timeout, move || {
        queens::count_queens(n, unique, threads, &job_ctl).map_err(count_error)
    })
}

/// One placement by parallel backtracking, as one byte per row, or `None`.
#[pyfunction]
#[pyo3(signature = (n, threads, deterministic, timeout=None))]
fn search_queens(
    py: Python<'_>,
    n: usize,
    threads: usize,
    deterministic: bool,
    timeout: Option<f64>,
) -> PyResult<Option<Py<PyBytes>>> {
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    let found = run_cancellable(py, ctl, None, timeout, move || {
        queens::search_queens(n, threads, deterministic, &job_ctl).map_err(count_error)
    })?;
    Ok(found.map(|p| PyBytes::new(py, &p).unbind()))
}

/// One placement by explicit construction, as little-endian `u32` columns,
/// written straight into the bytes object.  Refused up front (`ValueError`)
/// when those bytes and the Python array made from them (4 bytes a queen
/// each) are more than the machine has.
#[pyfunction]
fn construct_queens(py: Python<'_>, n: usize) -> PyResult<Option<Py<PyBytes>>> {
    let Some(columns) = queens::construction(n).map_err(input_error)? else {
        return Ok(None);
    };
    let need = (n as u64).saturating_mul(8);
    crate::memory::refuse_beyond_available(need, &format!("find_queens({n})"))
        .map_err(input_error)?;
    packed_from(py, n, columns, "the placement's columns").map(Some)
}

/// Why `cols` (little-endian `u32` columns) is not a solution, or `None`.
#[pyfunction]
fn placement_defect(py: Python<'_>, cols: &[u8]) -> PyResult<Option<String>> {
    let cols = unpacked(cols, "column numbers")?;
    py.detach(|| queens::placement_defect(&cols))
        .map_err(search_error)
}

/// A lazy stream of n-queens solutions in lexicographic order.
#[pyclass(module = "solvers._core")]
struct QueenStream {
    rx: Mutex<queens::PlacementReceiver>,
    ctl: Arc<Control>,
}

#[pymethods]
impl QueenStream {
    #[new]
    fn new(n: usize, unique: bool) -> PyResult<Self> {
        let ctl = Arc::new(Control::new());
        let rx = queens::stream_queens(n, unique, ctl.clone()).map_err(count_error)?;
        Ok(QueenStream {
            rx: Mutex::new(rx),
            ctl,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next placement as one byte per row, or `StopIteration`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        let cols = next_item(py, || {
            let rx = self.rx.lock().unwrap_or_else(|p| p.into_inner());
            rx.recv_timeout(POLL)
        })?;
        Ok(cols.map(|c| PyBytes::new(py, &c).unbind()))
    }

    /// Stop the producer thread; the stream then ends.
    fn close(&self) {
        self.ctl.cancel();
    }
}

impl Drop for QueenStream {
    fn drop(&mut self) {
        self.ctl.cancel();
    }
}

/// One layer of the peg-solitaire DP, kept in Rust memory.
#[pyclass(frozen, module = "solvers._core")]
struct PegLayer {
    inner: Arc<peg::Layer>,
}

#[pymethods]
impl PegLayer {
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The number of pegs of every position in the layer.
    #[getter]
    fn pegs(&self) -> u32 {
        self.inner.pegs
    }

    /// The number of jump sequences reaching the layer.
    fn total(&self) -> PyResult<u128> {
        self.inner.total().map_err(search_error)
    }

    /// The `(position, count)` pairs, a position as a bit mask of the holes
    /// with a peg (the least image of its orbit), in no particular order.
    fn items(&self) -> PyResult<Vec<(u64, u128)>> {
        let layer = &self.inner;
        let mut items = crate::memory::try_with_capacity(layer.len(), "the items of a peg layer")
            .map_err(search_error)?;
        items.extend((layer.keys.iter().copied()).zip(layer.counts.iter().copied()));
        Ok(items)
    }

    /// The layer as bytes (a versioned, checksummed header, then the
    /// positions and counts; see `peg::Layer::to_bytes`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let layer = self.inner.clone();
        let data = py.detach(move || layer.to_bytes()).map_err(search_error)?;
        Ok(PyBytes::new(py, &data))
    }

    /// A layer from `to_bytes`; `ValueError` for anything else
    /// (`MemoryError` when there is no room for it).
    #[classmethod]
    fn from_bytes(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        data: &[u8],
    ) -> PyResult<PegLayer> {
        let layer = py
            .detach(|| peg::Layer::from_bytes(data))
            .map_err(count_error)?;
        Ok(PegLayer {
            inner: Arc::new(layer),
        })
    }

    /// Pickled as its bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = slf.get_type().getattr("from_bytes")?;
        Ok((from_bytes, (slf.get().to_bytes(slf.py())?,)))
    }
}

/// A board's holes, jumps and symmetry group, and the layer operations.
#[pyclass(frozen, module = "solvers._core")]
struct PegKernel {
    geometry: Arc<peg::PegGeometry>,
}

#[pymethods]
impl PegKernel {
    #[new]
    fn new(
        holes: usize,
        jumps: Vec<(usize, usize, usize)>,
        symmetries: Vec<Vec<usize>>,
    ) -> PyResult<Self> {
        let geometry = peg::PegGeometry::new(holes, &jumps, &symmetries).map_err(input_error)?;
        Ok(PegKernel {
            geometry: Arc::new(geometry),
        })
    }

    /// The layer holding the position with every hole full but `empty`.
    fn start(&self, empty: Vec<usize>) -> PyResult<PegLayer> {
        let layer = self.geometry.start(&empty).map_err(input_error)?;
        Ok(PegLayer {
            inner: Arc::new(layer),
        })
    }

    /// The next layer (one more jump), computed on `threads` threads.
    #[pyo3(signature = (layer, threads, timeout=None))]
    fn expand(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<PegLayer> {
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let next = run_cancellable(py, ctl, None, timeout, move || {
            peg::expand(&geometry, &layer, threads, &job_ctl).map_err(search_error)
        })?;
        Ok(PegLayer {
            inner: Arc::new(next),
        })
    }

    /// The number of sequences through two layers that meet (see `peg::meet`).
    #[pyo3(signature = (from_start, from_finish, threads, timeout=None))]
    fn meet(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        self.join(py, &from_start, &from_finish, threads, timeout, false)
    }

    /// `meet` with the first layer given as pieces that are not merged (see
    /// `peg::meet_pieces`): only `from_finish` must be a whole (merged) layer.
    #[pyo3(signature = (from_start, from_finish, threads, timeout=None))]
    fn meet_pieces(
        &self,
        py: Python<'_>,
        from_start: Vec<PyRef<'_, PegLayer>>,
        from_finish: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        let holes = self.geometry.holes();
        let other = from_finish.inner.pegs as usize;
        if let Some(piece) =
            (from_start.iter()).find(|piece| piece.inner.pegs as usize + other != holes)
        {
            return Err(PyValueError::new_err(format!(
                "the layers do not fit: their peg counts add up to {}, not {holes}",
                piece.inner.pegs as usize + other
            )));
        }
        let geometry = self.geometry.clone();
        let pieces: Vec<Arc<peg::Layer>> =
            from_start.iter().map(|piece| piece.inner.clone()).collect();
        let finish = from_finish.inner.clone();
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        run_cancellable(py, ctl, None, timeout, move || {
            let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
            peg::meet_pieces(&geometry, &pieces, &finish, threads, &job_ctl).map_err(search_error)
        })
    }

    /// The same number across one jump (see `peg::meet_across`).
    #[pyo3(signature = (from_start, from_finish, threads, timeout=None))]
    fn meet_across(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        self.join(py, &from_start, &from_finish, threads, timeout, true)
    }

    /// One solution as jump indices (see `peg::solve`), or `None`.
    #[pyo3(signature = (empty, finish, timeout=None))]
    fn solve(
        &self,
        py: Python<'_>,
        empty: Vec<usize>,
        finish: Option<usize>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<usize>>> {
        let position = self
            .geometry
            .position_with_empty(&empty)
            .map_err(input_error)?;
        let holes = self.geometry.holes();
        if finish.is_some_and(|f| f >= holes) {
            return Err(PyValueError::new_err(format!(
                "the finish must be a hole below {holes}"
            )));
        }
        let geometry = self.geometry.clone();
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        run_cancellable(py, ctl, None, timeout, move || {
            peg::solve(&geometry, position, finish.map(|f| 1u64 << f), &job_ctl)
                .map_err(search_error)
        })
    }

    /// The owner of `position` (a layer's key) among `parts`: a fixed hash
    /// of the key, or with `complement` of the position a key of a search
    /// from the finish stands for (see `peg::PegGeometry::owner`).
    #[pyo3(signature = (position, parts, complement=false))]
    fn owner(&self, position: u64, parts: usize, complement: bool) -> PyResult<usize> {
        check_parts(parts)?;
        Ok(self.geometry.owner(position, parts, complement))
    }

    /// `layer` split into `parts` layers by owner (see `owner`).
    #[pyo3(signature = (layer, parts, threads, complement=false, timeout=None))]
    fn split(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        parts: usize,
        threads: usize,
        complement: bool,
        timeout: Option<f64>,
    ) -> PyResult<Vec<PegLayer>> {
        check_parts(parts)?;
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let pieces = run_cancellable(py, ctl, None, timeout, move || {
            peg::split(&geometry, &layer, parts, complement, threads, &job_ctl)
                .map_err(search_error)
        })?;
        Ok(layers(pieces))
    }

    /// The next layer (one more jump) split into `parts` layers by owner
    /// (see `owner`; `complement` for a search from the finish).
    #[pyo3(signature = (layer, parts, threads, complement=false, timeout=None))]
    fn expand_split(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        parts: usize,
        threads: usize,
        complement: bool,
        timeout: Option<f64>,
    ) -> PyResult<Vec<PegLayer>> {
        check_parts(parts)?;
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let pieces = run_cancellable(py, ctl, None, timeout, move || {
            peg::expand_split(&geometry, &layer, parts, complement, threads, &job_ctl)
                .map_err(search_error)
        })?;
        Ok(layers(pieces))
    }

    /// One layer from pieces of the same layer: counts of a position found
    /// in several pieces are added (checked: `OverflowError`).  The pieces
    /// must be positions of this board with the same number of pegs.
    #[pyo3(signature = (pieces, threads, timeout=None))]
    fn merge(
        &self,
        py: Python<'_>,
        pieces: Vec<PyRef<'_, PegLayer>>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<PegLayer> {
        let Some(first) = pieces.first() else {
            return Err(PyValueError::new_err("merge needs at least one layer"));
        };
        let pegs = first.inner.pegs;
        if let Some(other) = pieces.iter().find(|piece| piece.inner.pegs != pegs) {
            return Err(PyValueError::new_err(format!(
                "the layers to merge must have the same number of pegs, got {pegs} and {}",
                other.inner.pegs
            )));
        }
        let geometry = self.geometry.clone();
        let pieces: Vec<Arc<peg::Layer>> = pieces.iter().map(|piece| piece.inner.clone()).collect();
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        let merged = run_cancellable(py, ctl, None, timeout, move || {
            for piece in &pieces {
                geometry.check(piece).map_err(input_error)?;
            }
            let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
            peg::merge(&pieces, threads, &job_ctl).map_err(search_error)
        })?;
        Ok(PegLayer {
            inner: Arc::new(merged),
        })
    }

    /// For a layer of one-peg positions: `(hole, sequences ending there)`.
    fn finish_counts(&self, layer: PyRef<'_, PegLayer>) -> PyResult<Vec<(usize, u128)>> {
        if layer.inner.pegs != 1 {
            return Err(PyValueError::new_err(
                "finish_counts needs the layer of one-peg positions",
            ));
        }
        Ok(peg::finish_counts(&self.geometry, &layer.inner))
    }
}

/// A lazy stream of peg-solitaire solutions, each as its jump indices,
/// found depth-first by a Rust thread in lexicographic order of the jump
/// indices (see `peg::stream`).  The kernel's group must fix the finish.
#[pyclass(frozen, module = "solvers._core")]
struct PegStream {
    rx: Mutex<peg::stream::SolutionReceiver>,
}

#[pymethods]
impl PegStream {
    #[new]
    fn new(
        kernel: PyRef<'_, PegKernel>,
        empty: Vec<usize>,
        finish: Option<usize>,
    ) -> PyResult<Self> {
        let geometry = kernel.geometry.clone();
        let start = geometry.position_with_empty(&empty).map_err(input_error)?;
        let holes = geometry.holes();
        if finish.is_some_and(|f| f >= holes) {
            return Err(PyValueError::new_err(format!(
                "the finish must be a hole below {holes}"
            )));
        }
        let rx = peg::stream::stream(geometry, start, finish.map(|f| 1u64 << f))
            .map_err(search_error)?;
        Ok(PegStream { rx: Mutex::new(rx) })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution as jump indices, or `StopIteration`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        let item = next_item(py, || {
            let rx = self.rx.lock().unwrap_or_else(|p| p.into_inner());
            rx.recv_timeout(POLL)
        })?;
        item.transpose().map_err(search_error)
    }

    /// Stop the producer thread and wait for it to end; the stream then ends.
    fn close(&self, py: Python<'_>) {
        py.detach(|| self.rx.lock().unwrap_or_else(|p| p.into_inner()).close());
    }
}

fn check_parts(parts: usize) -> PyResult<()> {
    if parts == 0 || parts > peg::MAX_PARTS {
        return Err(PyValueError::new_err(format!(
            "parts must be 1 to {}, got {parts}",
            peg::MAX_PARTS
        )));
    }
    Ok(())
}

fn layers(pieces: Vec<peg::Layer>) -> Vec<PegLayer> {
    (pieces.into_iter())
        .map(|piece| PegLayer {
            inner: Arc::new(piece),
        })
        .collect()
}

impl PegKernel {
    /// `meet` or (with `across`) `meet_across`, after checking that the two
    /// layers fit together.
    fn join(
        &self,
        py: Python<'_>,
        from_start: &PegLayer,
        from_finish: &PegLayer,
        threads: usize,
        timeout: Option<f64>,
        across: bool,
    ) -> PyResult<u128> {
        let pegs = from_start.inner.pegs as usize + from_finish.inner.pegs as usize;
        let holes = self.geometry.holes();
        if pegs != holes + across as usize {
            return Err(PyValueError::new_err(format!(
                "the two layers do not fit: their peg counts add up to {pegs}, not {}",
                holes + across as usize
            )));
        }
        let geometry = self.geometry.clone();
        let (a, b) = (from_start.inner.clone(), from_finish.inner.clone());
        let ctl = Arc::new(Control::new());
        let job_ctl = ctl.clone();
        run_cancellable(py, ctl, None, timeout, move || {
            let joined = if across {
                peg::meet_across(&geometry, &a, &b, threads, &job_ctl)
            } else {
                peg::meet(&geometry, &a, &b, threads, &job_ctl)
            };
            joined.map_err(search_error)
        })
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_QUEENS_SEARCH_N", queens::MAX_SEARCH_N)?;
    m.add("MAX_QUEENS_CONSTRUCT_N", queens::MAX_CONSTRUCT_N)?;
    m.add_function(wrap_pyfunction!(count_queens, m)?)?;
    m.add_function(wrap_pyfunction!(search_queens, m)?)?;
    m.add_function(wrap_pyfunction!(construct_queens, m)?)?;
    m.add_function(wrap_pyfunction!(placement_defect, m)?)?;
    m.add_class::<QueenStream>()?;
    m.add("MAX_SEARCH_SQUARES", knights::MAX_SEARCH_SQUARES)?;
    m.add("MAX_FIND_SQUARES", knights::MAX_FIND_SQUARES)?;
    m.add_function(wrap_pyfunction!(count_tours, m)?)?;
    m.add_function(wrap_pyfunction!(count_tours_frontier, m)?)?;
    m.add("MAX_FRONTIER_SIDE", frontier::MAX_FRONTIER_SIDE)?;
    m.add_function(wrap_pyfunction!(find_tour, m)?)?;
    m.add_function(wrap_pyfunction!(tour_defect, m)?)?;
    m.add_class::<TourStream>()?;
    m.add("MAX_PEG_HOLES", peg::MAX_HOLES)?;
    m.add_class::<PegKernel>()?;
    m.add_class::<CountPlan>()?;
    m.add_class::<PegLayer>()?;
    m.add_class::<PegStream>()?;
    Ok(())
}
