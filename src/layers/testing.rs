//! What the layers' tests share: the toy DP, [`halves`] (each key sends its
//! count to `k / 2` and `k / 3`), as a [`Feed`] on the entries of stored
//! shards, and one step of it on a group of packed shards.

use super::{accumulate_some, Entries, Feed, Packed, Tables};
use crate::engine::Control;
use crate::error::SearchError;
use std::marker::PhantomData;

/// The rule of the tests' toy DPs: each key `k` sends its count to `k / 2`
/// and `k / 3` (0 dropped).
pub(crate) fn halves(k: u64, c: u64, emit: &mut impl FnMut(u64, u64)) {
    for child in [k / 2, k / 3] {
        if child != 0 {
            emit(child, c);
        }
    }
}

/// [`halves`] on the entries of stored shards.
struct Halves<'a>(PhantomData<&'a ()>);

impl<'a> Feed for Halves<'a> {
    type Chunk = Entries<'a, u64>;
    type Count = u64;
    fn feed(&self, chunk: Self::Chunk, emit: &mut impl FnMut(u64, u64)) -> Result<(), SearchError> {
        for (k, c) in chunk.iter() {
            halves(k, c, emit);
        }
        Ok(())
    }
}

/// The toy DP's step: the children of `shards`, read in chunks of `chunk`
/// entries, summed into `tables`.
pub(crate) fn halves_step(
    shards: &[&Packed<u64>],
    tables: Tables<u64>,
    chunk: usize,
    ctl: &Control,
) -> Result<Tables<u64>, SearchError> {
    let chunks: Vec<Entries<'_, u64>> = shards.iter().flat_map(|s| s.chunks(chunk)).collect();
    accumulate_some(chunks, tables, &Halves(PhantomData), "t", ctl)
}
