//! Exact cover for Python: the `CoverProblem` class (a checked problem held
//! in Rust), `count_covers`, `cover_method`, `find_cover` and the
//! `CoverStream` class, each a call into [`crate::cover`] through the
//! runtime.  Arrays cross as bytes of little-endian `u32`s (see
//! [`super::packed`]); a cover comes back the same way, its option indices
//! ascending.

use super::options::RunOptions;
use super::packed::{packed, unpacked};
use super::plan::CountPlan;
use super::runtime::{cancellable, interruptible, receiver_source, stream_class, Stream};
use crate::cover;
use crate::engine::Control;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use std::sync::Arc;

/// An exact-cover problem, checked and laid out in Rust memory.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct CoverProblem(pub(super) Arc<cover::Problem>);

#[pymethods]
impl CoverProblem {
    /// Items `0..n_primary` are primary, the next `n_secondary` secondary;
    /// option `k` is `items[starts[k]:starts[k + 1]]` with `colors` parallel
    /// to `items` (0 = none).  `lo` and `hi`, if given, are each primary
    /// item's least and most options (Algorithm M).  All are bytes of
    /// little-endian `u32`s.
    #[new]
    #[pyo3(signature = (n_primary, n_secondary, starts, items, colors, lo=None, hi=None))]
    #[allow(clippy::too_many_arguments)] // the arrays of one problem, as they cross
    fn new(
        py: Python<'_>,
        n_primary: usize,
        n_secondary: usize,
        starts: &[u8],
        items: &[u8],
        colors: &[u8],
        lo: Option<&[u8]>,
        hi: Option<&[u8]>,
    ) -> PyResult<Self> {
        let starts = unpacked(starts, "option starts")?;
        let items = unpacked(items, "items")?;
        let colors = unpacked(colors, "colours")?;
        let bounds = match (lo, hi) {
            (Some(lo), Some(hi)) => {
                Some((unpacked(lo, "lower bounds")?, unpacked(hi, "upper bounds")?))
            }
            (None, None) => None,
            _ => return Err(PyValueError::new_err("lo and hi come together, or neither")),
        };
        let problem = py.detach(|| {
            let p = cover::Problem::new(n_primary, n_secondary, &starts, &items, &colors)?;
            match &bounds {
                Some((lo, hi)) => p.with_bounds(lo, hi),
                None => Ok(p),
            }
        })?;
        Ok(CoverProblem(Arc::new(problem)))
    }

    /// Whether some primary item has bounds other than exactly once.
    #[getter]
    fn bounded(&self) -> bool {
        self.0.bounded()
    }

    #[getter]
    fn n_options(&self) -> usize {
        self.0.n_options()
    }

    #[getter]
    fn n_items(&self) -> usize {
        self.0.n_items()
    }

    #[getter]
    fn n_primary(&self) -> usize {
        self.0.n_primary()
    }

    fn __repr__(&self) -> String {
        format!(
            "CoverProblem(options={}, primary={}, secondary={})",
            self.0.n_options(),
            self.0.n_primary(),
            self.0.n_items() - self.0.n_primary()
        )
    }
}

