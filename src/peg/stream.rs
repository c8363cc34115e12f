//! Peg-solitaire solutions one at a time: a depth-first search that hands
//! each solution over as it is found ([`visit`]), on a producer thread with a
//! bounded channel for a lazy Python iterator ([`stream`]), or only the
//! first one ([`solve`]).
//!
//! **Order.**  The jumps of a position are tried in the order of the
//! geometry's jump list, so the solutions come in lexicographic order of
//! their sequences of jump indices (every solution has the same length: one
//! jump per peg removed).  The order does not depend on the symmetry group.
//!
//! **Pruning.**  A position below which no solution lies is *dead*; dead
//! positions are remembered by their least image under the geometry's group,
//! which must fix the finish (all symmetries when any hole will do) so that
//! deadness is the same for every image.  A dead position met again is
//! skipped, so the search never explores the same fruitless subtree twice,
//! and the first solution of the English board arrives in milliseconds.
//! A live position is explored every time it is reached: that is the
//! enumeration.

use super::PegGeometry;
use crate::engine::{self, Control};
use crate::error::SearchError;
use crate::layers::MixHasher;
use crate::memory::{bytes_of, check_available};
use std::collections::HashSet;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A stream remembers at most this many dead positions (about 300 MiB), so
/// its memory stays bounded however long it is read; past the limit it
/// goes on without remembering more (slower, never wrong).
pub const STREAM_DEAD_LIMIT: usize = 1 << 24;

/// Solutions waiting in the channel before the producer blocks.
const CAPACITY: usize = 64;

/// Nodes between two looks at the cancel flag.
const POLL_EVERY: u32 = 4096;

/// What the memo is, in a memory error.
const DEAD: &str = "the dead positions of the peg search";

/// Every solution from `start` to a single peg on `finish` (a position;
/// `None`: any single peg), in lexicographic order of the jump indices:
/// `found(path)` gets each one and returns whether to go on.  At most
/// `dead_limit` dead positions are remembered.  `Ok(true)` when `found`
/// stopped the search, `Ok(false)` when every solution was visited.
/// Polls `ctl` every few thousand positions.
pub fn visit(
    geometry: &PegGeometry,
    start: u64,
    finish: Option<u64>,
    dead_limit: usize,
    ctl: &Control,
    found: &mut dyn FnMut(&[usize]) -> bool,
) -> Result<bool, SearchError> {
    let mut walker = Walker {
        geometry,
        finish,
        dead: DeadSet::new(dead_limit),
        path: Vec::with_capacity(geometry.holes()),
        ticks: 0,
        ctl,
        found,
    };
    Ok(walker.walk(start)? == Below::Stop)
}

/// One solution by depth-first search, jumps tried in their listed order:
/// the jump indices from `start` to `finish` (a position; `None`: any
/// single peg), or `None` when there is none: the first solution of
/// [`visit`].  Positions proved dead are remembered by their least
/// image, so the group here should fix the finish (deadness is then
/// symmetric).  Exhaustive, so `None` is certain.
pub fn solve(
    geometry: &PegGeometry,
    start: u64,
    finish: Option<u64>,
    ctl: &Control,
) -> Result<Option<Vec<usize>>, SearchError> {
    let mut first = None;
    visit(geometry, start, finish, usize::MAX, ctl, &mut |path| {
        first = Some(path.to_vec());
        false
    })?;
    Ok(first)
}

/// What lies below a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Below {
    /// No solution: the position is dead.
    Nothing,
    /// At least one solution, all handed over.
    Solutions,
    /// A solution whose consumer asked to stop.
    Stop,
}

struct Walker<'a> {
    geometry: &'a PegGeometry,
    finish: Option<u64>,
    dead: DeadSet,
    /// The jumps from the start to the current position.
    path: Vec<usize>,
    ticks: u32,
    ctl: &'a Control,
    found: &'a mut dyn FnMut(&[usize]) -> bool,
}

impl Walker<'_> {
    fn walk(&mut self, position: u64) -> Result<Below, SearchError> {
        if position.count_ones() <= 1 {
            if position == 0 || self.finish.is_some_and(|f| f != position) {
                return Ok(Below::Nothing);
            }
            return Ok(match (self.found)(&self.path) {
                true => Below::Solutions,
                false => Below::Stop,
            });
        }
        // The first position polls too, so a cancelled search stops at once.
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % POLL_EVERY == 1 && self.ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let key = self.geometry.canonical(position);
        if self.dead.contains(key) {
            return Ok(Below::Nothing);
        }
        let mut below = Below::Nothing;
        for (j, jump) in self.geometry.jumps.iter().enumerate() {
            if position & jump.need == jump.need && position & jump.to == 0 {
                self.path.push(j);
                let next = self.walk(position ^ jump.flip);
                self.path.pop();
                match next? {
                    Below::Stop => return Ok(Below::Stop),
                    Below::Solutions => below = Below::Solutions,
                    Below::Nothing => {}
                }
            }
        }
        if below == Below::Nothing {
            self.dead.insert(key)?;
        }
        Ok(below)
    }
}

