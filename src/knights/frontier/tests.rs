//! The frontier count against the backtracking search, a plain depth-first
//! search and published values; merging, orders, spills and checkpoints agree.

use super::*;
use crate::knights;

fn both(board: &Board, start: Option<usize>, closed: bool) -> (u128, u128) {
    let ctl = Control::new();
    let f = count_paths(board, start, closed, 1, &ctl)
        .unwrap()
        .tours
        .to_u128()
        .unwrap();
    let s = knights::count_tours(board.clone(), start, closed, 1, &ctl).unwrap();
    (f, s)
}

#[test]
fn agrees_with_search_on_small_rectangles() {
    for (rows, cols) in (1..=5)
        .flat_map(|r| (1..=5).map(move |c| (r, c)))
        .chain([(3, 10), (5, 6)])
    {
        {
            let board = Board::rectangle(rows, cols).unwrap();
            for closed in [false, true] {
                let (f, s) = both(&board, None, closed);
                assert_eq!(f, s, "{rows}x{cols} all closed={closed}");
                for start in 0..rows * cols {
                    let (f, s) = both(&board, Some(start), closed);
                    assert_eq!(f, s, "{rows}x{cols} from {start} closed={closed}");
                }
            }
        }
    }
}

/// The undirected paths (cycles) of a count swept across the board's
/// longer side: columns of up to 8 squares, the dense keys of `code.rs`.
fn swept_the_long_way(board: &Board, ends: (Option<usize>, Option<usize>), closed: bool) -> U256 {
    let by_columns = board.rows() > board.cols();
    paths_in_memory(&Sweep::oriented(board, ends, closed, by_columns).unwrap())
}

/// The undirected paths (cycles) of `sweep`, run in memory; 0 where the
/// colours rule out every tour (no sweep is run then).
fn paths_in_memory(sweep: &Sweep<'_>) -> U256 {
    if sweep.caps.is_none() {
        return U256::default();
    }
    let storage = Storage {
        spill: &Spill::unlimited(),
        checkpoint: None,
    };
    (sweep.run(1, storage, &Control::new(), None).unwrap()).0
}

#[test]
fn columns_of_eight_agree_with_the_short_sweep() {
    // The same boards swept both ways: across (columns of 8, a working
    // frontier of 18 slots in a u128, keys packed densely) and along.
    // Across, the frontier is most of the board, so only small boards.
    let ctl = Control::new();
    for (rows, cols) in [(3, 8), (8, 4)] {
        let board = Board::rectangle(rows, cols).unwrap();
        let tours = |start, closed| count_paths(&board, start, closed, 1, &ctl).unwrap().tours;
        let long = |ends: (Option<usize>, Option<usize>), closed| {
            let paths = swept_the_long_way(&board, ends, closed);
            tours_from_paths(&board, ends.0, closed, paths).unwrap()
        };
        assert_eq!(long((None, None), true), tours(None, true), "{rows}x{cols}");
        // (Every end from every start of 8x4 takes seconds: one start.)
        let starts = match rows * cols <= 24 {
            true => 0..24,
            false => 0..1,
        };
        for start in starts {
            let want = tours(Some(start), false);
            assert_eq!(
                long((Some(start), None), false),
                want,
                "{rows}x{cols} from {start}"
            );
            let by_end = (0..rows * cols)
                .filter(|&end| end != start)
                .map(|end| long((Some(start), Some(end)), false).to_u128().unwrap())
                .sum::<u128>();
            assert_eq!(
                U256::from(by_end),
                want,
                "{rows}x{cols} from {start}, by end"
            );
        }
    }
}

/// The `rows x cols` rectangle less the cells `holes`.
fn rectangle_less(rows: usize, cols: usize, holes: &[usize]) -> Board {
    let present = (0..rows * cols).map(|i| !holes.contains(&i)).collect();
    Board::from_mask(rows, cols, present).unwrap()
}

