//! The next layer, and layers moved between tasks: [`expand`] computes one
//! layer from the previous with rayon, [`expand_split`] expands one part of
//! a split layer and splits its children by owner as it drains them,
//! [`merge`] sums the pieces that several tasks sent to one owner, and
//! [`split`] splits a layer by owner.  Expanding and merging are one step
//! of the layer engine ([`crate::layers::accumulate`]) with two rules (a
//! position's jumps, or the position itself), then `drain`, which moves the
//! engine's tables into the peg's layers.

use super::{Layer, PegGeometry};
use crate::engine::{with_pool, Control};
use crate::error::SearchError;
use crate::layers::{accumulate, needing, Feed, ShardTable, SHARDS};
use crate::memory::{advise_huge, bytes_of, try_with_capacity, try_zeroed};
use rayon::prelude::*;

/// Parents per task (and between two looks at the cancel flag).
const CHUNK: usize = 2048;

/// What the summing tables are, in a memory error.
const TABLES: &str = "the peg layer tables";

/// At most this many parts when splitting a layer.
pub const MAX_PARTS: usize = 1 << 16;

/// The peg's rules for the layer engine: where a position's count goes.
#[derive(Clone, Copy)]
pub(super) enum Rule<'a> {
    /// Expanding: to every child of the position, canonical.
    Children(&'a PegGeometry),
    /// Merging: to the position itself.
    Same,
    /// Indexing: to the position itself, shared among its orbit's positions.
    PerPosition(&'a PegGeometry),
    /// Meeting: to the (canonical) complement of the position, the key the
    /// search from the other end has for it.
    Complement(&'a PegGeometry),
    /// Meeting across a jump: to the complement of every child.
    ChildComplements(&'a PegGeometry),
}

impl Rule<'_> {
    /// Where one position's count goes.
    #[inline]
    pub(super) fn send(&self, position: u64, count: u128, emit: &mut impl FnMut(u64, u128)) {
        match *self {
            Rule::Children(geometry) => {
                geometry.for_each_child(position, |child| emit(child, count))
            }
            Rule::Same => emit(position, count),
            Rule::PerPosition(geometry) => {
                emit(position, count / geometry.orbit_size(position) as u128)
            }
            Rule::Complement(geometry) => {
                emit(geometry.canonical(!position & geometry.full), count)
            }
            Rule::ChildComplements(geometry) => {
                let base = !position & geometry.full;
                geometry.for_each_jump_image(position, base, |least| emit(least, count))
            }
        }
    }
}

impl<'a> Feed for Rule<'a> {
    type Chunk = Chunk<'a>;
    type Count = u128;
    #[inline]
    fn feed(
        &self,
        (keys, counts): Chunk<'a>,
        emit: &mut impl FnMut(u64, u128),
    ) -> Result<(), SearchError> {
        for (&position, &count) in keys.iter().zip(counts) {
            self.send(position, count, emit);
        }
        Ok(())
    }
}

/// The next layer: every jump from every position of `layer`.
pub fn expand(
    geometry: &PegGeometry,
    layer: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<Layer, SearchError> {
    let mut parts = expand_split(geometry, layer, 1, false, threads, ctl)?;
    Ok(parts.pop().unwrap_or_default())
}

/// The next layer split into `parts` layers by owner ([`PegGeometry::owner`],
/// with `complement` for a search from the finish): the children of `layer`
/// are summed once and drained straight into the parts, never into one
/// whole layer first.
pub fn expand_split(
    geometry: &PegGeometry,
    layer: &Layer,
    parts: usize,
    complement: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    let parts = parts.clamp(1, MAX_PARTS);
    with_pool(threads, || {
        let expected = expected_children(layer);
        let tables = accumulate(
            chunks_of(&[layer])?,
            expected,
            &Rule::Children(geometry),
            TABLES,
            ctl,
        )?;
        let pegs = layer.pegs.saturating_sub(1);
        drain(
            tables,
            (pegs, layer.len()),
            parts,
            |key| geometry.owner(key, parts, complement),
            &format!("the next layer of {pegs} pegs"),
            ctl,
        )
    })?
}

/// One layer from `pieces` of the same layer (what several tasks sent to
/// one owner): a position found in several pieces gets the (checked) sum of
/// its counts.  The pieces must all have the same number of pegs.
pub fn merge(pieces: &[&Layer], threads: usize, ctl: &Control) -> Result<Layer, SearchError> {
    let pegs = pieces.first().map_or(0, |piece| piece.pegs);
    debug_assert!(pieces.iter().all(|piece| piece.pegs == pegs));
    // The merged layer is at least as big as the largest piece and at most
    // as big as all of them (tables grow if this guess is low).
    let total: usize = pieces.iter().map(|piece| piece.len()).sum();
    let largest = pieces.iter().map(|piece| piece.len()).max().unwrap_or(0);
    let expected = largest.max(total / 2);
    let parents = pieces.iter().map(|piece| piece.parents).max().unwrap_or(0);
    with_pool(threads, || {
        let tables = accumulate(chunks_of(pieces)?, expected, &Rule::Same, TABLES, ctl)?;
        let what = format!("the merged layer of {pegs} pegs");
        let mut merged = drain(tables, (pegs, parents), 1, |_| 0, &what, ctl)?;
        Ok(merged.pop().unwrap_or_default())
    })?
}

/// `layer` split into `parts` layers by owner ([`PegGeometry::owner`]), the
/// positions and their counts unchanged.
pub fn split(
    geometry: &PegGeometry,
    layer: &Layer,
    parts: usize,
    complement: bool,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    let parts = parts.clamp(1, MAX_PARTS);
    let what = format!("the parts of the layer of {} pegs", layer.pegs);
    with_pool(threads, || {
        let mut owners = try_zeroed::<u32>(layer.len(), &what)?;
        (owners.par_chunks_mut(CHUNK))
            .zip(layer.keys.par_chunks(CHUNK))
            .try_for_each(|(owners, keys)| {
                if ctl.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                for (owner, &key) in owners.iter_mut().zip(keys) {
                    *owner = geometry.owner(key, parts, complement) as u32;
                }
                Ok(())
            })?;
        let mut sizes = try_zeroed::<usize>(parts, &what)?;
        for &owner in &owners {
            sizes[owner as usize] += 1;
        }
        let mut out: Vec<Layer> = try_with_capacity(parts, &what)?;
        for &size in &sizes {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            out.push(Layer {
                pegs: layer.pegs,
                keys: try_with_capacity(size, &what)?,
                counts: try_with_capacity(size, &what)?,
                parents: layer.parents,
            });
        }
        for ((&key, &count), &owner) in (layer.keys.iter()).zip(&layer.counts).zip(&owners) {
            let part = &mut out[owner as usize];
            part.keys.push(key);
            part.counts.push(count);
        }
        Ok(out)
    })?
}

/// The entries of `layers`, in chunks of [`CHUNK`].
pub(super) fn chunks_of<'a>(layers: &[&'a Layer]) -> Result<Vec<Chunk<'a>>, SearchError> {
    let n = layers.iter().map(|layer| layer.len().div_ceil(CHUNK)).sum();
    let mut chunks = try_with_capacity(n, "the list of a layer's chunks")?;
    chunks.extend(
        (layers.iter()).flat_map(|layer| layer.keys.chunks(CHUNK).zip(layer.counts.chunks(CHUNK))),
    );
    Ok(chunks)
}

