//! The states of each layer of a frontier count, with and without the
//! merging of mirror images (`cargo run --release --example frontier_layers
//! -- ROWS COLS [all|R,C] [closed] [THREADS] [both|mirror|plain] [top|out]`):
//! one line a step (the states of each way and their ratio), then the
//! widest layer, the sum over the steps and the seconds of each way; `top`
//! or `out` takes each sweep column from the top or from the outside in
//! (default: as the count does).

use _core::engine::Control;
use _core::knights::frontier::layer_sizes;
use _core::knights::Board;
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
    let ways: &[bool] = match args.get(5).map(String::as_str) {
        Some("mirror") => &[true],
        Some("plain") => &[false],
        _ => &[false, true],
    };
    let order = match args.get(6).map(String::as_str) {
        Some("top") => Some(false),
        Some("out") => Some(true),
        _ => None,
    };
    let board = Board::rectangle(rows, cols).expect("a board");
    let mut runs = Vec::new();
    for &mirror in ways {
        let t = Instant::now();
        let (tours, sizes) = layer_sizes(
            &board,
            start,
            closed,
            (mirror, order),
            threads,
            &Control::new(),
        )
        .expect("a count");
        runs.push((mirror, tours, sizes, t.elapsed().as_secs_f64()));
    }
    let steps = runs[0].2.len();
    for k in 0..steps {
        let row: Vec<String> = runs.iter().map(|r| r.2[k].to_string()).collect();
        let ratio = match runs.len() {
            2 => format!("  {:.3}", runs[0].2[k] as f64 / runs[1].2[k].max(1) as f64),
            _ => String::new(),
        };
        println!("step {:>3}: {}{ratio}", k + 1, row.join(" "));
    }
    for (mirror, tours, sizes, seconds) in &runs {
        let widest = sizes.iter().copied().max().unwrap_or(0);
        let at = sizes.iter().position(|&s| s == widest).map_or(0, |k| k + 1);
        let total: u64 = sizes.iter().sum();
        let how = if *mirror { "mirror" } else { "plain" };
        println!(
            "{rows}x{cols} {start:?} closed={closed} {how}: {tours} tours, widest {widest} \
             (step {at} of {steps}), {total} states in all, {seconds:.2} s"
        );
    }
}
