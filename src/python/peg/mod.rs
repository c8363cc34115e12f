//! Peg solitaire for Python: `PegKernel` (a board's holes, jumps and
//! symmetry group, and the layer operations the Python driver in
//! `solvers.peg` calls: expand, meet, split, merge, solve), `PegLayer` (one
//! layer of the DP, kept in Rust memory, picklable as its bytes),
//! `LayerSpill` and `PegSide` (a memory budget and a search kept within it,
//! spilling to files) and `PegStream` (solutions one by one).  The checks
//! here are those a layer operation needs to make sense (layers that fit, a
//! valid number of parts); the work is [`crate::peg`]'s.
//!
//! pyo3 takes one `#[pymethods]` block per class, so `kernel.rs` holds the
//! kernel's Python signatures, each a line or two; the work behind them is
//! in one file per concern, as functions of the board's geometry that know
//! nothing of the kernel (the kernel uses them, never the other way):
//!
//! * `layer.rs`: [`PegLayer`], a layer in memory;
//! * `sides.rs`: [`LayerSpill`], [`PegSide`], and a search kept within a
//!   budget (start, resume, save, one jump further);
//! * `expansion.rs`: layers one jump further, split by owner, merged;
//! * `meeting.rs`: the searches from both ends meeting (layers or sides);
//! * `games.rs`: a solution, the stuck games, the finishes;
//! * `stream.rs`: [`PegStream`], solutions one by one.

use pyo3::prelude::*;

mod expansion;
mod games;
mod kernel;
mod layer;
mod meeting;
mod sides;
mod stream;

pub(super) use kernel::PegKernel;
pub(super) use layer::PegLayer;
pub(super) use sides::{LayerSpill, PegSide};
pub(super) use stream::PegStream;

/// A board's holes, jumps and symmetry group, shared by the kernel and its jobs.
type Geometry = std::sync::Arc<crate::peg::PegGeometry>;

/// Add the peg classes to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_names!(m;
        constants: { "MAX_PEG_HOLES" => crate::peg::MAX_HOLES };
        functions: [];
        classes: [PegKernel, PegLayer, PegSide, LayerSpill, PegStream]);
    Ok(())
}
