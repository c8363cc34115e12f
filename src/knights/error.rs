//! [`FindError`]: why a knight's-tour find gave no answer.  Only a finder
//! can end undecided (the heuristic failed and the board is past the exact
//! search), so the error lives with the knights, not in the shared
//! `crate::error`.

use super::MAX_SEARCH_SQUARES;
use crate::error::{InputError, SearchError};
use std::fmt;

/// Why a knight's-tour find gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FindError {
    Input(InputError),
    Search(SearchError),
    /// The heuristic failed on a board too large for the exact search.
    Unresolved,
}

impl fmt::Display for FindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindError::Input(e) => e.fmt(f),
            FindError::Search(e) => e.fmt(f),
            FindError::Unresolved => write!(
                f,
                "the heuristic found no tour and the board is larger than the \
                 {MAX_SEARCH_SQUARES} cells the exact search can decide"
            ),
        }
    }
}

impl std::error::Error for FindError {}

crate::error::input_or_search!(FindError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecided_find_names_the_search_limit() {
        assert_eq!(
            FindError::Unresolved.to_string(),
            "the heuristic found no tour and the board is larger than the \
             64 cells the exact search can decide"
        );
    }
}
