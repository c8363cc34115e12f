//! The `k` cheapest covers against the listing in search order, priced
//! here and sorted stably by cost (so ties stay in search order), and
//! against the brute force over option subsets of `tests.rs`, on random
//! small problems with colours and secondary items.

use super::multi_tests::{bounded, random_bounds};
use super::tests::{listed, random_small, Lcg, Small};
use super::*;
use crate::engine::Control;
use crate::error::CountError;
use std::sync::Arc;

/// Every cover's whole cost, in search order, sorted stably: the first `k`.
fn want(p: &Arc<Problem>, costs: &[u64], k: usize) -> Vec<(u64, Vec<u32>)> {
    let mut all: Vec<(u64, Vec<u32>)> = listed(p.clone())
        .into_iter()
        .map(|c| (c.iter().map(|&o| costs[o as usize]).sum(), c))
        .collect();
    all.sort_by_key(|(cost, _)| *cost);
    all.truncate(k);
    all
}

/// A random small problem with a cost on each option below `spread`.
fn priced(rng: &mut Lcg, spread: u32) -> (Small, Arc<Problem>, Vec<u64>) {
    let small = random_small(rng);
    let costs = (0..small.options.len())
        .map(|_| u64::from(rng.below(spread)))
        .collect();
    let p = small.problem();
    (small, p, costs)
}

fn cheapest(p: &Arc<Problem>, costs: &[u64], k: usize, threads: usize) -> Vec<(u64, Vec<u32>)> {
    cheapest_covers(p.clone(), costs, k, threads, &Control::new()).unwrap()
}

/// `rounds` random priced problems from `seed`, with random bounds if
/// `with_bounds`: the listing agrees with the brute force, and the
/// cheapest with the listing priced, for several `k` and thread counts.
/// Returns how many had a cover.
fn agree_on_random_problems(seed: u64, rounds: usize, with_bounds: bool) -> usize {
    let mut rng = Lcg(seed);
    let mut with_covers = 0;
    for round in 0..rounds {
        // Few distinct costs, so that ties are common.
        let (small, plain, costs) = priced(&mut rng, [1, 3, 50][round % 3]);
        let (p, bounds) = if with_bounds {
            let bounds = random_bounds(&mut rng, small.n_primary);
            (bounded(&small, &bounds), bounds)
        } else {
            (plain, Vec::new())
        };
        let mut every = listed(p.clone());
        every.sort();
        let mut brute = small.brute_force_within(&bounds);
        brute.sort();
        assert_eq!(every, brute, "{small:?} {bounds:?}");
        for k in [1, 2, 3, 7, every.len() + 1] {
            let want = want(&p, &costs, k);
            for threads in [1, 2, 8] {
                let got = cheapest(&p, &costs, k, threads);
                assert_eq!(
                    got, want,
                    "{small:?} {bounds:?} {costs:?} k {k} threads {threads}"
                );
            }
        }
        with_covers += usize::from(!every.is_empty());
    }
    with_covers
}

#[test]
fn random_priced_problems_agree_with_the_listing_and_the_brute_force() {
    let n = agree_on_random_problems(11, 400, false);
    assert!(n > 100, "only {n} random problems had a cover");
}

#[test]
fn random_priced_problems_with_bounds_agree_with_the_listing_and_the_brute_force() {
    let n = agree_on_random_problems(17, 300, true);
    assert!(n > 80, "only {n} random problems with bounds had a cover");
}

#[test]
fn taxes_leave_every_item_a_free_option_and_no_negative_cost() {
    let mut rng = Lcg(5);
    for _ in 0..200 {
        let (small, p, costs) = priced(&mut rng, 20);
        let taxed = Costs::taxed(&p, &costs).unwrap();
        for i in 0..small.n_primary {
            let holders: Vec<usize> = (0..small.options.len())
                .filter(|&k| small.options[k].iter().any(|&(item, _)| item == i))
                .collect();
            if !holders.is_empty() {
                assert!(holders.iter().any(|&k| taxed.net(k as u32) == 0));
            }
        }
        // A cover's cost is its net cost plus the whole tax.
        for cover in small.brute_force() {
            let whole: u64 = cover.iter().map(|&o| costs[o as usize]).sum();
            let net: u64 = cover.iter().map(|&o| taxed.net(o)).sum();
            assert_eq!(whole, net + taxed.tax());
        }
    }
}

#[test]
fn with_every_cost_zero_the_cheapest_are_the_first_in_search_order() {
    let p = Arc::new(instances::queens(8));
    let zero = vec![0; p.n_options()];
    let first = first_covers(p.clone(), 5, &Control::new()).unwrap();
    for threads in [1, 2] {
        let got = cheapest(&p, &zero, 5, threads);
        assert_eq!(
            got.iter().map(|(_, c)| c.clone()).collect::<Vec<_>>(),
            first
        );
        assert!(got.iter().all(|(cost, _)| *cost == 0));
    }
}

#[test]
fn wrong_costs_are_refused_and_bounds_are_priced() {
    let p = Arc::new(instances::queens(4));
    let n = p.n_options();
    let refused = |costs: &[u64], k: usize| {
        matches!(
            cheapest_covers(p.clone(), costs, k, 1, &Control::new()),
            Err(CountError::Input(_))
        )
    };
    assert!(refused(&vec![0; n - 1], 1));
    assert!(refused(&vec![MAX_COST + 1; n], 1));
    assert!(refused(&vec![0; n], MAX_CHEAPEST + 1));
    assert!(cheapest(&p, &vec![MAX_COST; n], 0, 1).is_empty());
    let q = instances::queens(4);
    let mut lo = vec![1; q.n_primary()];
    lo[0] = 0;
    let hi = vec![1; q.n_primary()];
    let bounded = Arc::new(q.with_bounds(&lo, &hi).unwrap());
    // Bounds are priced too (item 0 may be left out: no tax on it).
    assert!(cheapest_covers(bounded, &vec![1; n], 1, 1, &Control::new()).is_ok());
}
