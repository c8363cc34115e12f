//! Count knight's tours of a rectangle by the frontier DP, printing the
//! count, the widest layer and the time (`cargo run --release --example
//! frontier_count -- ROWS COLS [all|R,C] [closed] [THREADS]`).

use _core::engine::Control;
use _core::frontier::{count_paths_reporting, Report};
use _core::knights::Board;
use std::sync::atomic::Ordering;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: usize| -> usize {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (rows, cols) = (num(0, 6), num(1, 6));
    let start = match args.get(2).map(String::as_str) {
        None | Some("all") => None,
        Some(rc) => {
            let (r, c) = rc.split_once(',').expect("start as R,C");
            Some(r.parse::<usize>().unwrap() * cols + c.parse::<usize>().unwrap())
        }
    };
    let closed = args.get(3).is_some_and(|a| a == "closed");
    let threads = num(4, 0);
    let board = Board::rectangle(rows, cols).expect("a board");
    let report = Report::new();
    let t = Instant::now();
    let n = count_paths_reporting(&board, start, closed, threads, &Control::new(), &report);
    println!(
        "{rows}x{cols} {:?} closed={closed}: {:?}, widest {} states, {:.3} s",
        start,
        n,
        report.widest.load(Ordering::Relaxed),
        t.elapsed().as_secs_f64()
    );
}
