//! Every game, not only the wins: a *game* is a sequence of jumps played
//! until no jump is left, won (one peg) or not.  The layer DP counts the
//! sequences reaching each position; a position with no jump ends every
//! sequence that reaches it, so the games that end after `k` jumps are the
//! counts of the stuck positions of layer `k` ([`stuck_total`]; a layer
//! within a budget tallies them as it is expanded,
//! [`expand_side`](super::expand_side)).  Summed over the layers they are every game; by layer, the
//! games by the pegs left at the end.
//!
//! [`stuck_game`] finds one game that gets stuck after a given number of
//! jumps (the DP says which number is the least), by a depth-first search.

use super::expand::chunks_of;
use super::meet::sum_by_chunks;
use super::stream::DeadSet;
use super::{Layer, PegGeometry};
use crate::engine::{with_pool, Control};
use crate::error::SearchError;

/// Positions between two looks at the cancel flag in [`stuck_game`].
const POLL_EVERY: u32 = 4096;

/// The checked sum of the counts of the stuck positions among `entries`.
#[inline]
pub(super) fn stuck_sum(
    geometry: &PegGeometry,
    entries: impl Iterator<Item = (u64, u128)>,
) -> Result<u128, SearchError> {
    let mut sum = 0u128;
    for (position, count) in entries {
        if geometry.is_stuck(position) {
            sum = sum.checked_add(count).ok_or(SearchError::Overflow)?;
        }
    }
    Ok(sum)
}

/// The number of sequences that reach a stuck position of `layer`: the
/// games that end in this layer.
pub fn stuck_total(
    geometry: &PegGeometry,
    layer: &Layer,
    threads: usize,
    ctl: &Control,
) -> Result<u128, SearchError> {
    with_pool(threads, || {
        sum_by_chunks(chunks_of(&[layer])?, ctl, |keys, counts| {
            stuck_sum(geometry, keys.iter().copied().zip(counts.iter().copied()))
        })
    })?
}

/// One game from `start` that is stuck after exactly `jumps` jumps with
/// more than one peg left: its jump indices, the first such game in the
/// order of the geometry's jump list, or `None` if there is none.
/// Positions below which no such game lies are remembered by their least
/// image (stuckness is the same for every image; a position's depth is
/// fixed by its number of pegs), so the search visits each position at
/// most once.
pub fn stuck_game(
    geometry: &PegGeometry,
    start: u64,
    jumps: usize,
    ctl: &Control,
) -> Result<Option<Vec<usize>>, SearchError> {
    let mut search = StuckSearch {
        geometry,
        dead: DeadSet::new(usize::MAX),
        path: Vec::with_capacity(jumps),
        ticks: 0,
        ctl,
    };
    Ok(match search.walk(start, jumps)? {
        true => Some(search.path),
        false => None,
    })
}

struct StuckSearch<'a> {
    geometry: &'a PegGeometry,
    dead: DeadSet,
    path: Vec<usize>,
    ticks: u32,
    ctl: &'a Control,
}