#[test]
fn closed_columns_of_eight_from_the_outside_in() {
    // A closed count keys a frontier of 18 squares (columns of 8 from
    // the outside in) in 63 bits: the same boards swept across that
    // way, with and without the mirror, against the sweep along.
    let ctl = Control::new();
    for board in [
        Board::rectangle(3, 8).unwrap(),
        Board::rectangle(8, 4).unwrap(),
        Board::rectangle(5, 8).unwrap(),
        // Not symmetric under the flip of the columns of 8: no mirror.
        rectangle_less(5, 8, &[0, 39]),
    ] {
        let want = count_paths(&board, None, true, 1, &ctl).unwrap().tours;
        let by_columns = board.rows() > board.cols();
        let across = Sweep::ordered(&board, (None, None), true, by_columns, true).unwrap();
        assert_eq!(across.width, 18);
        for sweep in [across.clone(), across.unmirrored()] {
            let paths = paths_in_memory(&sweep);
            let tours = tours_from_paths(&board, None, true, paths).unwrap();
            assert_eq!(tours, want, "{}x{}", board.rows(), board.cols());
        }
    }
    assert_eq!(
        count_paths(&Board::rectangle(5, 8).unwrap(), None, true, 1, &ctl)
            .unwrap()
            .tours,
        U256::from(2 * 40 * 44_202u128),
        "5x8 closed (OEIS A193055: 44,202 cycles)"
    );
    // An open count's key holds the tour ends: 17 squares at most.
    let board = Board::rectangle(3, 8).unwrap();
    let open = Sweep::ordered(&board, (None, None), false, false, true);
    assert!(open.is_err_and(|e| e.0.contains("outside")));
}

/// The directed tours and each layer's states of a count, with and
/// without mirror merging.
fn merged_and_plain(board: &Board, start: Option<usize>, closed: bool) -> [(U256, Vec<u64>); 2] {
    let ctl = Control::new();
    [true, false].map(|mirror| layer_sizes(board, start, closed, (mirror, None), 1, &ctl).unwrap())
}

#[test]
fn each_wide_step_makes_no_more_states_than_its_memory_plan() {
    // The plan of a step (`growth.rs`) is what its memory budget is
    // planned for: a step past it outgrows the budget.  Planned by the
    // last step's growth alone, the steps after a column's end (where
    // the mirror halves the layer) made up to 2.4 times their plan.
    // The steps that matter are the wide ones (half the widest layer or
    // more); from the top and from the outside in.  (A quarter, before
    // the pruning of `residual.rs` narrowed the widest layers: since
    // then step 18 of 5x7 open from the top, 47% of the widest, grows
    // 2.8x against a plan of 1.9x, as the board's first columns do.)
    let ctl = Control::new();
    for (rows, cols, closed) in [(6, 6, true), (6, 7, true), (5, 8, false), (5, 7, false)] {
        let board = Board::rectangle(rows, cols).unwrap();
        for outside_in in [false, true] {
            let how = (true, Some(outside_in));
            let (_, sizes) = layer_sizes(&board, None, closed, how, 2, &ctl).unwrap();
            let widest = sizes.iter().copied().max().unwrap() as usize;
            let mut growth = Growth::new(rows.min(cols));
            let mut before = 1;
            for (k, &after) in sizes.iter().enumerate() {
                let after = after as usize;
                let (_, bound) = growth.plan(k, before);
                assert!(
                    after < widest / 2 || after <= bound,
                    "{rows}x{cols} closed={closed} outside_in={outside_in}: step {} made \
                     {after} states from {before}, planned for {bound}",
                    k + 1
                );
                growth.record(k, before, after);
                before = after.max(1);
            }
        }
    }
}

