//! How fast a layer shard goes to a spill file and comes back: nanoseconds
//! an entry to write (`Writer::append`), to read back (`read_shard`, the
//! step that re-reads a spilled layer) and to copy as it stands
//! (`Writer::copy`, a checkpoint of a spilled layer), for each count type.
//!
//! Prints a Markdown table on stdout:
//!
//! ```text
//! cargo bench --bench layers
//! cargo bench --bench layers -- --entries 20000000 --runs 7
//! ```
//!
//! The entries are ten million (by default) keys a million apart with small
//! counts of random length, as a frontier layer's are; the file goes to the
//! system's temporary directory and is removed after.

use _core::layers::{read_shard, Count, Label, Packed, Writer, U256};
use std::path::PathBuf;
use std::time::Instant;

struct Options {
    entries: u64,
    runs: usize,
}

fn options() -> Options {
    let mut opts = Options {
        entries: 10_000_000,
        runs: 5,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let value = |it: &mut std::slice::Iter<String>| {
            let v = it.next().and_then(|v| v.parse::<u64>().ok());
            v.unwrap_or_else(|| panic!("{arg} takes a positive number"))
        };
        match arg.as_str() {
            "--entries" => opts.entries = value(&mut it).max(1),
            "--runs" => opts.runs = value(&mut it).max(1) as usize,
            _ => {} // cargo bench passes --bench
        }
    }
    opts
}

/// The best of `runs` calls of `f`, in nanoseconds an entry of `n`.
fn best_ns(runs: usize, n: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    best * 1e9 / n as f64
}

fn row<W: Count>(name: &str, opts: &Options, make: impl Fn(u64) -> W) {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let entries: Vec<(u64, W)> = (1..=opts.entries)
        .map(|k| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (k * 1_000_003 + (x & 0xffff), make(x >> (16 + (x & 31))))
        })
        .collect();
    let packed = Packed::from_entries(&entries);
    let n = packed.len();
    let dir = std::env::temp_dir();
    let path = |what: &str| -> PathBuf {
        dir.join(format!(
            "solvers-bench-layers-{}-{what}",
            std::process::id()
        ))
    };
    let label = Label {
        problem: 1,
        shard: 0,
    };
    // A file is removed when its last extent goes: each run writes its own.
    let (mut extent, mut run) = (None, 0);
    let write = best_ns(opts.runs, n, || {
        run += 1;
        let mut w = Writer::create(path(&format!("shard{run}"))).expect("a file");
        extent = Some(w.append(label, &packed).expect("written"));
        w.finish().expect("flushed");
    });
    let extent = extent.expect("written once");
    let bytes = std::fs::metadata(extent.file.path()).map_or(0, |m| m.len());
    let read = best_ns(opts.runs, n, || {
        let back = read_shard::<W>(&extent, label).expect("read back");
        assert_eq!(back.len(), n);
    });
    let copy = best_ns(opts.runs, n, || {
        let mut w = Writer::create(path("copy")).expect("a file");
        w.copy::<W>(&extent, label).expect("copied");
        w.finish().expect("flushed");
    });
    let per = bytes as f64 / n as f64;
    println!("| {name} | {n} | {per:.2} | {write:.1} | {read:.1} | {copy:.1} |");
}

fn main() {
    let opts = options();
    println!("| counts | entries | bytes an entry | write, ns | read back, ns | copy, ns |");
    println!("|---|---:|---:|---:|---:|---:|");
    row("u64", &opts, |v| v);
    row("u128", &opts, |v| v as u128);
    row("U256", &opts, |v| U256::from(v as u128));
}
