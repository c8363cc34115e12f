//! The engine tests' search tree (test builds only): binary strings with
//! no two adjacent ones, counted by Fibonacci numbers, an independent oracle.

use super::{count_by_visiting, Stop, SubtreeSearch};
use crate::error::SearchError;

/// Binary strings of length `n` with no two adjacent ones: Fibonacci many.
pub(super) struct NoAdjacentOnes {
    pub(super) n: usize,
}

impl SubtreeSearch for NoAdjacentOnes {
    type Task = Vec<u8>;
    type Solution = Vec<u8>;
    type Scratch = ();

    fn scratch(&self, _: &Stop) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, task: &Vec<u8>, out: &mut Vec<Vec<u8>>) -> bool {
        if task.len() == self.n {
            return false;
        }
        for bit in [0, 1] {
            if bit == 1 && task.last() == Some(&1) {
                continue;
            }
            let mut child = task.clone();
            child.push(bit);
            out.push(child);
        }
        true
    }

    fn count(&self, task: &Vec<u8>, _: &mut (), stop: &Stop) -> Result<u128, SearchError> {
        count_by_visiting(self, task, stop)
    }

    fn visit(
        &self,
        task: &Vec<u8>,
        stop: &Stop,
        emit: &mut dyn FnMut(Vec<u8>) -> bool,
    ) -> Result<bool, SearchError> {
        if stop.now() {
            return Err(SearchError::Cancelled);
        }
        let mut children = Vec::new();
        if !self.split(task, &mut children) {
            return Ok(emit(task.clone()));
        }
        for child in &children {
            if !self.visit(child, stop, emit)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

pub(super) fn fib(n: usize) -> u128 {
    let (mut a, mut b) = (1u128, 2u128);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}
