//! Planning: [`plan`] splits the roots of a [`SubtreeSearch`] breadth-first
//! into independent tasks, in search order, polling [`Control`] and growing
//! by fallible allocation; [`Planned`] keeps a search with its plan so a
//! count can be split across processes, one subproblem index at a time.

use super::{Control, SubtreeSearch};
use crate::error::{InputError, SearchError};
use crate::memory;

/// The most subproblems a plan may be asked for: a plan is held in memory
/// (and each subproblem is an object on the Python side).
pub const MAX_PLAN_TASKS: usize = 1 << 24;

/// `Err` if a plan of `min_tasks` subproblems is more than a plan may hold
/// (every family's `plan_*` checks this before planning).
pub fn check_plan_size(min_tasks: usize) -> Result<(), InputError> {
    if min_tasks > MAX_PLAN_TASKS {
        return Err(InputError(format!(
            "a plan holds at most {MAX_PLAN_TASKS} subproblems, {min_tasks} were asked for"
        )));
    }
    Ok(())
}

/// Room kept free in a plan's next level before each split: more than any
/// family's children of one task (8 knight moves, at most 64 queen columns).
const SPLIT_ROOM: usize = 64;

/// Splits between two looks at the cancel flag while planning.
const PLAN_POLL: usize = 256;

/// Expand `roots` level by level until there are at least `min_tasks` tasks,
/// nothing can be split further, or `max_depth` levels were expanded.
/// Polls `ctl` (`Err(Cancelled)`), and a level too large for memory is
/// `Err(Memory)`, never an abort.
pub fn plan<S: SubtreeSearch>(
    search: &S,
    roots: Vec<S::Task>,
    min_tasks: usize,
    max_depth: usize,
    ctl: &Control,
) -> Result<Vec<S::Task>, SearchError> {
    let mut tasks = roots;
    for _ in 0..max_depth {
        if tasks.len() >= min_tasks || tasks.is_empty() {
            break;
        }
        let what = "the subproblems of a plan";
        let mut next = memory::try_with_capacity(tasks.len().saturating_mul(4), what)?;
        let mut changed = false;
        for (i, task) in tasks.into_iter().enumerate() {
            if i % PLAN_POLL == 0 && ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            // Grow by doubling, fallibly: `split` pushes without asking.
            if next.capacity() - next.len() < SPLIT_ROOM {
                let more = next.len().max(SPLIT_ROOM);
                memory::try_reserve(&mut next, more, what)?;
            }
            let before = next.len();
            if search.split(&task, &mut next) {
                changed = true;
            } else {
                next.truncate(before);
                next.push(task);
            }
        }
        tasks = next;
        if !changed {
            break;
        }
    }
    Ok(tasks)
}

/// A count split into independent subproblems: a search and its tasks from
/// [`plan`].  The plan depends only on the search and `min_tasks`, so any
/// process that builds the same search gets the same tasks in the same
/// order, and a subproblem can travel as its index.
pub struct Planned<S: SubtreeSearch> {
    pub search: S,
    pub tasks: Vec<S::Task>,
}

impl<S: SubtreeSearch> Planned<S> {
    /// The plan of `search` (see [`plan`]); polls `ctl`.
    pub fn new(
        search: S,
        roots: Vec<S::Task>,
        min_tasks: usize,
        max_depth: usize,
        ctl: &Control,
    ) -> Result<Self, SearchError> {
        let tasks = plan(&search, roots, min_tasks, max_depth, ctl)?;
        Ok(Planned { search, tasks })
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fixture::{fib, NoAdjacentOnes};
    use crate::engine::Stop;

    #[test]
    fn plan_keeps_search_order() {
        let search = NoAdjacentOnes { n: 6 };
        let tasks = plan(&search, vec![vec![]], 10, 64, &Control::new()).unwrap();
        let mut flat = Vec::new();
        for t in &tasks {
            search
                .visit(t, &Stop::new(&Control::new()), &mut |s| {
                    flat.push(s);
                    true
                })
                .unwrap();
        }
        let mut sorted = flat.clone();
        sorted.sort();
        assert_eq!(flat, sorted);
        assert_eq!(flat.len() as u128, fib(6));
    }

    #[test]
    fn a_cancelled_plan_stops() {
        let search = NoAdjacentOnes { n: 30 };
        let ctl = Control::new();
        ctl.cancel();
        let plan = plan(&search, vec![vec![]], 1 << 20, 64, &ctl);
        assert!(matches!(plan, Err(SearchError::Cancelled)));
    }
}
