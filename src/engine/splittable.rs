//! [`Splittable`]: a count split into independent subproblems addressed by
//! index, the one contract the bindings' `CountPlan` (and through it the
//! executors and checkpointed runs on the Python side) needs of a family.
//! A family makes its plan splittable in its own folder; the bindings then
//! hold any plan as `Arc<dyn Splittable>`, so a new family adds an impl and a
//! constructor, not a case in every method.
//!
//! A plan must be deterministic: any process that builds it from the same
//! arguments gets the same subproblems in the same order, so a subproblem
//! can travel as its index.

use super::{count_each, Control, Planned, SubtreeSearch};
use crate::error::CountError;

/// Which subproblems of a plan to count, on how many threads, and who hears
/// each `(index, count)` as it is done.
pub struct Each<'a> {
    pub which: &'a [usize],
    pub threads: usize,
    pub finished: &'a (dyn Fn(usize, u128) + Sync),
}

/// A count split into subproblems `0..len()`.
pub trait Splittable: Send + Sync {
    /// How many subproblems the plan holds.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The counts of the subproblems `each.which` (indices below
    /// [`len`](Self::len)), in that order, on `each.threads` threads;
    /// `each.finished` gets each `(index, count)` as it is done.  Polls `ctl`.
    fn count_each(&self, each: &Each<'_>, ctl: &Control) -> Result<Vec<u128>, CountError>;

    /// The answer from the sum of every subproblem's count: the sum itself
    /// unless the plan counts a part of the answer (a symmetry class, one
    /// direction of a path).  Polls `ctl` where that is work.
    fn total(&self, sum: u128, ctl: &Control) -> Result<u128, CountError> {
        let _ = ctl;
        Ok(sum)
    }
}

/// A plan of one search is splittable as it is: its answer is the sum.
impl<S: SubtreeSearch + Send> Splittable for Planned<S> {
    fn len(&self) -> usize {
        Planned::len(self)
    }

    fn count_each(&self, each: &Each<'_>, ctl: &Control) -> Result<Vec<u128>, CountError> {
        let (search, tasks) = (&self.search, &self.tasks);
        Ok(count_each(
            search,
            tasks,
            each.which,
            each.threads,
            ctl,
            each.finished,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fixture::{fib, NoAdjacentOnes};

    #[test]
    fn a_planned_search_sums_to_its_count() {
        let search = NoAdjacentOnes { n: 12 };
        let ctl = Control::new();
        let plan = Planned::new(search, vec![vec![]], 16, 64, &ctl).unwrap();
        let plan: &dyn Splittable = &plan;
        let which: Vec<usize> = (0..plan.len()).collect();
        let each = Each {
            which: &which,
            threads: 1,
            finished: &|_, _| {},
        };
        let counts = plan.count_each(&each, &ctl).unwrap();
        let sum: u128 = counts.iter().sum();
        assert_eq!(plan.total(sum, &ctl).unwrap(), fib(12));
    }
}
