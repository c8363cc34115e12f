//! A peg count within a memory budget: [`LayerSpill`] (the budget and where
//! layers past it spill) and [`PegSide`] (one search of the count, its
//! newest layer in memory or in files), with the kernel's operations on a
//! side: start, resume, save, and one jump further.

use super::layer::PegLayer;
use super::Geometry;
use crate::layers::Spill;
use crate::peg;
use crate::python::options::RunOptions;
use crate::python::runtime::cancellable;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

/// A memory budget in bytes and the directory layers past it spill into
/// (a new directory inside the run's spill directory, the system's
/// temporary directory if `None`, removed with the last search that uses
/// it): the run's, `memory="auto"` resolved now.
#[pyclass(frozen, module = "solvers._core")]
pub(in crate::python) struct LayerSpill {
    pub(super) inner: Arc<Spill>,
}

#[pymethods]
impl LayerSpill {
    #[new]
    fn new(run: &RunOptions) -> PyResult<Self> {
        let memory = run.budget()?.unwrap_or(u64::MAX);
        Ok(LayerSpill {
            inner: Arc::new(Spill::new(memory, run.spill_directory())),
        })
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

    /// The bytes free on the spill directory's disk (`None`: unknown).
    #[getter]
    fn free_disk(&self) -> Option<u64> {
        self.inner.free_disk()
    }

    /// Where the files go: the spill directory once made, else its parent.
    #[getter]
    fn directory(&self) -> String {
        self.inner.directory().to_string_lossy().into_owned()
    }
}

/// One search of a peg count within a memory budget: its newest layer, in
/// memory or in files (see `peg::Side`).
#[pyclass(frozen, module = "solvers._core")]
pub(in crate::python) struct PegSide {
    pub(super) inner: Arc<Mutex<peg::Side>>,
}

impl PegSide {
    fn of(side: peg::Side) -> PegSide {
        PegSide {
            inner: Arc::new(Mutex::new(side)),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, peg::Side> {
        lock(&self.inner)
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

/// A side's search, locked; a poisoned lock is taken as it is (a failed job
/// leaves the search as it was).
pub(super) fn lock(side: &Mutex<peg::Side>) -> MutexGuard<'_, peg::Side> {
    side.lock().unwrap_or_else(|e| e.into_inner())
}

/// The searches behind `side` and `other` for a job; `other` is `None`
/// when it is `side` itself (one search is both sides of a count).
pub(super) fn two_sides(
    side: &PegSide,
    other: Option<&PegSide>,
) -> (Arc<Mutex<peg::Side>>, Option<Arc<Mutex<peg::Side>>>) {
    let other = other
        .filter(|other| !Arc::ptr_eq(&other.inner, &side.inner))
        .map(|other| other.inner.clone());
    (side.inner.clone(), other)
}

/// The tag of a count's search `name` ("a", "b") in its files.
fn side_tag(name: &str) -> u64 {
    name.bytes().fold(0u64, |tag, b| tag << 8 | u64::from(b))
}

/// A search within the budget of `spill` from every hole full but `empty`.
pub(super) fn side_from(
    geometry: &Geometry,
    empty: &[usize],
    spill: &LayerSpill,
    name: &str,
) -> PyResult<PegSide> {
    let side = peg::Side::start(geometry, empty, side_tag(name), spill.inner.clone())?;
    Ok(PegSide::of(side))
}

/// The search `name` saved in `directory` for the count `problem`.
pub(super) fn side_resumed(
    py: Python<'_>,
    (directory, problem): (PathBuf, u64),
    spill: &LayerSpill,
    name: &str,
) -> PyResult<Option<PegSide>> {
    let (spill, tag) = (spill.inner.clone(), side_tag(name));
    let side = py.detach(move || peg::Side::resume(&directory, problem, tag, spill))?;
    Ok(side.map(PegSide::of))
}

/// `layer` (kept whole in memory) saved in `directory` as the newest of
/// the count's search `name`: the same files as a side within a budget.
pub(super) fn layer_saved(
    py: Python<'_>,
    layer: &PegLayer,
    (directory, problem): (PathBuf, u64),
    name: &str,
    run: &RunOptions,
) -> PyResult<()> {
    let (layer, tag) = (layer.inner.clone(), side_tag(name));
    cancellable(
        py,
        run,
        move |ctl| -> Result<(), crate::error::SearchError> {
            let unbounded = Arc::new(Spill::new(u64::MAX, None));
            peg::Side::from_layer(&layer, tag, unbounded)?.save(&directory, problem, ctl)
        },
    )
}

/// The layer of the count's search `name` saved in `directory`, whole in
/// memory; `None` if none is saved there.
pub(super) fn layer_resumed(
    py: Python<'_>,
    (directory, problem): (PathBuf, u64),
    name: &str,
) -> PyResult<Option<PegLayer>> {
    let tag = side_tag(name);
    let layer = py.detach(move || -> Result<_, crate::error::SearchError> {
        let unbounded = Arc::new(Spill::new(u64::MAX, None));
        match peg::Side::resume(&directory, problem, tag, unbounded)? {
            Some(side) => Ok(Some(side.to_layer()?)),
            None => Ok(None),
        }
    })?;
    Ok(layer.map(PegLayer::from))
}

/// Save `side`'s layer in `directory` as the count's newest.
pub(super) fn side_saved(
    py: Python<'_>,
    side: &PegSide,
    (directory, problem): (PathBuf, u64),
    run: &RunOptions,
) -> PyResult<()> {
    let side = side.inner.clone();
    cancellable(py, run, move |ctl| {
        lock(&side).save(&directory, problem, ctl)
    })
}

/// `side` one jump further within its budget, `idle` (the count's other
/// search) written to disk if it does not fit beside the step; and the
/// games that end in `side`'s layer, tallied as the step reads it.
pub(super) fn side_expanded(
    py: Python<'_>,
    geometry: &Geometry,
    (side, idle): (&PegSide, Option<&PegSide>),
    run: &RunOptions,
) -> PyResult<(PegSide, u128)> {
    let geometry = geometry.clone();
    let (side, idle) = two_sides(side, idle);
    let threads = run.workers();
    let (next, ended) = cancellable(py, run, move |ctl| {
        let mut idle = idle.as_deref().map(lock);
        peg::expand_side(
            &geometry,
            &mut lock(&side),
            idle.as_deref_mut(),
            threads,
            ctl,
        )
    })?;
    Ok((PegSide::of(next), ended))
}
