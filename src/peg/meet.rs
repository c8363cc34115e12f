//! Joining two searches, and the end of one: [`meet`] and [`meet_pieces`]
//! join a layer from the start with one from the finish of complementary
//! peg counts, [`meet_across`] joins two layers one jump apart (sparing the
//! widest layer), all through a hash index of the finish side (`KeyIndex`);
//! [`finish_counts`] reads the last layer of a search run all the way.
//!
//! **Meeting in the middle.**  Reversing a jump is a jump on the complemented
//! board, so the sequences from position `p` to a single peg at `f` are the
//! sequences from "every hole full but `f`" to the complement of `p`.  Two
//! forward searches, from the start and from the finish, meet at a middle
//! layer, and only positions both can reach contribute.

use super::expand::{chunks_of, Chunk, Rule};
use super::{Layer, PegGeometry};
use crate::engine::{with_pool, Control};
use crate::error::SearchError;
use crate::layers::{freeze, shard_of, Frozen, SHARDS};
use rayon::prelude::*;

/// Positions whose probes are prefetched together when meeting.
const PROBE_BLOCK: usize = 8;

/// The number of sequences through the middle: `from_start` holds the
/// layers reached from the start, `from_finish` those reached from the
/// complement of the finish, with complementary peg counts.  Both must use
/// this geometry's group.
pub fn meet(
    geometry: &PegGeometry,
    from_start: &Layer,
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    meet_pieces(geometry, &[from_start], from_finish, threads, ctl)
}

/// [`meet`] with `from_start` given as pieces of one layer, not merged: a
/// position found in several pieces counts with the sum of its counts, as
/// it would after merging (the join is linear in this side).  Either search
/// may play either part (the join is symmetric), but only `from_finish`
/// must hold each position once, with its full count.
pub fn meet_pieces(
    geometry: &PegGeometry,
    from_start: &[&Layer],
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    with_pool(threads, || {
        let index = KeyIndex::new(geometry, from_finish, ctl)?;
        sum_by_chunks(chunks_of(from_start)?, ctl, |keys, counts| {
            let mut sum = 0u128;
            for (&position, &count) in keys.iter().zip(counts) {
                let other = geometry.canonical(!position & geometry.full);
                // count (the orbit's) times the sequences from one complement.
                let term = count.checked_mul(index.get(other));
                sum = term
                    .and_then(|t| sum.checked_add(t))
                    .ok_or(SearchError::Overflow)?;
            }
            Ok(sum)
        })
    })?
}

/// The positions of `from_start` whose complement is a position of
/// `from_finish` (layers of complementary peg counts, as for [`meet`]): the
/// positions of the layer that lie on some sequence from the start to the
/// finish.  Counted as the layers keep them, one per orbit of the group
/// (which must fix the start and the finish, so that an orbit lies on such
/// a sequence whole or not at all).
pub fn meeting_positions(
    geometry: &PegGeometry,
    from_start: &Layer,
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    with_pool(threads, || {
        let index = KeyIndex::new(geometry, from_finish, ctl)?;
        sum_by_chunks(chunks_of(&[from_start])?, ctl, |keys, _| {
            let on_a_line = keys
                .iter()
                .filter(|&&position| index.get(geometry.canonical(!position & geometry.full)) != 0)
                .count();
            Ok(on_a_line as u128)
        })
    })?
}

/// The checked sum of `per_chunk` over `chunks`, in parallel
/// (inside a pool), watching the cancel flag between chunks.
pub(super) fn sum_by_chunks(
    chunks: Vec<Chunk<'_>>,
    ctl: &Control,
    per_chunk: impl Fn(&[u64], &[u128]) -> Result<u128, SearchError> + Sync,
) -> Result<u128, SearchError> {
    chunks
        .into_par_iter()
        .map(|(keys, counts)| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            per_chunk(keys, counts)
        })
        .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(SearchError::Overflow))
}

/// A hash index of a layer: position -> sequences reaching that one
/// position (its orbit's count divided by the orbit's size), built by the
/// layer engine and frozen into one region.
struct KeyIndex {
    table: Frozen<u128>,
}

/// What the index is, in a memory error.
const INDEX: &str = "the meeting index";

