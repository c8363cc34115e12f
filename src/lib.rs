//! `solvers-core`: the Rust search cores of the `solvers` Python package.
//!
//! The cores are plain Rust (usable from `cargo test` and the Criterion
//! benches); the `python` feature adds the thin pyo3 bindings in
//! `python` (one file per family, see `src/python/mod.rs`), built by
//! maturin as the extension module `solvers._core`.

pub mod cover;
pub mod cpu;
pub mod engine;
pub mod error;
pub mod knights;
pub mod layers;
pub mod memory;
pub mod peg;
pub mod queens;
pub mod symmetry;

#[cfg(feature = "python")]
mod python;
