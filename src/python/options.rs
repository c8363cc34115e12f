//! `RunOptions`: how one call runs, as the core sees it (threads, the
//! progress bar, the seconds left, the memory budget, the spill and
//! checkpoint directories).  `solvers.RunOptions.core()` builds it once a
//! call, after Python has validated what the user gave; every binding that
//! runs work takes it in place of its own `threads`, `progress`, `timeout`,
//! `memory`, ... arguments.  `memory="auto"` is resolved here, where the
//! bytes are used ([`RunOptions::budget`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;

/// What `memory=` asked, before it is resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Memory {
    /// No budget and no files (`spill=False`).
    Unbounded,
    /// Half of the memory available when the work starts; `asked`: the user
    /// said `"auto"` (an error where the platform does not tell), rather
    /// than leaving `memory=` out (then no budget there).
    Auto { asked: bool },
    /// A budget in bytes.
    Bytes(u64),
}

/// How a call runs: built by `solvers.RunOptions.core(...)`.
#[pyclass(frozen, module = "solvers._core")]
pub(super) struct RunOptions {
    threads: usize,
    progress: Option<Py<PyAny>>,
    timeout: Option<f64>,
    memory: Memory,
    spill: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    stop_after: Option<u64>,
}

#[pymethods]
impl RunOptions {
    /// `threads` (0: one per core), `progress` (a callable `(done, total)`,
    /// perhaps with a `note(text)` method), `timeout` (seconds left),
    /// `memory` (`None`: no budget, as `spill=False`; `"auto"` or
    /// `"default"`: half of the memory available, the second without an
    /// error where the platform does not tell; or bytes), `spill` and
    /// `checkpoint` (directories); `stop_after` cancels the work once that
    /// many of its units (steps, tasks) are done and saved: a kill at a
    /// known point, for the tests of checkpoints.
    #[new]
    #[pyo3(signature = (threads=0, progress=None, timeout=None, memory=None, spill=None, checkpoint=None, stop_after=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        threads: usize,
        progress: Option<Py<PyAny>>,
        timeout: Option<f64>,
        memory: Option<&Bound<'_, PyAny>>,
        spill: Option<PathBuf>,
        checkpoint: Option<PathBuf>,
        stop_after: Option<u64>,
    ) -> PyResult<Self> {
        if let Some(t) = timeout {
            if !(t.is_finite() && t >= 0.0) {
                return Err(PyValueError::new_err(format!(
                    "timeout must be a non-negative number of seconds, got {t}"
                )));
            }
        }
        let memory = match memory {
            None => Memory::Unbounded,
            Some(value) => match value.extract::<u64>() {
                Ok(bytes) => Memory::Bytes(bytes),
                Err(_) => match value.extract::<String>().as_deref() {
                    Ok("auto") => Memory::Auto { asked: true },
                    Ok("default") => Memory::Auto { asked: false },
                    _ => {
                        return Err(PyTypeError::new_err(format!(
                            "memory must be bytes, 'auto', 'default' or None, got {value}"
                        )))
                    }
                },
            },
        };
        Ok(RunOptions {
            threads,
            progress,
            timeout,
            memory,
            spill,
            checkpoint,
            stop_after,
        })
    }

    /// Threads for the work (0: one per core).
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The seconds the work may take, if limited.
    #[getter]
    fn timeout(&self) -> Option<f64> {
        self.timeout
    }

    /// The budget in bytes, resolved now (`None`: no budget).
    #[getter(budget)]
    fn budget_now(&self) -> PyResult<Option<u64>> {
        self.budget()
    }

    fn __repr__(&self) -> String {
        format!(
            "RunOptions(threads={}, timeout={:?}, memory={:?}, spill={:?}, checkpoint={:?})",
            self.threads, self.timeout, self.memory, self.spill, self.checkpoint
        )
    }
}

impl RunOptions {
    /// Threads for the work (0: one per core).
    pub(super) fn workers(&self) -> usize {
        self.threads
    }

    /// The seconds the work may take, if limited.
    pub(super) fn seconds(&self) -> Option<f64> {
        self.timeout
    }

    /// The units of work after which the work is cancelled, if any.
    pub(super) fn stop_after(&self) -> Option<u64> {
        self.stop_after
    }

    /// The progress callback, if any.
    pub(super) fn bar<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.progress.as_ref().map(|p| p.bind(py).clone())
    }

    /// [`RunOptions::budget`] where the user asked for one (`memory=`
    /// given), else `None`.
    pub(super) fn asked_budget(&self) -> PyResult<Option<u64>> {
        match self.memory {
            Memory::Auto { asked: false } => Ok(None),
            _ => self.budget(),
        }
    }

    /// The memory budget in bytes (`None`: none), `"auto"` resolved now by
    /// [`crate::memory::auto_budget`].
    pub(super) fn budget(&self) -> PyResult<Option<u64>> {
        match self.memory {
            Memory::Unbounded => Ok(None),
            Memory::Bytes(bytes) => Ok(Some(bytes)),
            Memory::Auto { asked } => Ok(crate::memory::auto_budget(
                asked,
                crate::memory::available_bytes(),
            )?),
        }
    }

    /// The directory for spilled files (`None`: the system's temporary directory).
    pub(super) fn spill_directory(&self) -> Option<&std::path::Path> {
        self.spill.as_deref()
    }

    /// The checkpoint directory, if any.
    pub(super) fn checkpoint_directory(&self) -> Option<&std::path::Path> {
        self.checkpoint.as_deref()
    }
}
