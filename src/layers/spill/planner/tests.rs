//! Steps spilled by passes or by runs, under any budget, give the step in
//! memory; steps past the memory or the disk are refused with their figures.

use super::*;
use crate::layers::spill::budget::disk_of;
use crate::layers::spill::FileRef;
use crate::layers::testing::halves_step;
use std::sync::Arc;

/// One step of the toy DP (as problem 2) from `input`.
fn toy_step(
    input: &mut Stored<u64>,
    sizes: (usize, usize),
    spill: &Spill,
    how: (Spilling, &str),
    ctl: &Control,
) -> Result<Stored<u64>, SearchError> {
    let expand = |shards: &[&Packed<u64>], tables| halves_step(shards, tables, 256, ctl);
    step(input, sizes, 2, spill, expand, how, ctl)
}

/// Every entry of `layer`, sorted.
fn all(layer: &Stored<u64>) -> Vec<(u64, u64)> {
    let mut got = Vec::new();
    layer
        .try_fold((), |(), k, c| {
            got.push((k, c));
            Some(())
        })
        .unwrap();
    got.sort_unstable();
    got
}

fn layer(n: u64) -> Vec<(u64, u64)> {
    (1..n).map(|k| (k, k % 7 + 1)).collect()
}

#[test]
fn both_ways_of_spilling_give_the_step_in_memory() {
    let entries = layer(50_000);
    let ctl = Control::new();
    let mut input = Stored::by_shard(&entries, 1).unwrap();
    let roomy = Spill::unlimited();
    let want = toy_step(&mut input, (10, 10), &roomy, (Spilling::Runs, "t"), &ctl);
    let want = all(&want.unwrap());
    assert_eq!(roomy.written(), 0);
    assert!(want.len() > 20_000);
    for how in [Spilling::Runs, Spilling::Passes] {
        // 1 MB: about 30 output shards a pass (3 passes, below
        // MAX_PASSES), a few input shards a group.
        let tight = Spill::new(1_000_000, None);
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let got = toy_step(&mut input, (10, 50_000), &tight, (how, "t"), &ctl);
        assert_eq!(all(&got.unwrap()), want, "{how:?}");
        assert!(tight.written() > 0, "{how:?} did not spill");
    }
}

#[test]
fn every_budget_from_zero_to_unlimited_gives_the_same_layer() {
    let entries = layer(20_000);
    let ctl = Control::new();
    let sizes = (10, 30_000);
    let mut input = Stored::by_shard(&entries, 1).unwrap();
    let roomy = Spill::unlimited();
    let want = toy_step(&mut input, sizes, &roomy, (Spilling::Passes, "t"), &ctl);
    let want = all(&want.unwrap());
    let needs = packed_bytes(entries.len()) + table_bytes::<u64>(sizes.1);
    let budgets = [
        0,
        1,
        4096,
        1 << 16,
        1 << 18,
        1 << 20,
        needs / 2 * 3,
        needs / 2 * 3 + 3,
        1 << 24,
        1 << 30,
        u64::MAX,
    ];
    for how in [Spilling::Runs, Spilling::Passes] {
        let mut spilled_before = true;
        for budget in budgets {
            let spill = Spill::new(budget, None);
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = toy_step(&mut input, sizes, &spill, (how, "t"), &ctl);
            let got = got.unwrap();
            assert_eq!(all(&got), want, "{how:?} within {budget}");
            // A step spills exactly when it does not fit two thirds of
            // the budget, and a larger budget never spills again.
            let fits = needs <= budget / 3 * 2;
            let spilled = spill.written() > 0;
            assert_eq!(spilled, !fits, "{how:?} within {budget}");
            assert!(spilled_before || !spilled, "{how:?}: {budget} spilled");
            spilled_before = spilled;
            if spilled {
                // The input went to disk, and the output kept in memory
                // stays within a quarter of the budget.
                assert_eq!(input.memory_bytes(), 0, "{how:?} within {budget}");
                assert!(got.memory_bytes() <= budget / 4, "{how:?} within {budget}");
            } else {
                assert_eq!(got.memory_bytes(), packed_bytes(want.len()));
            }
        }
    }
}

