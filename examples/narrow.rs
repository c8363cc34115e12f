//! Where `find_tour` gives up on narrow boards: tries ROWS x n for n in LO..=HI
//! (CLOSED = 1 for closed tours) and prints the widths where the heuristic
//! failed and the slow ones.  What `find_tour` does on 3 x n and 4 x n now
//! is in `docs/memory.md` ("Limits"); this checks it on any range.
//!
//! ```text
//! cargo run --release --example narrow -- 3 100 200 1
//! ```

use _core::engine::Control;
use _core::knights::*;
use std::time::Instant;
fn main() {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let (rows, lo, hi, closed) = (a[0], a[1], a[2], a[3] == 1);
    let mut fails = vec![];
    let t0 = Instant::now();
    for n in lo..=hi {
        let board = Board::rectangle(rows, n).unwrap();
        let t = Instant::now();
        let r = find_tour(board.clone(), (rows - 1) * n, closed, 1, &Control::new());
        let el = t.elapsed();
        match r {
            Ok(Some(p)) => {
                assert_eq!(tour_defect(&board, &p, closed), Ok(None));
            }
            Ok(None) => {}
            Err(_) => fails.push(n),
        }
        if el.as_millis() > 300 {
            println!("slow {rows}x{n}: {el:?}");
        }
    }
    println!(
        "{rows}xn closed={closed} fails={fails:?} total {:?}",
        t0.elapsed()
    );
}
