use _core::engine::Control;
use _core::knights::*;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (r, c): (usize, usize) = (a[0].parse().unwrap(), a[1].parse().unwrap());
    let all = a[2] == "all";
    let closed = a.get(4).map_or(false, |x| x == "closed");
    let threads: usize = a[3].parse().unwrap();
    let board = Board::rectangle(r, c).unwrap();
    let start = if all { None } else { Some((r - 1) * c) };
    let mut best = std::time::Duration::MAX;
    let mut n = 0;
    for _ in 0..3 {
        let t = Instant::now();
        n = count_tours(board.clone(), start, closed, threads, &Control::new()).unwrap();
        best = best.min(t.elapsed());
    }
    println!("{r}x{c} {} threads={threads}: {n} in {:?}", a[2], best);
}