#[test]
fn mirror_merging_never_changes_an_answer() {
    // Every rectangle up to 6x6 closed, and open over all starts up to
    // 30 squares (6x6 open takes 10 s in the dev profile; the Python
    // tests count it with merging against its published value): the
    // same count, and (where a column ends and there are states to
    // merge) fewer states.
    for (rows, cols) in (1..=6).flat_map(|r| (1..=6).map(move |c| (r, c))) {
        let board = Board::rectangle(rows, cols).unwrap();
        for closed in [false, true]
            .into_iter()
            .filter(|&c| c || rows * cols <= 30)
        {
            let [merged, plain] = merged_and_plain(&board, None, closed);
            assert_eq!(merged.0, plain.0, "{rows}x{cols} closed={closed}");
            assert!(merged.1.iter().zip(&plain.1).all(|(m, p)| m <= p));
        }
    }
    let board = Board::rectangle(6, 6).unwrap();
    let [merged, plain] = merged_and_plain(&board, None, true);
    let (m, p) = (merged.1.iter().sum::<u64>(), plain.1.iter().sum::<u64>());
    assert!(3 * m < 2 * p, "6x6 closed: {m} states merged, {p} plain");
    // Pinned starts: on the axis (the middle row of an odd side) the
    // states merge, off it they must not; 5x6 and 6x5 both sweep
    // columns of 5.
    for (rows, cols) in [(5, 5), (5, 6), (6, 5), (3, 7)] {
        let board = Board::rectangle(rows, cols).unwrap();
        for start in 0..rows * cols {
            let [merged, plain] = merged_and_plain(&board, Some(start), false);
            assert_eq!(merged.0, plain.0, "{rows}x{cols} from {start}");
            let (r, c) = (start / cols, start % cols);
            let on_axis = match rows <= cols {
                true => 2 * r + 1 == rows,
                false => 2 * c + 1 == cols,
            };
            if !on_axis {
                assert_eq!(merged.1, plain.1, "{rows}x{cols} from {start}: merged");
            }
        }
    }
    let board = Board::rectangle(5, 6).unwrap();
    let [merged, plain] = merged_and_plain(&board, Some(2 * 6 + 1), false);
    assert_ne!(merged.1, plain.1, "5x6 from (2, 1): not merged");
}

#[test]
fn both_square_orders_give_the_same_answers() {
    // Each column from the top or from the outside in, with or without
    // the mirror, against today's sweep (from the top, no mirror): every
    // rectangle up to 30 squares over all starts and from every start,
    // and 6x6 closed.
    let ctl = Control::new();
    let variants = [(true, Some(true)), (false, Some(true)), (true, Some(false))];
    let rectangles = (1..=6).flat_map(|r| (r..=7).map(move |c| (r, c)));
    for (rows, cols) in rectangles.filter(|&(r, c)| r * c <= 30).chain([(6, 6)]) {
        for (board, closed) in [
            (Board::rectangle(rows, cols).unwrap(), true),
            (Board::rectangle(rows, cols).unwrap(), false),
            (Board::rectangle(cols, rows).unwrap(), true),
        ]
        .into_iter()
        .filter(|&(_, closed)| closed || rows * cols <= 30)
        {
            let starts = match rows * cols <= 30 && !closed {
                true => (0..rows * cols).map(Some).chain([None]).collect(),
                false => vec![None],
            };
            for start in starts {
                let count = |how| layer_sizes(&board, start, closed, how, 1, &ctl).unwrap();
                let want = count((false, Some(false))).0;
                for how in variants {
                    assert_eq!(count(how).0, want, "{rows}x{cols} {start:?} {how:?}");
                }
            }
        }
    }
}

#[test]
fn mirror_merging_on_shaped_boards() {
    // Boards symmetric under the flip of the sweep's columns (merged:
    // the middle square of an odd column, or a square and its image
    // on an even one, so the colours still allow tours) and boards that
    // are not (a square taken from one side only: not merged).
    let ctl = Control::new();
    for (board, symmetric) in [
        (rectangle_less(5, 6, &[12]), true),
        (rectangle_less(6, 6, &[0, 30, 8, 26]), true),
        (rectangle_less(5, 6, &[0]), false),
        (rectangle_less(6, 6, &[7]), false),
    ] {
        for closed in [false, true] {
            let [merged, plain] = merged_and_plain(&board, None, closed);
            assert_eq!(merged.0, plain.0);
            let search = knights::count_tours(board.clone(), None, closed, 1, &ctl).unwrap();
            assert_eq!(merged.0.to_u128(), Some(search));
            if !symmetric {
                assert_eq!(merged.1, plain.1);
            }
        }
        let [merged, plain] = merged_and_plain(&board, None, false);
        assert_eq!(merged.1 != plain.1, symmetric);
    }
}

