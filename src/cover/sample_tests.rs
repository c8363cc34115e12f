//! Random covers against the brute force over option subsets of
//! `tests.rs`: every draw a cover, every cover drawn about as often as the
//! others, with bounds too, the same draws for the same seed on any number
//! of threads.

use super::multi_tests::{bounded, random_bounds};
use super::tests::{random_small, Lcg};
use super::*;
use crate::engine::Control;
use std::collections::HashMap;

fn draw(p: &Problem, k: usize, seed: u64) -> Vec<Vec<u32>> {
    random_covers(p, k, seed, 1 << 26, 1, &Control::new()).unwrap()
}

#[test]
fn every_draw_is_a_cover_and_every_cover_comes_about_as_often() {
    let mut tried = 0;
    let mut rng = Lcg(3);
    for round in 0..400 {
        let small = random_small(&mut rng);
        // Every other problem with bounds.
        let bounds = match round % 2 {
            0 => vec![(1, 1); small.n_primary as usize],
            _ => random_bounds(&mut rng, small.n_primary),
        };
        let p = bounded(&small, &bounds);
        let mut want = small.brute_force_within(&bounds);
        want.sort();
        let n = want.len();
        let drawn = draw(&p, 200 * n.min(8), round as u64);
        if n == 0 {
            assert!(drawn.is_empty());
            continue;
        }
        let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
        for c in drawn {
            assert!(
                want.binary_search(&c).is_ok(),
                "{small:?}: {c:?} is no cover"
            );
            *seen.entry(c).or_default() += 1;
        }
        if n <= 8 {
            // 200 expected each: a cover drawn fewer than 120 or more than
            // 280 times would be over five standard deviations out.
            assert_eq!(seen.len(), n, "{small:?}");
            assert!(
                seen.values().all(|&f| (120..=280).contains(&f)),
                "{small:?}: {seen:?}"
            );
            tried += 1;
        }
    }
    assert!(tried > 100, "only {tried} problems with a few covers");
}

#[test]
fn a_seed_gives_the_same_draws_and_another_seed_others() {
    let p = instances::queens(8);
    let first = draw(&p, 20, 7);
    assert_eq!(first, draw(&p, 20, 7));
    let on_three = random_covers(&p, 20, 7, 1 << 26, 3, &Control::new()).unwrap();
    assert_eq!(first, on_three);
    assert_ne!(first, draw(&p, 20, 8));
    assert!(draw(&p, 0, 7).is_empty());
}

#[test]
fn numbers_below_n_are_uniform() {
    let mut rng = Rng::new(1);
    let mut counts = [0u32; 3];
    for _ in 0..30_000 {
        counts[rng.below(3) as usize] += 1;
    }
    assert!(
        counts.iter().all(|&c| (9_500..=10_500).contains(&c)),
        "{counts:?}"
    );
    let huge = u128::MAX / 3 * 2;
    assert!((0..1000).all(|_| rng.below(huge) < huge));
}

#[test]
fn a_memo_too_large_for_its_budget_is_refused() {
    let p = instances::queens(10);
    assert!(matches!(
        random_covers(&p, 1, 0, 1 << 10, 2, &Control::new()),
        Err(crate::engine::SearchError::Memory { .. })
    ));
}
