//! The errors every family shares: a wrong argument ([`InputError`]), a
//! search that ended without an answer ([`SearchError`]: cancelled,
//! overflowed, out of memory, no thread, a bad spill file, no room on disk), and their union,
//! what a count returns ([`CountError`]).  An error only one family can meet
//! lives beside it (the knights' `FindError` in `knights/error.rs`), so this
//! module knows no family: a limit a message names is passed in as a value.
//! The Python bindings map each to one exception class (`ValueError`,
//! `KeyboardInterrupt`/`TimeoutError`, `OverflowError`, `MemoryError`,
//! `RuntimeError`), so a Rust failure is never a panic.

use std::fmt;

/// A wrong argument, described for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Why a search ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// The cancel flag was set (Ctrl-C, a timeout, or the consumer went away).
    Cancelled,
    /// A count does not fit the counter type.
    Overflow,
    /// A thread could not be started (no room under an address-space
    /// limit, or the system refused): the message says which and why.
    Pool(String),
    /// A table could not be allocated: `what` it was, and the `bytes` it needed.
    Memory { what: String, bytes: u64 },
    /// A file of layers spilled to disk could not be written or read (the
    /// message names the file and the system's reason).
    File(String),
    /// A file of layers is not what was written: truncated, altered, or
    /// from another problem (the message names the file and what is wrong).
    Corrupt(String),
    /// Layers would be spilled to a disk without room for them: refused
    /// before the files are written (the message gives the estimate, the
    /// free bytes and the directory), or a write found the disk full after
    /// all (the message names the file).
    Disk(String),
}

impl SearchError {
    /// The error of a failed allocation of `bytes` for `what`.
    pub fn memory(what: impl Into<String>, bytes: u64) -> SearchError {
        SearchError::Memory {
            what: what.into(),
            bytes,
        }
    }
}

/// `bytes` for a person: "1.8 GiB", "640 KiB", "12 bytes".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// `n` with its digits in groups of three: "1,072,800,000".
pub fn grouped(n: u64) -> String {
    grouped_digits(&n.to_string())
}

/// A number's decimal `digits` grouped by threes with commas (any width).
pub fn grouped_digits(digits: &str) -> String {
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Cancelled => write!(f, "the search was cancelled"),
            SearchError::Overflow => write!(f, "the count overflowed its counter"),
            SearchError::Pool(msg) => write!(f, "{msg}"),
            SearchError::Memory { what, bytes } => write!(
                f,
                "not enough memory for {what}: it needs {}",
                human_bytes(*bytes)
            ),
            SearchError::File(msg) | SearchError::Corrupt(msg) | SearchError::Disk(msg) => {
                write!(f, "{msg}")
            }
        }
    }
}

impl std::error::Error for SearchError {}

/// Either kind of failure of a count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    Input(InputError),
    Search(SearchError),
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::Input(e) => e.fmt(f),
            CountError::Search(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CountError {}

/// `From` [`InputError`] and [`SearchError`] for an error with `Input` and
/// `Search` variants holding them (a count's, a find's), so `?` lifts
/// either into it.
macro_rules! input_or_search {
    ($error:ident) => {
        impl From<$crate::error::InputError> for $error {
            fn from(e: $crate::error::InputError) -> Self {
                $error::Input(e)
            }
        }

        impl From<$crate::error::SearchError> for $error {
            fn from(e: $crate::error::SearchError) -> Self {
                $error::Search(e)
            }
        }
    };
}
pub(crate) use input_or_search;

input_or_search!(CountError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_a_person_would() {
        assert_eq!(human_bytes(12), "12 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(1962577080), "1.8 GiB");
    }

    #[test]
    fn counts_read_in_groups_of_three_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(153_154_300), "153,154,300");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn a_memory_error_names_what_and_how_much() {
        let e = SearchError::memory("the peg layer table", 3 << 30);
        assert_eq!(
            e.to_string(),
            "not enough memory for the peg layer table: it needs 3.0 GiB"
        );
    }
}
