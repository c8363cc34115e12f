//! [`PegKernel`]: a board's holes, jumps and symmetry group, and every
//! operation the Python driver calls on it.  pyo3 takes one `#[pymethods]`
//! block per class, so the Python signatures are all here, each handing its
//! work to the file of its concern (see `mod.rs`).  Each operation that
//! runs work takes the call's `RunOptions` (threads, seconds left).

use super::expansion::{by_owner, check_parts, merged};
use super::games::{finishes, solution, stuck_after};
use super::layer::{on_layer, PegLayer};
use super::meeting::{join, join_pieces, join_sides};
use super::sides::{layer_resumed, layer_saved, side_expanded, side_from, side_resumed};
use super::sides::{side_saved, LayerSpill, PegSide};
use super::Geometry;
use crate::peg;
use crate::python::options::RunOptions;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A board's holes, jumps and symmetry group, and the layer operations.
#[pyclass(frozen, module = "solvers._core")]
pub(in crate::python) struct PegKernel {
    pub(super) geometry: Geometry,
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

    /// The next layer (one more jump).
    fn expand(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<PegLayer> {
        on_layer(py, &self.geometry, &layer, run, peg::expand).map(PegLayer::from)
    }

    /// The number of sequences through two layers that meet (see `peg::meet`).
    fn meet(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<u128> {
        join(
            py,
            &self.geometry,
            (&from_start, &from_finish),
            (false, peg::meet),
            run,
        )
    }

    /// `meet` with the first layer given as pieces that are not merged (see
    /// `peg::meet_pieces`): only `from_finish` must be a whole (merged) layer.
    fn meet_pieces(
        &self,
        py: Python<'_>,
        from_start: Vec<PyRef<'_, PegLayer>>,
        from_finish: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<u128> {
        join_pieces(py, &self.geometry, &from_start, &from_finish, run)
    }

    /// The same number across one jump (see `peg::meet_across`).
    fn meet_across(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<u128> {
        join(
            py,
            &self.geometry,
            (&from_start, &from_finish),
            (true, peg::meet_across),
            run,
        )
    }

    /// One solution as jump indices (see `peg::solve`), or `None`.
    fn solve(
        &self,
        py: Python<'_>,
        empty: Vec<usize>,
        finish: Option<usize>,
        run: &RunOptions,
    ) -> PyResult<Option<Vec<usize>>> {
        solution(py, &self.geometry, (&empty, finish), run)
    }

    /// The games that end in `layer`: the sequences reaching its stuck
    /// positions (see `peg::stuck_total`).
    fn stuck(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<u128> {
        on_layer(py, &self.geometry, &layer, run, peg::stuck_total)
    }

    /// The positions of `from_start` whose complement is a position of
    /// `from_finish`: those on some sequence from the start to the finish
    /// (see `peg::meeting_positions`).
    fn meeting_positions(
        &self,
        py: Python<'_>,
        from_start: PyRef<'_, PegLayer>,
        from_finish: PyRef<'_, PegLayer>,
        run: &RunOptions,
    ) -> PyResult<u128> {
        join(
            py,
            &self.geometry,
            (&from_start, &from_finish),
            (false, peg::meeting_positions),
            run,
        )
    }

    /// One game from every hole full but `empty` that is stuck after
    /// exactly `jumps` jumps with more than one peg left, as jump indices
    /// (see `peg::stuck_game`), or `None`.
    fn stuck_game(
        &self,
        py: Python<'_>,
        empty: Vec<usize>,
        jumps: usize,
        run: &RunOptions,
    ) -> PyResult<Option<Vec<usize>>> {
        stuck_after(py, &self.geometry, (&empty, jumps), run)
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
    #[pyo3(signature = (layer, parts, run, complement=false))]
    fn split(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        parts: usize,
        run: &RunOptions,
        complement: bool,
    ) -> PyResult<Vec<PegLayer>> {
        by_owner(
            py,
            &self.geometry,
            &layer,
            (parts, complement),
            run,
            peg::split,
        )
    }

    /// The next layer (one more jump) split into `parts` layers by owner
    /// (see `owner`; `complement` for a search from the finish).
    #[pyo3(signature = (layer, parts, run, complement=false))]
    fn expand_split(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        parts: usize,
        run: &RunOptions,
        complement: bool,
    ) -> PyResult<Vec<PegLayer>> {
        let how = (parts, complement);
        by_owner(py, &self.geometry, &layer, how, run, peg::expand_split)
    }

    /// One layer from pieces of the same layer: counts of a position found
    /// in several pieces are added (checked: `OverflowError`).  The pieces
    /// must be positions of this board with the same number of pegs.
    fn merge(
        &self,
        py: Python<'_>,
        pieces: Vec<PyRef<'_, PegLayer>>,
        run: &RunOptions,
    ) -> PyResult<PegLayer> {
        merged(py, &self.geometry, &pieces, run)
    }

    /// A search within the budget of `spill` from every hole full but
    /// `empty`; `name` tells the count's searches apart in their files.
    fn start_side(
        &self,
        empty: Vec<usize>,
        spill: PyRef<'_, LayerSpill>,
        name: &str,
    ) -> PyResult<PegSide> {
        side_from(&self.geometry, &empty, &spill, name)
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
        side_resumed(py, (directory, problem), &spill, name)
    }

    /// Save `side`'s layer into the checkpoint directory `directory` of the
    /// count tagged `problem`, as that search's newest.
    fn save_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        directory: PathBuf,
        problem: u64,
        run: &RunOptions,
    ) -> PyResult<()> {
        side_saved(py, &side, (directory, problem), run)
    }

    /// Save `layer` (kept whole in memory) into the checkpoint directory
    /// `directory` of the count tagged `problem`, as the newest layer of its
    /// search `name`: the files a search within a budget saves.
    fn save_layer(
        &self,
        py: Python<'_>,
        layer: PyRef<'_, PegLayer>,
        directory: PathBuf,
        problem: u64,
        name: &str,
        run: &RunOptions,
    ) -> PyResult<()> {
        layer_saved(py, &layer, (directory, problem), name, run)
    }

    /// The layer of the search `name` saved in `directory` for the count
    /// tagged `problem` (by `save_layer` or `save_side`), whole in memory;
    /// `None` if none is saved there.
    #[staticmethod]
    fn resume_layer(
        py: Python<'_>,
        directory: PathBuf,
        problem: u64,
        name: &str,
    ) -> PyResult<Option<PegLayer>> {
        layer_resumed(py, (directory, problem), name)
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
    fn expand_side(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        idle: Option<PyRef<'_, PegSide>>,
        run: &RunOptions,
    ) -> PyResult<(PegSide, u128)> {
        side_expanded(py, &self.geometry, (&side, idle.as_deref()), run)
    }

    /// The number of sequences through two searches whose layers meet
    /// (`across`: one jump apart; see `peg::meet_sides`); `side` is
    /// re-keyed, so it should be the smaller; `other` may be `side`.
    fn meet_sides(
        &self,
        py: Python<'_>,
        side: PyRef<'_, PegSide>,
        other: PyRef<'_, PegSide>,
        across: bool,
        run: &RunOptions,
    ) -> PyResult<u128> {
        join_sides(py, &self.geometry, (&side, &other), across, run)
    }

    /// For a layer of one-peg positions: `(hole, sequences ending there)`.
    fn finish_counts(&self, layer: PyRef<'_, PegLayer>) -> PyResult<Vec<(usize, u128)>> {
        finishes(&self.geometry, &layer)
    }
}