#[test]
fn a_family_that_prefers_runs_takes_one_pass_when_one_holds_every_table() {
    let entries = layer(50_000);
    let ctl = Control::new();
    let sizes = (10, 50_000);
    let needs = packed_bytes(entries.len()) + table_bytes::<u64>(sizes.1);
    let largest = {
        let input = Stored::by_shard(&entries, 1).unwrap();
        input.shards.iter().map(Shard::len).max().unwrap()
    };
    let written = |budget: u64, how: Spilling| {
        let spill = Spill::new(budget, None);
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let got = toy_step(&mut input, sizes, &spill, (how, "t"), &ctl);
        (all(&got.unwrap()), spill.written())
    };
    // Within `needs` the step spills (it plans for two thirds), and one
    // pass holds every output table beside the largest input shard: both
    // families go by that pass, the same files written (no runs).
    assert_eq!(passes_for(needs / 3 * 2, largest, sizes), 1);
    let (by_runs, runs_wrote) = written(needs, Spilling::Runs);
    let (by_passes, passes_wrote) = written(needs, Spilling::Passes);
    assert_eq!(by_runs, by_passes);
    assert!(runs_wrote > 0);
    assert_eq!(runs_wrote, passes_wrote);
    // Within a third of that it takes 3 passes: the family that prefers
    // runs writes them (every child at least once more than the passes).
    let tight = needs / 3;
    assert_eq!(passes_for(tight / 3 * 2, largest, sizes), 3);
    let (by_runs, runs_wrote) = written(tight, Spilling::Runs);
    let (by_passes, passes_wrote) = written(tight, Spilling::Passes);
    assert_eq!(by_runs, by_passes);
    assert!(runs_wrote > passes_wrote, "{runs_wrote} <= {passes_wrote}");
}

