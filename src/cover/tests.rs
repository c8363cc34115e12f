//! The cover family against a brute force over option subsets (written
//! here, independent of the search) on random small problems, and against
//! published counts.

use super::instances::{dominoes, langford, pentominoes, queens, sudoku, Builder};
use super::*;
use crate::engine::{Control, SearchError};
use crate::error::CountError;
use std::sync::Arc;
use std::time::Duration;

/// A problem as plain lists: options of `(item, colour)`.
#[derive(Debug, Clone)]
pub(super) struct Small {
    pub(super) n_primary: u32,
    pub(super) n_secondary: u32,
    pub(super) options: Vec<Vec<(u32, u32)>>,
}

impl Small {
    pub(super) fn problem(&self) -> Arc<Problem> {
        let mut b = Builder::new();
        for o in &self.options {
            b.option(o.iter().copied());
        }
        Arc::new(
            b.build(self.n_primary as usize, self.n_secondary as usize)
                .unwrap(),
        )
    }

    /// Every subset of options that is a cover, each as ascending indices.
    pub(super) fn brute_force(&self) -> Vec<Vec<u32>> {
        self.brute_force_within(&[])
    }

    /// [`Small::brute_force`] with primary item `i` in `bounds[i].0` to
    /// `bounds[i].1` options (exactly one past the end of `bounds`).
    pub(super) fn brute_force_within(&self, bounds: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let n = self.options.len();
        let mut covers = Vec::new();
        for mask in 0u32..1 << n {
            let mut times = vec![0u32; (self.n_primary + self.n_secondary) as usize];
            let mut colour = vec![None::<u32>; times.len()];
            let mut ok = true;
            for k in (0..n).filter(|k| mask >> k & 1 == 1) {
                for &(i, c) in &self.options[k] {
                    let i = i as usize;
                    times[i] += 1;
                    if i >= self.n_primary as usize {
                        // A secondary item shared only under one real colour.
                        match colour[i] {
                            None => colour[i] = Some(c),
                            Some(prev) => ok &= prev == c && c != 0,
                        }
                    }
                }
            }
            ok &= times[..self.n_primary as usize]
                .iter()
                .enumerate()
                .all(|(i, &t)| {
                    let (lo, hi) = bounds.get(i).copied().unwrap_or((1, 1));
                    lo <= t && t <= hi
                });
            if ok {
                covers.push((0..n as u32).filter(|k| mask >> k & 1 == 1).collect());
            }
        }
        covers
    }
}

/// A tiny deterministic generator (no dependency needed).
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    pub(super) fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as u32
    }
}

pub(super) fn random_small(rng: &mut Lcg) -> Small {
    let n_primary = 1 + rng.below(6);
    let n_secondary = rng.below(4);
    let n_options = 1 + rng.below(13);
    let colours = rng.below(3);
    let options = (0..n_options)
        .map(|_| {
            let mut o = vec![(rng.below(n_primary), 0)];
            for i in 0..n_primary + n_secondary {
                if o[0].0 != i && rng.below(3) == 0 {
                    let c = if i >= n_primary && colours > 0 {
                        rng.below(colours + 1)
                    } else {
                        0
                    };
                    o.push((i, c));
                }
            }
            o
        })
        .collect();
    Small {
        n_primary,
        n_secondary,
        options,
    }
}

/// `rounds` random small problems from the generator seeded `seed`.
pub(super) fn random_smalls(seed: u64, rounds: usize) -> impl Iterator<Item = Small> {
    let mut rng = Lcg(seed);
    (0..rounds).map(move |_| random_small(&mut rng))
}

pub(super) fn listed(p: Arc<Problem>) -> Vec<Vec<u32>> {
    let rx = stream_covers(p, Arc::new(Control::new())).unwrap();
    let mut all = Vec::new();
    while let Ok(c) = rx.recv_timeout(Duration::from_secs(30)) {
        all.push(c);
    }
    all
}

fn count(p: &Arc<Problem>, method: Method, threads: usize) -> u128 {
    count_covers(p.clone(), method, threads, None, None, &Control::new()).unwrap()
}

