//! Single games on a board: one solution, the games that end stuck, and
//! the finishes of the one-peg layer.  A start is every hole full but
//! `empty`; a finish is a hole, or anywhere.

use super::layer::PegLayer;
use super::Geometry;
use crate::peg;
use crate::python::options::RunOptions;
use crate::python::runtime::cancellable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The position with every hole full but `empty`, and the finish (a hole,
/// or anywhere with `None`) as a bit mask.
pub(super) fn start_and_finish(
    geometry: &Geometry,
    empty: &[usize],
    finish: Option<usize>,
) -> PyResult<(u64, Option<u64>)> {
    let position = geometry.position_with_empty(empty)?;
    let holes = geometry.holes();
    if finish.is_some_and(|f| f >= holes) {
        return Err(PyValueError::new_err(format!(
            "the finish must be a hole below {holes}"
        )));
    }
    Ok((position, finish.map(|f| 1u64 << f)))
}

/// One solution from `empty` to `finish` as jump indices, or `None`.
pub(super) fn solution(
    py: Python<'_>,
    geometry: &Geometry,
    (empty, finish): (&[usize], Option<usize>),
    run: &RunOptions,
) -> PyResult<Option<Vec<usize>>> {
    let (position, finish) = start_and_finish(geometry, empty, finish)?;
    let geometry = geometry.clone();
    cancellable(py, run, move |ctl| {
        peg::solve(&geometry, position, finish, ctl)
    })
}

/// One game from `empty` stuck after exactly `jumps` jumps, or `None`.
pub(super) fn stuck_after(
    py: Python<'_>,
    geometry: &Geometry,
    (empty, jumps): (&[usize], usize),
    run: &RunOptions,
) -> PyResult<Option<Vec<usize>>> {
    let position = geometry.position_with_empty(empty)?;
    let geometry = geometry.clone();
    cancellable(py, run, move |ctl| {
        peg::stuck_game(&geometry, position, jumps, ctl)
    })
}

/// `(hole, sequences ending there)` of the layer of one-peg positions.
pub(super) fn finishes(geometry: &Geometry, layer: &PegLayer) -> PyResult<Vec<(usize, u128)>> {
    if layer.inner.pegs != 1 {
        return Err(PyValueError::new_err(
            "finish_counts needs the layer of one-peg positions",
        ));
    }
    Ok(peg::finish_counts(geometry, &layer.inner))
}
