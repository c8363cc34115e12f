//! The knight's-tour benchmark table: best-of-N wall times of `count_tours`
//! on one and two threads, against a faithful port of the seed article's plain
//! backtracking (`benches/support/seed_baseline.rs`), and of `find_tour` on 1000x1000.
//!
//! Prints a Markdown table on stdout (progress goes to stderr):
//!
//! ```text
//! cargo bench --bench table
//! cargo bench --bench table -- --baseline-limit-squares 36 --runs 3
//! ```
//!
//! Options:
//! * `--baseline-limit-squares N`: run the seed baseline only on boards of at
//!   most `N` squares (default 34: the exponential baseline takes about 6 s on
//!   4x8, but over 2 minutes on 5x7 and more on 6x6);
//! * `--runs N`: the most timed runs per cell (default 5; slow cells stop early).

#[path = "support/seed_baseline.rs"]
mod seed_baseline;

use _core::engine::Control;
use _core::knights::{count_tours, find_tour, tour_defect, Board};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Boards larger than this skip the baseline unless told otherwise: it takes
/// seconds on 4x8 (32 squares), minutes on 5x7 (35) and 6x6 (36) from a corner,
/// and far longer on 6x6 from every start.
const DEFAULT_BASELINE_LIMIT: usize = 34;
const DEFAULT_RUNS: usize = 5;
/// Stop repeating a cell of ours once its runs have taken this long in all.
const OUR_BUDGET: Duration = Duration::from_secs(2);
/// The same for a baseline cell.
const BASELINE_BUDGET: Duration = Duration::from_secs(8);

struct Options {
    baseline_limit: usize,
    runs: usize,
}

fn usage() -> ! {
    eprintln!("usage: table [--baseline-limit-squares N] [--runs N]");
    std::process::exit(2);
}

fn parse_options() -> Options {
    let mut options = Options {
        baseline_limit: DEFAULT_BASELINE_LIMIT,
        runs: DEFAULT_RUNS,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = || -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--baseline-limit-squares" => options.baseline_limit = number(),
            "--runs" => options.runs = number().max(1),
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "-h" | "--help" => usage(),
            other => {
                eprintln!("unknown argument {other:?}");
                usage();
            }
        }
    }
    options
}

/// The best wall time of up to `runs` calls of `f`, stopping early once the
/// calls have taken `budget` in all (at least one call); also the last result
/// and the number of calls.
fn best_of<T>(runs: usize, budget: Duration, mut f: impl FnMut() -> T) -> (Duration, T, usize) {
    let mut best = Duration::MAX;
    let mut spent = Duration::ZERO;
    let mut done = 0;
    loop {
        let t = Instant::now();
        let value = black_box(f());
        let elapsed = t.elapsed();
        best = best.min(elapsed);
        spent += elapsed;
        done += 1;
        if done >= runs || spent >= budget {
            return (best, value, done);
        }
    }
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms < 1.0 {
        format!("{ms:.4}")
    } else if ms < 10.0 {
        format!("{ms:.3}")
    } else if ms < 1000.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.0}")
    }
}

fn ratio(num: Duration, den: Duration) -> f64 {
    num.as_secs_f64() / den.as_secs_f64()
}

/// A ratio for the table: two decimals when small, whole numbers when large.
fn times(r: f64) -> String {
    if r < 10.0 {
        format!("{r:.2}x")
    } else {
        format!("{r:.0}x")
    }
}

struct CountCase {
    rows: usize,
    cols: usize,
    /// `true`: the lower-left corner; `false`: summed over every start.
    corner: bool,
}

