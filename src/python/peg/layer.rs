//! [`PegLayer`]: one layer of the peg-solitaire DP, kept in Rust memory and
//! shared (an `Arc`) with the jobs that read it, picklable as its bytes.

use super::Geometry;
use crate::engine::Control;
use crate::error::SearchError;
use crate::peg;
use crate::python::options::RunOptions;
use crate::python::runtime::cancellable;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use std::sync::Arc;

/// One layer of the peg-solitaire DP, kept in Rust memory.
#[pyclass(frozen, module = "solvers._core")]
pub(in crate::python) struct PegLayer {
    pub(super) inner: Arc<peg::Layer>,
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

/// The shared layers behind Python layer objects, to hand to a job.
pub(super) fn arcs(layers: &[PyRef<'_, PegLayer>]) -> Vec<Arc<peg::Layer>> {
    layers.iter().map(|layer| layer.inner.clone()).collect()
}

/// `op` (the core's work on one layer: [`peg::expand`], [`peg::stuck_total`],
/// a split by owner) on `layer` with the run's threads, cancellable.
pub(super) fn on_layer<R, F>(
    py: Python<'_>,
    geometry: &Geometry,
    layer: &PegLayer,
    run: &RunOptions,
    op: F,
) -> PyResult<R>
where
    R: Send + 'static,
    F: FnOnce(&peg::PegGeometry, &peg::Layer, usize, &Control) -> Result<R, SearchError>
        + Send
        + 'static,
{
    let (geometry, layer) = (geometry.clone(), layer.inner.clone());
    let threads = run.workers();
    cancellable(py, run, move |ctl| op(&geometry, &layer, threads, ctl))
}
