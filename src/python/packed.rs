//! Long lists of small numbers (a tour's squares, a placement's columns)
//! cross the boundary as the bytes of little-endian `u32`s: one Python
//! `bytes` object instead of a million Python ints, written and read with
//! the GIL released, and a `MemoryError` (never an abort) when there is no
//! room for them.

use crate::error::SearchError;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;

/// Square indices as the bytes of little-endian `u32`s.
pub(crate) fn packed(py: Python<'_>, squares: &[u32], what: &str) -> PyResult<Py<PyBytes>> {
    packed_from(py, squares.len(), squares.iter().copied(), what)
}

/// `len` values as the bytes of little-endian `u32`s, written straight into
/// the new bytes object (with the GIL released): no copy in between, and a
/// `MemoryError` naming `what` if Python cannot allocate it.
pub(crate) fn packed_from(
    py: Python<'_>,
    len: usize,
    values: impl Iterator<Item = u32> + Send,
    what: &str,
) -> PyResult<Py<PyBytes>> {
    let bytes = len.saturating_mul(4);
    let fill = |buf: &mut [u8]| {
        py.detach(|| {
            for (out, value) in buf.chunks_exact_mut(4).zip(values) {
                out.copy_from_slice(&value.to_le_bytes());
            }
        });
        Ok(())
    };
    match PyBytes::new_with(py, bytes, fill) {
        Ok(b) => Ok(b.unbind()),
        Err(e) if e.is_instance_of::<PyMemoryError>(py) => {
            Err(SearchError::memory(what, bytes as u64).into())
        }
        Err(e) => Err(e),
    }
}

/// The inverse of [`packed`]: bytes of little-endian `u32`s (`what` they
/// hold), borrowed where they can be (little-endian and aligned, as the
/// bytes of a Python `bytes` are), else copied into fallible memory.
pub(crate) fn unpacked<'a>(bytes: &'a [u8], what: &str) -> PyResult<Cow<'a, [u32]>> {
    if bytes.len() % 4 != 0 {
        return Err(PyValueError::new_err(format!(
            "packed {what} come as 4 bytes each, got {} bytes",
            bytes.len()
        )));
    }
    // SAFETY: every bit pattern is a valid `u32`.
    let (head, words, tail) = unsafe { bytes.align_to::<u32>() };
    if cfg!(target_endian = "little") && head.is_empty() && tail.is_empty() {
        return Ok(Cow::Borrowed(words));
    }
    let mut values = crate::memory::try_with_capacity(bytes.len() / 4, &format!("the {what}"))?;
    values.extend((bytes.chunks_exact(4)).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    Ok(Cow::Owned(values))
}
