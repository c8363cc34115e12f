//! Layers one jump further, split into parts by owner, and merged from
//! parts: the kernel's operations of a count spread over executors.

use super::layer::{arcs, on_layer, PegLayer};
use super::Geometry;
use crate::engine::Control;
use crate::error::SearchError;
use crate::peg;
use crate::python::options::RunOptions;
use crate::python::runtime::cancellable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// [`peg::split`] and [`peg::expand_split`].
pub(super) type SplitOp = fn(
    &peg::PegGeometry,
    &peg::Layer,
    usize,
    bool,
    usize,
    &Control,
) -> Result<Vec<peg::Layer>, SearchError>;

/// `parts` must be 1 to [`peg::MAX_PARTS`].
pub(super) fn check_parts(parts: usize) -> PyResult<()> {
    if parts == 0 || parts > peg::MAX_PARTS {
        return Err(PyValueError::new_err(format!(
            "parts must be 1 to {}, got {parts}",
            peg::MAX_PARTS
        )));
    }
    Ok(())
}

/// `split` or `expand_split` (`op`): `layer`, or the layer after it, in
/// `parts` pieces by owner (`complement`: keys of a search from the finish).
pub(super) fn by_owner(
    py: Python<'_>,
    geometry: &Geometry,
    layer: &PegLayer,
    (parts, complement): (usize, bool),
    run: &RunOptions,
    op: SplitOp,
) -> PyResult<Vec<PegLayer>> {
    check_parts(parts)?;
    let pieces = on_layer(
        py,
        geometry,
        layer,
        run,
        move |geometry, layer, threads, ctl| op(geometry, layer, parts, complement, threads, ctl),
    )?;
    Ok(pieces.into_iter().map(PegLayer::from).collect())
}

/// One layer from `pieces` of the same layer (counts of a position in
/// several pieces added, checked), each checked to be of this board.
pub(super) fn merged(
    py: Python<'_>,
    geometry: &Geometry,
    pieces: &[PyRef<'_, PegLayer>],
    run: &RunOptions,
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
    let geometry = geometry.clone();
    let pieces = arcs(pieces);
    let threads = run.workers();
    let merged = cancellable(py, run, move |ctl| -> PyResult<peg::Layer> {
        for piece in &pieces {
            geometry.check(piece)?;
        }
        let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
        Ok(peg::merge(&pieces, threads, ctl)?)
    })?;
    Ok(merged.into())
}