/// Up to [`CHUNK`] positions of a layer and their counts.
pub(super) type Chunk<'a> = (&'a [u64], &'a [u128]);

/// Move the entries of `tables` into `parts` layers of `pegs` pegs (`what`
/// they are, in a memory error; `parents` their size hint), each position
/// into layer `owner(position)`.  Every table drains straight into its own
/// stretch of each part, in parallel (the pages of a fresh zeroed vector are
/// only mapped when touched).  Runs inside a pool.
fn drain(
    tables: Vec<ShardTable<u128>>,
    (pegs, parents): (u32, usize),
    parts: usize,
    owner: impl Fn(u64) -> usize + Sync,
    what: &str,
    ctl: &Control,
) -> Result<Vec<Layer>, SearchError> {
    // The part of each entry, table by table in slot order (one part: none).
    let owners: Vec<Vec<u32>> = (tables.par_iter())
        .map(|table| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if parts == 1 {
                return Ok(Vec::new());
            }
            let mut owners = try_with_capacity(table.len(), what)?;
            owners.extend(table.keys().map(|key| owner(key) as u32));
            Ok(owners)
        })
        .collect::<Result<_, _>>()?;
    // sizes[table][part]
    let mut sizes: Vec<Vec<usize>> = Vec::with_capacity(tables.len());
    for (table, owners) in tables.iter().zip(&owners) {
        let mut sizes_here = try_zeroed::<usize>(parts, what)?;
        if parts == 1 {
            sizes_here[0] = table.len();
        } else {
            for &part in owners {
                sizes_here[part as usize] += 1;
            }
        }
        sizes.push(sizes_here);
    }
    let mut out: Vec<Layer> = try_with_capacity(parts, what)?;
    for part in 0..parts {
        if ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let size = sizes.iter().map(|sizes| sizes[part]).sum();
        // A memory error names the bytes of the positions and the counts.
        let whole = |e| needing(e, bytes_of::<(u64, [u64; 2])>(size));
        let layer = Layer {
            pegs,
            keys: try_zeroed(size, what).map_err(whole)?,
            counts: try_zeroed(size, what).map_err(whole)?,
            parents,
        };
        advise_huge(&layer.keys);
        advise_huge(&layer.counts);
        out.push(layer);
    }
    let mut targets: Vec<Vec<Target>> = Vec::with_capacity(tables.len());
    for _ in 0..tables.len() {
        targets.push(try_with_capacity(parts, what)?);
    }
    for (part, layer) in out.iter_mut().enumerate() {
        let (mut keys, mut counts) = (&mut layer.keys[..], &mut layer.counts[..]);
        for (sizes, targets) in sizes.iter().zip(&mut targets) {
            let (k, rest_k) = std::mem::take(&mut keys).split_at_mut(sizes[part]);
            let (c, rest_c) = std::mem::take(&mut counts).split_at_mut(sizes[part]);
            (keys, counts) = (rest_k, rest_c);
            targets.push((k, c));
        }
    }
    (tables.into_par_iter())
        .zip(targets)
        .zip(owners)
        .try_for_each(|((table, mut targets), owners)| {
            if ctl.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            drain_into(table, &mut targets, &owners, what)
        })?;
    Ok(out)
}