impl StuckSearch<'_> {
    /// Whether a stuck position lies `left` jumps below `position` (the
    /// path to it is then in `self.path`).
    fn walk(&mut self, position: u64, left: usize) -> Result<bool, SearchError> {
        if left == 0 {
            return Ok(position.count_ones() > 1 && self.geometry.is_stuck(position));
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % POLL_EVERY == 1 && self.ctl.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let key = self.geometry.canonical(position);
        if self.dead.contains(key) {
            return Ok(false);
        }
        for (j, jump) in self.geometry.jumps.iter().enumerate() {
            if position & jump.need == jump.need && position & jump.to == 0 {
                self.path.push(j);
                if self.walk(position ^ jump.flip, left - 1)? {
                    return Ok(true);
                }
                self.path.pop();
            }
        }
        self.dead.insert(key)?;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{layer_of, rectangle, IDENTITY};
    use super::super::{expand, Side};
    use super::*;
    use crate::layers::Spill;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    /// Games by the pegs left, by playing every game out (no DP).
    fn played(g: &PegGeometry, position: u64, table: &mut BTreeMap<u32, u128>) {
        let mut moved = false;
        for jump in &g.jumps {
            if position & jump.need == jump.need && position & jump.to == 0 {
                moved = true;
                played(g, position ^ jump.flip, table);
            }
        }
        if !moved {
            *table.entry(position.count_ones()).or_default() += 1;
        }
    }

    /// Games by the pegs left, by the layers.
    fn by_layers(g: &PegGeometry, start: usize) -> BTreeMap<u32, u128> {
        let ctl = Control::new();
        let mut table = BTreeMap::new();
        let mut layer = g.start(&[start]).unwrap();
        while !layer.is_empty() {
            let stuck = stuck_total(g, &layer, 2, &ctl).unwrap();
            if stuck > 0 {
                table.insert(layer.pegs, stuck);
            }
            layer = expand(g, &layer, 2, &ctl).unwrap();
        }
        table
    }

    #[test]
    fn the_layers_count_every_game_played_out() {
        let mirrors = &[(false, false), (true, false), (false, true), (true, true)];
        let mut stuck_games = 0;
        for (rows, cols) in [(1, 5), (2, 4), (3, 3), (3, 4)] {
            let plain = rectangle(rows, cols, IDENTITY);
            let symmetric = rectangle(rows, cols, mirrors);
            for start in 0..rows * cols {
                let mut want = BTreeMap::new();
                played(&plain, plain.full & !(1 << start), &mut want);
                assert_eq!(by_layers(&plain, start), want, "{rows}x{cols} from {start}");
                // The group must fix the start: the mirrors fix the centre
                // of an odd board.
                if rows % 2 == 1 && cols % 2 == 1 && start == rows * cols / 2 {
                    assert_eq!(by_layers(&symmetric, start), want);
                }
                stuck_games += want.iter().filter(|(&p, _)| p > 1).count();
            }
        }
        assert!(stuck_games > 10, "a weak test: {stuck_games}");
    }

    #[test]
    fn a_budgeted_side_counts_the_same_games() {
        // The tally folded into the expansion within a budget, against the
        // sum over the layer in memory: whole in memory, through files by
        // passes (a tally on the first reading only) or by runs.
        let g = rectangle(4, 5, IDENTITY);
        let ctl = Control::new();
        let mut stuck_games = 0;
        for budget in [0, 1 << 12, 1 << 15, 1 << 18, u64::MAX] {
            for start in [0, 7] {
                let spill = Arc::new(Spill::new(budget, None));
                let mut side = Side::start(&g, &[start], 7, spill.clone()).unwrap();
                let mut layer = g.start(&[start]).unwrap();
                while !layer.is_empty() {
                    let want = stuck_total(&g, &layer, 1, &ctl).unwrap();
                    let (next, ended) =
                        super::super::expand_side(&g, &mut side, None, 2, &ctl).unwrap();
                    assert_eq!(ended, want, "budget {budget}, {} pegs", layer.pegs);
                    stuck_games += (want > 0) as usize;
                    layer = expand(&g, &layer, 2, &ctl).unwrap();
                    side = next;
                    assert_eq!(side.len(), layer.len());
                }
                if budget == 0 {
                    assert!(spill.written() > 0, "nothing spilled within no budget");
                }
            }
        }
        assert!(stuck_games > 20, "a weak test: {stuck_games}");
    }

    #[test]
    fn the_stuck_game_is_shortest_and_really_stuck() {
        for (rows, cols) in [(2, 4), (3, 4), (4, 4)] {
            let g = rectangle(rows, cols, IDENTITY);
            let ctl = Control::new();
            for start in 0..rows * cols {
                let first = g.full & !(1 << start);
                // The least number of jumps after which a game is stuck
                // with more than one peg, by the layers.
                let mut layer = g.start(&[start]).unwrap();
                let mut shortest = None;
                while !layer.is_empty() && shortest.is_none() {
                    let stuck = stuck_total(&g, &layer, 1, &ctl).unwrap();
                    if stuck > 0 && layer.pegs > 1 {
                        shortest = Some(rows * cols - 1 - layer.pegs as usize);
                    }
                    layer = expand(&g, &layer, 1, &ctl).unwrap();
                }
                let Some(d) = shortest else { continue };
                for fewer in 0..d {
                    assert_eq!(stuck_game(&g, first, fewer, &ctl).unwrap(), None);
                }
                let path = stuck_game(&g, first, d, &ctl)
                    .unwrap()
                    .expect("a stuck game");
                assert_eq!(path.len(), d);
                let mut position = first;
                for &j in &path {
                    let jump = g.jumps[j];
                    assert!(position & jump.need == jump.need && position & jump.to == 0);
                    position ^= jump.flip;
                }
                assert!(g.is_stuck(position) && position.count_ones() > 1);
            }
        }
    }

    #[test]
    fn a_sum_past_128_bits_is_an_error() {
        // No three holes in a line: every position is stuck.
        let g = rectangle(2, 2, IDENTITY);
        let layer = layer_of(3, vec![0b0111, 0b1011], vec![u128::MAX, 1]);
        let ctl = Control::new();
        assert_eq!(stuck_total(&g, &layer, 1, &ctl), Err(SearchError::Overflow));
    }

    #[test]
    fn a_cancelled_search_stops() {
        let g = rectangle(4, 5, IDENTITY);
        let ctl = Control::new();
        ctl.cancel();
        let layer = g.start(&[3]).unwrap();
        assert_eq!(
            stuck_total(&g, &layer, 2, &ctl),
            Err(SearchError::Cancelled)
        );
        assert_eq!(
            stuck_game(&g, layer.keys[0], 5, &ctl),
            Err(SearchError::Cancelled)
        );
    }
}
