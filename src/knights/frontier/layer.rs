//! A layer of the frontier DP: the states after one sweep step, in the
//! shards of the layer engine ([`crate::layers::Stored`]: in memory, or in
//! files past the memory budget), with counts of the narrowest type that
//! surely holds them ([`Width`]).

use crate::error::SearchError;
use crate::layers::{Count, Packed, Stored, U256};

/// The states after a step, in shards.
pub(super) enum Layer {
    Narrow(Stored<u64>),
    Wide(Stored<u128>),
    Huge(Stored<U256>),
}

/// Which count type the next layer needs.
#[derive(Clone, Copy)]
pub(super) enum Width {
    Narrow,
    Wide,
    Huge,
}

impl Width {
    /// Every child count is at most the layer's `total` (`None`: past 256
    /// bits) times the (at most 11) ways a state goes on: the narrowest
    /// type that surely holds that.
    pub(super) fn after(total: Option<U256>) -> Width {
        match total {
            Some(t) if t <= U256::from((u64::MAX / 16) as u128) => Width::Narrow,
            Some(t) if t <= U256::from(u128::MAX / 16) => Width::Wide,
            _ => Width::Huge,
        }
    }
}

/// The finished states of a sweep (every square done): their codes, and
/// the bits of a key that hold codes (the others: the tour ends fixed, or
/// a mark).
#[derive(Debug, Clone, Copy)]
pub(super) struct Done {
    pub(super) codes: u64,
    pub(super) mask: u64,
}

/// The total count of the finished states.
pub(super) fn finished<C: Count>(l: &Stored<C>, done: Done) -> Result<U256, SearchError> {
    let sum = l.try_fold(U256::default(), |s, key, c| add_finished(s, key, c, done))?;
    sum.ok_or(SearchError::Overflow)
}

/// `sum` plus the count of `key` if it is a finished state; `None` past
/// 256 bits.
#[inline]
pub(super) fn add_finished<C: Count>(sum: U256, key: u64, count: C, done: Done) -> Option<U256> {
    match key & done.mask == done.codes {
        true => sum.checked_add(count.to_wide()),
        false => Some(sum),
    }
}

fn sum<C: Count>(l: &Stored<C>) -> Result<Option<U256>, SearchError> {
    l.try_fold(U256::default(), |s, _, c| s.checked_add(c.to_wide()))
}

impl Layer {
    /// The first layer: one state, reached one way (`problem`: its tag).
    pub(super) fn first(key: u64, problem: u64) -> Layer {
        let shard = Packed::from_entries(&[(key, 1)]);
        Layer::Narrow(Stored::in_memory(vec![shard], problem))
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Layer::Narrow(l) => l.len(),
            Layer::Wide(l) => l.len(),
            Layer::Huge(l) => l.len(),
        }
    }

    /// At most the bytes of the layer's spill files (see
    /// [`Stored::spilled_bytes`]).
    pub(super) fn spilled_bytes(&self) -> u64 {
        match self {
            Layer::Narrow(l) => l.spilled_bytes(),
            Layer::Wide(l) => l.spilled_bytes(),
            Layer::Huge(l) => l.spilled_bytes(),
        }
    }

    /// The sum of the counts, `None` past 256 bits.
    fn total(&self) -> Result<Option<U256>, SearchError> {
        match self {
            Layer::Narrow(l) => sum(l),
            Layer::Wide(l) => sum(l),
            Layer::Huge(l) => sum(l),
        }
    }

    /// The width of the layer after this one (see [`Width::after`]).
    pub(super) fn next_width(&self) -> Result<Width, SearchError> {
        Ok(Width::after(self.total()?))
    }
}