/// The options of an `ExactCover` (a tuple of tuples) numbered for the
/// core in one pass holding the GIL: `(starts, items)` as bytes of
/// little-endian `u32`s (see `ExactCover.arrays`), or, as an int, the index
/// of the first option that is not a non-empty tuple of distinct items of
/// `index` (item -> number) with a number below `n_primary`, or that takes
/// the entries past `max_entries`: the package's own loop then says what is
/// wrong with it.  No colours.
#[pyfunction]
pub(super) fn number_options<'py>(
    py: Python<'py>,
    options: &Bound<'py, PyTuple>,
    index: &Bound<'py, PyDict>,
    n_primary: u32,
    max_entries: usize,
) -> PyResult<Bound<'py, PyAny>> {
    // Every table is sized first and allocated fallibly (a `MemoryError`,
    // never an abort): the entries of the options that are tuples, which
    // bound those numbered before any option is found amiss.
    let entries: usize = options
        .iter()
        .map(|option| option.cast::<PyTuple>().map_or(0, |t| t.len()))
        .sum();
    let what = "numbering the options of an exact cover problem";
    let mut items: Vec<u32> = crate::memory::try_with_capacity(entries.min(max_entries + 1), what)?;
    let mut starts: Vec<u32> = crate::memory::try_with_capacity(options.len() + 1, what)?;
    starts.push(0);
    // Which option last held each item: a repeat within one option shows.
    let mut last_in: Vec<usize> = crate::memory::try_with_capacity(index.len(), what)?;
    last_in.resize(index.len(), usize::MAX);
    for (k, option) in options.iter().enumerate() {
        let well_formed = option.cast::<PyTuple>().is_ok_and(|option| {
            let mut primary = false;
            let fits = option.iter().all(|item| {
                let number = match index.get_item(&item) {
                    Ok(Some(value)) => value.extract::<u32>().ok(),
                    _ => None, // unknown, or unhashable
                };
                let Some(n) = number.filter(|&n| (n as usize) < last_in.len()) else {
                    return false;
                };
                if items.len() == items.capacity() {
                    return false; // past max_entries: the package's loop says so
                }
                let fresh = last_in[n as usize] != k;
                last_in[n as usize] = k;
                primary |= n < n_primary;
                items.push(n);
                fresh
            });
            fits && primary && items.len() <= max_entries
        });
        if !well_formed {
            return Ok(k.into_pyobject(py)?.into_any());
        }
        starts.push(items.len() as u32);
    }
    let starts = packed(py, &starts, "option starts")?;
    let items = packed(py, &items, "option items")?;
    Ok((starts, items).into_pyobject(py)?.into_any())
}

/// Uncoloured `options` whose primary items are every item not in
/// `secondary` (item -> its number among the secondary items), in order of
/// first appearance, numbered in one pass: `(primary, starts, items)`, the
/// arrays as bytes of little-endian `u32`s, or `None` where an option is
/// not a tuple of distinct hashable items holding a primary one, or the
/// entries pass `max_entries`: the package's own loop then says what is wrong.
#[pyfunction]
pub(super) fn number_first_seen<'py>(
    py: Python<'py>,
    options: &Bound<'py, PyTuple>,
    secondary: &Bound<'py, PyDict>,
    max_entries: usize,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    // Secondary items are numbered from SECONDARY up while the primary ones
    // are still being found, then moved to follow them.
    const SECONDARY: u32 = 1 << 31;
    let entries: usize = options
        .iter()
        .map(|option| option.cast::<PyTuple>().map_or(0, |t| t.len()))
        .sum();
    if entries > max_entries || secondary.len() >= SECONDARY as usize {
        return Ok(None);
    }
    let what = "numbering the options of an exact cover problem";
    let mut items: Vec<u32> = crate::memory::try_with_capacity(entries, what)?;
    let mut starts: Vec<u32> = crate::memory::try_with_capacity(options.len() + 1, what)?;
    starts.push(0);
    let index = PyDict::new(py);
    for (item, number) in secondary.iter() {
        index.set_item(item, SECONDARY + number.extract::<u32>()?)?;
    }
    let mut primary: Vec<Bound<'py, PyAny>> = Vec::new();
    // Which option last held each item: a repeat within one option shows.
    let (mut last_primary, mut last_secondary) = (Vec::new(), vec![usize::MAX; secondary.len()]);
    for (k, option) in options.iter().enumerate() {
        let Ok(option) = option.cast::<PyTuple>() else {
            return Ok(None);
        };
        let mut has_primary = false;
        for item in option.iter() {
            let number = match index.get_item(&item) {
                Ok(Some(value)) => value.extract::<u32>()?,
                Ok(None) => {
                    let fresh = primary.len() as u32;
                    if index.set_item(&item, fresh).is_err() {
                        return Ok(None); // unhashable
                    }
                    primary.push(item);
                    last_primary.push(usize::MAX);
                    fresh
                }
                Err(_) => return Ok(None), // unhashable
            };
            let last = if number >= SECONDARY {
                &mut last_secondary[(number - SECONDARY) as usize]
            } else {
                has_primary = true;
                &mut last_primary[number as usize]
            };
            if *last == k {
                return Ok(None); // twice in this option
            }
            *last = k;
            items.push(number);
        }
        if !has_primary {
            return Ok(None);
        }
        starts.push(items.len() as u32);
    }
    let n_primary = primary.len() as u32;
    for number in items.iter_mut().filter(|n| **n >= SECONDARY) {
        *number = *number - SECONDARY + n_primary;
    }
    let primary = PyTuple::new(py, primary)?;
    let starts = packed(py, &starts, "option starts")?;
    let items = packed(py, &items, "option items")?;
    Ok(Some((primary, starts, items).into_pyobject(py)?))
}

