//! The searches from the start and from the finish meeting: the number of
//! sequences through two layers (or two sides within a budget) whose peg
//! counts add up to the holes (or one more, across a jump).  One check of
//! the fit serves every form, and the positions on some sequence through
//! both (`meeting_positions`).

use super::layer::{arcs, PegLayer};
use super::sides::{lock, two_sides, PegSide};
use super::Geometry;
use crate::engine::Control;
use crate::error::SearchError;
use crate::peg;
use crate::python::options::RunOptions;
use crate::python::runtime::cancellable;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Two layers (or searches) of `pegs` and `other` pegs fit together when
/// their peg counts add up to the holes (`across`: one jump apart, one
/// peg more).
fn fit(geometry: &Geometry, pegs: usize, other: usize, across: bool) -> PyResult<()> {
    let want = geometry.holes() + across as usize;
    if pegs + other != want {
        return Err(PyValueError::new_err(format!(
            "the layers do not fit: their peg counts add up to {}, not {want}",
            pegs + other
        )));
    }
    Ok(())
}

/// The peg counts of two layers.
fn pegs_of(a: &PegLayer, b: &PegLayer) -> (usize, usize) {
    (a.inner.pegs as usize, b.inner.pegs as usize)
}

/// A core operation on two layers that meet: [`peg::meet`],
/// [`peg::meet_across`] or [`peg::meeting_positions`].
pub(super) type MeetOp =
    fn(&peg::PegGeometry, &peg::Layer, &peg::Layer, usize, &Control) -> Result<u128, SearchError>;

/// `op` on two layers, after checking that they fit together (`across`:
/// one jump apart, as `peg::meet_across` joins them).
pub(super) fn join(
    py: Python<'_>,
    geometry: &Geometry,
    (from_start, from_finish): (&PegLayer, &PegLayer),
    (across, op): (bool, MeetOp),
    run: &RunOptions,
) -> PyResult<u128> {
    let (pegs, other) = pegs_of(from_start, from_finish);
    fit(geometry, pegs, other, across)?;
    let geometry = geometry.clone();
    let (a, b) = (from_start.inner.clone(), from_finish.inner.clone());
    let threads = run.workers();
    cancellable(py, run, move |ctl| op(&geometry, &a, &b, threads, ctl))
}

/// `meet` with the first layer as pieces not merged.
pub(super) fn join_pieces(
    py: Python<'_>,
    geometry: &Geometry,
    from_start: &[PyRef<'_, PegLayer>],
    from_finish: &PegLayer,
    run: &RunOptions,
) -> PyResult<u128> {
    for piece in from_start {
        let (pegs, other) = pegs_of(piece, from_finish);
        fit(geometry, pegs, other, false)?;
    }
    let geometry = geometry.clone();
    let pieces = arcs(from_start);
    let finish = from_finish.inner.clone();
    let threads = run.workers();
    cancellable(py, run, move |ctl| {
        let pieces: Vec<&peg::Layer> = pieces.iter().map(|piece| &**piece).collect();
        peg::meet_pieces(&geometry, &pieces, &finish, threads, ctl)
    })
}

/// The meeting of two searches within a budget; `other` may be `side`.
pub(super) fn join_sides(
    py: Python<'_>,
    geometry: &Geometry,
    (side, other): (&PegSide, &PegSide),
    across: bool,
    run: &RunOptions,
) -> PyResult<u128> {
    // One lock at a time: `other` may be `side`.
    let pegs = side.lock().pegs() as usize;
    fit(geometry, pegs, other.lock().pegs() as usize, across)?;
    let geometry = geometry.clone();
    let (side, other) = two_sides(side, Some(other));
    let threads = run.workers();
    cancellable(py, run, move |ctl| {
        let mut other = other.as_deref().map(lock);
        let (mut side, other) = (lock(&side), other.as_deref_mut());
        peg::meet_sides(&geometry, &mut side, other, across, threads, ctl)
    })
}
