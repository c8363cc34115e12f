//! The states of each layer of a frontier count, with and without the
//! merging of mirror images (`cargo run --release --example frontier_layers
//! -- ROWS COLS [all|R,C] [closed] [THREADS] [both|mirror|plain] [top|out]
//! [GB DIR]`):
//! one line a step (the states of each way and their ratio), then the
//! widest layer, the sum over the steps and the seconds of each way; `top`
//! or `out` takes each sweep column from the top or from the outside in
//! (default: as the count does); `GB DIR` keeps the layers within `GB`
//! gigabytes of memory, spilling to `DIR` past them (default: in memory).
//! Each step is also reported on stderr as it ends (its states, the bytes
//! written so far, the seconds since the start, the peak resident memory so
//! far), so a run stopped early still leaves its layers' sizes, and a peak
//! past the budget names its step.

use _core::engine::Control;
use _core::knights::frontier::layer_sizes_within;
use _core::knights::Board;
use _core::layers::Spill;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod common;

fn main() {
    let common::CountArgs {
        rows,
        cols,
        start,
        closed,
        threads,
        rest: args,
    } = common::CountArgs::parse();
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
    let spill = match (args.get(7), args.get(8)) {
        (Some(gb), Some(dir)) => {
            let gb: f64 = gb.parse().expect("a budget in GB");
            Spill::new((gb * 1e9) as u64, Some(Path::new(dir)))
        }
        _ => Spill::unlimited(),
    };
    let board = Board::rectangle(rows, cols).expect("a board");
    let mut runs = Vec::new();
    for &mirror in ways {
        let t = Instant::now();
        let ctl = Control::new();
        let ended = AtomicBool::new(false);
        let (tours, sizes) = std::thread::scope(|scope| {
            scope.spawn(|| watch(&ctl, &spill, &ended, t));
            let counted = layer_sizes_within(
                &board,
                start,
                closed,
                (mirror, order),
                threads,
                &spill,
                &ctl,
            );
            ended.store(true, Ordering::Relaxed);
            counted.expect("a count")
        });
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

/// Report each step on stderr as it ends, until `ended`.
fn watch(ctl: &Control, spill: &Spill, ended: &AtomicBool, t: Instant) {
    let (mut seen, mut note) = (0, String::new());
    while !ended.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        // The sweep's note: the states after the step, the projection.
        if let Some(text) = ctl.take_notes().pop() {
            note = text;
        }
        let (done, total) = ctl.progress();
        if done > seen {
            seen = done;
            let peak = match peak_resident_gb() {
                Some(gb) => format!(", peak {gb:.2} GB resident so far"),
                None => String::new(),
            };
            eprintln!(
                "step {done} of {total}: {note}; {:.1} GB written, {:.0} s{peak}",
                spill.written() as f64 / 1e9,
                t.elapsed().as_secs_f64()
            );
        }
    }
}

/// The process's peak resident memory so far (Linux's `VmHWM`), in GB; the
/// step whose line first shows a peak is the step that made it.
fn peak_resident_gb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0 / 1e9)
}
