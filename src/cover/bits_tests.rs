//! The bitset walk against the brute force of `tests.rs` and against the
//! dancing cells' walk: the same counts on every thread count, the covers
//! in the same order, and the published counts.

use super::bits::BitWalk;
use super::count::{search_count, stream_with};
use super::instances::{langford, pentominoes, queens, sudoku};
use super::tests::{listed, random_smalls};
use super::walk::{Outcome, Run};
use super::*;
use crate::engine::Control;
use crate::engine::SearchError;
use std::sync::Arc;
use std::time::Duration;

/// The bitset walk without its copies for fixed widths: every problem
/// walked over the lists of words not zero.
struct Listed(BitWalk);

impl CoverWalk for Listed {
    fn bytes(p: &Problem) -> u64 {
        BitWalk::bytes(p)
    }
    fn max_depth(p: &Problem) -> usize {
        BitWalk::max_depth(p)
    }
    fn new(p: &Problem, stop: Option<&crate::engine::Stop>) -> Result<Listed, SearchError> {
        BitWalk::with_widths(p, stop, false).map(Listed)
    }
    fn reset(&mut self) {
        self.0.reset()
    }
    fn replay(&mut self, p: &Problem, task: &[u32]) {
        self.0.replay(p, task)
    }
    fn children(&mut self, p: &Problem) -> Option<Vec<Vec<u32>>> {
        self.0.children(p)
    }
    fn run_within<const COUNT: bool>(&mut self, p: &Problem, run: &mut Run) -> Outcome {
        self.0.run_within::<COUNT>(p, run)
    }
}

fn bit_count<W: CoverWalk>(p: &Arc<Problem>, threads: usize) -> u128 {
    let search = CoverSearch::<W>::new(p.clone());
    search_count(search, threads, &Control::new(), Duration::ZERO).unwrap()
}

fn bit_listed<W: CoverWalk>(p: &Arc<Problem>) -> Vec<Vec<u32>> {
    let rx = stream_with::<W>(p.clone(), Arc::new(Control::new())).unwrap();
    let mut all = Vec::new();
    while let Ok(c) = rx.recv_timeout(Duration::from_secs(30)) {
        all.push(c);
    }
    all
}

#[test]
fn random_problems_agree_with_the_brute_force_and_the_cells() {
    for small in random_smalls(31, 300) {
        let p = small.problem();
        let n = small.brute_force().len() as u128;
        let cells = listed(p.clone());
        for threads in [1, 2, 8] {
            assert_eq!(
                bit_count::<BitWalk>(&p, threads),
                n,
                "{small:?} on {threads}"
            );
            assert_eq!(
                bit_count::<Listed>(&p, threads),
                n,
                "{small:?} on {threads}"
            );
        }
        assert_eq!(bit_listed::<BitWalk>(&p), cells, "{small:?}");
        assert_eq!(bit_listed::<Listed>(&p), cells, "{small:?}");
    }
}

#[test]
fn published_counts() {
    let cases: [(Problem, u128); 5] = [
        (pentominoes(3, 20), 8),
        // 1,472 = 4 x 368 (Haselgrove): 26 words, walked as lists of words.
        (pentominoes(4, 15), 1472),
        (langford(8), 2 * 150),
        (queens(8), 92),
        (
            sudoku(
                "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ),
            1,
        ),
    ];
    for (p, want) in cases {
        let p = Arc::new(p);
        for threads in [1, 2] {
            assert_eq!(bit_count::<BitWalk>(&p, threads), want);
            assert_eq!(bit_count::<Listed>(&p, threads), want);
        }
    }
}

/// `cargo test --release bits_vs_cells -- --ignored --nocapture`: both
/// walks on one thread, for a first look (the benchmarks measure).
#[test]
#[ignore]
fn bits_vs_cells() {
    let cases = [
        ("pentominoes 6x10", pentominoes(6, 10)),
        ("langford 12", langford(12)),
        ("langford 13", langford(13)),
        ("queens 12", queens(12)),
        ("queens 13", queens(13)),
    ];
    let only = std::env::var("BITS_CASE").unwrap_or_default();
    for (name, p) in cases {
        if !name.contains(&only) {
            continue;
        }
        let p = Arc::new(p);
        let t = std::time::Instant::now();
        let a = bit_count::<BitWalk>(&p, 1);
        let bits = t.elapsed();
        let t = std::time::Instant::now();
        let search = CoverSearch::<Walk>::new(p.clone());
        let b = search_count(search, 1, &Control::new(), Duration::ZERO).unwrap();
        let cells = t.elapsed();
        assert_eq!(a, b);
        let nodes = |walk: &mut dyn FnMut(&mut Run) -> u64| {
            let ctl = Control::new();
            let stop = crate::engine::Stop::new(&ctl);
            let mut emit = |_: &[u32]| true;
            let mut run = Run::new(&stop, &mut emit, Probe::whole());
            walk(&mut run)
        };
        let mut bw = BitWalk::new(&p, None).unwrap();
        let bn = nodes(&mut |run| {
            bw.run_within::<true>(&p, run).unwrap();
            run.nodes()
        });
        let mut cw = <Walk as CoverWalk>::new(&p, None).unwrap();
        let cn = nodes(&mut |run| {
            cw.run_within::<true>(&p, run).unwrap();
            run.nodes()
        });
        println!("{name}: {a} covers, bits {bits:?} {bn} nodes, cells {cells:?} {cn} nodes");
    }
}