/// Knuth's DLX `text` read and numbered in one pass (`cover::dlx::read`):
/// `(primary, secondary, starts, items, colours, palette)`, the arrays as
/// bytes of little-endian `u32`s, or `None` where the package's own parser
/// must read it (it then says what is wrong, and where).
#[pyfunction]
pub(super) fn read_dlx<'py>(
    py: Python<'py>,
    text: &str,
    max_entries: usize,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let Some(dlx) = cover::dlx::read(text, max_entries)? else {
        return Ok(None);
    };
    let starts = packed(py, &dlx.starts, "option starts")?;
    let items = packed(py, &dlx.items, "option items")?;
    let colours = packed(py, &dlx.colours, "option colours")?;
    let read = (
        dlx.primary,
        dlx.secondary,
        starts,
        items,
        colours,
        dlx.palette,
    );
    Ok(Some(read.into_pyobject(py)?))
}

/// A shape as Python gives it: offsets, head item, anchors (packed).
type ShapeArgs = (Vec<(i64, i64)>, Option<u32>, Vec<u8>);

/// Shapes placed on a board as exact-cover options (`cover::placements`):
/// `board` holds each position's cell item (`u32::MAX`: no cell), each
/// shape is `(offsets, head item or None, anchor positions)`, those two
/// arrays as bytes of little-endian `u32`s.  `(starts, items, shape,
/// anchor)` as such bytes, or `None` past `max_entries` items.
#[pyfunction]
pub(super) fn place_shapes<'py>(
    py: Python<'py>,
    cols: usize,
    board: &[u8],
    shapes: Vec<ShapeArgs>,
    max_entries: usize,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let board = unpacked(board, "board")?;
    if cols == 0 || board.len() % cols != 0 {
        return Err(PyValueError::new_err(
            "the board must be whole rows of cols positions",
        ));
    }
    let shapes = shapes
        .into_iter()
        .map(|(offsets, head, anchors)| {
            let anchors = unpacked(&anchors, "anchors")?.into_owned();
            Ok(cover::placements::Shape {
                offsets,
                head,
                anchors,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let placed = py.detach(|| cover::placements::place(cols, &board, &shapes, max_entries))?;
    let Some(placed) = placed else {
        return Ok(None);
    };
    let starts = packed(py, &placed.starts, "option starts")?;
    let items = packed(py, &placed.items, "option items")?;
    let shape = packed(py, &placed.shape, "option shapes")?;
    let anchor = packed(py, &placed.anchor, "option anchors")?;
    Ok(Some((starts, items, shape, anchor).into_pyobject(py)?))
}

/// The number of covers, by `method` (`"search"`, `"memo"` or `"auto"`),
/// or `limit` if there are more (the search stops there).
#[pyfunction]
#[pyo3(signature = (problem, run, method="search", limit=None))]
pub(super) fn count_covers(
    py: Python<'_>,
    problem: &CoverProblem,
    run: &RunOptions,
    method: &str,
    limit: Option<u128>,
) -> PyResult<u128> {
    let method = cover::Method::parse(method)?;
    let p = problem.0.clone();
    let threads = run.workers();
    // A search's bitset tables take the budget the user gave, if any: it
    // asks the kernel for no figure it does not use (a read of
    // /proc/meminfo, tens of microseconds, on every Sudoku of a batch).
    let budget = match method {
        cover::Method::Search => run.asked_budget()?,
        _ => run.budget()?,
    };
    cancellable(py, run, move |ctl| {
        cover::count_covers(p, method, threads, limit, budget, ctl)
    })
}

/// The method `count_covers` uses for `problem`: `"search"` or `"memo"`.
#[pyfunction]
#[pyo3(signature = (problem, method="auto"))]
pub(super) fn cover_method(problem: &CoverProblem, method: &str) -> PyResult<&'static str> {
    Ok(cover::Method::parse(method)?.resolve(&problem.0).name())
}

/// One cover as little-endian `u32` option indices (ascending), or `None`.
#[pyfunction]
#[pyo3(signature = (problem, deterministic, run))]
pub(super) fn find_cover(
    py: Python<'_>,
    problem: &CoverProblem,
    deterministic: bool,
    run: &RunOptions,
) -> PyResult<Option<Py<PyBytes>>> {
    let p = problem.0.clone();
    let threads = run.workers();
    let found = cancellable(py, run, move |ctl| {
        cover::find_cover(p, threads, deterministic, ctl)
    })?;
    found.map(|c| packed(py, &c, "cover")).transpose()
}

/// The first `k` covers in search order, each as little-endian `u32`
/// option indices (ascending), by one walk on one thread.
#[pyfunction]
pub(super) fn first_covers(
    py: Python<'_>,
    problem: &CoverProblem,
    k: usize,
    run: &RunOptions,
) -> PyResult<Vec<Py<PyBytes>>> {
    let p = problem.0.clone();
    let found = cancellable(py, run, move |ctl| cover::first_covers(p, k, ctl))?;
    found.iter().map(|c| packed(py, c, "cover")).collect()
}

/// The `k` cheapest covers under `costs` (one per option), cheapest first,
/// ties in search order: each its whole cost and its option indices
/// (ascending) as little-endian `u32`s.
#[pyfunction]
pub(super) fn cheapest_covers(
    py: Python<'_>,
    problem: &CoverProblem,
    costs: Vec<u64>,
    k: usize,
    run: &RunOptions,
) -> PyResult<Vec<(u64, Py<PyBytes>)>> {
    let p = problem.0.clone();
    let threads = run.workers();
    let found = cancellable(py, run, move |ctl| {
        cover::cheapest_covers(p, &costs, k, threads, ctl)
    })?;
    found
        .iter()
        .map(|(cost, c)| Ok((*cost, packed(py, c, "cover")?)))
        .collect()
}

/// `k` covers drawn independently and uniformly from the memo's counts
/// (built on the run's threads, within its memory budget), from `seed`:
/// each its option indices (ascending) as little-endian `u32`s.
#[pyfunction]
pub(super) fn random_covers(
    py: Python<'_>,
    problem: &CoverProblem,
    k: usize,
    seed: u64,
    run: &RunOptions,
) -> PyResult<Vec<Py<PyBytes>>> {
    let p = problem.0.clone();
    let budget = run.budget()?.unwrap_or_else(cover::memo::default_budget);
    let threads = run.workers();
    let drawn = cancellable(py, run, move |ctl| {
        cover::random_covers(&p, k, seed, budget, threads, ctl)
    })?;
    drawn.iter().map(|c| packed(py, c, "cover")).collect()
}

receiver_source!(cover::CoverReceiver => Vec<u32>);

stream_class! {
    /// A lazy stream of covers in search order, each as little-endian `u32`
    /// option indices (ascending).  The covers come from one producer
    /// thread: their order is the search order.
    pub(super) CoverStream(cover::CoverReceiver) -> Py<PyBytes>,
    |py, cover| packed(py, &cover, "cover"),
    {
        #[new]
        fn new(problem: &CoverProblem) -> PyResult<Self> {
            let ctl = Arc::new(Control::new());
            let rx = cover::stream_covers(problem.0.clone(), ctl.clone())?;
            Ok(CoverStream(Stream::cancelling(rx, ctl)))
        }
    }
}

/// The plan of `count_covers(..., method="search")` with at least
/// `min_tasks` subproblems.
#[pyfunction]
#[pyo3(signature = (problem, min_tasks))]
pub(super) fn covers_plan(
    py: Python<'_>,
    problem: &CoverProblem,
    min_tasks: usize,
) -> PyResult<CountPlan> {
    let p = problem.0.clone();
    let plan = interruptible(py, move |ctl| cover::plan_covers(p, min_tasks, ctl))?;
    Ok(CountPlan::shared(plan))
}

/// Add the covers' names to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_names!(m;
        constants: {
            "MAX_COVER_ITEMS" => cover::MAX_ITEMS,
            "MAX_COVER_OPTIONS" => cover::MAX_OPTIONS,
            "MAX_COVER_COST" => cover::MAX_COST,
            "MAX_CHEAPEST_COVERS" => cover::MAX_CHEAPEST,
        };
        functions: [
            count_covers,
            cover_method,
            find_cover,
            first_covers,
            cheapest_covers,
            random_covers,
            covers_plan,
            number_options,
            number_first_seen,
            read_dlx,
            place_shapes,
        ];
        classes: [CoverProblem, CoverStream]);
    Ok(())
}
