//! How much a layer is expected to grow at the next step, which sizes the
//! step's tables and plans its memory.
//!
//! A sweep's growth is periodic with the sweep column, not smooth: the
//! step that merges mirror images at a column's end halves the layer, and
//! the step after it doubles it again on top of its own growth.  Planning
//! by the last step's growth alone put 2.4 times more states into a step
//! than planned (7x8 closed, step 36; 8x8 open, step 33), and the tables
//! outgrew the memory budget (8x9 closed: a peak of 12.4 GB within 10.98;
//! 7x8 closed within 250 MB: 296 MB).  So a step is planned by the larger
//! of the last step's growth and that of the same square of the column
//! before, which covered every wide step (a quarter of the widest layer or
//! more) of 6x6, 6x7, 6x8, 7x7 and 7x8 (outside in and from the top) and
//! the measured steps of 8x8 open, at most 0.91 of the plan; and never for
//! fewer than a quarter more states than the step reads (see [`Growth::plan`]).

use crate::knights::frontier::MAX_FRONTIER_SIDE;

/// The growth of the last step and of each square of the sweep column.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Growth {
    /// The last step's growth (2 before the first step).
    last: f64,
    /// `by_square[p]`: the growth of the last step at position `p` of its
    /// column (0: none yet).
    by_square: [f64; MAX_FRONTIER_SIDE],
    /// Squares per sweep column.
    column: usize,
}

/// The names of the values a checkpoint keeps (see `saved.rs`).
pub(super) const LAST: &str = "growth";
const SQUARE: [&str; MAX_FRONTIER_SIDE] = [
    "growth0", "growth1", "growth2", "growth3", "growth4", "growth5", "growth6", "growth7",
];

impl Growth {
    /// Nothing measured yet, in a sweep of `column` squares per column.
    pub(super) fn new(column: usize) -> Growth {
        Growth {
            last: 2.0,
            by_square: [0.0; MAX_FRONTIER_SIDE],
            column: column.clamp(1, MAX_FRONTIER_SIDE),
        }
    }

    /// The growth expected at step `k`.
    pub(super) fn at(&self, k: usize) -> f64 {
        self.last.max(self.by_square[k % self.column])
    }

    /// The plan of step `k` from a layer of `before` states: the states to
    /// size its tables for (they grow if that is too little, a shard at a
    /// time, so growing is cheap), and the most it is likely to make, what
    /// a memory budget is planned for: the growth uncapped, with a quarter
    /// more, and never fewer than a quarter more states than the layer
    /// read (where layers shrink, towards the board's end, the growth of
    /// the column before says little: 5x7 open, from the outside in, went
    /// from 0.45 and 0.68 to 0.90, and once the starved squares prune its
    /// states, from shrinking to 1.03).
    pub(super) fn plan(&self, k: usize, before: usize) -> (usize, usize) {
        let growth = self.at(k);
        let expected = before as f64 * growth.min(2.0);
        let bound = before as f64 * growth.max(1.0) * 1.25;
        (expected as usize, bound as usize)
    }

    /// The `count` steps after step `k` (at most a sweep column's less
    /// one), each projected from a layer of `before` states before step `k`
    /// by the growth its square had one column before: `(j, into, made)`,
    /// the states step `j` reads and makes, for `j` in `k + 1 ..` while it
    /// is below `end` and every square on the way has a growth measured
    /// (none in the first column).  What a count that will not fit is
    /// refused by before it gets there (see `Sweep::refuse_ahead`); a
    /// projection, not a bound.
    pub(super) fn ahead(
        &self,
        k: usize,
        before: usize,
        (count, end): (usize, usize),
    ) -> Vec<(usize, usize, usize)> {
        let growth = |i: usize| self.by_square[i % self.column];
        let mut states = before as f64;
        let mut steps = Vec::new();
        if growth(k) == 0.0 {
            return steps;
        }
        states *= growth(k);
        for j in (k + 1..end).take(count.min(self.column - 1)) {
            let g = growth(j);
            if g == 0.0 {
                break;
            }
            steps.push((j, states as usize, (states * g) as usize));
            states *= g;
        }
        steps
    }

    /// Step `k` took a layer of `before` states to `after`.
    pub(super) fn record(&mut self, k: usize, before: usize, after: usize) {
        let g = (after as f64 / before.max(1) as f64).clamp(0.25, 8.0);
        self.last = g;
        self.by_square[k % self.column] = g;
    }

