//! [`stream_queens`]: every solution (or every class's least), in
//! lexicographic order, handed over a bounded channel.

use super::plain::{check_search_n, QueenSearch};
use crate::engine::{self, Control};
use crate::error::CountError;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Solutions arriving from a stream, in lexicographic order.
pub struct PlacementReceiver {
    rx: Receiver<Vec<u8>>,
}

impl PlacementReceiver {
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        self.rx.recv_timeout(timeout)
    }
}

/// Stream every solution (with `unique`: the lexicographically least of each
/// symmetry class) in lexicographic order of the column lists.
pub fn stream_queens(
    n: usize,
    unique: bool,
    ctl: Arc<Control>,
) -> Result<PlacementReceiver, CountError> {
    check_search_n(n)?;
    let search = Arc::new(QueenSearch::new(n, unique));
    let tasks = search.roots();
    let rx = engine::stream(search, tasks, ctl, 64)?;
    Ok(PlacementReceiver { rx })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_in_lexicographic_order() {
        let rx = stream_queens(8, false, Arc::new(Control::new())).unwrap();
        let mut all = Vec::new();
        while let Ok(p) = rx.recv_timeout(Duration::from_secs(10)) {
            all.push(p);
        }
        assert_eq!(all.len(), 92);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        let rx = stream_queens(8, true, Arc::new(Control::new())).unwrap();
        let mut unique = 0;
        while rx.recv_timeout(Duration::from_secs(10)).is_ok() {
            unique += 1;
        }
        assert_eq!(unique, 12);
    }
}
