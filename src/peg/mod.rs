//! Peg solitaire: the kernel of the layer-by-layer board DP.
//!
//! A position is a `u64` with one bit per hole (set: a peg).  A jump is
//! `from` over `over` into the empty `to`; it needs pegs on `from` and `over`
//! and flips all three bits.  Every jump removes one peg, so the positions
//! after `k` jumps form a layer, and the number of jump sequences reaching a
//! position is the sum over its parents in the previous layer.  The Python
//! driver (`python/solvers/peg/dp.py`) runs the layers; [`expand()`]
//! computes one layer from the previous with rayon, [`meet()`] joins two
//! searches.
//!
//! **Splitting across tasks.**  For a run spread over processes or machines
//! (`python/solvers/peg/dist.py`) a layer is split into parts by a fixed
//! hash of each key ([`owner_of`]): [`expand_split`] expands one part and
//! splits its children by owner, [`merge`] sums the pieces that several
//! tasks sent to one owner, and [`Layer::to_bytes`] / [`Layer::from_bytes`]
//! carry layers between processes.  A search from the finish splits its
//! keys by the owner of the position they stand for (the complement), so
//! two searches meet owner by owner.
//!
//! **The files.**  `geometry.rs`: the board, its jumps and symmetries,
//! canonical forms and owners.  `layer.rs`: a layer and its bytes.
//! `expand.rs`: expanding, merging and splitting layers, as rules for the
//! layer engine ([`crate::layers`], whose sharded tables do the summing).
//! `meet.rs`: joining two searches, and the finish counts.  `games.rs`:
//! every game, won or stuck.  [`stream`]: one
//! solution at a time by depth-first search, and [`solve`].

mod budget;
mod expand;
mod games;
mod geometry;
mod layer;
mod meet;
pub mod stream;

pub use budget::{expand_side, meet_sides, save_answer, saved_answer, Side};
pub use expand::{expand, expand_split, merge, split, MAX_PARTS};
pub use games::{stuck_game, stuck_total};
pub use geometry::{owner_of, PegGeometry, MAX_HOLES};
pub use layer::{Layer, LAYER_FORMAT, LAYER_MAGIC};
pub use meet::{finish_counts, meet, meet_across, meet_pieces, meeting_positions};
pub use stream::solve;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Control;
    use crate::error::SearchError;

    /// A `rows x cols` rectangle with orthogonal jumps, and the symmetries
    /// `(flip rows, flip columns)` listed in `kinds`.
    pub(super) fn rectangle(rows: usize, cols: usize, kinds: &[(bool, bool)]) -> PegGeometry {
        let at = |r: usize, c: usize| r * cols + c;
        let mut jumps = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 2 < cols {
                    jumps.push((at(r, c), at(r, c + 1), at(r, c + 2)));
                    jumps.push((at(r, c + 2), at(r, c + 1), at(r, c)));
                }
                if r + 2 < rows {
                    jumps.push((at(r, c), at(r + 1, c), at(r + 2, c)));
                    jumps.push((at(r + 2, c), at(r + 1, c), at(r, c)));
                }
            }
        }
        let mut syms = Vec::new();
        for &(flip_r, flip_c) in kinds {
            let mut perm = vec![0; rows * cols];
            for r in 0..rows {
                for c in 0..cols {
                    let r2 = if flip_r { rows - 1 - r } else { r };
                    let c2 = if flip_c { cols - 1 - c } else { c };
                    perm[at(r, c)] = at(r2, c2);
                }
            }
            syms.push(perm);
        }
        PegGeometry::new(rows * cols, &jumps, &syms).unwrap()
    }

    pub(super) const IDENTITY: &[(bool, bool)] = &[(false, false)];

    pub(super) fn forward_to_one_peg(g: &PegGeometry, start: usize) -> Layer {
        let ctl = Control::new();
        let mut layer = g.start(&[start]).unwrap();
        while layer.pegs > 1 && !layer.is_empty() {
            layer = expand(g, &layer, 2, &ctl).unwrap();
        }
        layer
    }

    #[test]
    fn every_phase_stops_when_cancelled() {
        let g = rectangle(4, 5, IDENTITY);
        let layer = grown(&g, 7, 4);
        let other = grown(&g, 7, 18 - 4);
        let ctl = Control::new();
        ctl.cancel();
        let cancelled = Err(SearchError::Cancelled);
        assert_eq!(expand(&g, &layer, 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(
            expand_split(&g, &layer, 3, false, 2, &ctl).map(|_| ()),
            cancelled
        );
        assert_eq!(split(&g, &layer, 3, false, 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(merge(&[&layer, &layer], 2, &ctl).map(|_| ()), cancelled);
        assert_eq!(meet(&g, &layer, &other, 2, &ctl).map(|_| ()), cancelled);
        let across = grown(&g, 7, 18 - 5);
        assert_eq!(
            meet_across(&g, &layer, &across, 2, &ctl).map(|_| ()),
            cancelled
        );
        let start = g.full & !(1 << 7);
        assert_eq!(solve(&g, start, None, &ctl), Err(SearchError::Cancelled));
    }

    /// A layer of `pegs` pegs: `keys` with their `counts`, from no parents.
    pub(super) fn layer_of(pegs: u32, keys: Vec<u64>, counts: Vec<u128>) -> Layer {
        Layer {
            pegs,
            keys,
            counts,
            parents: 0,
        }
    }

    pub(super) fn sorted(layer: &Layer) -> Vec<(u64, u128)> {
        let mut items: Vec<_> = layer
            .keys
            .iter()
            .copied()
            .zip(layer.counts.iter().copied())
            .collect();
        items.sort_unstable();
        items
    }

    /// `layer` grown `jumps` times from `start`.
    pub(super) fn grown(g: &PegGeometry, start: usize, jumps: usize) -> Layer {
        let ctl = Control::new();
        let mut layer = g.start(&[start]).unwrap();
        for _ in 0..jumps {
            layer = expand(g, &layer, 2, &ctl).unwrap();
        }
        layer
    }
}
