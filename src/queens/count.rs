//! [`count_queens`]: the count of a board in one call, by the method
//! [`Method::resolve`] names.

use super::method::Method;
use super::plain::check_search_n;
use super::{frames, join};
use crate::engine::{self, Control};
use crate::error::CountError;

/// The number of solutions of the n-queens problem, or with `unique` the
/// number of classes under the 8 symmetries of the board.  The answer is
/// the same for every `method` and every `threads`.
pub fn count_queens(
    n: usize,
    unique: bool,
    method: Method,
    threads: usize,
    ctl: &Control,
) -> Result<u128, CountError> {
    check_search_n(n)?;
    let method = method.resolve(n)?;
    if n == 1 {
        return Ok(1);
    }
    if method == Method::Join {
        join::check_memory(n, threads)?;
        let search = join::JoinSearch::new(n, ctl)?;
        let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), 4, ctl)?;
        let all = engine::count(&search, &tasks, threads, ctl)?;
        return Ok(if unique {
            join::classes(n, all, ctl)?
        } else {
            all
        });
    }
    let search = frames::FrameSearch::new(n, unique, ctl)?;
    let tasks = engine::plan(&search, search.roots(), engine::tasks_for(threads), n, ctl)?;
    Ok(engine::count(&search, &tasks, threads, ctl)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A000170: [u128; 14] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    ];
    const A002562: [u128; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

    #[test]
    fn published_counts() {
        for (i, &want) in A000170.iter().enumerate() {
            let n = i + 1;
            for threads in [1, 2] {
                for method in [Method::Auto, Method::Frames, Method::Join] {
                    if method == Method::Join && n < join::MIN_JOIN_N {
                        continue;
                    }
                    assert_eq!(
                        count_queens(n, false, method, threads, &Control::new()),
                        Ok(want),
                        "n={n} {method:?}"
                    );
                }
            }
        }
        for (i, &want) in A002562.iter().enumerate() {
            let n = i + 1;
            for method in [Method::Auto, Method::Frames, Method::Join] {
                if method == Method::Join && n < join::MIN_JOIN_N {
                    continue;
                }
                assert_eq!(
                    count_queens(n, true, method, 2, &Control::new()),
                    Ok(want),
                    "unique n={n} {method:?}"
                );
            }
        }
    }
}
