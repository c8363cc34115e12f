//! Peg solitaire for Python: `PegKernel` (a board's holes, jumps and
//! symmetry group, and the layer operations the Python driver in
//! `solvers.peg` calls: expand, meet, split, merge, solve), `PegLayer` (one
//! layer of the DP, kept in Rust memory, picklable as its bytes),
//! `LayerSpill` and `PegSide` (a memory budget and a search kept within it,
//! spilling to files) and `PegStream` (solutions one by one).  The checks here are those a layer
//! operation needs to make sense (layers that fit, a valid number of parts);
//! the work is [`crate::peg`]'s.

use super::runtime::{cancellable, Source, Stream};
use crate::layers::Spill;
use crate::peg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// One layer of the peg-solitaire DP, kept in Rust memory.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct PegLayer {
    inner: Arc<peg::Layer>,
}

impl From<peg::Layer> for PegLayer {
    fn from(layer: peg::Layer) -> Self {
        PegLayer {
            inner: Arc::new(layer),
        }
    }
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
        Ok(self.inner.total()?)
    }

    /// The `(position, count)` pairs, a position as a bit mask of the holes
    /// with a peg (the least image of its orbit), in no particular order.
    fn items(&self) -> PyResult<Vec<(u64, u128)>> {
        let layer = &self.inner;
        let mut items = crate::memory::try_with_capacity(layer.len(), "the items of a peg layer")?;
        items.extend((layer.keys.iter().copied()).zip(layer.counts.iter().copied()));
        Ok(items)
    }

    /// The layer as bytes (a versioned, checksummed header, then the
    /// positions and counts; see `peg::Layer::to_bytes`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let layer = self.inner.clone();
        let data = py.detach(move || layer.to_bytes())?;
        Ok(PyBytes::new(py, &data))
    }

    /// A layer from `to_bytes`; `ValueError` for anything else
    /// (`MemoryError` when there is no room for it).
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, PyType>, py: Python<'_>, data: &[u8]) -> PyResult<PegLayer> {
        Ok(py.detach(|| peg::Layer::from_bytes(data))?.into())
    }

    /// Pickled as its bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = slf.get_type().getattr("from_bytes")?;
        Ok((from_bytes, (slf.get().to_bytes(slf.py())?,)))
    }
}

/// A memory budget in bytes and the directory layers past it spill into
/// (a new directory inside `directory`, the system's temporary directory
/// if `None`, removed with the last search that uses it).
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct LayerSpill {
    inner: Arc<Spill>,
}

#[pymethods]
impl LayerSpill {
    #[new]
    #[pyo3(signature = (memory, directory=None))]
    fn new(memory: u64, directory: Option<std::path::PathBuf>) -> Self {
        LayerSpill {
            inner: Arc::new(Spill::new(memory, directory.as_deref())),
        }
    }

    /// The budget in bytes.
    #[getter]
    fn memory(&self) -> u64 {
        self.inner.budget()
    }

    /// The bytes written to files so far.
    #[getter]
    fn written(&self) -> u64 {
        self.inner.written()
    }
}

/// One search of a peg count within a memory budget: its newest layer, in
/// memory or in files (see `peg::Side`).
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct PegSide {
    inner: Arc<Mutex<peg::Side>>,
}

impl PegSide {
    fn lock(&self) -> MutexGuard<'_, peg::Side> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PegSide {
    fn __len__(&self) -> usize {
        self.lock().len()
    }

    /// The number of pegs of every position in the layer.
    #[getter]
    fn pegs(&self) -> u32 {
        self.lock().pegs()
    }

    /// The number of jump sequences reaching the layer.
    fn total(&self, py: Python<'_>) -> PyResult<u128> {
        let side = self.inner.clone();
        Ok(py.detach(move || lock(&side).total())?)
    }

    /// The layer whole, in memory (for a small layer: the last one).
    fn layer(&self, py: Python<'_>) -> PyResult<PegLayer> {
        let side = self.inner.clone();
        Ok(py.detach(move || lock(&side).to_layer())?.into())
    }
}

