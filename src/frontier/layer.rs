//! A layer of the frontier DP: the states after one sweep step, in the
//! [`SHARDS`] packed shards of the layer engine ([`crate::layers`]), with
//! counts of the narrowest type that surely holds them ([`Width`]).

use super::state::CODES_MASK;
use crate::error::SearchError;
use crate::layers::{Count, Packed, U256};

/// The states after a step, in shards.
pub(super) enum Layer {
    Narrow(Vec<Packed<u64>>),
    Wide(Vec<Packed<u128>>),
    Huge(Vec<Packed<U256>>),
}

/// Which count type the next layer needs.
#[derive(Clone, Copy)]
pub(super) enum Width {
    Narrow,
    Wide,
    Huge,
}

/// The total count of the states whose codes are `done` (every square finished).
pub(super) fn finished<C: Count>(l: &[Packed<C>], done: u64) -> Result<U256, SearchError> {
    (l.iter().flat_map(|shard| shard.entries().iter()))
        .filter(|(key, _)| key & CODES_MASK == done)
        .try_fold(U256::default(), |s, (_, c)| s.checked_add(c.to_wide()))
        .ok_or(SearchError::Overflow)
}

fn states<C: Count>(l: &[Packed<C>]) -> usize {
    l.iter().map(Packed::len).sum()
}

fn sum<C: Count>(l: &[Packed<C>]) -> Option<U256> {
    (l.iter().flat_map(|shard| shard.entries().iter()))
        .try_fold(U256::default(), |s, (_, c)| s.checked_add(c.to_wide()))
}

impl Layer {
    /// The first layer: one state, reached one way.
    pub(super) fn first(key: u64) -> Layer {
        Layer::Narrow(vec![Packed::from_entries(&[(key, 1)])])
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Layer::Narrow(l) => states(l),
            Layer::Wide(l) => states(l),
            Layer::Huge(l) => states(l),
        }
    }

    /// The sum of the counts, `None` past 256 bits.
    fn total(&self) -> Option<U256> {
        match self {
            Layer::Narrow(l) => sum(l),
            Layer::Wide(l) => sum(l),
            Layer::Huge(l) => sum(l),
        }
    }

    /// Every child count is at most the layer's total times the (at most
    /// 11) ways a state goes on: the narrowest type that surely holds that.
    pub(super) fn next_width(&self) -> Width {
        match self.total() {
            Some(t) if t <= U256::from((u64::MAX / 16) as u128) => Width::Narrow,
            Some(t) if t <= U256::from(u128::MAX / 16) => Width::Wide,
            _ => Width::Huge,
        }
    }
}
