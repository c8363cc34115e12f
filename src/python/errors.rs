//! How the crate's errors become Python exceptions: one `From` impl per
//! error type, so a binding writes `?` and the mapping happens here, once.
//!
//! * [`InputError`]: `ValueError` (a wrong argument, described for the user).
//! * [`SearchError`]: `RuntimeError` for a cancelled search (the caller
//!   raises `KeyboardInterrupt` or `TimeoutError` itself before it gets
//!   here; a cancel from elsewhere is an internal matter), `OverflowError`
//!   for a count past its counter, `MemoryError` for a table that does not
//!   fit or a thread that could not start, `OSError`
//!   for a spill file that could not be written or read (with errno
//!   `ENOSPC` for spilled layers refused for want of disk), `ValueError`
//!   for one that is truncated or altered.
//! * [`CountError`]: its parts as above.
//!
//! A family's own error types are mapped in its binding file.

use crate::error::{CountError, InputError, SearchError};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

impl From<InputError> for PyErr {
    fn from(e: InputError) -> PyErr {
        PyValueError::new_err(e.0)
    }
}

impl From<SearchError> for PyErr {
    fn from(e: SearchError) -> PyErr {
        match e {
            SearchError::Cancelled => PyRuntimeError::new_err("the search was cancelled"),
            SearchError::Overflow => PyOverflowError::new_err(
                "the count does not fit the 128-bit counter (no answer is better than a wrong one)",
            ),
            SearchError::Pool(msg) => PyMemoryError::new_err(msg),
            e @ SearchError::Memory { .. } => PyMemoryError::new_err(e.to_string()),
            SearchError::File(msg) => PyOSError::new_err(msg),
            SearchError::Corrupt(msg) => PyValueError::new_err(msg),
            // errno ENOSPC (28 on Linux, macOS and Windows), as the system
            // says of a full disk: this one is refused before it fills.
            SearchError::Disk(msg) => PyOSError::new_err((28, msg)),
        }
    }
}

impl From<CountError> for PyErr {
    fn from(e: CountError) -> PyErr {
        match e {
            CountError::Input(e) => e.into(),
            CountError::Search(e) => e.into(),
        }
    }
}
