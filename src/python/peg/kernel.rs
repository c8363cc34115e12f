//! [`PegKernel`]: a board's holes, jumps and symmetry group, and every
//! operation the Python driver calls on it.  pyo3 takes one `#[pymethods]`
//! block per class, so the Python signatures are all here, each handing its
//! work to the file of its concern (see `mod.rs`).

use super::expansion::check_parts;
use super::layer::PegLayer;
use super::sides::{LayerSpill, PegSide};
use crate::peg;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A board's holes, jumps and symmetry group, and the layer operations.
#[pyclass(frozen, module = "solvers._core")]
pub(in crate::python) struct PegKernel {
    pub(super) geometry: Arc<peg::PegGeometry>,
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
        self.expanded(py, &layer, threads, timeout)
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
        self.join_pieces(py, &from_start, &from_finish, threads, timeout)
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
        self.solution(py, &empty, finish, timeout)
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
        self.stuck_in(py, &layer, threads, timeout)
    }

    /// The positions of `from_start` whose complement is a position of
    /// `from_finish`: those on some sequence from the start to the finish
    /// (see `peg::meeting_positions`).
    #[pyo3(signature = (from_start, from_finish, threads, timeout=None))]
    fn meeting_positions(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<u128> {
        self.on_lines(py, &from_start, &from_finish, threads, timeout)
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
        self.stuck_after(py, &empty, jumps, timeout)
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
        self.merged(py, &pieces, threads, timeout)
    }

    /// A search within the budget of `spill` from every hole full but
    /// `empty`; `name` tells the count's searches apart in their files.
    fn start_side(
        &self,
        empty: Vec<usize>,
        spill: PyRef<'_, LayerSpill>,
        name: &str,
    ) -> PyResult<PegSide> {
        self.side_from(&empty, &spill, name)
    }

    /// The search `name` saved in the checkpoint directory `directory` of
    /// the count tagged `problem` (see `save_side`), within the budget of
    /// `spill`; `None` if none is saved there.
    fn resume_side(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        problem: u64,
        spill: PyRef<'_, LayerSpill>,
        name: &str,
    ) -> PyResult<Option<PegSide>> {
        self.side_resumed(py, directory, problem, &spill, name)
    }

    /// Save `side`'s layer into the checkpoint directory `directory` of the
    /// count tagged `problem`, as that search's newest.
    #[pyo3(signature = (side, directory, problem, timeout=None))]
    fn save_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        directory: PathBuf,
        problem: u64,
        timeout: Option<f64>,
    ) -> PyResult<()> {
        self.side_saved(py, &side, directory, problem, timeout)
    }

    /// The answer recorded in the checkpoint directory of the count tagged
    /// `problem`, or `None`.
    #[staticmethod]
    fn saved_answer(directory: PathBuf, problem: u64) -> PyResult<Option<u128>> {
        Ok(peg::saved_answer(&directory, problem)?)
    }

    /// Record the count's answer in its checkpoint directory.
    #[staticmethod]
    fn save_answer(directory: PathBuf, problem: u64, answer: u128) -> PyResult<()> {
        Ok(peg::save_answer(&directory, problem, answer)?)
    }

    /// `side` one jump further, within its budget; `idle` is the count's
    /// other search (written to disk if it does not fit beside the step).
    /// With it, the games that end in `side`'s layer (the sequences reaching
    /// its positions with no jump), tallied as the step reads the layer.
    #[pyo3(signature = (side, idle, threads, timeout=None))]
    fn expand_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        idle: Option<PyRef<'_, PegSide>>,
        threads: usize,
        timeout: Option<f64>,
    ) -> PyResult<(PegSide, u128)> {
        self.side_expanded(py, &side, idle.as_deref(), threads, timeout)
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
        self.join_sides(py, &side, &other, across, threads, timeout)
    }

    /// For a layer of one-peg positions: `(hole, sequences ending there)`.
    fn finish_counts(&self, layer: PyRef<'_, PegLayer>) -> PyResult<Vec<(usize, u128)>> {
        self.finishes(&layer)
    }
}
