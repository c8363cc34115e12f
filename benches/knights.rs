//! Criterion benchmarks of the knight's-tour core: exact counts from the
//! lower-left corner on one and two threads, and Warnsdorff's `find_tour` on
//! large boards.  Sample sizes and measurement times are kept small so that
//! `cargo bench --bench knights` finishes in about two minutes.

use _core::engine::Control;
use _core::knights::{count_tours, find_tour, Board};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use std::hint::black_box;
use std::time::Duration;

fn count_from_corner(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_tours_corner");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (rows, cols) in [(3, 4), (4, 7), (5, 6)] {
        let board = Board::rectangle(rows, cols).expect("a valid board");
        let start = Some((rows - 1) * cols);
        for threads in [1, 2] {
            group.bench_with_input(
                BenchmarkId::new(format!("{rows}x{cols}"), format!("threads={threads}")),
                &threads,
                |b, &threads| {
                    b.iter(|| {
                        count_tours(
                            black_box(board.clone()),
                            start,
                            false,
                            threads,
                            &Control::new(),
                        )
                        .expect("count_tours succeeds")
                    })
                },
            );
        }
    }
    group.finish();
}

fn find_large(c: &mut Criterion) {
    let mut group = c.benchmark_group("find_tour_open");
    // Flat sampling: ten equal samples of a ~100 ms search fit the time limit.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for n in [100, 1000] {
        let board = Board::rectangle(n, n).expect("a valid board");
        let start = (n - 1) * n;
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{n}x{n}")),
            &n,
            |b, _| {
                b.iter(|| {
                    find_tour(black_box(board.clone()), start, false, 1, &Control::new())
                        .expect("find_tour succeeds")
                        .expect("a tour exists")
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, count_from_corner, find_large);
criterion_main!(benches);
