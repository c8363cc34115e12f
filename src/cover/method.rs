//! [`Method`]: how a count of covers is made, and what `auto` picks.
//!
//! `auto` is the memo when [`memo::state_bound`] proves its states few
//! (every option's primary items close together in item order, few ways to
//! hold the secondary items: at most [`memo::AUTO_MEMO_STATES`] states),
//! the search otherwise.  The rule looks only at the problem, so it is instant and
//! the same on every machine; the answer never depends on it.

use super::memo;
use super::problem::Problem;
use crate::error::InputError;

/// How [`count_covers`](super::count_covers) counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The memo when its states are provably few, else the search.
    Auto,
    /// Algorithm C (Algorithm M with bounds), in parallel on the engine.
    Search,
    /// The memoised count over what is left to cover ([`memo`]), layer by
    /// layer in parallel.
    Memo,
}

impl Method {
    /// The method named `name` (`"auto"`, `"search"` or `"memo"`).
    pub fn parse(name: &str) -> Result<Method, InputError> {
        match name {
            "auto" => Ok(Method::Auto),
            "search" => Ok(Method::Search),
            "memo" => Ok(Method::Memo),
            _ => Err(InputError(format!(
                "method must be 'auto', 'search' or 'memo', got {name:?}"
            ))),
        }
    }

    /// The method that counts `p`: `Search` or `Memo`.
    pub fn resolve(self, p: &Problem) -> Method {
        match self {
            Method::Auto => match memo::state_bound(p) {
                Some(states) if states <= memo::AUTO_MEMO_STATES => Method::Memo,
                _ => Method::Search,
            },
            m => m,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Search => "search",
            Method::Memo => "memo",
        }
    }
}