#[test]
fn random_problems_agree_with_the_brute_force() {
    for small in random_smalls(29, 400) {
        let p = small.problem();
        let mut want = small.brute_force();
        let n = want.len() as u128;
        for threads in [1, 2, 8] {
            assert_eq!(count(&p, Method::Search, threads), n, "{small:?}");
            // The plan and the pool, however small the problem.
            let planned = count::search_count(
                CoverSearch::<Walk>::new(p.clone()),
                threads,
                &Control::new(),
                Duration::ZERO,
            );
            assert_eq!(planned.unwrap(), n, "{small:?}");
        }
        for threads in [1, 2, 8] {
            assert_eq!(
                count(&p, Method::Memo, threads),
                n,
                "{small:?} on {threads}"
            );
        }
        // A limit: min(count, limit), on every path (alone, planned, memo).
        for most in [1, 2, 3] {
            let want = n.min(most);
            for (method, threads) in [(Method::Search, 1), (Method::Search, 8), (Method::Memo, 1)] {
                let got = count_covers(
                    p.clone(),
                    method,
                    threads,
                    Some(most),
                    None,
                    &Control::new(),
                );
                assert_eq!(got, Ok(want), "{small:?} {most}");
            }
            let up_to = CoverSearch::<Walk>::up_to(p.clone(), most);
            let planned = count::search_count(up_to, 8, &Control::new(), Duration::ZERO);
            assert_eq!(planned.map(|c| c.min(most)), Ok(want), "{small:?} {most}");
        }
        assert_eq!(count(&p, Method::Auto, 2), n, "{small:?}");
        let got = listed(p.clone());
        let first = find_cover(p.clone(), 2, true, &Control::new()).unwrap();
        assert_eq!(first.as_ref(), got.first(), "{small:?}");
        for threads in [2, 8] {
            let planned =
                count::found::<Walk>(p.clone(), threads, true, &Control::new(), Duration::ZERO);
            assert_eq!(planned.unwrap().as_ref(), got.first(), "{small:?}");
        }
        let any = find_cover(p.clone(), 2, false, &Control::new()).unwrap();
        assert_eq!(any.is_some(), n > 0);
        if let Some(any) = any {
            assert!(want.contains(&any));
        }
        let mut sorted = got.clone();
        sorted.sort();
        want.sort();
        assert_eq!(sorted, want, "{small:?}");
    }
}