#[test]
fn a_step_still_to_come_is_refused_only_past_memory_and_disk() {
    let dir = std::env::temp_dir();
    let how = (Spilling::Runs, "a projected step");
    let huge = (1 << 40, 1 << 41);
    // No budget, or a step that fits it: the disk is not looked at.
    assert!(check_ahead::<u64>(&Spill::unlimited(), huge, 0, how).is_ok());
    let roomy = Spill::new(1 << 30, Some(&dir));
    assert!(check_ahead::<u64>(&roomy, (1000, 2000), 0, how).is_ok());
    // Past the budget: no disk here has room for 2^41 states (tens of
    // TB), unless the files that will be gone by then free as much.
    if disk_of(&dir).is_none() {
        return; // (off Linux the free space is not known: no check)
    }
    match check_ahead::<u64>(&roomy, huge, 0, how) {
        Err(SearchError::Disk(message)) => {
            assert!(
                message.contains("to spill a projected step: about"),
                "{message}"
            );
            assert!(!message.contains("more by then"), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
    assert!(check_ahead::<u64>(&roomy, huge, u64::MAX / 2, how).is_ok());
}

#[test]
fn memory_held_by_other_layers_counts_against_the_budget() {
    let entries = layer(5_000);
    let ctl = Control::new();
    let run = |spill: &Spill| {
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let got = toy_step(
            &mut input,
            (10, 5_000),
            spill,
            (Spilling::Passes, "t"),
            &ctl,
        );
        all(&got.unwrap())
    };
    let spill = Spill::new(64 << 20, None);
    let want = run(&spill);
    assert_eq!(spill.written(), 0);
    spill.set_held(64 << 20);
    assert_eq!(run(&spill), want);
    assert!(spill.written() > 0, "held memory was not counted");
}

/// A plan of `budget` for a next layer of about `bound` states, over
/// input shards of `lens` entries (in a file never read: planning
/// reads only their lengths).
fn planned(budget: u64, bound: usize, lens: &[usize]) -> usize {
    let spill = Spill::new(budget, None);
    let ctl = Control::new();
    let file = Arc::new(FileRef::kept("never-read".into()));
    let extents = (lens.iter().enumerate())
        .map(|(i, &len)| {
            let file = file.clone();
            (
                i,
                Extent {
                    file,
                    offset: 0,
                    len,
                },
            )
        })
        .collect();
    let plan = Plan {
        extents,
        sizes: (10, bound, lens.iter().sum::<usize>().max(1)),
        budget,
        problem: 1,
        spill: &spill,
        what: "t",
        ctl: &ctl,
    };
    let room = budget.saturating_sub(packed_bytes(lens.iter().copied().max().unwrap_or(0)));
    assert_eq!(plan.room(), room);
    plan.passes()
}

#[test]
fn passes_stay_within_the_budget_and_fall_as_it_grows() {
    let lens = [1000, 50_000, 0, 7];
    for bound in [0, 1, 64 << 10, 1 << 30, usize::MAX] {
        let each = ShardTable::<u128>::bytes_for(bound / SHARDS).max(1);
        let mut last = SHARDS;
        let budgets = (0..64).map(|b| 1u64 << b).chain([0, u64::MAX]);
        let mut budgets: Vec<u64> = budgets.collect();
        budgets.sort_unstable();
        for budget in budgets {
            let passes = planned(budget, bound, &lens);
            assert!((1..=SHARDS).contains(&passes), "{budget}, {bound}");
            assert!(passes <= last, "{budget}, {bound}: {passes} > {last}");
            last = passes;
            // A pass holds at most what the room beside the largest
            // input shard takes, unless it is one shard already.
            let tables = SHARDS.div_ceil(passes) as u64;
            let room = budget.saturating_sub(packed_bytes(50_000));
            assert!(tables == 1 || tables * each <= room, "{budget}, {bound}");
            if budget == 0 || room < each {
                assert_eq!(passes, SHARDS, "{budget}, {bound}");
            }
            // One pass exactly when every table fits the room at once.
            let one = each.saturating_mul(SHARDS as u64) <= room;
            assert_eq!(passes == 1, one, "{budget}, {bound}");
        }
        if bound <= 1 << 30 {
            assert_eq!(last, 1, "{bound}: an unlimited budget takes passes");
        }
    }
    // More states for the same budget never plan fewer passes.
    let mut last = 1;
    for bound in [0, 1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28] {
        let passes = planned(32 << 20, bound, &lens);
        assert!(passes >= last, "{bound}");
        last = passes;
    }
    assert!(last > 1);
}

#[test]
fn a_step_beyond_the_machine_is_refused_with_its_figures() {
    let entries = layer(1_000);
    let ctl = Control::new();
    // 2^44 states: about 460 TB of tables, planned in memory under no
    // budget (by runs under a small one: several TB for the first
    // group), refused before anything is allocated; under a small
    // budget with the disk for them (faked), the memory refuses too.
    let guess = 1usize << 44;
    let refused = |spill: &Spill| {
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let how = (Spilling::Runs, "the test tables");
        match toy_step(&mut input, (guess, guess), spill, how, &ctl) {
            Err(e) => e,
            Ok(layer) => panic!("{} states made", layer.len()),
        }
    };
    let roomy = Spill::new(1 << 20, None).with_free_disk(u64::MAX);
    for spill in [Spill::unlimited(), roomy] {
        match refused(&spill) {
            SearchError::Memory { what, bytes } => {
                assert!(what.contains("the test tables"), "{what}");
                if spill.budget() == u64::MAX {
                    assert_eq!(bytes, table_bytes::<u64>(guess));
                }
                assert!(bytes > 1 << 40, "{bytes}");
                assert!(bytes > spill.budget() / 3 * 2 || spill.budget() == u64::MAX);
            }
            e => panic!("{e:?}"),
        }
    }
    // A real disk cannot hold its 544 TiB of records at their most (512
    // TiB of keys and counts, a tag byte an entry): refused for the
    // disk, with the estimate, before a file or a table is made.
    let spill = Spill::new(1 << 20, None);
    match refused(&spill) {
        SearchError::Disk(msg) => assert!(msg.contains("544.0 TiB"), "{msg}"),
        e => panic!("{e:?}"),
    }
    assert_eq!(spill.written(), 0);
}

#[test]
fn a_step_the_disk_cannot_hold_is_refused_before_any_file_is_written() {
    let entries = layer(50_000);
    let ctl = Control::new();
    let parent = std::env::temp_dir().join(format!("solvers-disk-test-{}", std::process::id()));
    std::fs::create_dir_all(&parent).unwrap();
    let want = {
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let roomy = Spill::unlimited();
        let got = toy_step(
            &mut input,
            (10, 50_000),
            &roomy,
            (Spilling::Runs, "t"),
            &ctl,
        );
        all(&got.unwrap())
    };
    for how in [Spilling::Runs, Spilling::Passes] {
        // The step writes its input (50,000 entries, about 800 KB) and
        // its output: a disk of 100 KB is refused up front, the input
        // left in memory as it was; one of 64 MB takes it.
        let tight = Spill::new(1_000_000, Some(&parent)).with_free_disk(100_000);
        let mut input = Stored::by_shard(&entries, 1).unwrap();
        let got = toy_step(
            &mut input,
            (10, 50_000),
            &tight,
            (how, "the test step"),
            &ctl,
        );
        match got {
            Err(SearchError::Disk(msg)) => {
                assert!(msg.contains("the test step"), "{msg}");
                assert!(msg.contains("97.7 KiB free"), "{msg}");
            }
            Err(e) => panic!("{how:?}: {e:?}"),
            Ok(_) => panic!("{how:?}: spilled past the disk"),
        }
        assert_eq!(tight.written(), 0, "{how:?}");
        assert_eq!(input.memory_len(), entries.len(), "{how:?}");
        assert_eq!(std::fs::read_dir(&parent).unwrap().count(), 0, "{how:?}");
        let roomy = Spill::new(1_000_000, Some(&parent)).with_free_disk(64 << 20);
        let got = toy_step(&mut input, (10, 50_000), &roomy, (how, "t"), &ctl);
        assert_eq!(all(&got.unwrap()), want, "{how:?}");
        assert!(roomy.written() > 0, "{how:?}");
    }
    std::fs::remove_dir_all(&parent).unwrap();
}

#[test]
fn a_cancelled_step_stops_whether_it_fits_or_spills() {
    let entries = layer(5_000);
    let ctl = Control::new();
    ctl.cancel();
    for budget in [0, 1 << 20, u64::MAX] {
        for how in [Spilling::Runs, Spilling::Passes] {
            let spill = Spill::new(budget, None);
            let mut input = Stored::by_shard(&entries, 1).unwrap();
            let got = toy_step(&mut input, (10, 5_000), &spill, (how, "t"), &ctl);
            assert!(
                matches!(got, Err(SearchError::Cancelled)),
                "{how:?} within {budget}"
            );
        }
    }
}