/// The first `cells` cells of an `h`-row board filled column by column,
/// as Knuth's partial-board sequences take them: cell (r, c) is the
/// (c h + r)-th, so the last column holds `cells mod h` rows when `h`
/// does not divide `cells`.
fn knuths_partial_board(h: usize, cells: usize) -> Board {
    let cols = cells.div_ceil(h);
    let present = (0..h * cols).map(|i| (i % cols) * h + i / cols < cells);
    Board::from_mask(h, cols, present.collect()).unwrap()
}

#[test]
fn knuths_partial_boards_closed() {
    // OEIS A383660 to A383664 (Knuth, TAOCP pre-fascicle 8A; 3 to 8
    // rows): the undirected closed tours of the first 2n cells of an
    // h-row board, from the n of each sequence's first term. Every term
    // is the answer on a board that ends one step further into its last
    // column, so together they check each step of a sweep of columns of
    // h (a board here with fewer columns than rows, as most of the 7- and
    // 8-row ones are, is swept along its rows instead); the boards of
    // whole columns are symmetric and merge, the others do not. Each
    // sequence's terms at whole columns are the rectangles' counts
    // (A175881 for 6 rows, A193055 for 8).
    let a383660: [u128; 20] = [
        4, 0, 4, 24, 16, 56, 306, 176, 456, 2632, 1536, 4828, 26788, 15424, 44952, 254288, 147728,
        448032, 2502568, 1448416,
    ];
    let a383661: [u128; 16] = [
        1, 0, 1, 30, 0, 148, 8, 78, 9309, 612, 62749, 44202, 42049, 2916485, 147192, 18284136,
    ];
    let a383662: [u128; 14] = [
        6, 0, 2, 302, 8, 151, 19072, 9862, 18202, 1603948, 1067638, 1310791, 107096187, 55488142,
    ];
    let a383663: [u128; 11] = [2, 11, 58, 0, 21, 1020, 9309, 1481, 34162, 1295034, 1067638];
    let a383664: [u128; 12] = [
        4, 12, 212, 0, 50, 4525, 101730, 44202, 66034, 2408624, 69362264, 55488142,
    ];
    let ctl = Control::new();
    let sequences = [
        (3, 11, &a383660[..]),
        (5, 9, &a383661[..]),
        (6, 11, &a383662[..]),
        (7, 11, &a383663[..]),
        (8, 13, &a383664[..]),
    ];
    for (h, first, terms) in sequences {
        for (i, &want) in terms.iter().enumerate() {
            let cells = 2 * (first + i);
            let board = knuths_partial_board(h, cells);
            let tours = count_paths(&board, None, true, 1, &ctl).unwrap().tours;
            let cycles = tours.to_u128().unwrap() / (2 * cells as u128);
            assert_eq!(cycles, want, "{h} rows, {cells} cells");
        }
    }
}

