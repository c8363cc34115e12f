//! `CountPlan`: a tours, queens or cover count split into the tasks of a
//! deterministic plan, addressed by index, so that other processes (an
//! executor, a checkpointed run) can count any subset of them.  The plan
//! itself is the family's [`Splittable`] (held as a trait object, so a new
//! family adds a constructor here and no case anywhere else); this module
//! only builds it and hands finished counts to Python as they come.

use super::cover::CoverProblem;
use super::knights::board_and_start;
use super::runtime::{cancellable, cancellable_polling, report};
use crate::cover;
use crate::engine::{Control, Splittable};
use crate::knights::{self, frontier};
use crate::queens;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// A pair of end squares, `(start, end)`, as `(row, col)`.
type EndSquares = ((usize, usize), (usize, usize));

/// The subproblems of a tours or queens count (see `solvers.distributed`).
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct CountPlan {
    plan: Arc<dyn Splittable>,
    /// What each subproblem is, for a plan whose subproblems have a name
    /// (the end squares of `tour_pairs`); empty otherwise.
    pairs: Vec<(EndSquares, u64)>,
}

impl CountPlan {
    fn of(plan: impl Splittable + 'static) -> CountPlan {
        CountPlan {
            plan: Arc::new(plan),
            pairs: Vec::new(),
        }
    }
}

#[pymethods]
impl CountPlan {
    /// The plan of `count_tours` with at least `min_tasks` subproblems.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, mask, start, closed, min_tasks))]
    fn tours(
        py: Python<'_>,
        rows: usize,
        cols: usize,
        mask: Option<Vec<bool>>,
        start: Option<(usize, usize)>,
        closed: bool,
        min_tasks: usize,
    ) -> PyResult<CountPlan> {
        let (board, start) = board_and_start(rows, cols, mask, start)?;
        let plan = cancellable(py, None, None, move |ctl| {
            knights::plan_tours(board, start, closed, min_tasks, ctl)
        })?;
        Ok(CountPlan::of(plan))
    }

    /// The plan of `count_tours(..., method="pairs")`: open tours from
    /// `start` (every square if `None`) by pairs of ends up to symmetry,
    /// each counted by the frontier DP within `memory` bytes.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, mask, start, memory=None, spill=None))]
    fn tour_pairs(
        rows: usize,
        cols: usize,
        mask: Option<Vec<bool>>,
        start: Option<(usize, usize)>,
        memory: Option<u64>,
        spill: Option<std::path::PathBuf>,
    ) -> PyResult<CountPlan> {
        let (board, start) = board_and_start(rows, cols, mask, start)?;
        let plan = frontier::PairPlan::new(board, start, memory, spill)?;
        let at = |i: usize| (i / plan.board().cols(), i % plan.board().cols());
        let pairs = (plan.pairs().iter())
            .map(|q| ((at(q.start), at(q.end)), q.weight))
            .collect();
        Ok(CountPlan {
            pairs,
            ..CountPlan::of(plan)
        })
    }

    /// The pairs of a `tour_pairs` plan: `((start, end), weight)` in board
    /// coordinates, one per subproblem, in order.
    fn pairs(&self) -> Vec<(EndSquares, u64)> {
        self.pairs.clone()
    }

    /// The plan of `count_queens` with at least `min_tasks` subproblems.
    #[staticmethod]
    #[pyo3(signature = (n, unique, min_tasks, method="auto"))]
    fn queens(
        py: Python<'_>,
        n: usize,
        unique: bool,
        min_tasks: usize,
        method: &str,
    ) -> PyResult<CountPlan> {
        let method = queens::Method::parse(method)?;
        let plan = cancellable(py, None, None, move |ctl| {
            queens::plan_queens(n, unique, method, min_tasks, ctl)
        })?;
        Ok(CountPlan::of(plan))
    }

    /// The plan of `count_covers(..., method="search")` with at least
    /// `min_tasks` subproblems.
    #[staticmethod]
    #[pyo3(signature = (problem, min_tasks))]
    fn cover(py: Python<'_>, problem: &CoverProblem, min_tasks: usize) -> PyResult<CountPlan> {
        let p = problem.0.clone();
        let plan = cancellable(py, None, None, move |ctl| {
            cover::plan_covers(p, min_tasks, ctl)
        })?;
        Ok(CountPlan::of(plan))
    }

    /// The answer from the sum of every subproblem's count (the same sum,
    /// except for a join counting symmetry classes).
    fn total(&self, py: Python<'_>, sum: u128) -> PyResult<u128> {
        let plan = self.plan.clone();
        cancellable(py, None, None, move |ctl| plan.total(sum, ctl))
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    /// The counts of the subproblems `which`, in that order.  `finished`,
    /// if given, is called every few hundredths of a second with the
    /// `[(index, count), ...]` finished since its last call (and once at the
    /// end), so a caller can record them as they come.
    #[pyo3(signature = (which, threads, progress=None, timeout=None, finished=None))]
    fn count_each(
        &self,
        py: Python<'_>,
        which: Vec<usize>,
        threads: usize,
        progress: Option<Bound<'_, PyAny>>,
        timeout: Option<f64>,
        finished: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u128>> {
        let len = self.plan.len();
        if let Some(&bad) = which.iter().find(|&&i| i >= len) {
            return Err(PyValueError::new_err(format!(
                "subproblem {bad} is not in this plan of {len}"
            )));
        }
        let plan = self.plan.clone();
        let done: Arc<Mutex<Vec<(usize, u128)>>> = Arc::default();
        let sink = done.clone();
        let hand_over = |finished: &Option<Bound<'_, PyAny>>| -> PyResult<()> {
            let batch = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
            match finished {
                Some(callback) if !batch.is_empty() => callback.call1((batch,)).map(drop),
                _ => Ok(()),
            }
        };
        let poll = |ctl: &Control| -> PyResult<()> {
            report(progress.as_ref(), ctl)?;
            hand_over(&finished)
        };
        let keep = finished.is_some();
        let counts = cancellable_polling(py, timeout, poll, move |ctl| {
            let record = |i: usize, n: u128| {
                if keep {
                    sink.lock().unwrap_or_else(|e| e.into_inner()).push((i, n));
                }
            };
            plan.count_each(&which, threads, ctl, &record)
        })?;
        hand_over(&finished)?;
        Ok(counts)
    }
}