/// The positions proved dead, by least image, at most `limit` of them.
/// Growing it is fallible and checked against the memory the machine has
/// (a set of a few GiB, touched at once when it rehashes, could bring the
/// OOM killer otherwise).
pub(super) struct DeadSet {
    set: HashSet<u64, MixHasher>,
    limit: usize,
}

impl DeadSet {
    pub(super) fn new(limit: usize) -> DeadSet {
        DeadSet {
            set: HashSet::with_hasher(MixHasher),
            limit,
        }
    }

    #[inline]
    pub(super) fn contains(&self, key: u64) -> bool {
        self.set.contains(&key)
    }

    pub(super) fn insert(&mut self, key: u64) -> Result<(), SearchError> {
        let len = self.set.len();
        if len >= self.limit {
            return Ok(());
        }
        if len == self.set.capacity() {
            // The next table: about twice the slots, 9 bytes each.
            let bytes = bytes_of::<[u8; 9]>(len.max(8)).saturating_mul(2);
            check_available(bytes, DEAD)?;
            (self.set.try_reserve(1)).map_err(|_| SearchError::memory(DEAD, bytes))?;
        }
        self.set.insert(key);
        Ok(())
    }
}

/// One item of a stream: a solution's jump indices, or the error that
/// ended the search (never `Cancelled`: a cancelled stream just ends).
pub type StreamItem = Result<Vec<usize>, SearchError>;

/// The receiving end of [`stream`].  Dropping it (or [`close`]) stops the
/// producer: the cancel flag is set and its next send fails.
///
/// [`close`]: SolutionReceiver::close
pub struct SolutionReceiver {
    rx: Option<Receiver<StreamItem>>,
    ctl: Arc<Control>,
    worker: Option<JoinHandle<()>>,
}

impl SolutionReceiver {
    /// The next item, waiting at most `timeout`; `Disconnected` once the
    /// stream has ended (or was closed).
    pub fn recv_timeout(&self, timeout: Duration) -> Result<StreamItem, RecvTimeoutError> {
        match &self.rx {
            Some(rx) => rx.recv_timeout(timeout),
            None => Err(RecvTimeoutError::Disconnected),
        }
    }