/// Where a table drains its entries for one part: keys and counts.
type Target<'a> = (&'a mut [u64], &'a mut [u128]);

/// About how many distinct children `layer` has: its size times the growth
/// of the step before (layers grow and then shrink smoothly), or twice its
/// size for a first step.  Tables grow when this is too low; too high costs
/// the time to clear and scan the unused slots.
fn expected_children(layer: &Layer) -> usize {
    let n = layer.len();
    if layer.parents == 0 {
        return (2 * n).max(64 * SHARDS);
    }
    let growth = (n as f64 / layer.parents as f64).clamp(0.25, 8.0);
    ((n as f64 * growth * 1.1) as usize).max(64 * SHARDS)
}

/// Move the entries of `table` into `targets`: the `i`th entry (in slot
/// order) into `targets[owners[i]]`, or all into `targets[0]` when `owners`
/// is empty.  Each target is exactly as long as what it receives.
fn drain_into(
    table: ShardTable<u128>,
    targets: &mut [Target<'_>],
    owners: &[u32],
    what: &str,
) -> Result<(), SearchError> {
    let entries = table.entries().iter();
    if owners.is_empty() {
        let (keys, counts) = &mut targets[0];
        for ((key, count), (k, n)) in keys.iter_mut().zip(counts.iter_mut()).zip(entries) {
            (*key, *count) = (k, n);
        }
        return Ok(());
    }
    let mut next = try_zeroed::<usize>(targets.len(), what)?;
    for ((k, n), &part) in entries.zip(owners) {
        let part = part as usize;
        let (keys, counts) = &mut targets[part];
        (keys[next[part]], counts[next[part]]) = (k, n);
        next[part] += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{grown, layer_of, rectangle, sorted, IDENTITY};
    use super::*;

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        // A row of five holes: {0, 1} and {3, 4} both jump into {2}.
        let g = rectangle(1, 5, IDENTITY);
        let layer = layer_of(2, vec![0b00011, 0b11000], vec![u128::MAX, 1]);
        let ctl = Control::new();
        assert_eq!(
            expand(&g, &layer, 2, &ctl).unwrap_err(),
            SearchError::Overflow
        );
        let fine = Layer {
            counts: vec![u128::MAX - 1, 1],
            ..layer
        };
        let next = expand(&g, &fine, 2, &ctl).unwrap();
        assert_eq!((next.keys, next.counts), (vec![0b00100], vec![u128::MAX]));
    }

    #[test]
    fn split_expand_split_and_merge_agree_with_expand() {
        let g = rectangle(
            4,
            5,
            &[(false, false), (false, true), (true, false), (true, true)],
        );
        let ctl = Control::new();
        let layer = grown(&g, 7, 5);
        assert!(layer.len() > 100, "a weak test: {} positions", layer.len());
        let next = expand(&g, &layer, 2, &ctl).unwrap();
        for parts in [1, 2, 3, 7] {
            for complement in [false, true] {
                let pieces = split(&g, &layer, parts, complement, 2, &ctl).unwrap();
                assert_eq!(pieces.len(), parts);
                for (owner, piece) in pieces.iter().enumerate() {
                    assert_eq!(piece.pegs, layer.pegs);
                    assert!(piece
                        .keys
                        .iter()
                        .all(|&k| g.owner(k, parts, complement) == owner));
                }
                let refs: Vec<&Layer> = pieces.iter().collect();
                assert_eq!(sorted(&merge(&refs, 2, &ctl).unwrap()), sorted(&layer));
                // Expanding each piece, split by owner; regrouped per owner and merged.
                let mut by_owner: Vec<Vec<Layer>> = (0..parts).map(|_| Vec::new()).collect();
                for piece in &pieces {
                    let children = expand_split(&g, piece, parts, complement, 1, &ctl).unwrap();
                    for (owner, child) in children.into_iter().enumerate() {
                        assert!(child
                            .keys
                            .iter()
                            .all(|&k| g.owner(k, parts, complement) == owner));
                        by_owner[owner].push(child);
                    }
                }
                let mut all = Vec::new();
                for pieces in &by_owner {
                    let refs: Vec<&Layer> = pieces.iter().collect();
                    let merged = merge(&refs, 2, &ctl).unwrap();
                    assert_eq!(merged.pegs, layer.pegs - 1);
                    all.extend(sorted(&merged));
                }
                all.sort_unstable();
                assert_eq!(all, sorted(&next), "{parts} parts");
            }
        }
    }

    #[test]
    fn merging_overflows_as_an_error() {
        let ctl = Control::new();
        let piece = |count| layer_of(2, vec![0b11, 0b110], vec![count, 1]);
        let (a, b) = (piece(u128::MAX), piece(1));
        assert_eq!(
            merge(&[&a, &b], 2, &ctl).unwrap_err(),
            SearchError::Overflow
        );
        let (a, b) = (piece(u128::MAX - 1), piece(1));
        let merged = merge(&[&a, &b], 2, &ctl).unwrap();
        assert_eq!(sorted(&merged), vec![(0b11, u128::MAX), (0b110, 2)]);
    }
}
