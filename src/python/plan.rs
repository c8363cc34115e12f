//! `CountPlan`: a count split into the tasks of a deterministic plan,
//! addressed by index, so that other processes (an executor, a
//! checkpointed run) can count any subset of them.  The plan itself is the
//! family's [`Splittable`], held as a trait object and built in the
//! family's binding file, so this module names no family; it only hands
//! finished counts to Python as they come.

use super::options::RunOptions;
use super::runtime::{cancellable_polling, interruptible, report};
use crate::engine::{Control, Each, Splittable};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// The subproblems of a count (see `solvers.distributed`); each family's
/// binding file builds its plans (`knights::tours_plan`, ...).
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct CountPlan {
    plan: Arc<dyn Splittable>,
}

impl CountPlan {
    /// The plan `plan`, for Python.
    pub(super) fn of(plan: impl Splittable + 'static) -> CountPlan {
        CountPlan::shared(Arc::new(plan))
    }

    /// The plan `plan`, already shared (a family whose plans differ in type).
    pub(super) fn shared(plan: Arc<dyn Splittable>) -> CountPlan {
        CountPlan { plan }
    }
}

#[pymethods]
impl CountPlan {
    /// The answer from the sum of every subproblem's count (the same sum,
    /// except for a join counting symmetry classes).
    fn total(&self, py: Python<'_>, sum: u128) -> PyResult<u128> {
        let plan = self.plan.clone();
        interruptible(py, move |ctl| plan.total(sum, ctl))
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    /// The counts of the subproblems `which`, in that order.  `finished`,
    /// if given, is called every few hundredths of a second with the
    /// `[(index, count), ...]` finished since its last call (and once at the
    /// end), so a caller can record them as they come.
    #[pyo3(signature = (which, run, finished=None))]
    fn count_each(
        &self,
        py: Python<'_>,
        which: Vec<usize>,
        run: &RunOptions,
        finished: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u128>> {
        let threads = run.workers();
        let progress = run.bar(py);
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
        let counts = cancellable_polling(py, Some(run), poll, move |ctl| {
            let record = |i: usize, n: u128| {
                if keep {
                    sink.lock().unwrap_or_else(|e| e.into_inner()).push((i, n));
                }
            };
            let each = Each {
                which: &which,
                threads,
                finished: &record,
            };
            plan.count_each(&each, ctl)
        })?;
        hand_over(&finished)?;
        Ok(counts)
    }
}
