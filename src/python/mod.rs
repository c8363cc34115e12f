//! The pyo3 module `solvers._core` (built with the `python` feature): thin
//! bindings over the Rust cores, split by family.  No search logic lives
//! here; the Python package (`python/solvers`) validates inputs first and
//! these functions check again, so a bad call is a Python exception, never
//! a panic.
//!
//! * [`errors`]: every crate error as a Python exception (`From` impls).
//! * [`runtime`]: running Rust work off-thread with the GIL released,
//!   polling Ctrl-C, timeouts and progress; the shared body of the streams.
//! * [`packed`]: long number lists as bytes of little-endian `u32`s.
//! * [`options`]: `RunOptions`, how a call runs (threads, progress, the
//!   seconds left, the memory budget, spill and checkpoint directories).
//! * [`plan`]: the subproblems of a count, for executors.
//! * One file (or folder) per family, each with a `register(m)` that adds
//!   its names to the module; the families are listed once, in
//!   [`families!`]'s call below.
//!
//! `_core.pyi` in the Python package is the module's typed description,
//! checked by stubtest.

mod errors;
mod options;
mod packed;
mod plan;
mod runtime;

use pyo3::prelude::*;

/// Add names to the module `$m`: constants (`"NAME" => value`), then
/// `#[pyfunction]`s, then classes; a `?` on each, as every `register` needs.
macro_rules! add_names {
    (
        $m:expr;
        constants: { $($name:literal => $value:expr),* $(,)? };
        functions: [ $($function:path),* $(,)? ];
        classes: [ $($class:ty),* $(,)? ] $(;)?
    ) => {{
        $($m.add($name, $value)?;)*
        $($m.add_function(pyo3::wrap_pyfunction!($function, $m)?)?;)*
        $($m.add_class::<$class>()?;)*
    }};
}

/// Declare each family's binding module and register them in order: the one
/// place the bindings list the families.
macro_rules! families {
    ($($family:ident),* $(,)?) => {
        $(mod $family;)*

        /// Add every family's names to the module.
        fn register_families(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $($family::register(m)?;)*
            Ok(())
        }
    };
}

families!(knights, queens, peg, cover);

/// The bytes a new allocation can use now (the kernel's available memory
/// and free swap, within the address-space limit), or `None` where unknown.
#[pyfunction]
fn available_memory() -> Option<u64> {
    crate::memory::available_bytes()
}

/// `OSError` (errno `ENOSPC`) naming the figures when writing `bytes` more
/// into `directory` for `what` would leave its disk less than the reserve a
/// spill keeps (`layers::check_disk_at`): the files an executor's tasks
/// write outside the core.
#[pyfunction]
fn check_disk(directory: std::path::PathBuf, bytes: u64, what: &str) -> PyResult<()> {
    crate::layers::check_disk_at(&directory, bytes, what).map_err(Into::into)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_names!(m;
        constants: { "CPU_KERNELS" => crate::cpu::level() };
        functions: [available_memory, check_disk];
        classes: [options::RunOptions, plan::CountPlan]);
    register_families(m)?;
    // pyo3 lists every name added in `__all__`; a private module needs no
    // such list (its stub would have to repeat every family's names).
    m.delattr("__all__")
}
