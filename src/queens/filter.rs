//! [`UniqueFilter`]: the plain search keeping, with `unique`, only the
//! least placement of each symmetry class (what a unique listing streams).

use super::images::is_least_image;
use super::plain::{QueenSearch, QueenTask};
use crate::engine::{self, Stop, SubtreeSearch};
use crate::error::SearchError;
use crate::symmetry::Symmetry;

/// The plain search, optionally keeping only the least member of each class.
pub(super) struct UniqueFilter {
    pub(super) inner: QueenSearch,
    pub(super) unique: bool,
}

impl SubtreeSearch for UniqueFilter {
    type Task = QueenTask;
    type Solution = Vec<u8>;
    type Scratch = ();

    fn scratch(&self, _: &Stop) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, task: &QueenTask, out: &mut Vec<QueenTask>) -> bool {
        self.inner.split(task, out)
    }

    fn count(&self, task: &QueenTask, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
        engine::count_by_visiting(self, task, stop)
    }

    fn visit(
        &self,
        task: &QueenTask,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        if !self.unique {
            return self.inner.visit(task, stop, emit);
        }
        self.inner.visit(task, stop, &mut |cols| {
            !is_least_image(&cols, Symmetry::non_identity()) || emit(cols)
        })
    }
}
