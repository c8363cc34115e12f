//! [`search_queens`]: one placement by the parallel search, or with
//! `deterministic` the lexicographically first.

use super::frames;
use super::plain::{check_search_n, QueenSearch};
use crate::engine::{self, Control};
use crate::error::CountError;

/// One placement by parallel backtracking, most constrained row first; with
/// `deterministic`, the lexicographically first (rows in order), whatever the
/// thread count.
pub fn search_queens(
    n: usize,
    threads: usize,
    deterministic: bool,
    ctl: &Control,
) -> Result<Option<Vec<u8>>, CountError> {
    check_search_n(n)?;
    let min_tasks = engine::tasks_for(threads);
    if deterministic {
        let search = QueenSearch::new(n, false);
        let tasks = engine::plan(&search, search.roots(), min_tasks, n, ctl)?;
        return Ok(engine::find_first(&search, &tasks, threads, ctl, true)?);
    }
    let search = frames::FrameSearch::blank(n);
    let tasks = engine::plan(&search, search.roots(), min_tasks, n, ctl)?;
    Ok(engine::find_first(&search, &tasks, threads, ctl, false)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_search_finds_the_first() {
        for threads in [1, 2, 8] {
            let p = search_queens(8, threads, true, &Control::new()).unwrap();
            assert_eq!(p, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
        }
        assert_eq!(search_queens(3, 2, false, &Control::new()), Ok(None));
    }
}