#[test]
fn knuths_partial_boards_open() {
    // OEIS A389759 and A389754 to A389758 (Knuth, TAOCP pre-fascicle
    // 8A; 3 to 8 rows): the undirected Hamiltonian paths of the first n
    // cells of an h-row board, n from 2 (a(1) = 1 is the path of one
    // square). The sweep with no end pinned carries every start at
    // once, and counts each path from both of its ends. Terms at whole
    // columns are A169696, A079137, A083386, A306281 and A306283.
    let a389759: [u128; 30] = [
        0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 8, 8, 4, 0, 8, 0, 0, 20, 44, 52, 465, 276, 396, 988, 824,
        560, 3888, 1384, 3048, 10348,
    ];
    let a389754: [u128; 31] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 0, 16, 40, 0, 0, 20, 144, 82, 0, 269, 1172, 744, 0, 2643,
        13711, 6378, 0, 15192, 72803, 31088,
    ];
    let a389755: [u128; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 4, 95, 144, 82, 16, 125, 1188, 4292, 864, 416,
        1030, 28229, 40770, 18784,
    ];
    let a389756: [u128; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 53, 1286, 1172, 744, 207, 800,
        4607, 60293, 40770, 18784,
    ];
    let a389757: [u128; 34] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 52, 160, 239, 1595, 1391, 13438,
        13711, 6378, 1930, 11394, 48948, 312319, 1151375, 2422436, 622868,
    ];
    let a389758: [u128; 37] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 24, 276, 396, 164, 1034, 3470,
        6404, 5555, 74927, 72803, 31088, 8932, 53645, 345827, 1892591, 3134440, 32766547,
    ];
    let ctl = Control::new();
    for (h, terms) in [
        (3, &a389759[..]),
        (4, &a389754[..]),
        (5, &a389755[..]),
        (6, &a389756[..]),
        (7, &a389757[..]),
        (8, &a389758[..]),
    ] {
        for (i, &want) in terms.iter().enumerate() {
            let cells = i + 2;
            let board = knuths_partial_board(h, cells);
            let tours = count_paths(&board, None, false, 1, &ctl).unwrap().tours;
            let paths = tours.to_u128().unwrap();
            assert_eq!(paths % 2, 0, "{h} rows, {cells} cells: {paths} directed");
            assert_eq!(paths / 2, want, "{h} rows, {cells} cells");
        }
    }
}

#[test]
fn published_values() {
    let ctl = Control::new();
    let b = Board::rectangle(3, 16).unwrap();
    assert_eq!(
        count_paths(&b, None, false, 2, &ctl).unwrap().tours,
        U256::from(17_273_760)
    );
}

#[test]
fn a_long_board_overflows_without_per_square_memory() {
    // 3 x 1,000,000: past 256 bits near column 146; the steps are worked
    // out as the sweep reaches them, so nothing is allocated per square.
    let board = Board::rectangle(3, 1_000_000).unwrap();
    let err = count_paths(&board, None, false, 1, &Control::new()).unwrap_err();
    assert_eq!(err, CountError::Search(SearchError::Overflow));
}

#[test]
fn spilling_steps_give_the_same_counts() {
    // Budgets of "everything spills" and "only the widest steps do";
    // 4x30 has counts past 64 and 128 bits, so every count type spills.
    let dir = std::env::temp_dir();
    for (rows, cols, start) in [
        (5, 5, None),
        (5, 6, Some(0)),
        (6, 6, Some(7)),
        (4, 30, None),
    ] {
        let board = Board::rectangle(rows, cols).unwrap();
        let ctl = Control::new();
        let want = count_paths(&board, start, false, 2, &ctl).unwrap();
        for budget in [1 << 10, 8 << 20] {
            let spill = Spill::new(budget, Some(&dir));
            let storage = Storage {
                spill: &spill,
                checkpoint: None,
            };
            let got = count_paths_within(&board, start, false, 2, storage, &ctl).unwrap();
            assert_eq!(
                got, want,
                "{rows}x{cols} from {start:?} within {budget} bytes"
            );
            if budget <= 1 << 10 {
                assert!(spill.written() > 0, "{rows}x{cols}: nothing spilled");
            }
        }
    }
}

