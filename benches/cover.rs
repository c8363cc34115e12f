//! Criterion benchmarks of the exact-cover core: counts by the search on
//! one and two threads (pentominoes in a 3x20 box, Langford pairs, queens as
//! exact cover, a batch of Sudokus) and by the memo (domino tilings).
//!
//! ```text
//! cargo bench --bench cover                      # the Criterion groups (about two minutes)
//! COVER_DLX=/work/peers/instances cargo bench --bench cover
//!     # instead: every *.dlx file there (and sudoku/*.dlx as one batch),
//!     # counted once on 1 and 2 threads, as a table beside Knuth's programs
//! ```
//!
//! The DLX reader below is the benchmark's own (Knuth's format: the first
//! line lists the items, primary then `|` then secondary; one option per
//! line; `item:colour`; lines starting with `|` are comments); the package's
//! reader is `solvers.ExactCover.from_dlx`.

use _core::cover::instances::{dominoes, langford, pentominoes, queens, sudoku};
use _core::cover::{count_covers, Method, Problem};
use _core::engine::Control;
use criterion::{BenchmarkId, Criterion};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A problem from DLX text.
fn read_dlx(text: &str) -> Problem {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|'));
    let first = lines.next().expect("an item line");
    let mut names: HashMap<&str, u32> = HashMap::new();
    let mut n_primary = None;
    for word in first.split_whitespace() {
        if word == "|" {
            n_primary = Some(names.len());
            continue;
        }
        let at = names.len() as u32;
        names.insert(word, at);
    }
    let n_items = names.len();
    let n_primary = n_primary.unwrap_or(n_items);
    let mut colours: HashMap<&str, u32> = HashMap::new();
    let (mut starts, mut items, mut colors) = (vec![0u32], Vec::new(), Vec::new());
    for line in lines {
        for word in line.split_whitespace() {
            let (name, colour) = word.split_once(':').unwrap_or((word, ""));
            items.push(names[name]);
            colors.push(if colour.is_empty() {
                0
            } else {
                let next = colours.len() as u32 + 1;
                *colours.entry(colour).or_insert(next)
            });
        }
        starts.push(items.len() as u32);
    }
    Problem::new(n_primary, n_items - n_primary, &starts, &items, &colors)
        .expect("a valid DLX file")
}

fn count(p: &Arc<Problem>, threads: usize) -> u128 {
    count_covers(
        p.clone(),
        Method::Search,
        threads,
        None,
        None,
        &Control::new(),
    )
    .expect("a count")
}

/// Seconds of one call of `f` (the best of `runs`).
fn best_of<R>(runs: usize, mut f: impl FnMut() -> R) -> (f64, R) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        last = Some(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, last.expect("one run"))
}

/// `COVER_ONE_THREAD=1`: time one thread only (for `perf stat`).
fn only_one() -> bool {
    std::env::var_os("COVER_ONE_THREAD").is_some()
}

/// The table of the `.dlx` files in `dir` (and its `sudoku/` batch).
fn table(dir: &Path) {
    let runs: usize = std::env::var("COVER_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    println!("| instance | count | 1 thread (s) | 2 threads (s) |");
    println!("|---|---:|---:|---:|");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the instance folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dlx"))
        .collect();
    files.sort();
    for file in files {
        let p = Arc::new(read_dlx(&std::fs::read_to_string(&file).expect("a file")));
        let (one, n) = best_of(runs, || count(&p, 1));
        let two = if only_one() {
            f64::NAN
        } else {
            best_of(runs, || count(&p, 2)).0
        };
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        println!("| {name} | {n} | {one:.3} | {two:.3} |");
    }
    let sudokus = dir.join("sudoku");
    if let Ok(entries) = std::fs::read_dir(&sudokus) {
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        let texts: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(f).expect("a file"))
            .collect();
        let batch = |threads: usize| {
            // Read and count each, as a user with a file per puzzle would.
            texts
                .iter()
                .map(|t| count(&Arc::new(read_dlx(t)), threads))
                .sum::<u128>()
        };
        let (one, n) = best_of(runs, || batch(1));
        let two = if only_one() {
            f64::NAN
        } else {
            best_of(runs, || batch(2)).0
        };
        println!(
            "| sudoku x{} | {n} in all | {one:.3} | {two:.3} |",
            texts.len()
        );
    }
}

fn searches(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_covers");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let problems = [
        ("pentominoes_3x20", pentominoes(3, 20)),
        ("langford_10", langford(10)),
        ("queens_10", queens(10)),
    ];
    for (name, p) in problems {
        let p = Arc::new(p);
        for threads in [1, 2] {
            group.bench_with_input(
                BenchmarkId::new(name, format!("threads={threads}")),
                &threads,
                |b, &t| b.iter(|| count(black_box(&p), t)),
            );
        }
    }
    let grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let p = Arc::new(sudoku(grid));
    group.bench_function("sudoku_hard", |b| b.iter(|| count(black_box(&p), 1)));
    group.finish();
}

fn memo(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_covers_memo");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let p = Arc::new(dominoes(12, 12));
    group.bench_function("dominoes_12x12", |b| {
        b.iter(|| {
            count_covers(
                black_box(p.clone()),
                Method::Memo,
                1,
                None,
                None,
                &Control::new(),
            )
        })
    });
    group.finish();
}

fn main() {
    if let Some(dir) = std::env::var_os("COVER_DLX") {
        table(Path::new(&dir));
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    searches(&mut c);
    memo(&mut c);
    c.final_summary();
}
