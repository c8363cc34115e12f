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
//! * [`knights`], [`queens`], [`peg`], [`cover`]: one file per family; [`plan`]: the
//!   subproblems of a count, for executors.
//!
//! This file only registers what the others define; `_core.pyi` in the
//! Python package is its typed description, checked by stubtest.

mod cover;
mod errors;
mod knights;
mod packed;
mod peg;
mod plan;
mod queens;
mod runtime;

use pyo3::prelude::*;

/// The bytes a new allocation can use now (the kernel's available memory
/// and free swap, within the address-space limit), or `None` where unknown:
/// what `memory="auto"` budgets from.
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
    m.add("MAX_QUEENS_SEARCH_N", crate::queens::MAX_SEARCH_N)?;
    m.add("MAX_QUEENS_CONSTRUCT_N", crate::queens::MAX_CONSTRUCT_N)?;
    m.add_function(wrap_pyfunction!(queens::count_queens, m)?)?;
    m.add_function(wrap_pyfunction!(queens::queens_method, m)?)?;
    m.add("MAX_QUEENS_JOIN_N", crate::queens::join::MAX_JOIN_N)?;
    m.add("CPU_KERNELS", crate::cpu::level())?;
    m.add_function(wrap_pyfunction!(available_memory, m)?)?;
    m.add_function(wrap_pyfunction!(check_disk, m)?)?;
    m.add_function(wrap_pyfunction!(queens::search_queens, m)?)?;
    m.add_function(wrap_pyfunction!(queens::construct_queens, m)?)?;
    m.add_function(wrap_pyfunction!(queens::placement_defect, m)?)?;
    m.add_class::<queens::QueenStream>()?;
    m.add("MAX_SEARCH_SQUARES", crate::knights::MAX_SEARCH_SQUARES)?;
    m.add("MAX_FIND_SQUARES", crate::knights::MAX_FIND_SQUARES)?;
    m.add_function(wrap_pyfunction!(knights::count_tours, m)?)?;
    m.add_function(wrap_pyfunction!(knights::rectangle_rules_out, m)?)?;
    m.add_function(wrap_pyfunction!(knights::count_tours_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(knights::frontier_steps, m)?)?;
    m.add_function(wrap_pyfunction!(knights::frontier_tours, m)?)?;
    m.add_function(wrap_pyfunction!(knights::frontier_round, m)?)?;
    m.add(
        "MAX_FRONTIER_SIDE",
        crate::knights::frontier::MAX_FRONTIER_SIDE,
    )?;
    m.add_function(wrap_pyfunction!(knights::find_tour, m)?)?;
    m.add_function(wrap_pyfunction!(knights::tour_defect, m)?)?;
    m.add_class::<knights::TourStream>()?;
    m.add("MAX_PEG_HOLES", crate::peg::MAX_HOLES)?;
    m.add_class::<peg::PegKernel>()?;
    m.add_class::<plan::CountPlan>()?;
    m.add_class::<peg::PegLayer>()?;
    m.add_class::<peg::PegSide>()?;
    m.add_class::<peg::LayerSpill>()?;
    m.add_class::<peg::PegStream>()?;
    m.add_class::<cover::CoverProblem>()?;
    m.add_function(wrap_pyfunction!(cover::count_covers, m)?)?;
    m.add_function(wrap_pyfunction!(cover::cover_method, m)?)?;
    m.add_function(wrap_pyfunction!(cover::find_cover, m)?)?;
    m.add_class::<cover::CoverStream>()?;
    m.add("MAX_COVER_ITEMS", crate::cover::MAX_ITEMS)?;
    m.add("MAX_COVER_OPTIONS", crate::cover::MAX_OPTIONS)?;
    Ok(())
}