fn count_row(case: &CountCase, options: &Options) -> String {
    let CountCase { rows, cols, corner } = *case;
    let start = corner.then_some((rows - 1) * cols);
    let board = Board::rectangle(rows, cols).expect("a valid board");
    let label = if corner {
        format!("({}, 0)", rows - 1)
    } else {
        "every square".to_string()
    };
    eprintln!("{rows}x{cols} from {label} ...");

    let ours = |threads: usize| {
        best_of(options.runs, OUR_BUDGET, || {
            count_tours(board.clone(), start, false, threads, &Control::new())
                .expect("count_tours succeeds")
        })
    };
    let (t1, count, n1) = ours(1);
    let (t2, count2, n2) = ours(2);
    assert_eq!(
        count, count2,
        "{rows}x{cols}: threads=1 and threads=2 disagree"
    );
    eprintln!("  ours: {count} tours, {t1:?} (best of {n1}) / {t2:?} (best of {n2})");

    let baseline = if rows * cols <= options.baseline_limit {
        let (tb, seed_count, nb) = best_of(options.runs, BASELINE_BUDGET, || {
            seed_baseline::count(rows, cols, start).expect("a board size the baseline knows")
        });
        assert_eq!(
            seed_count, count,
            "{rows}x{cols} from {label}: the seed baseline counts {seed_count}, we count {count}"
        );
        eprintln!("  seed baseline: {tb:?} (best of {nb})");
        Some(tb)
    } else {
        eprintln!("  seed baseline: skipped ({} squares)", rows * cols);
        None
    };

    let (base_cell, vs_cell) = match baseline {
        Some(tb) => (ms(tb), times(ratio(tb, t1))),
        None => ("skipped".to_string(), "-".to_string()),
    };
    format!(
        "| {rows}x{cols} | {label} | {count} | {} | {} | {} | {base_cell} | {vs_cell} |",
        ms(t1),
        ms(t2),
        times(ratio(t1, t2))
    )
}

fn find_row(n: usize, closed: bool, options: &Options) -> String {
    let board = Board::rectangle(n, n).expect("a valid board");
    let start = (n - 1) * n;
    let kind = if closed { "closed" } else { "open" };
    eprintln!("find_tour {n}x{n} {kind} ...");
    let ours = |threads: usize| {
        best_of(options.runs.min(3), OUR_BUDGET, || {
            find_tour(board.clone(), start, closed, threads, &Control::new())
                .expect("find_tour succeeds")
                .expect("a tour exists")
        })
    };
    let (t1, tour, n1) = ours(1);
    if let Some(defect) = tour_defect(&board, &tour, closed).expect("memory for the check") {
        panic!("find_tour {n}x{n} {kind} returned a bad tour: {defect}");
    }
    let (t2, _, n2) = ours(2);
    eprintln!("  ours: {t1:?} (best of {n1}) / {t2:?} (best of {n2})");
    format!(
        "| {n}x{n} find_tour ({kind}) | ({}, 0) | 1 tour (checked) | {} | {} | {} | n/a | - |",
        n - 1,
        ms(t1),
        ms(t2),
        times(ratio(t1, t2))
    )
}

fn main() {
    let options = parse_options();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    let cases = [
        (3, 4, true),
        (4, 7, true),
        (4, 8, true),
        (5, 6, true),
        (5, 7, true),
        (6, 6, true),
        (5, 5, false),
        (6, 6, false),
    ]
    .map(|(rows, cols, corner)| CountCase { rows, cols, corner });

    let mut lines = vec![
        "| board | start | count | threads=1 (ms) | threads=2 (ms) | 1->2 speed-up \
         | seed baseline (ms) | baseline/ours (threads=1) |"
            .to_string(),
        "|---|---|--:|--:|--:|--:|--:|--:|".to_string(),
    ];
    for case in &cases {
        lines.push(count_row(case, &options));
    }
    for closed in [false, true] {
        lines.push(find_row(1000, closed, &options));
    }

    println!(
        "Knight's tours: open, directed tours from the given start (`count_tours`, closed=false)."
    );
    println!(
        "Best of up to {} runs per cell (fewer once a cell has taken {} s for ours, {} s for \
         the baseline); {cores} logical core(s). Seed baseline: plain backtracking ported \
         from the article, single-threaded, run on boards of at most {} squares.",
        options.runs,
        OUR_BUDGET.as_secs(),
        BASELINE_BUDGET.as_secs(),
        options.baseline_limit
    );
    println!();
    for line in lines {
        println!("{line}");
    }
    println!();
    println!(
        "`count` is the number of directed open tours; \"every square\" sums over all starts. \
         `find_tour` rows time one Warnsdorff tour from the lower-left corner (checked with \
         `tour_defect` outside the timing); the heuristic is sequential, so its threads \
         setting matters only for the exact fallback on boards of at most 64 cells. The seed's \
         exhaustive search has no counterpart there (n/a)."
    );
}