    /// Stop the search and wait until its thread has ended (soon: it looks
    /// at the cancel flag every few thousand positions, and a send blocked
    /// on a full channel fails once the receiver is gone).
    pub fn close(&mut self) {
        self.ctl.cancel();
        self.rx = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Drop for SolutionReceiver {
    fn drop(&mut self) {
        // No join here: a drop must not wait.  The receiver goes next, and
        // the producer's next send fails.
        self.ctl.cancel();
    }
}

/// Every solution of [`visit`] (in its order), found on a producer thread
/// named `solvers-peg` and handed over a bounded channel, so the consumer
/// reads them lazily and memory stays bounded (the dead positions
/// remembered are capped at [`STREAM_DEAD_LIMIT`]).  The geometry's group
/// must fix the finish.
pub fn stream(
    geometry: Arc<PegGeometry>,
    start: u64,
    finish: Option<u64>,
) -> Result<SolutionReceiver, SearchError> {
    let (tx, rx) = sync_channel::<StreamItem>(CAPACITY);
    let ctl = Arc::new(Control::new());
    let job_ctl = ctl.clone();
    let worker = engine::spawn("solvers-peg", "the stream's thread", move || {
        let mut send = |path: &[usize]| tx.send(Ok(path.to_vec())).is_ok();
        let ended = visit(
            &geometry,
            start,
            finish,
            STREAM_DEAD_LIMIT,
            &job_ctl,
            &mut send,
        );
        if let Err(e @ (SearchError::Memory { .. } | SearchError::Overflow)) = ended {
            let _ = tx.send(Err(e));
        }
    })?;
    Ok(SolutionReceiver {
        rx: Some(rx),
        ctl,
        worker: Some(worker),
    })
}

#[cfg(test)]
mod tests {
    use super::super::finish_counts;
    use super::super::tests::{forward_to_one_peg, rectangle, IDENTITY};
    use super::*;

    /// Every solution by plain backtracking in jump order, no pruning.
    fn plain(
        g: &PegGeometry,
        position: u64,
        finish: Option<u64>,
        path: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if position.count_ones() <= 1 {
            if position != 0 && finish.is_none_or(|f| f == position) {
                out.push(path.clone());
            }
            return;
        }
        for (j, jump) in g.jumps.iter().enumerate() {
            if position & jump.need == jump.need && position & jump.to == 0 {
                path.push(j);
                plain(g, position ^ jump.flip, finish, path, out);
                path.pop();
            }
        }
    }

    fn all(rx: &SolutionReceiver) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        while let Ok(item) = rx.recv_timeout(Duration::from_secs(30)) {
            out.push(item.unwrap());
        }
        out
    }

    #[test]
    fn the_stream_is_the_plain_search_in_order() {
        // Mirrors fixing the finish prune dead positions by their orbits;
        // the plain search knows nothing of them.
        let mut checked = 0;
        for (rows, cols) in [(3, 4), (4, 4), (3, 5)] {
            let plain_g = rectangle(rows, cols, &[(false, false)]);
            let n = rows * cols;
            for (start, finish) in [(0, None), (1, Some(1)), (0, Some(n - 1))] {
                let full = plain_g.full & !(1u64 << start);
                let finish = finish.map(|f: usize| 1u64 << f);
                let mut want = Vec::new();
                plain(&plain_g, full, finish, &mut Vec::new(), &mut want);
                let g = Arc::new(rectangle(rows, cols, &[(false, false)]));
                let got = all(&stream(g, full, finish).unwrap());
                assert_eq!(got, want, "{rows}x{cols} from {start}");
                checked += want.len();
            }
        }
        assert!(checked > 1000, "only {checked} solutions: a weak test");
    }

    #[test]
    fn symmetry_fixing_the_finish_prunes_without_changing_the_answer() {
        // 3 x 5, start and finish in the middle column: both mirrors of the
        // columns fix them.
        let plain_g = rectangle(3, 5, &[(false, false)]);
        let mirrored = rectangle(3, 5, &[(false, false), (false, true)]);
        let start = plain_g.full & !(1 << 2);
        let mut want = Vec::new();
        plain(&plain_g, start, Some(1 << 2), &mut Vec::new(), &mut want);
        assert!(!want.is_empty(), "a weak test");
        let got = all(&stream(Arc::new(mirrored), start, Some(1 << 2)).unwrap());
        assert_eq!(got, want);
    }

    #[test]
    fn solve_gives_the_first_solution_of_the_stream() {
        let g = rectangle(4, 4, &[(false, false)]);
        let start = g.full & !(1 << 1);
        let ctl = Control::new();
        let first = solve(&g, start, None, &ctl).unwrap();
        let rx = stream(Arc::new(rectangle(4, 4, &[(false, false)])), start, None).unwrap();
        assert_eq!(
            first,
            Some(rx.recv_timeout(Duration::from_secs(30)).unwrap().unwrap())
        );
    }

    #[test]
    fn a_cancelled_search_stops_at_once() {
        let g = rectangle(5, 6, &[(false, false)]);
        let ctl = Control::new();
        ctl.cancel();
        let start = g.full & !1;
        assert_eq!(
            visit(&g, start, None, usize::MAX, &ctl, &mut |_| true),
            Err(SearchError::Cancelled)
        );
        assert_eq!(solve(&g, start, Some(1), &ctl), Err(SearchError::Cancelled));
    }

    #[test]
    fn closing_a_stream_ends_its_thread() {
        // 5 x 6 has far more solutions than the channel holds: the
        // producer is blocked on a full channel when it is closed.
        let g = Arc::new(rectangle(5, 6, &[(false, false)]));
        let mut rx = stream(g, (1u64 << 30) - 2, None).unwrap();
        for _ in 0..3 {
            rx.recv_timeout(Duration::from_secs(30)).unwrap().unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
        rx.close(); // joins the thread: returning at all is the test
        assert!(rx.worker.is_none());
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(1)).unwrap_err(),
            RecvTimeoutError::Disconnected
        );
    }

    #[test]
    fn the_dead_set_stops_growing_at_its_limit() {
        let mut dead = DeadSet::new(3);
        for key in 1..10 {
            dead.insert(key).unwrap();
        }
        assert_eq!(dead.set.len(), 3);
        assert!(dead.contains(1) && !dead.contains(9));
    }

    #[test]
    fn solutions_replay_and_none_is_certain() {
        let g = rectangle(3, 4, IDENTITY);
        let ctl = Control::new();
        let jumps: Vec<_> = g.jumps.clone();
        for start in 0..12 {
            let ends = finish_counts(&g, &forward_to_one_peg(&g, start));
            for finish in 0..12 {
                let count = ends.iter().find(|e| e.0 == finish).map_or(0, |e| e.1);
                let found = solve(&g, g.full & !(1 << start), Some(1 << finish), &ctl).unwrap();
                assert_eq!(found.is_some(), count > 0, "{start}->{finish}");
                if let Some(path) = found {
                    let mut position = g.full & !(1 << start);
                    for j in path {
                        let jump = jumps[j];
                        assert_eq!(position & jump.need, jump.need);
                        assert_eq!(position & jump.to, 0);
                        position ^= jump.flip;
                    }
                    assert_eq!(position, 1 << finish);
                }
            }
        }
    }
}
