//! The bitset walk against the brute force of `tests.rs` and against the
//! dancing cells' walk: the same counts on every thread count, the covers
//! in the same order, and the published counts.

use super::bits::BitWalk;
use super::count::{search_count, stream_with};
use super::instances::{langford, pentominoes, queens, sudoku};
use super::tests::{listed, random_smalls};
use super::*;
use crate::engine::Control;
use std::sync::Arc;
use std::time::Duration;

fn bit_count(p: &Arc<Problem>, threads: usize) -> u128 {
    let search = CoverSearch::<BitWalk>::new(p.clone());
    search_count(search, threads, &Control::new(), Duration::ZERO).unwrap()
}

fn bit_listed(p: &Arc<Problem>) -> Vec<Vec<u32>> {
    let rx = stream_with::<BitWalk>(p.clone(), Arc::new(Control::new())).unwrap();
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
        for threads in [1, 2, 8] {
            assert_eq!(bit_count(&p, threads), n, "{small:?} on {threads}");
        }
        assert_eq!(bit_listed(&p), listed(p.clone()), "{small:?}");
    }
}

#[test]
fn published_counts() {
    let cases: [(Problem, u128); 4] = [
        (pentominoes(3, 20), 8),
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
            assert_eq!(bit_count(&p, threads), want);
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
        ("queens 12", queens(12)),
    ];
    for (name, p) in cases {
        let p = Arc::new(p);
        let t = std::time::Instant::now();
        let a = bit_count(&p, 1);
        let bits = t.elapsed();
        let t = std::time::Instant::now();
        let search = CoverSearch::<Walk>::new(p.clone());
        let b = search_count(search, 1, &Control::new(), Duration::ZERO).unwrap();
        let cells = t.elapsed();
        assert_eq!(a, b);
        println!("{name}: {a} covers, bits {bits:?}, cells {cells:?}");
    }
}
