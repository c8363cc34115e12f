//! [`PegStream`]: peg-solitaire solutions one by one, found depth-first by
//! a Rust thread and handed over the runtime's bounded stream.

use super::games::start_and_finish;
use super::kernel::PegKernel;
use crate::peg;
use crate::python::runtime::{stream_class, Source, Stream};
use pyo3::prelude::*;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

impl Source for peg::stream::SolutionReceiver {
    type Item = peg::stream::StreamItem;

    fn recv_timeout(&self, timeout: Duration) -> Result<Self::Item, RecvTimeoutError> {
        peg::stream::SolutionReceiver::recv_timeout(self, timeout)
    }

    fn close(&mut self) {
        peg::stream::SolutionReceiver::close(self);
    }
}

stream_class! {
    /// A lazy stream of peg-solitaire solutions, each as its jump indices,
    /// found depth-first by a Rust thread in lexicographic order of the jump
    /// indices (see `peg::stream`).  The kernel's group must fix the finish.
    pub(in crate::python) PegStream(peg::stream::SolutionReceiver) -> Vec<usize>,
    |py, found| Ok(found?),
    {
        #[new]
        fn new(
            kernel: PyRef<'_, PegKernel>,
            empty: Vec<usize>,
            finish: Option<usize>,
        ) -> PyResult<Self> {
            let (start, finish) = start_and_finish(&kernel.geometry, &empty, finish)?;
            let rx = peg::stream::stream(kernel.geometry.clone(), start, finish)?;
            Ok(PegStream(Stream::new(rx)))
        }
    }
}
