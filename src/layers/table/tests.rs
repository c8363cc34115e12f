//! The shard table sums equal keys through growth and wide counts, and
//! packs, freezes and looks up what it holds.

use super::super::count::U256;
use super::*;

#[test]
fn sums_equal_keys_through_growth_and_wide_counts() {
    let mut table = ShardTable::<u128>::with_capacity(10, "a test table", false).unwrap();
    for round in 0..3u128 {
        let batch: Vec<(u64, u128)> = (1..=1000u64).map(|k| (k, k as u128 + round)).collect();
        table.add_all(&batch, "a test table").unwrap();
    }
    table.add_all(&[(7, u64::MAX as u128)], "").unwrap();
    assert_eq!(table.len(), 1000);
    assert_eq!(table.get(5), 18);
    assert_eq!(table.get(7), 24 + u64::MAX as u128);
    assert_eq!(table.get(1001), 0);
    let packed = table.pack();
    let mut entries: Vec<_> = packed.entries().iter().collect();
    entries.sort_unstable();
    assert_eq!(entries.len(), 1000);
    assert_eq!(entries[6], (7, 24 + u64::MAX as u128));
    assert_eq!(entries[999], (1000, 3003));
    let chunked: usize = packed.chunks(64).map(|c| c.iter().count()).sum();
    assert_eq!(chunked, 1000);
}

#[test]
fn merging_sorted_shards_sums_equal_keys_wide_counts_too() {
    // Keys 1..=300 in steps of 2 and of 3: 6, 12, ... in both.
    let twos: Vec<(u64, u128)> = (1..=150).map(|k| (2 * k, k as u128)).collect();
    let mut threes: Vec<(u64, u128)> = (1..=100).map(|k| (3 * k, 1000)).collect();
    threes[1].1 = u64::MAX as u128 + 7; // key 6: a wide count
    let merged = Packed::from_entries(&twos)
        .merge(Packed::from_entries(&threes), "t")
        .unwrap();
    assert!(merged.is_sorted());
    let got: Vec<(u64, u128)> = merged.entries().iter().collect();
    let mut want = std::collections::BTreeMap::new();
    for &(k, c) in twos.iter().chain(&threes) {
        *want.entry(k).or_insert(0u128) += c;
    }
    assert_eq!(got, want.into_iter().collect::<Vec<_>>());
    assert_eq!(
        got.iter().find(|e| e.0 == 6),
        Some(&(6, u64::MAX as u128 + 10))
    );
    // An empty side, and a sum past the count type.
    let one = Packed::from_entries(&[(4u64, 9u64)]);
    let empty = Packed::<u64>::from_entries(&[]);
    assert_eq!(one.merge(empty, "t").unwrap().len(), 1);
    let full = Packed::from_entries(&[(4u64, u64::MAX - 1)]);
    let more = Packed::from_entries(&[(4u64, 2u64)]);
    assert_eq!(full.merge(more, "t").err(), Some(SearchError::Overflow));
}

#[test]
fn overflow_is_an_error_and_max_counts_are_kept() {
    let mut table = ShardTable::<u64>::with_capacity(4, "t", false).unwrap();
    table.add_all(&[(3, u64::MAX - 1), (3, 1)], "t").unwrap();
    assert_eq!(table.get(3), u64::MAX);
    assert_eq!(table.add_all(&[(3, 1)], "t"), Err(SearchError::Overflow));
    let mut huge = ShardTable::<U256>::with_capacity(4, "t", false).unwrap();
    let big = U256 { hi: 5, lo: 1 };
    huge.add_all(&[(9, big), (9, U256::from(2))], "t").unwrap();
    assert_eq!(huge.get(9), U256 { hi: 5, lo: 3 });
}

#[test]
fn impossible_tables_are_memory_errors_not_aborts() {
    let is_memory = |e: SearchError| matches!(e, SearchError::Memory { .. });
    assert!(ShardTable::<u64>::with_capacity(usize::MAX / 2, "t", true).is_err_and(is_memory));
    assert!(ShardTable::<u64>::with_capacity(usize::MAX / 64, "t", true).is_err_and(is_memory));
    assert!(zeroed_slots(usize::MAX / 64, "t", false).is_err_and(is_memory));
    let message = SearchError::memory("the peg layer tables", 3 << 30).to_string();
    assert!(message.contains("the peg layer tables"), "{message}");
}