impl KeyIndex {
    /// Runs inside the pool, and looks at the cancel flag (building the
    /// index of a wide layer takes about a second).
    fn new(geometry: &PegGeometry, layer: &Layer, ctl: &Control) -> Result<KeyIndex, SearchError> {
        // The keys of a layer are distinct: a shard gets as many as hash to it.
        let sizes = (layer.keys.par_chunks(1 << 16))
            .map(|keys| {
                let mut sizes = vec![0usize; SHARDS];
                keys.iter().for_each(|&key| sizes[shard_of(key)] += 1);
                sizes
            })
            .reduce(
                || vec![0; SHARDS],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            );
        let chunks = chunks_of(&[layer])?;
        let table = freeze(chunks, &sizes, &Rule::PerPosition(geometry), INDEX, ctl)?;
        Ok(KeyIndex { table })
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        self.table.prefetch(key);
    }

    /// The per-position count of `key`, 0 if absent.
    #[inline]
    fn get(&self, key: u64) -> u128 {
        self.table.get(key)
    }
}

/// Like [`meet`], but across one jump: `from_start` and `from_finish` are
/// one jump apart (their peg counts add up to the holes plus one), and every
/// jump out of a position of `from_start` is joined with the sequences from
/// its complement.  This spares the widest layer, and is symmetric: either
/// side may play `from_start`.
pub fn meet_across(
    geometry: &PegGeometry,
    from_start: &Layer,
    from_finish: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    let full = geometry.full;
    with_pool(threads, || {
        let index = KeyIndex::new(geometry, from_finish, ctl)?;
        sum_by_chunks(chunks_of(&[from_start])?, ctl, |keys, counts| {
            let mut sum = 0u128;
            // Probes for a block of positions are prefetched together, so
            // their memory latencies overlap.
            let mut found: Vec<u64> = Vec::new();
            let mut ends: Vec<usize> = Vec::new();
            for (keys, counts) in keys.chunks(PROBE_BLOCK).zip(counts.chunks(PROBE_BLOCK)) {
                found.clear();
                ends.clear();
                for &position in keys {
                    geometry.for_each_jump_image(position, !position & full, |least| {
                        index.prefetch(least);
                        found.push(least);
                    });
                    ends.push(found.len());
                }
                let mut begin = 0;
                for (&count, &end) in counts.iter().zip(&ends) {
                    // Sequences after each jump: sum of per-position counts.
                    let after = found[begin..end]
                        .iter()
                        .try_fold(0u128, |after, &least| after.checked_add(index.get(least)));
                    begin = end;
                    sum = after
                        .and_then(|after| count.checked_mul(after))
                        .and_then(|term| sum.checked_add(term))
                        .ok_or(SearchError::Overflow)?;
                }
            }
            Ok(sum)
        })
    })?
}