/// The covers in the documented order, found by a separate recursive
/// search: fewest options first, ties to the first item, options in order.
fn in_documented_order(small: &Small) -> Vec<Vec<u32>> {
    fn compatible(a: &[(u32, u32)], b: &[(u32, u32)], np: u32) -> bool {
        a.iter().all(|&(i, c)| {
            b.iter()
                .all(|&(j, d)| i != j || (i >= np && c != 0 && c == d))
        })
    }
    fn go(s: &Small, chosen: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        let ok = |k: usize| {
            chosen
                .iter()
                .all(|&o| compatible(&s.options[k], &s.options[o as usize], s.n_primary))
        };
        let covered = |i: u32| {
            chosen
                .iter()
                .any(|&o| s.options[o as usize].iter().any(|e| e.0 == i))
        };
        let open: Vec<u32> = (0..s.n_primary).filter(|&i| !covered(i)).collect();
        if open.is_empty() {
            let mut c = chosen.clone();
            c.sort();
            out.push(c);
            return;
        }
        let options_of = |i: u32| -> Vec<usize> {
            (0..s.options.len())
                .filter(|&k| s.options[k].iter().any(|e| e.0 == i) && ok(k))
                .collect()
        };
        let best = open
            .iter()
            .copied()
            .min_by_key(|&i| (options_of(i).len(), i))
            .unwrap();
        for k in options_of(best) {
            chosen.push(k as u32);
            go(s, chosen, out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    go(small, &mut Vec::new(), &mut out);
    out
}

#[test]
fn the_tree_chooses_as_the_scan_does() {
    // Large problems choose their items by a tree (cells.rs); here small
    // ones are made to, so every cover and its order is checked against the
    // separate search, from the root and below each of the root's options.
    for small in random_smalls(11, 400) {
        let p = small.problem();
        let want = in_documented_order(&small);
        for tree in [true, false] {
            let got = super::search::listed_below(&p, &[], tree);
            assert_eq!(got, want, "{small:?}");
        }
        let planned = count::planned::<Walk>(p.clone(), 8, &Control::new()).unwrap();
        let mut flat = Vec::new();
        for task in &planned.tasks {
            flat.extend(super::search::listed_below(&p, task, true));
        }
        assert_eq!(flat, want, "{small:?}");
    }
}

#[test]
fn listing_follows_the_documented_order_for_any_split() {
    for small in random_smalls(7, 300) {
        let p = small.problem();
        let want = in_documented_order(&small);
        assert_eq!(listed(p.clone()), want, "{small:?}");
        // Every plan visits the same covers in the same order.
        for min_tasks in [1, 3, 50] {
            let planned = count::planned::<Walk>(p.clone(), min_tasks, &Control::new()).unwrap();
            let mut flat = Vec::new();
            let ctl = Control::new();
            for task in &planned.tasks {
                let stop = crate::engine::Stop::new(&ctl);
                crate::engine::SubtreeSearch::visit(&planned.search, task, &stop, &mut |c| {
                    flat.push(c);
                    true
                })
                .unwrap();
            }
            assert_eq!(flat, want, "{small:?}");
        }
    }
}

#[test]
fn published_counts() {
    // OEIS A004003: domino tilings of 2n x 2n.
    for (n, want) in [(1, 2u128), (2, 36), (3, 6728), (4, 12988816)] {
        let p = Arc::new(dominoes(2 * n, 2 * n));
        assert_eq!(Method::Auto.resolve(&p), Method::Memo);
        assert_eq!(count(&p, Method::Auto, 2), want);
    }
    assert_eq!(count(&Arc::new(dominoes(4, 4)), Method::Search, 2), 36);
    // A000170: n queens.
    for (n, want) in [(1, 1u128), (4, 2), (6, 4), (8, 92)] {
        let p = Arc::new(queens(n));
        // 26 diagonals of two values each bound the memo past its limit.
        assert!(n < 8 || Method::Auto.resolve(&p) == Method::Search);
        assert_eq!(count(&p, Method::Search, 2), want);
        assert_eq!(count(&p, Method::Memo, 1), want);
    }
    // A014552 (each pairing and its reversal).
    for (n, want) in [(3, 1u128), (4, 1), (5, 0), (7, 26), (8, 150)] {
        assert_eq!(count(&Arc::new(langford(n)), Method::Search, 2), 2 * want);
    }
    // Pentominoes in a 3x20 box: 2 up to the box's 4 symmetries.
    let p = Arc::new(pentominoes(3, 20));
    assert_eq!(count(&p, Method::Search, 2), 8);
    assert_eq!(
        count::search_count(
            CoverSearch::<Walk>::new(p),
            2,
            &Control::new(),
            Duration::ZERO
        ),
        Ok(8)
    );
}

#[test]
fn a_limit_stops_a_count_of_many_covers() {
    // Langford pairs n = 12: 108,144 pairings each way; a limit of 5 stops
    // long before (the answer does not depend on the threads or the split).
    let p = Arc::new(langford(12));
    for threads in [1, 2, 8] {
        let got = count_covers(
            p.clone(),
            Method::Search,
            threads,
            Some(5),
            None,
            &Control::new(),
        );
        assert_eq!(got, Ok(5));
    }
    let up_to = CoverSearch::<Walk>::up_to(p, 1000);
    let planned = count::search_count(up_to, 2, &Control::new(), Duration::ZERO);
    assert!(planned.unwrap() >= 1000);
}

#[test]
fn the_first_covers_are_the_listing_s_first() {
    for small in random_smalls(0x5eed_f125, 300) {
        let p = small.problem();
        let all = listed(p.clone());
        for k in [0, 1, 2, 5] {
            let first = first_covers(p.clone(), k, &Control::new()).unwrap();
            assert_eq!(first, all[..k.min(all.len())].to_vec());
        }
    }
}

#[test]
fn a_sudoku_has_its_one_solution() {
    let grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let p = Arc::new(sudoku(grid));
    assert_eq!(count(&p, Method::Search, 2), 1);
    let cover = find_cover(p.clone(), 1, true, &Control::new())
        .unwrap()
        .unwrap();
    assert_eq!(cover.len(), 81);
}

#[test]
fn twelve_by_twelve_dominoes_by_the_memo() {
    // A004003(6).
    let p = Arc::new(dominoes(12, 12));
    for threads in [1, 2, 8] {
        assert_eq!(count(&p, Method::Auto, threads), 53060477521960000);
    }
}

#[test]
fn a_long_strip_overflows_in_the_memo_holding_only_the_layers_reached() {
    // F(n + 1) passes 2**128 near n = 185: the error comes a few hundred
    // layers in, and the 600,000 items' layers after them take nothing.
    let p = Arc::new(dominoes(300_000, 2));
    assert_eq!(Method::Auto.resolve(&p), Method::Memo);
    for threads in [1, 2] {
        let got = count_covers(
            p.clone(),
            Method::Auto,
            threads,
            None,
            None,
            &Control::new(),
        );
        assert_eq!(got, Err(CountError::Search(SearchError::Overflow)));
    }
}

#[test]
fn a_cancelled_count_stops() {
    let ctl = Control::new();
    ctl.cancel();
    for method in [Method::Search, Method::Memo] {
        let got = count_covers(Arc::new(langford(12)), method, 2, None, None, &ctl);
        assert_eq!(got, Err(CountError::Search(SearchError::Cancelled)));
    }
}

#[test]
fn the_memo_refuses_past_its_budget() {
    let p = dominoes(10, 10);
    let e = memo::count_memo(&p, 1 << 12, 1, &Control::new()).unwrap_err();
    assert!(matches!(e, SearchError::Memory { .. }), "{e:?}");
    assert!(e.to_string().contains("memo"));
}

#[test]
fn colours_let_options_share_a_secondary_item() {
    // Two options colour item 2 red, one blue, one takes it plainly.
    let small = Small {
        n_primary: 2,
        n_secondary: 1,
        options: vec![
            vec![(0, 0), (2, 1)],
            vec![(1, 0), (2, 1)],
            vec![(1, 0), (2, 2)],
            vec![(1, 0), (2, 0)],
            vec![(0, 0)],
        ],
    };
    let p = small.problem();
    assert_eq!(count(&p, Method::Search, 1), 4);
    assert_eq!(
        listed(p),
        vec![vec![0, 1], vec![1, 4], vec![2, 4], vec![3, 4]]
    );
}
