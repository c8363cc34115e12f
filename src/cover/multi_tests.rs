//! Algorithm M ([`MultiWalk`]) against the brute force over option subsets
//! of `tests.rs` with bounds (independent of the search), on random small
//! problems with colours, and on Knuth's example from DLX3.

use super::count::search_count;
use super::tests::{listed, random_small, Lcg, Small};
use super::*;
use crate::engine::Control;
use std::sync::Arc;
use std::time::Duration;

/// Random bounds `lo..=hi` for each primary item, some of them `(1, 1)`.
pub(super) fn random_bounds(rng: &mut Lcg, n_primary: u32) -> Vec<(u32, u32)> {
    (0..n_primary)
        .map(|_| match rng.below(4) {
            0 => (1, 1),
            _ => {
                let lo = rng.below(3);
                (lo, lo + rng.below(3))
            }
        })
        .collect()
}

pub(super) fn bounded(small: &Small, bounds: &[(u32, u32)]) -> Arc<Problem> {
    let (lo, hi): (Vec<u32>, Vec<u32>) = bounds.iter().copied().unzip();
    let p = Arc::try_unwrap(small.problem()).unwrap();
    Arc::new(p.with_bounds(&lo, &hi).unwrap())
}

#[test]
fn random_bounded_problems_agree_with_the_brute_force() {
    let mut rng = Lcg(7);
    let mut nonzero = 0;
    for _ in 0..400 {
        let small = random_small(&mut rng);
        let bounds = random_bounds(&mut rng, small.n_primary);
        let mut want = small.brute_force_within(&bounds);
        want.sort();
        let p = bounded(&small, &bounds);
        let n = want.len() as u128;
        nonzero += (n > 0) as usize;
        for threads in [1, 2, 8] {
            for method in [Method::Auto, Method::Search, Method::Memo] {
                let got = count_covers(p.clone(), method, threads, None, None, &Control::new());
                assert_eq!(got.unwrap(), n, "{small:?} {bounds:?} {method:?}");
            }
            // The plan and the pool, however small the problem.
            let planned = CoverSearch::<MultiWalk>::new(p.clone());
            let got = search_count(planned, threads, &Control::new(), Duration::ZERO).unwrap();
            assert_eq!(got, n, "{small:?} {bounds:?} planned on {threads}");
        }
        let mut got = listed(p.clone());
        assert_eq!(got.len(), want.len(), "{small:?} {bounds:?}");
        got.sort();
        assert_eq!(got, want, "{small:?} {bounds:?}");
        let found = find_cover(p.clone(), 2, true, &Control::new()).unwrap();
        assert_eq!(found.is_some(), n > 0);
        assert!(found.is_none_or(|c| want.contains(&c)));
        let limited = count_covers(p, Method::Search, 2, Some(2), None, &Control::new()).unwrap();
        assert_eq!(limited, n.min(2));
    }
    assert!(nonzero > 100, "too few problems with covers: {nonzero}");
}

#[test]
fn exact_covers_are_algorithm_c_s_under_either_walk() {
    let mut rng = Lcg(11);
    for _ in 0..200 {
        let small = random_small(&mut rng);
        let p = small.problem();
        let c = count_covers(p.clone(), Method::Search, 1, None, None, &Control::new()).unwrap();
        let m = search_count(
            CoverSearch::<MultiWalk>::new(p),
            1,
            &Control::new(),
            Duration::ZERO,
        );
        assert_eq!(m.unwrap(), c, "{small:?}");
    }
}

#[test]
fn knuths_example_from_dlx3_has_its_one_solution() {
    // DLX3's test case: items A B 2:3|C | X Y, and five options; the unique
    // solution is "A C X:1 Y:1", "B X:1", "C Y:1".
    let (a, b, c, x, y) = (0, 1, 2, 3, 4);
    let small = Small {
        n_primary: 3,
        n_secondary: 2,
        options: vec![
            vec![(a, 0), (b, 0), (x, 1), (y, 1)],
            vec![(a, 0), (c, 0), (x, 2), (y, 2)],
            vec![(c, 0), (x, 1)],
            vec![(b, 0), (x, 2)],
            vec![(c, 0), (y, 2)],
        ],
    };
    let p = bounded(&small, &[(1, 1), (1, 1), (2, 3)]);
    assert_eq!(listed(p), vec![vec![1, 3, 4]]);
}

#[test]
fn bounds_are_checked() {
    let small = Small {
        n_primary: 2,
        n_secondary: 0,
        options: vec![vec![(0, 0)], vec![(1, 0)]],
    };
    let p = Arc::try_unwrap(small.problem()).unwrap();
    let err = p.clone().with_bounds(&[2, 0], &[1, 1]).unwrap_err();
    assert!(err.to_string().contains("must not exceed"), "{err}");
    let err = p.clone().with_bounds(&[1], &[1]).unwrap_err();
    assert!(err.to_string().contains("one (lo, hi) pair"), "{err}");
    assert!(!p.clone().with_bounds(&[1, 1], &[1, 1]).unwrap().bounded());
    assert!(p.with_bounds(&[0, 1], &[1, 1]).unwrap().bounded());
}