/// For a layer of one-peg positions: the number of sequences ending with
/// the peg in each hole (every hole of each orbit gets its share).
pub fn finish_counts(geometry: &PegGeometry, layer: &Layer) -> Vec<(usize, u128)> {
    let mut out = Vec::new();
    for (&key, &count) in layer.keys.iter().zip(&layer.counts) {
        let mut images: Vec<u64> = geometry
            .maps
            .iter()
            .map(|map| PegGeometry::image(map, key))
            .collect();
        images.push(key);
        images.sort_unstable();
        images.dedup();
        let each = count / images.len() as u128;
        for image in images {
            out.push((image.trailing_zeros() as usize, each));
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{forward_to_one_peg, grown, layer_of, rectangle, IDENTITY};
    use super::super::{expand, expand_split, merge, split};
    use super::*;
    use std::collections::HashMap;

    /// The sequences of [`finish_counts`] `ends` that leave the peg in `hole`.
    fn ways(ends: &[(usize, u128)], hole: usize) -> u128 {
        (ends.iter())
            .filter(|&&(h, _)| h == hole)
            .map(|&(_, c)| c)
            .sum()
    }

    #[test]
    fn meeting_in_the_middle_agrees_with_going_all_the_way() {
        let ctl = Control::new();
        let mut solvable = 0;
        for (rows, cols) in [(2, 4), (3, 3), (3, 4)] {
            let g = rectangle(rows, cols, IDENTITY);
            let n = rows * cols;
            for start in 0..n {
                let ends = finish_counts(&g, &forward_to_one_peg(&g, start));
                for finish in 0..n {
                    let want = ways(&ends, finish);
                    let mut a = g.start(&[start]).unwrap();
                    let mut b = g.start(&[finish]).unwrap();
                    let mut jumps = 0;
                    while jumps < n - 2 {
                        if jumps == n - 3 {
                            // One jump short: meet across the last jump, from either side.
                            assert_eq!(meet_across(&g, &a, &b, 1, &ctl).unwrap(), want);
                            assert_eq!(meet_across(&g, &b, &a, 2, &ctl).unwrap(), want);
                        }
                        if a.len() <= b.len() {
                            a = expand(&g, &a, 1, &ctl).unwrap();
                        } else {
                            b = expand(&g, &b, 1, &ctl).unwrap();
                        }
                        jumps += 1;
                    }
                    assert_eq!(
                        meet(&g, &a, &b, 1, &ctl).unwrap(),
                        want,
                        "{start}->{finish}"
                    );
                    solvable += (want > 0) as usize;
                }
            }
        }
        assert!(
            solvable > 10,
            "only {solvable} solvable problems: a weak test"
        );
    }

    #[test]
    fn meeting_positions_are_those_on_some_winning_line() {
        // By brute force: the positions after `k` jumps from the start from
        // which some sequence reaches the finish, every image counted once.
        let ctl = Control::new();
        let g = rectangle(3, 5, &[(false, false), (false, true)]);
        let (s, f) = (2, 2);
        let plain = rectangle(3, 5, IDENTITY);
        fn walk(g: &PegGeometry, p: u64, goal: u64, memo: &mut HashMap<u64, bool>) -> bool {
            if let Some(&known) = memo.get(&p) {
                return known;
            }
            let found = p == goal
                || g.jumps.iter().any(|j| {
                    p & j.need == j.need && p & j.to == 0 && walk(g, p ^ j.flip, goal, memo)
                });
            memo.insert(p, found);
            found
        }
        let mut memo = HashMap::new();
        let mut reaches = |position: u64| walk(&plain, position, 1 << f, &mut memo);
        let mut seen = 0;
        for k in 0..=13 {
            let forward = grown(&g, s, k);
            let backward = grown(&g, f, 13 - k);
            let want = forward.keys.iter().filter(|&&p| reaches(p)).count() as u128;
            let got = meeting_positions(&g, &forward, &backward, 2, &ctl).unwrap();
            assert_eq!(got, want, "after {k} jumps");
            seen += want;
        }
        assert!(seen > 14, "a weak test: {seen}");
    }

    #[test]
    fn symmetry_does_not_change_counts() {
        // On boards of odd width the left-right mirror fixes the middle column.
        let mut solvable = 0;
        for (rows, cols) in [(3, 3), (4, 3), (3, 5), (4, 5)] {
            let plain = rectangle(rows, cols, IDENTITY);
            let mirrored = rectangle(rows, cols, &[(false, false), (false, true)]);
            for start in (0..rows).map(|r| r * cols + cols / 2) {
                let ends = finish_counts(&plain, &forward_to_one_peg(&plain, start));
                let reduced = finish_counts(&mirrored, &forward_to_one_peg(&mirrored, start));
                assert_eq!(ends, reduced, "{rows}x{cols} start {start}");
                solvable += ends.iter().filter(|&&(_, c)| c > 0).count();
            }
        }
        assert!(solvable > 0, "no solvable start: a weak test");
        // Meeting under a group: 3 x 5 with all four mirrors, start = finish
        // in the middle; elsewhere without symmetry.
        let mirrored = rectangle(
            3,
            5,
            &[(false, false), (false, true), (true, false), (true, true)],
        );
        let plain = rectangle(3, 5, IDENTITY);
        let ctl = Control::new();
        let mut checked = 0;
        for start in [2, 5, 7, 12] {
            let g = if start == 7 { &mirrored } else { &plain };
            let want = ways(&finish_counts(g, &forward_to_one_peg(g, start)), start);
            let mut a = g.start(&[start]).unwrap();
            for _ in 0..6 {
                a = expand(g, &a, 2, &ctl).unwrap();
            }
            // 13 jumps in all: 6 + 6 and one across.
            assert_eq!(
                meet_across(g, &a, &a, 2, &ctl).unwrap(),
                want,
                "start {start}"
            );
            checked += (want > 0) as usize;
        }
        assert!(
            checked > 0,
            "no solvable single-vacancy problem: a weak test"
        );
    }

    #[test]
    fn counts_past_64_bits_are_kept_exactly() {
        // Sums crossing 2^64 (and landing on the marker value itself) in the
        // tables, and wide counts in the index.
        let g = rectangle(1, 5, IDENTITY);
        let ctl = Control::new();
        for (a, b) in [
            (u64::MAX as u128, 1),
            (u64::MAX as u128 - 1, 1),
            (1 << 70, 5),
        ] {
            let layer = layer_of(2, vec![0b00011, 0b11000], vec![a, b]);
            let next = expand(&g, &layer, 2, &ctl).unwrap();
            assert_eq!(next.counts, vec![a + b]);
            let index = KeyIndex::new(&g, &layer, &ctl).unwrap();
            assert_eq!((index.get(0b00011), index.get(0b11000)), (a, b));
            assert_eq!(index.get(0b00100), 0);
        }
    }

    #[test]
    fn meeting_is_local_to_each_owner() {
        // A position has the same owner in the search from the start and (as
        // a complement) in the search from the finish.
        // 3 x 5 with the left-right mirror, which fixes the middle column
        // (solvable from (0, 2) to itself); 4 x 4 from (0, 1) to (0, 2) and (3, 2).
        let mirrored = rectangle(3, 5, &[(false, false), (false, true)]);
        let plain = rectangle(4, 4, IDENTITY);
        let ctl = Control::new();
        let mut checked = 0;
        for (g, s, f) in [
            (&mirrored, 2, 2),
            (&mirrored, 12, 7),
            (&plain, 1, 2),
            (&plain, 1, 14),
        ] {
            let steps = g.holes - 2;
            for ja in [steps / 2, steps / 2 + 1, 4] {
                let jb = steps - ja;
                let (a, b) = (grown(g, s, ja), grown(g, f, jb));
                let want = meet(g, &a, &b, 2, &ctl).unwrap();
                for parts in [2, 3, 7] {
                    let pa = split(g, &a, parts, false, 1, &ctl).unwrap();
                    let pb = split(g, &b, parts, true, 1, &ctl).unwrap();
                    let sum: u128 = (pa.iter().zip(&pb))
                        .map(|(x, y)| meet(g, x, y, 1, &ctl).unwrap())
                        .sum();
                    assert_eq!(sum, want, "{s}->{f}, {ja}+{jb} jumps, {parts} parts");
                    // Unmerged pieces of one side (the children of each part
                    // of its previous layer) join as well as the merged layer.
                    let before = split(g, &grown(g, s, ja - 1), parts, false, 1, &ctl).unwrap();
                    let mut sum = 0;
                    for (owner, finish_part) in pb.iter().enumerate() {
                        let pieces: Vec<Layer> = (before.iter())
                            .map(|part| expand_split(g, part, parts, false, 1, &ctl).unwrap())
                            .map(|mut children| children.swap_remove(owner))
                            .collect();
                        let refs: Vec<&Layer> = pieces.iter().collect();
                        sum += meet_pieces(g, &refs, finish_part, 2, &ctl).unwrap();
                        // and with the roles swapped
                        let other = meet_pieces(
                            g,
                            &[finish_part],
                            &merge(&refs, 1, &ctl).unwrap(),
                            1,
                            &ctl,
                        );
                        assert_eq!(
                            other.unwrap(),
                            meet(g, &pa[owner], finish_part, 1, &ctl).unwrap()
                        );
                    }
                    assert_eq!(
                        sum, want,
                        "pieces: {s}->{f}, {ja}+{jb} jumps, {parts} parts"
                    );
                }
                checked += (want > 0) as usize;
            }
        }
        assert!(checked >= 6, "only {checked} solvable cases: a weak test");
    }
}