fn lock(side: &Mutex<peg::Side>) -> MutexGuard<'_, peg::Side> {
    side.lock().unwrap_or_else(|e| e.into_inner())
}

/// A board's holes, jumps and symmetry group, and the layer operations.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct PegKernel {
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
        let geometry = peg::PegGeometry::new(holes, &jumps, &symmetries)?;
        Ok(PegKernel {
            geometry: Arc::new(geometry),
        })
    }

    /// The layer holding the position with every hole full but `empty`.
    fn start(&self, empty: Vec<usize>) -> PyResult<PegLayer> {
        Ok(self.geometry.start(&empty)?.into())
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
        let next = cancellable(py, timeout, None, move |ctl| {
            peg::expand(&geometry, &layer, threads, ctl)
        })?;
        Ok(next.into())
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
        let pieces = arcs(&from_start);
        let finish = from_finish.inner.clone();
        cancellable(py, timeout, None, move |ctl| {
            let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
            peg::meet_pieces(&geometry, &pieces, &finish, threads, ctl)
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
        let (position, finish) = self.start_and_finish(&empty, finish)?;
        let geometry = self.geometry.clone();
        cancellable(py, timeout, None, move |ctl| {
            peg::solve(&geometry, position, finish, ctl)
        })
    }

    /// The games that end in `layer`: the sequences reaching its stuck
    /// positions (see `peg::stuck_total`).
    #[pyo3(signature = (layer, threads, timeout=None))]
    fn stuck(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        cancellable(py, timeout, None, move |ctl| {
            peg::stuck_total(&geometry, &layer, threads, ctl)
        })
    }

    /// `stuck` for a search within a budget (see `peg::Side::stuck_total`).
    #[pyo3(signature = (side, threads, timeout=None))]
    fn stuck_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        let (geometry, side) = (self.geometry.clone(), side.inner.clone());
        cancellable(py, timeout, None, move |ctl| {
            lock(&side).stuck_total(&geometry, threads, ctl)
        })
    }

    /// One game from every hole full but `empty` that is stuck after
    /// exactly `jumps` jumps with more than one peg left, as jump indices
    /// (see `peg::stuck_game`), or `None`.
    #[pyo3(signature = (empty, jumps, timeout=None))]
    fn stuck_game(
        &self,
        py: Python<'_>,
        empty: Vec<usize>,
        jumps: usize,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<usize>>> {
        let position = self.geometry.position_with_empty(&empty)?;
        let geometry = self.geometry.clone();
        cancellable(py, timeout, None, move |ctl| {
            peg::stuck_game(&geometry, position, jumps, ctl)
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
        let by = (parts, complement, threads);
        self.by_owner(py, &layer, by, timeout, peg::split)
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
        let by = (parts, complement, threads);
        self.by_owner(py, &layer, by, timeout, peg::expand_split)
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
        let pieces = arcs(&pieces);
        let merged = cancellable(py, timeout, None, move |ctl| -> PyResult<peg::Layer> {
            for piece in &pieces {
                geometry.check(piece)?;
            }
            let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
            Ok(peg::merge(&pieces, threads, ctl)?)
        })?;
        Ok(merged.into())
    }

    /// A search within the budget of `spill` from every hole full but
    /// `empty`; `name` tells the count's searches apart in their files.
    fn start_side(
        &self,
        empty: Vec<usize>,
        spill: PyRef<'_, LayerSpill>,
        name: &str,
    ) -> PyResult<PegSide> {
        let side = peg::Side::start(&self.geometry, &empty, side_tag(name), spill.inner.clone())?;
        Ok(PegSide {
            inner: Arc::new(Mutex::new(side)),
        })
    }

    /// The search `name` saved in the checkpoint directory `directory` of
    /// the count tagged `problem` (see `save_side`), within the budget of
    /// `spill`; `None` if none is saved there.
    fn resume_side(
        &self,
        py: Python<'_>,
        directory: std::path::PathBuf,
        problem: u64,
        spill: PyRef<'_, LayerSpill>,
        name: &str,
    ) -> PyResult<Option<PegSide>> {
        let (spill, tag) = (spill.inner.clone(), side_tag(name));
        let side = py.detach(move || peg::Side::resume(&directory, problem, tag, spill))?;
        Ok(side.map(|side| PegSide {
            inner: Arc::new(Mutex::new(side)),
        }))
    }

    /// Save `side`'s layer into the checkpoint directory `directory` of the
    /// count tagged `problem`, as that search's newest.
    #[pyo3(signature = (side, directory, problem, timeout=None))]
    fn save_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        directory: std::path::PathBuf,
        problem: u64,
        timeout: Option<f64>,
    ) -> PyResult<()> {
        let side = side.inner.clone();
        cancellable(py, timeout, None, move |ctl| {
            lock(&side).save(&directory, problem, ctl)
        })
    }

    /// The answer recorded in the checkpoint directory of the count tagged
    /// `problem`, or `None`.
    #[staticmethod]
    fn saved_answer(directory: std::path::PathBuf, problem: u64) -> PyResult<Option<u128>> {
        Ok(peg::saved_answer(&directory, problem)?)
    }

    /// Record the count's answer in its checkpoint directory.
    #[staticmethod]
    fn save_answer(directory: std::path::PathBuf, problem: u64, answer: u128) -> PyResult<()> {
        Ok(peg::save_answer(&directory, problem, answer)?)
    }

    /// `side` one jump further, within its budget; `idle` is the count's
    /// other search (written to disk if it does not fit beside the step).
    #[pyo3(signature = (side, idle, threads, timeout=None))]
    fn expand_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        idle: Option<PyRef<'_, PegSide>>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<PegSide> {
        let geometry = self.geometry.clone();
        let (side, idle) = two_sides(&side, idle.as_deref());
        let next = cancellable(py, timeout, None, move |ctl| {
            let mut idle = idle.as_deref().map(lock);
            peg::expand_side(
                &geometry,
                &mut lock(&side),
                idle.as_deref_mut(),
                threads,
                ctl,
            )
        })?;
        Ok(PegSide {
            inner: Arc::new(Mutex::new(next)),
        })
    }

    /// The number of sequences through two searches whose layers meet
    /// (`across`: one jump apart; see `peg::meet_sides`); `side` is
    /// re-keyed, so it should be the smaller; `other` may be `side`.
    #[pyo3(signature = (side, other, across, threads, timeout=None))]
    fn meet_sides(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        other: PyRef<'_, PegSide>,
        across: bool,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        // One lock at a time: `other` may be `side`.
        let pegs = side.lock().pegs() as usize;
        let pegs = pegs + other.lock().pegs() as usize;
        fit(pegs, self.geometry.holes() + across as usize)?;
        let geometry = self.geometry.clone();
        let (side, other) = two_sides(&side, Some(&other));
        cancellable(py, timeout, None, move |ctl| {
            let mut other = other.as_deref().map(lock);
            let (mut side, other) = (lock(&side), other.as_deref_mut());
            peg::meet_sides(&geometry, &mut side, other, across, threads, ctl)
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
        fit(pegs, self.geometry.holes() + across as usize)?;
        let geometry = self.geometry.clone();
        let (a, b) = (from_start.inner.clone(), from_finish.inner.clone());
        cancellable(py, timeout, None, move |ctl| {
            if across {
                peg::meet_across(&geometry, &a, &b, threads, ctl)
            } else {
                peg::meet(&geometry, &a, &b, threads, ctl)
            }
        })
    }

    /// `split` or `expand_split` (`op`): `layer`, or the layer after it,
    /// in `parts` pieces by owner (`complement`: keys of a search from the
    /// finish), on `threads` threads.
    fn by_owner(
        &self,
        py: Python<'_>,
        layer: &PegLayer,
        (parts, complement, threads): (usize, bool, usize),
        timeout: Option<f64>,
        op: SplitOp,
    ) -> PyResult<Vec<PegLayer>> {
        check_parts(parts)?;
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        let pieces = cancellable(py, timeout, None, move |ctl| {
            op(&geometry, &layer, parts, complement, threads, ctl)
        })?;
        Ok(pieces.into_iter().map(PegLayer::from).collect())
    }

    /// The position with every hole full but `empty`, and the finish (a
    /// hole, or anywhere with `None`) as a bit mask.
    fn start_and_finish(
        &self,
        empty: &[usize],
        finish: Option<usize>,
    ) -> PyResult<(u64, Option<u64>)> {
        let position = self.geometry.position_with_empty(empty)?;
        let holes = self.geometry.holes();
        if finish.is_some_and(|f| f >= holes) {
            return Err(PyValueError::new_err(format!(
                "the finish must be a hole below {holes}"
            )));
        }
        Ok((position, finish.map(|f| 1u64 << f)))
    }
}

/// [`peg::split`] and [`peg::expand_split`].
type SplitOp = fn(
    &peg::PegGeometry,
    &peg::Layer,
    usize,
    bool,
    usize,
    &crate::engine::Control,
) -> Result<Vec<peg::Layer>, crate::error::SearchError>;

/// The tag of a count's search `name` ("a", "b") in its files.
fn side_tag(name: &str) -> u64 {
    name.bytes().fold(0u64, |tag, b| tag << 8 | u64::from(b))
}

/// Two layers fit together when their peg counts add up to `want`.
fn fit(pegs: usize, want: usize) -> PyResult<()> {
    if pegs != want {
        return Err(PyValueError::new_err(format!(
            "the two layers do not fit: their peg counts add up to {pegs}, not {want}"
        )));
    }
    Ok(())
}

/// The searches behind `side` and `other` for a job; `other` is `None`
/// when it is `side` itself (one search is both sides of a count).
fn two_sides(
    side: &PegSide,
    other: Option<&PegSide>,
) -> (Arc<Mutex<peg::Side>>, Option<Arc<Mutex<peg::Side>>>) {
    let other = other
        .filter(|other| !Arc::ptr_eq(&other.inner, &side.inner))
        .map(|other| other.inner.clone());
    (side.inner.clone(), other)
}

/// `parts` must be 1 to [`peg::MAX_PARTS`].
fn check_parts(parts: usize) -> PyResult<()> {
    if parts == 0 || parts > peg::MAX_PARTS {
        return Err(PyValueError::new_err(format!(
            "parts must be 1 to {}, got {parts}",
            peg::MAX_PARTS
        )));
    }
    Ok(())
}

/// The shared layers behind Python layer objects, to hand to a job.
fn arcs(layers: &[PyRef<'_, PegLayer>]) -> Vec<Arc<peg::Layer>> {
    layers.iter().map(|layer| layer.inner.clone()).collect()
}

impl Source for peg::stream::SolutionReceiver {
    type Item = peg::stream::StreamItem;

    fn recv_timeout(&self, timeout: Duration) -> Result<Self::Item, RecvTimeoutError> {
        peg::stream::SolutionReceiver::recv_timeout(self, timeout)
    }

    fn close(&mut self) {
        peg::stream::SolutionReceiver::close(self);
    }
}

/// A lazy stream of peg-solitaire solutions, each as its jump indices,
/// found depth-first by a Rust thread in lexicographic order of the jump
/// indices (see `peg::stream`).  The kernel's group must fix the finish.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct PegStream(Stream<peg::stream::SolutionReceiver>);

#[pymethods]
impl PegStream {
    #[new]
    fn new(
        kernel: PyRef<'_, PegKernel>,
        empty: Vec<usize>,
        finish: Option<usize>,
    ) -> PyResult<Self> {
        let (start, finish) = kernel.start_and_finish(&empty, finish)?;
        let rx = peg::stream::stream(kernel.geometry.clone(), start, finish)?;
        Ok(PegStream(Stream::new(rx)))
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution as jump indices, or `StopIteration`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        Ok(self.0.next(py)?.transpose()?)
    }

    /// Stop the producer thread and wait for it to end; the stream then ends.
    fn close(&self, py: Python<'_>) {
        self.0.close(py);
    }
}
