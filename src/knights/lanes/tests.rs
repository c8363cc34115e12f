//! Open tours from every start of narrow strips, built by the lanes alone
//! and checked square by square.

use super::super::board::tour_defect;
use super::*;

/// Every start an open tour can begin on (the majority colour on 3 x odd)
/// gets a verified tour from the lanes alone; on 4-wide strips those in
/// the first four columns from an end (the rest: `construct.rs` tests).
fn every_start(h: usize, len: usize) {
    for (rows, cols) in [(h, len), (len, h)] {
        let board = Board::rectangle(rows, cols).unwrap();
        for s in 0..rows * cols {
            if board.tour_impossible(s, false, &Control::new()).unwrap() {
                continue;
            }
            let along = if rows == h { s % cols } else { s / cols };
            if h == 4 && along.min(len - 1 - along) >= 4 {
                continue;
            }
            let tour = strip_tour(&board, s, false, &Control::new()).unwrap();
            let tour = tour.unwrap_or_else(|| panic!("{rows}x{cols} from {s}: no chain"));
            assert_eq!(tour[0] as usize, s, "{rows}x{cols}");
            assert_eq!(
                tour_defect(&board, &tour, false),
                Ok(None),
                "{rows}x{cols} {s}"
            );
        }
    }
}

#[test]
fn open_tours_from_every_start_of_narrow_strips() {
    let (three, four) = (23..=61, 17..=40);
    for len in three.step_by(2) {
        every_start(3, len);
    }
    for len in four {
        every_start(4, len);
    }
    every_start(4, 1001);
    every_start(3, 1001);
}
