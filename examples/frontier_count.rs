//! Count knight's tours of a rectangle by the frontier DP, printing the
//! count, the widest layer and the time (`cargo run --release --example
//! frontier_count -- ROWS COLS [all|R,C] [closed] [THREADS] [MAX_RSS_MB]`).
//! Each step and the resident memory go to stderr; past `MAX_RSS_MB` the
//! count is cancelled (to see how far a big board gets).

use _core::engine::Control;
use _core::knights::frontier::count_paths;
use _core::knights::Board;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod common;

fn main() {
    let args = common::CountArgs::parse();
    let max_rss = args.num(5, usize::MAX);
    let common::CountArgs {
        rows,
        cols,
        start,
        closed,
        threads,
        ..
    } = args;
    let board = Board::rectangle(rows, cols).expect("a board");
    let ctl = Control::new();
    let over = AtomicBool::new(false);
    let t = Instant::now();
    let n = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| watch(&ctl, &over, max_rss, t));
        let n = count_paths(&board, start, closed, threads, &ctl);
        over.store(true, Ordering::Relaxed);
        let _ = watcher.join();
        n
    });
    match n {
        Ok(n) => println!(
            "{rows}x{cols} {start:?} closed={closed}: {}, widest {} states, {:.3} s",
            n.tours,
            n.widest,
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("{rows}x{cols} {start:?} closed={closed}: {e}"),
    }
}

/// Print each new step and the resident memory; cancel past `max_rss` MB.
/// Ends when `over` is set.
fn watch(ctl: &Control, over: &AtomicBool, max_rss: usize, t: Instant) {
    let mut seen = 0;
    let mut peak = 0;
    while !over.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let rss = rss_mb();
        peak = peak.max(rss);
        if rss > max_rss && !ctl.is_cancelled() {
            eprintln!("resident {rss} MB > {max_rss} MB: cancelling");
            ctl.cancel();
        }
        let (step, steps) = ctl.progress();
        if step != seen {
            seen = step;
            eprintln!(
                "step {step}/{steps}: resident {rss} MB (peak {peak}), {:.1} s",
                t.elapsed().as_secs_f64()
            );
        }
    }
}

/// Resident memory in MB (Linux; 0 elsewhere).
fn rss_mb() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |pages| (pages * 4096) >> 20)
}
