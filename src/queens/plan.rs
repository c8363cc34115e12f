//! [`QueensPlan`]: a count split into subproblems that other processes
//! count by index ([`Splittable`]), by either method.

use super::method::Method;
use super::plain::check_search_n;
use super::{frames, join};
use crate::engine::{self, Control, Each, Splittable};
use crate::error::CountError;

/// A plan of [`count_queens`](super::count_queens) by one method or the other.
pub enum QueensPlan {
    Frames(engine::Planned<frames::FrameSearch>),
    /// The join's subproblems count all solutions; `unique` turns their sum
    /// into classes ([`join::classes`]).
    Join {
        planned: engine::Planned<join::JoinSearch>,
        n: usize,
        unique: bool,
    },
}

impl QueensPlan {
    /// The plan's subproblems, whichever method it splits.
    fn splittable(&self) -> &dyn Splittable {
        match self {
            QueensPlan::Frames(planned) => planned,
            QueensPlan::Join { planned, .. } => planned,
        }
    }
}

impl Splittable for QueensPlan {
    fn len(&self) -> usize {
        self.splittable().len()
    }

    fn count_each(&self, each: &Each<'_>, ctl: &Control) -> Result<Vec<u128>, CountError> {
        self.splittable().count_each(each, ctl)
    }

    /// The join's sum counts every solution; `unique` asks for classes.
    fn total(&self, sum: u128, ctl: &Control) -> Result<u128, CountError> {
        match *self {
            QueensPlan::Join {
                n, unique: true, ..
            } => Ok(join::classes(n, sum, ctl)?),
            _ => Ok(sum),
        }
    }
}

/// The count of [`count_queens`](super::count_queens) split into at least `min_tasks` independent
/// subproblems (fewer if the tree is smaller), the same on every machine.
/// Polls `ctl` while planning.
pub fn plan_queens(
    n: usize,
    unique: bool,
    method: Method,
    min_tasks: usize,
    ctl: &Control,
) -> Result<QueensPlan, CountError> {
    check_search_n(n)?;
    engine::check_plan_size(min_tasks)?;
    if method.resolve(n)? == Method::Join {
        join::check_memory(n, 1)?;
        let search = join::JoinSearch::new(n, ctl)?;
        let roots = search.roots();
        let planned = engine::Planned::new(search, roots, min_tasks, 4, ctl)?;
        return Ok(QueensPlan::Join { planned, n, unique });
    }
    // One queen: no frames; the blank board's one task counts its 1 solution.
    let search = if n == 1 {
        frames::FrameSearch::blank(1)
    } else {
        frames::FrameSearch::new(n, unique, ctl)?
    };
    let roots = search.roots();
    Ok(QueensPlan::Frames(engine::Planned::new(
        search, roots, min_tasks, n, ctl,
    )?))
}
