use _core::engine::Control;
use _core::knights::*;
use std::time::Instant;
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let closed = args[2] == 1;
    for n in args[0]..=args[1] {
        let board = Board::rectangle(n, n).unwrap();
        let t = Instant::now();
        let r = warnsdorff(&board, 0, closed, &Control::new()).unwrap();
        let ok = r.as_ref().map(|p| {
            tour_defect(
                &board,
                &p.iter().map(|&x| x as usize).collect::<Vec<_>>(),
                closed,
            )
            .is_none()
        });
        println!("{n}: {:?} {:?}", ok, t.elapsed());
    }
}
