//! The N-Queens benchmark table: `count_queens` on one and two threads against
//! a baseline of the seeds' kind (bitmask backtracking, first queen in the left
//! half of row 0 with the middle column for odd n counted once: the mirror
//! symmetry only), run on the same threads in the same process.
//!
//! ```text
//! cargo bench --bench queens_table               # n = 12..16
//! cargo bench --bench queens_table -- 14 18      # n from 14 to 18 (minutes)
//! ```

use _core::cpu;
use _core::engine::{self, Control, SearchError, Stop, SubtreeSearch};
use _core::queens::{construct_queens, count_queens, placement_defect, Method};
use std::time::{Duration, Instant};

/// The baseline: rows top to bottom, columns as bits, mirror symmetry only.
struct Mirror {
    n: usize,
    full: u64,
}

#[derive(Clone)]
struct Node {
    row: usize,
    cols: u64,
    left: u64,
    right: u64,
    weight: u128,
}

impl Mirror {
    fn below(&self, row: usize, cols: u64, left: u64, right: u64) -> u128 {
        if row == self.n {
            return 1;
        }
        let mut free = self.full & !(cols | left | right);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += self.below(row + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1);
        }
        total
    }
}

impl SubtreeSearch for Mirror {
    type Task = Node;
    type Solution = ();
    type Scratch = ();

    fn scratch(&self, _: &Stop) -> Result<(), SearchError> {
        Ok(())
    }

    fn split(&self, node: &Node, out: &mut Vec<Node>) -> bool {
        if node.row == self.n {
            return false;
        }
        let mut free = self.full & !(node.cols | node.left | node.right);
        if node.row == 0 {
            // Left half weighs 2 (its mirror image); the middle column of odd n, 1.
            free &= (1u64 << self.n.div_ceil(2)) - 1;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let middle = self.n % 2 == 1 && bit == 1 << (self.n / 2);
            out.push(Node {
                row: node.row + 1,
                cols: node.cols | bit,
                left: ((node.left | bit) << 1) & self.full,
                right: (node.right | bit) >> 1,
                weight: if node.row == 0 && !middle {
                    2
                } else {
                    node.weight
                },
            });
        }
        true
    }

    fn count(&self, node: &Node, _: &mut (), _: &Stop) -> Result<u128, SearchError> {
        Ok(node.weight * self.below(node.row, node.cols, node.left, node.right))
    }

    fn visit(
        &self,
        _: &Node,
        _: &Stop,
        _: &mut dyn FnMut(()) -> bool,
    ) -> Result<bool, SearchError> {
        Ok(true)
    }
}

fn mirror_count(n: usize, threads: usize) -> u128 {
    let search = Mirror {
        n,
        full: (1u64 << n) - 1,
    };
    let root = Node {
        row: 0,
        cols: 0,
        left: 0,
        right: 0,
        weight: 1,
    };
    let ctl = Control::new();
    let tasks =
        engine::plan(&search, vec![root], engine::tasks_for(threads), n, &ctl).expect("a plan");
    engine::count(&search, &tasks, threads, &ctl).expect("baseline count")
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut value = None;
    let started = Instant::now();
    for _ in 0..runs {
        let t = Instant::now();
        value = Some(f());
        best = best.min(t.elapsed());
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    (value.expect("at least one run"), best)
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn main() {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (low, high) = match numbers.as_slice() {
        [a, b, ..] => (*a, *b),
        _ => (12, 16),
    };
    eprintln!("CPU kernels: {}", cpu::level());
    println!("| n | solutions | join t=1 (ms) | join t=2 (ms) | frames t=1 (ms) | frames t=2 (ms) | mirror t=1 (ms) | mirror t=2 (ms) | mirror/join (t=2) |");
    println!("|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for n in low..=high {
        eprintln!("n = {n} ...");
        let count = |method, threads| {
            let method = Method::resolve(method, n).unwrap_or(Method::Frames);
            count_queens(n, false, method, threads, &Control::new()).unwrap()
        };
        let (ours, j1) = best_of(3, || count(Method::Join, 1));
        let (_, j2) = best_of(3, || count(Method::Join, 2));
        let (frames, f1) = best_of(3, || count(Method::Frames, 1));
        let (_, f2) = best_of(3, || count(Method::Frames, 2));
        let (base, b1) = best_of(3, || mirror_count(n, 1));
        let (_, b2) = best_of(3, || mirror_count(n, 2));
        assert_eq!(ours, base, "n = {n}: the join and the baseline disagree");
        assert_eq!(
            frames, base,
            "n = {n}: the frames and the baseline disagree"
        );
        let ratio = b2.as_secs_f64() / j2.as_secs_f64();
        println!(
            "| {n} | {ours} | {} | {} | {} | {} | {} | {} | {ratio:.2}x |",
            ms(j1),
            ms(j2),
            ms(f1),
            ms(f2),
            ms(b1),
            ms(b2)
        );
    }
    let t = Instant::now();
    let cols = construct_queens(10_000_000).unwrap().unwrap();
    assert_eq!(placement_defect(&cols), Ok(None));
    println!(
        "\nconstruct + verify 10,000,000 queens: {} ms",
        ms(t.elapsed())
    );
}
