//! The blocks' splits and covers, and constructed tours on narrow strips,
//! odd boards and wide boards from every start.

use super::plan::split;
use super::*;

fn finder(board: &Board, start: usize, closed: bool) -> Result<Option<Vec<u32>>, SearchError> {
    super::super::small_tour(board, start, closed, &Control::new())
}

#[test]
fn splits_cover_the_length() {
    for len in 5..200 {
        let p = split(len, &[5, 6, 7, 8, 9], 8).unwrap();
        assert_eq!(p.iter().sum::<usize>(), len);
    }
    for len in (6..200).step_by(2) {
        let p = split(len, &[6, 8, 10], 8).unwrap();
        assert_eq!(p.iter().sum::<usize>(), len);
    }
    assert!(split(7, &[6, 8, 10], 8).is_none());
}

#[test]
fn block_covers_exist() {
    let mut cache = HashMap::new();
    for h in 5..=9 {
        for w in [6, 8, 10] {
            let c = plain_cover(h, w, &finder, &mut cache).unwrap().unwrap();
            assert_eq!(c.pieces, 1, "{h}x{w}");
            let c = plain_cover(w, h, &finder, &mut cache).unwrap().unwrap();
            assert_eq!(c.pieces, 1, "{w}x{h}");
        }
    }
    for w in [10, 12, 14, 16, 18] {
        assert!(plain_cover(3, w, &finder, &mut cache).unwrap().is_some());
    }
    for w in [6, 8, 10] {
        let c = Cover::two_factor(4, w).unwrap();
        assert!(c.pieces >= 2, "4x{w} has no closed tour");
    }
}

fn check(rows: usize, cols: usize, start: usize, closed: bool) {
    let board = Board::rectangle(rows, cols).unwrap();
    let tour = construct(&board, start, closed, &finder, &Control::new())
        .unwrap()
        .unwrap_or_else(|| panic!("no construction on {rows}x{cols} from {start} closed={closed}"));
    assert_eq!(tour_defect(&board, &tour, closed), Ok(None));
    assert_eq!(tour[0] as usize, start);
}

/// Every start of 3- and 4-wide strips (and their transposes) from which
/// an open tour exists (the colour and outer-line rules) constructs: the
/// lanes of `lanes.rs`, or for 4-wide starts deep inside the blocks here.
#[test]
fn narrow_strips_from_every_start() {
    // Lengths are cut into blocks of 6, 8 and 10 columns and the start's
    // odd block: 17 to 40 (and 23 to 45 for 3 rows) meet every mix of them,
    // 61 to 64 and 201 longer runs of the same.
    let four = (17..=40).chain(61..=64);
    let three = (23..=45).step_by(2).chain([59, 61]);
    let mut lens: Vec<(usize, usize)> = four.map(|n| (4, n)).collect();
    lens.extend(three.map(|n| (3, n)));
    lens.extend([(4, 201), (3, 201)]);
    for (h, n) in lens {
        for (rows, cols) in [(h, n), (n, h)] {
            let board = Board::rectangle(rows, cols).unwrap();
            for s in 0..rows * cols {
                if board.tour_impossible(s, false, &Control::new()).unwrap() {
                    continue;
                }
                let t = construct(&board, s, false, &finder, &Control::new()).unwrap();
                let t = t.unwrap_or_else(|| panic!("{rows}x{cols} from {s}: none"));
                assert_eq!(t[0] as usize, s);
                assert_eq!(tour_defect(&board, &t, false), Ok(None));
            }
        }
    }
}

/// Odd x odd boards at least 5 wide: every start of the majority colour
/// constructs (no fallback to Warnsdorff's rule).
#[test]
fn odd_boards_from_every_majority_start() {
    let mut sizes = Vec::new();
    for r in (5..=11).step_by(2) {
        for c in (r..=13).step_by(2) {
            sizes.push((r, c));
        }
    }
    sizes.extend([(5, 31), (15, 17), (21, 21)]);
    for (r, c) in sizes {
        for (rows, cols) in [(r, c), (c, r)] {
            for s in 0..rows * cols {
                if (s / cols + s % cols) % 2 == 0 && rows * cols > 64 {
                    check(rows, cols, s, false);
                }
            }
        }
    }
}

#[test]
fn narrow_and_wide_boards() {
    for n in [22, 24, 26, 28, 30, 32, 40, 202, 1000] {
        check(3, n, 2 * n, true);
        check(n, 3, n * 3 - 3, false);
    }
    for n in [23, 25, 27, 29, 31, 33, 101, 999] {
        check(3, n, 2 * n, false);
    }
    for n in [17, 18, 19, 20, 21, 22, 23, 24, 57, 100, 1001] {
        check(4, n, 3 * n, false);
    }
    for (r, c) in [
        (9, 9),
        (11, 11),
        (13, 17),
        (60, 59),
        (64, 64),
        (5, 13),
        (7, 9),
    ] {
        check(r, c, (r - 1) * c, false);
        if r * c % 2 == 0 {
            check(r, c, (r - 1) * c, true);
        }
    }
}
