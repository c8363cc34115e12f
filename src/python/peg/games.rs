//! Single games on a board: one solution, the games that end stuck, and
//! the finishes of the one-peg layer.  A start is every hole full but
//! `empty`; a finish is a hole, or anywhere.

use super::kernel::PegKernel;
use super::layer::PegLayer;
use crate::peg;
use crate::python::runtime::cancellable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

impl PegKernel {
    /// The position with every hole full but `empty`, and the finish (a
    /// hole, or anywhere with `None`) as a bit mask.
    pub(super) fn start_and_finish(
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

    /// One solution from `empty` to `finish` as jump indices, or `None`.
    pub(super) fn solution(
        &self,
        py: Python<'_>,
        empty: &[usize],
        finish: Option<usize>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<usize>>> {
        let (position, finish) = self.start_and_finish(empty, finish)?;
        let geometry = self.geometry.clone();
        cancellable(py, timeout, None, move |ctl| {
            peg::solve(&geometry, position, finish, ctl)
        })
    }

    /// The sequences reaching `layer`'s stuck positions.
    pub(super) fn stuck_in(
        &self,
        py: Python<'_>,
        layer: &PegLayer,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        let (geometry, layer) = (self.geometry.clone(), layer.inner.clone());
        cancellable(py, timeout, None, move |ctl| {
            peg::stuck_total(&geometry, &layer, threads, ctl)
        })
    }

    /// One game from `empty` stuck after exactly `jumps` jumps, or `None`.
    pub(super) fn stuck_after(
        &self,
        py: Python<'_>,
        empty: &[usize],
        jumps: usize,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<usize>>> {
        let position = self.geometry.position_with_empty(empty)?;
        let geometry = self.geometry.clone();
        cancellable(py, timeout, None, move |ctl| {
            peg::stuck_game(&geometry, position, jumps, ctl)
        })
    }

    /// `(hole, sequences ending there)` of the layer of one-peg positions.
    pub(super) fn finishes(&self, layer: &PegLayer) -> PyResult<Vec<(usize, u128)>> {
        if layer.inner.pegs != 1 {
            return Err(PyValueError::new_err(
                "finish_counts needs the layer of one-peg positions",
            ));
        }
        Ok(peg::finish_counts(&self.geometry, &layer.inner))
    }
}