    /// The values a checkpoint keeps, as names and bits.
    pub(super) fn saved(&self) -> Vec<(&'static str, u64)> {
        let squares = SQUARE.iter().zip(self.by_square).take(self.column);
        let squares = squares.map(|(&name, g)| (name, g.to_bits()));
        std::iter::once((LAST, self.last.to_bits()))
            .chain(squares)
            .collect()
    }

    /// The growth a checkpoint kept: `last` is the bits saved under
    /// [`LAST`], `value(name)` those under `name`, if any (a checkpoint
    /// from before the growth of each square was kept has `last` alone).
    pub(super) fn restored(
        column: usize,
        last: u64,
        value: impl Fn(&str) -> Option<u64>,
    ) -> Growth {
        let mut growth = Growth::new(column);
        growth.last = f64::from_bits(last);
        for (name, g) in SQUARE.iter().zip(&mut growth.by_square) {
            if let Some(bits) = value(name) {
                *g = f64::from_bits(bits);
            }
        }
        growth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_is_planned_by_the_same_square_of_the_column_before() {
        // A column of 3: the merge at its end halves the layer, the next
        // step triples it.
        let mut growth = Growth::new(3);
        assert_eq!(growth.at(0), 2.0);
        let layers = [10, 30, 60, 30, 90, 180, 90];
        for k in 1..layers.len() {
            growth.record(k, layers[k - 1], layers[k]);
        }
        // Step 7 (position 1) follows a halving step, as step 4 did.
        assert_eq!(growth.at(7), 3.0);
        // Step 8 (position 2): the last step's growth is the larger.
        growth.record(7, 90, 270);
        assert_eq!(growth.at(8), 3.0);
        assert_eq!(growth.at(9), 3.0);
    }

    #[test]
    fn the_next_steps_are_projected_by_the_column_before() {
        // A column of 3 growing by 2, 4 and then halving at its end.
        let mut growth = Growth::new(3);
        assert_eq!(growth.ahead(0, 1, (5, 100)), vec![]);
        let layers = [1, 2, 8, 4, 8, 32];
        for k in 1..layers.len() {
            growth.record(k - 1, layers[k - 1], layers[k]);
        }
        // Before step 5 (position 2, last grown 0.5), from 32 states:
        // step 5 makes 16, step 6 (x2) 32, step 7 (x4) 128; no further
        // than the next column, nor than `end`, nor than `count` steps.
        let next = vec![(6, 16, 32), (7, 32, 128)];
        assert_eq!(growth.ahead(5, 32, (5, 100)), next);
        assert_eq!(growth.ahead(5, 32, (1, 100)), next[..1]);
        assert_eq!(growth.ahead(5, 32, (5, 7)), next[..1]);
        assert_eq!(growth.ahead(5, 32, (5, 6)), vec![]);
        // A square not measured yet ends the projection.
        let mut young = Growth::new(4);
        young.record(0, 1, 3);
        young.record(1, 3, 6);
        assert_eq!(young.ahead(0, 10, (3, 100)), vec![(1, 30, 60)]);
        assert_eq!(young.ahead(2, 10, (3, 100)), vec![]);
    }

    #[test]
    fn growth_is_clamped_and_an_empty_layer_counts_as_one_state() {
        let mut growth = Growth::new(2);
        growth.record(0, 0, 100);
        assert_eq!(growth.at(1), 8.0);
        growth.record(1, 1000, 1);
        assert_eq!(growth.at(2), 8.0);
        assert_eq!(growth.at(3), 0.25);
    }

    #[test]
    fn a_checkpoint_keeps_the_growth_of_each_square() {
        let mut growth = Growth::new(5);
        for (k, after) in [3, 7, 20, 11, 40, 90].into_iter().enumerate() {
            growth.record(k, 10, after);
        }
        let saved = growth.saved();
        assert_eq!(saved.len(), 6);
        let value = |name: &str| saved.iter().find(|(n, _)| *n == name).map(|&(_, v)| v);
        let last = value(LAST).expect("the last growth");
        assert_eq!(Growth::restored(5, last, value), growth);
        // An older checkpoint keeps the last step's growth alone.
        let old = Growth::restored(5, 4.5f64.to_bits(), |_| None);
        assert_eq!((old.at(0), old.at(3)), (4.5, 4.5));
    }
}
