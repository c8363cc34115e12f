//! The searches from the start and from the finish meeting: the number of
//! sequences through two layers (or two sides within a budget) whose peg
//! counts add up to the holes (or one more, across a jump).  One check of
//! the fit serves every form, and the positions on some sequence through
//! both (`meeting_positions`).

use super::kernel::PegKernel;
use super::layer::{arcs, PegLayer};
use super::sides::{lock, two_sides, PegSide};
use crate::peg;
use crate::python::runtime::cancellable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Two layers fit together when their peg counts add up to `want`.
fn fit(pegs: usize, want: usize) -> PyResult<()> {
    if pegs != want {
        return Err(PyValueError::new_err(format!(
            "the two layers do not fit: their peg counts add up to {pegs}, not {want}"
        )));
    }
    Ok(())
}

impl PegKernel {
    /// The holes two meeting layers' pegs must add up to (`across`: one
    /// jump apart, one peg more).
    fn meeting_pegs(&self, across: bool) -> usize {
        self.geometry.holes() + across as usize
    }

    /// `meet` or (with `across`) `meet_across`, after checking that the two
    /// layers fit together.
    pub(super) fn join(
        &self,
        py: Python<'_>,
        from_start: &PegLayer,
        from_finish: &PegLayer,
        threads: usize,
        timeout: Option<f64>,
        across: bool,
    ) -> PyResult<u128> {
        let pegs = from_start.inner.pegs as usize + from_finish.inner.pegs as usize;
        fit(pegs, self.meeting_pegs(across))?;
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

    /// `meeting_positions`, after checking that the two layers fit together.
    pub(super) fn on_lines(
        &self,
        py: Python<'_>,
        from_start: &PegLayer,
        from_finish: &PegLayer,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        let pegs = from_start.inner.pegs as usize + from_finish.inner.pegs as usize;
        fit(pegs, self.meeting_pegs(false))?;
        let geometry = self.geometry.clone();
        let (a, b) = (from_start.inner.clone(), from_finish.inner.clone());
        cancellable(py, timeout, None, move |ctl| {
            peg::meeting_positions(&geometry, &a, &b, threads, ctl)
        })
    }

    /// `meet` with the first layer as pieces not merged.
    pub(super) fn join_pieces(
        &self,
        py: Python<'_>,
        from_start: &[PyRef<'_, PegLayer>],
        from_finish: &PegLayer,
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
        let pieces = arcs(from_start);
        let finish = from_finish.inner.clone();
        cancellable(py, timeout, None, move |ctl| {
            let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
            peg::meet_pieces(&geometry, &pieces, &finish, threads, ctl)
        })
    }

    /// The meeting of two searches within a budget; `other` may be `side`.
    pub(super) fn join_sides(
        &self,
        py: Python<'_>,
        side: &PegSide,
        other: &PegSide,
        across: bool,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        // One lock at a time: `other` may be `side`.
        let pegs = side.lock().pegs() as usize;
        let pegs = pegs + other.lock().pegs() as usize;
        fit(pegs, self.meeting_pegs(across))?;
        let geometry = self.geometry.clone();
        let (side, other) = two_sides(side, Some(other));
        cancellable(py, timeout, None, move |ctl| {
            let mut other = other.as_deref().map(lock);
            let (mut side, other) = (lock(&side), other.as_deref_mut());
            peg::meet_sides(&geometry, &mut side, other, across, threads, ctl)
        })
    }
}