/// A fresh directory inside the system's temporary one (removed first).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "solvers-frontier-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_stopped_count_resumes_to_the_same_total() {
    // Stopped after `stop` steps (a kill's stand-in) and called again,
    // with other threads and budgets; 4x30 has counts past 64 and 128
    // bits, so every count type is saved and read back.
    let ctl = Control::new();
    let unlimited = Spill::unlimited();
    for (rows, cols, start, closed) in [
        (5, 5, None, false),
        (5, 6, Some(0), false),
        (6, 6, Some(7), false),
        (6, 6, None, true),
        (4, 30, None, false),
    ] {
        let board = Board::rectangle(rows, cols).unwrap();
        let want = count_paths(&board, start, closed, 2, &ctl).unwrap();
        let steps = rows * cols;
        for (i, stop) in [1, steps / 3, steps / 2, steps - 1].into_iter().enumerate() {
            let dir = scratch(&format!("resume-{rows}x{cols}-{i}"));
            // Past 1 MiB the widest layers of 6x6 open and 4x30 spill,
            // past 64 KiB those of 6x6 closed (5,057 states at most).
            let budget = Spill::new(if closed { 1 << 16 } else { 1 << 20 }, None);
            let (first, then) = match i % 2 {
                0 => (&budget, &unlimited),
                _ => (&unlimited, &budget),
            };
            let at = |spill| Storage {
                spill,
                checkpoint: Some(&dir),
            };
            let stopping = Control::stopping_after(stop as u64);
            let stopped = count_paths_within(&board, start, closed, 1, at(first), &stopping);
            assert_eq!(stopped, Err(CountError::Search(SearchError::Cancelled)));
            let resumed = Control::new();
            let got = count_paths_within(&board, start, closed, 2, at(then), &resumed);
            assert_eq!(
                got,
                Ok(want),
                "{rows}x{cols} from {start:?} after {stop} steps"
            );
            // A rerun returns the answer saved, counting no step (one
            // would be cancelled).
            let again = Control::stopping_after(0);
            let got = count_paths_within(&board, start, closed, 2, at(then), &again);
            assert_eq!(got, Ok(want));
            assert_eq!(again.progress(), (steps as u64, steps as u64));
            // The widest layers of 6x6 and 4x30 spilled.
            if steps >= 36 && i == 1 {
                let spilled = budget.written();
                assert!(
                    spilled > 0,
                    "{rows}x{cols} closed={closed}, {i}: nothing spilled"
                );
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    // Without a budget a resumed layer is read into memory: no spilling.
    assert_eq!(unlimited.written(), 0);
}

#[test]
fn a_resumed_count_reports_the_steps_already_done() {
    let board = Board::rectangle(5, 5).unwrap();
    let dir = scratch("progress");
    let storage = Storage {
        spill: &Spill::unlimited(),
        checkpoint: Some(&dir),
    };
    let ctl = Control::stopping_after(10);
    let stopped = count_paths_within(&board, None, false, 1, storage, &ctl);
    assert!(stopped.is_err());
    assert_eq!(ctl.progress(), (10, 25));
    // Resumed and stopped again at once: 10 steps done, none counted.
    let ctl = Control::stopping_after(10);
    let stopped = count_paths_within(&board, None, false, 1, storage, &ctl);
    assert!(stopped.is_err());
    assert_eq!(ctl.progress(), (10, 25));
    // Each note after a saved step says what its checkpoint took.
    let notes = ctl.take_notes();
    assert!(notes.is_empty(), "{notes:?}");
    let ctl = Control::new();
    count_paths_within(&board, None, false, 1, storage, &ctl).unwrap();
    let notes = ctl.take_notes();
    assert_eq!(notes.len(), 15);
    assert!(!notes[0].contains("checkpoint"), "{}", notes[0]);
    for (k, note) in notes.iter().enumerate().skip(1) {
        let said = format!("; checkpoint of step {}: ", k + 10);
        assert!(note.contains(&said) && note.ends_with(" s"), "{note}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_of_another_count_is_refused() {
    let dir = scratch("foreign");
    let storage = Storage {
        spill: &Spill::unlimited(),
        checkpoint: Some(&dir),
    };
    let ctl = Control::new();
    let board = Board::rectangle(5, 5).unwrap();
    assert!(
        count_paths_within(&board, None, false, 1, storage, &Control::stopping_after(8)).is_err()
    );
    // (A closed 5x5 count is 0 without a sweep, so the closed case is
    // a 6x6 count resuming an open one.)
    let six = Board::rectangle(6, 6).unwrap();
    let open = Storage {
        checkpoint: Some(&dir.join("six")),
        ..storage
    };
    assert!(count_paths_within(&six, None, false, 1, open, &Control::stopping_after(3)).is_err());
    for (board, start, closed, storage) in [
        (&Board::rectangle(5, 6).unwrap(), None, false, storage),
        (&board, Some(0), false, storage),
        (&board, Some(12), false, storage),
        (&six, None, true, open),
    ] {
        let err = count_paths_within(board, start, closed, 1, storage, &ctl).unwrap_err();
        assert!(err.to_string().contains("another count"), "{err}");
    }
    // The directory still resumes its own count.
    let want = count_paths(&board, None, false, 1, &ctl).unwrap();
    assert_eq!(
        count_paths_within(&board, None, false, 1, storage, &ctl),
        Ok(want)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Directed Hamiltonian paths of the knight graph of a `rows x cols`
/// rectangle from `s` to `t`, by plain depth-first search (the test's own
/// moves and bit masks, nothing of the crate's).
fn paths_by_dfs(rows: usize, cols: usize, s: usize, t: usize) -> u128 {
    let n = rows * cols;
    let moves = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let near: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let (r, c) = ((i / cols) as i64, (i % cols) as i64);
            (moves.iter())
                .map(|&(dr, dc)| (r + dr, c + dc))
                .filter(|&(r, c)| r >= 0 && c >= 0 && r < rows as i64 && c < cols as i64)
                .map(|(r, c)| r as usize * cols + c as usize)
                .collect()
        })
        .collect();
    fn go(near: &[Vec<usize>], at: usize, seen: u64, n: usize, t: usize) -> u128 {
        if seen.count_ones() as usize == n {
            return (at == t) as u128;
        }
        (near[at].iter())
            .filter(|&&j| seen >> j & 1 == 0 && (j != t || seen.count_ones() as usize == n - 1))
            .map(|&j| go(near, j, seen | 1 << j, n, t))
            .sum()
    }
    go(&near, s, 1 << s, n, t)
}

#[test]
fn tours_between_two_squares_agree_with_a_plain_search() {
    let ctl = Control::new();
    let storage = Storage {
        spill: &Spill::unlimited(),
        checkpoint: None,
    };
    let mut found = 0;
    for (rows, cols) in [(3, 4), (4, 3), (3, 7), (4, 4), (4, 5), (5, 4), (5, 5)] {
        let board = Board::rectangle(rows, cols).unwrap();
        for s in 0..rows * cols {
            let mut sum = 0u128;
            for t in 0..rows * cols {
                let got = count_paths_between(&board, (s, t), 1, storage, &ctl).unwrap();
                let want = paths_by_dfs(rows, cols, s, t);
                assert_eq!(got.tours.to_u128(), Some(want), "{rows}x{cols} {s}->{t}");
                sum += want;
                found += (want > 0) as usize;
            }
            // Every tour from s ends somewhere.
            let all = count_paths(&board, Some(s), false, 1, &ctl).unwrap().tours;
            assert_eq!(all.to_u128(), Some(sum), "{rows}x{cols} from {s}");
        }
    }
    assert!(found > 100, "only {found} pairs with a tour: a weak test");
    // Refused: an end off the board, an end without a start or closed.
    let board = Board::rectangle(5, 5).unwrap();
    assert!(count_paths_between(&board, (0, 25), 1, storage, &ctl).is_err());
    let both = (None, Some(3));
    assert!(count_paths_of(&board, both, false, 1, storage, &ctl).is_err());
    let closed = (Some(0), Some(3));
    assert!(count_paths_of(&board, closed, true, 1, storage, &ctl).is_err());
}

#[test]
fn too_wide_is_refused() {
    let b = Board::rectangle(9, 9).unwrap();
    let err = count_paths(&b, None, false, 1, &Control::new()).unwrap_err();
    assert!(err.to_string().contains("at most 8"), "{err}");
}
