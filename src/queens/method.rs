//! [`Method`]: how a count is made, and which one `auto` picks for a board.

use super::join;
use super::plain::MAX_SEARCH_N;
use crate::error::InputError;

/// How [`count_queens`](super::count_queens) counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The join where it is faster (see [`Method::resolve`]), else frames.
    Auto,
    /// The quarter-board join ([`join`]): `4 <= n <= 23`.
    Join,
    /// Backtracking one border frame per symmetry class ([`frames`](super::frames)).
    Frames,
}

/// The join is the faster method from this size on (below it both take
/// milliseconds and the frames need no table).
pub const JOIN_FROM_N: usize = 12;

impl Method {
    /// The method named `name` (`"auto"`, `"join"` or `"frames"`).
    pub fn parse(name: &str) -> Result<Method, InputError> {
        match name {
            "auto" => Ok(Method::Auto),
            "join" => Ok(Method::Join),
            "frames" => Ok(Method::Frames),
            _ => Err(InputError(format!(
                "method must be 'auto', 'join' or 'frames', got {name:?}"
            ))),
        }
    }

    /// The method that counts `n`: `Auto` is the join for
    /// `JOIN_FROM_N <= n <= MAX_JOIN_N`, frames otherwise; an explicit
    /// `Join` outside its range is refused with the range named.
    pub fn resolve(self, n: usize) -> Result<Method, InputError> {
        let joinable = (join::MIN_JOIN_N..=join::MAX_JOIN_N).contains(&n);
        match self {
            Method::Auto if joinable && n >= JOIN_FROM_N => Ok(Method::Join),
            Method::Auto => Ok(Method::Frames),
            Method::Join if !joinable => Err(InputError(format!(
                "method='join' counts boards of {} to {} queens, got n = {n} \
                 (method='frames' counts up to {MAX_SEARCH_N})",
                join::MIN_JOIN_N,
                join::MAX_JOIN_N
            ))),
            m => Ok(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_parsed_and_resolved() {
        assert_eq!(Method::parse("join"), Ok(Method::Join));
        assert!(Method::parse("fast").is_err());
        assert_eq!(Method::Auto.resolve(8), Ok(Method::Frames));
        assert_eq!(Method::Auto.resolve(JOIN_FROM_N), Ok(Method::Join));
        assert_eq!(
            Method::Auto.resolve(join::MAX_JOIN_N + 1),
            Ok(Method::Frames)
        );
        assert!(Method::Join.resolve(3).is_err());
        assert!(Method::Join.resolve(join::MAX_JOIN_N + 1).is_err());
    }
}
