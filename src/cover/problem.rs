//! [`Problem`]: an exact-cover problem with colours, checked and laid out
//! for the searches.
//!
//! Items are numbered `0..n_primary` (primary: covered exactly once) then
//! `n_primary..n_items` (secondary: covered at most once).  Option `k` is
//! the node range `starts[k]..starts[k + 1]` of the flat arrays `items` and
//! `colors` (colour `0` = none; colours only on secondary items).
//!
//! Invariants once built (checked by [`Problem::new`], never assumed):
//! every index fits a `u32` ([`MAX_NODES`], [`MAX_ITEMS`]); every option has
//! a primary item and names no item twice; the nodes of each item, in node
//! order (hence option order), are `item_nodes[item_start[i]..item_start[i + 1]]`.

use crate::error::{CountError, InputError};
use crate::memory;

/// Nodes (item occurrences) are `u32` indices, with one value kept free.
pub const MAX_NODES: usize = u32::MAX as usize - 1;
/// Items are `u32` indices, and the search stamps two phases per level
/// (one level per primary item at most) in a `u32`.
pub const MAX_ITEMS: usize = (1 << 31) - 2;
/// Options are `u32` indices (a cover is a list of them).
pub const MAX_OPTIONS: usize = u32::MAX as usize - 1;

/// A checked exact-cover problem and its item-to-nodes index.
#[derive(Debug, Clone)]
pub struct Problem {
    n_primary: u32,
    n_items: u32,
    /// Option `k` is nodes `starts[k]..starts[k + 1]`.
    pub(super) starts: Vec<u32>,
    /// The item of each node.
    pub(super) itm: Vec<u32>,
    /// The colour of each node (`0` = none).
    pub(super) clr: Vec<u32>,
    /// The option of each node.
    pub(super) opt: Vec<u32>,
    /// The nodes of item `i` are `item_nodes[item_start[i]..item_start[i + 1]]`.
    pub(super) item_start: Vec<u32>,
    pub(super) item_nodes: Vec<u32>,
    /// Whether any node has a colour (the search then checks them).
    pub(super) coloured: bool,
    /// Each primary item's least and most options, `(lo, hi)`: empty when
    /// every item is covered exactly once (Algorithm C's problems).
    pub(super) bounds: Vec<(u32, u32)>,
}

/// The most options of a problem with bounds: its search marks a left-out
/// option with the top bit of a `u32`.
pub const MAX_BOUNDED_OPTIONS: usize = (1 << 31) - 1;

/// Bytes a problem of `nodes` nodes, `items` items and `options` options
/// holds (the flat arrays above).
pub fn problem_bytes(nodes: usize, items: usize, options: usize) -> u64 {
    let n = nodes as u64;
    (4 * n) * 4 + 4 * (options as u64 + 1) + 4 * (items as u64 + 1)
}

impl Problem {
    /// Check and lay out a problem (see the module docs for the arrays).
    /// Every defect is an [`InputError`] naming the option and item; a
    /// problem larger than the machine is refused with its estimate.
    pub fn new(
        n_primary: usize,
        n_secondary: usize,
        starts: &[u32],
        items: &[u32],
        colors: &[u32],
    ) -> Result<Problem, CountError> {
        if n_primary == 0 {
            return Err(InputError(
                "an exact cover problem needs at least one primary item, got none".into(),
            )
            .into());
        }
        let n_items = n_primary.saturating_add(n_secondary);
        if n_items > MAX_ITEMS {
            return Err(InputError(format!(
                "an exact cover problem has at most {MAX_ITEMS} items, got {n_items}"
            ))
            .into());
        }
        if items.len() > MAX_NODES {
            return Err(InputError(format!(
                "the options hold at most {MAX_NODES} items in all, got {}",
                items.len()
            ))
            .into());
        }
        if colors.len() != items.len() {
            return Err(InputError(format!(
                "colors must be parallel to items ({} entries), got {}",
                items.len(),
                colors.len()
            ))
            .into());
        }
        let Some((&first, _)) = starts.split_first() else {
            return Err(InputError(
                "starts must have one entry more than there are options, got none".into(),
            )
            .into());
        };
        let n_options = starts.len() - 1;
        if n_options > MAX_OPTIONS {
            return Err(InputError(format!(
                "an exact cover problem has at most {MAX_OPTIONS} options, got {n_options}"
            ))
            .into());
        }
        if first != 0 || starts[n_options] as usize != items.len() {
            return Err(InputError(format!(
                "starts must run from 0 to the number of entries ({}), got {} to {}",
                items.len(),
                first,
                starts[n_options]
            ))
            .into());
        }
        let need = problem_bytes(items.len(), n_items, n_options);
        memory::check_available(
            need,
            &format!(
                "an exact cover problem of {n_options} options and {} entries",
                items.len()
            ),
        )?;
        check_options(n_primary, n_items, starts, items, colors)?;
        Ok(Self::lay_out(n_primary, n_items, starts, items, colors)?)
    }

    fn lay_out(
        n_primary: usize,
        n_items: usize,
        starts: &[u32],
        items: &[u32],
        colors: &[u32],
    ) -> Result<Problem, crate::error::SearchError> {
        let what = "the exact cover problem";
        let copy = |v: &[u32]| -> Result<Vec<u32>, crate::error::SearchError> {
            let mut out = memory::try_with_capacity(v.len(), what)?;
            out.extend_from_slice(v);
            Ok(out)
        };
        let starts_v = copy(starts)?;
        let itm = copy(items)?;
        let clr = copy(colors)?;
        let mut opt: Vec<u32> = memory::try_zeroed(items.len(), what)?;
        for k in 0..starts.len() - 1 {
            for slot in &mut opt[starts[k] as usize..starts[k + 1] as usize] {
                *slot = k as u32;
            }
        }
        // Counting sort of the nodes by item keeps each item's nodes in
        // node order, which is option order.
        let mut item_start: Vec<u32> = memory::try_zeroed(n_items + 1, what)?;
        for &i in items {
            item_start[i as usize + 1] += 1;
        }
        for i in 0..n_items {
            item_start[i + 1] += item_start[i];
        }
        let mut fill: Vec<u32> = memory::try_with_capacity(n_items, what)?;
        fill.extend_from_slice(&item_start[..n_items]);
        let mut item_nodes: Vec<u32> = memory::try_zeroed(items.len(), what)?;
        for (node, &i) in items.iter().enumerate() {
            let at = &mut fill[i as usize];
            item_nodes[*at as usize] = node as u32;
            *at += 1;
        }
        Ok(Problem {
            n_primary: n_primary as u32,
            n_items: n_items as u32,
            starts: starts_v,
            itm,
            clr,
            opt,
            item_start,
            item_nodes,
            coloured: colors.iter().any(|&c| c != 0),
            bounds: Vec::new(),
        })
    }

    /// This problem with each primary item `i` covered by at least `lo[i]`
    /// and at most `hi[i]` of the chosen options (Knuth's multiplicities,
    /// his Algorithm M): a cover is then a *set* of options whose counts
    /// fall within the bounds.  Bounds of `(1, 1)` everywhere are the plain
    /// problem.
    pub fn with_bounds(mut self, lo: &[u32], hi: &[u32]) -> Result<Problem, CountError> {
        let n = self.n_primary();
        if lo.len() != n || hi.len() != n {
            return Err(InputError(format!(
                "bounds must give one (lo, hi) pair per primary item ({n}), got {} and {}",
                lo.len(),
                hi.len()
            ))
            .into());
        }
        if let Some(i) = (0..n).find(|&i| lo[i] > hi[i]) {
            return Err(InputError(format!(
                "the bounds of primary item {i} are {}..{}: the least must not exceed the most",
                lo[i], hi[i]
            ))
            .into());
        }
        if (0..n).all(|i| (lo[i], hi[i]) == (1, 1)) {
            self.bounds = Vec::new();
            return Ok(self);
        }
        if self.n_options() > MAX_BOUNDED_OPTIONS {
            return Err(InputError(format!(
                "a problem with bounds has at most {MAX_BOUNDED_OPTIONS} options, got {}",
                self.n_options()
            ))
            .into());
        }
        self.bounds = lo.iter().copied().zip(hi.iter().copied()).collect();
        Ok(self)
    }

    /// Whether some primary item has bounds other than exactly once.
    pub fn bounded(&self) -> bool {
        !self.bounds.is_empty()
    }

    /// Primary item `i`'s bounds `(lo, hi)`.
    pub fn bounds_of(&self, i: usize) -> (u32, u32) {
        self.bounds.get(i).copied().unwrap_or((1, 1))
    }

    pub fn n_primary(&self) -> usize {
        self.n_primary as usize
    }

    pub fn n_items(&self) -> usize {
        self.n_items as usize
    }

    pub fn n_options(&self) -> usize {
        self.starts.len() - 1
    }

    /// The number of entries (item occurrences) of all options.
    pub fn n_nodes(&self) -> usize {
        self.itm.len()
    }

    /// The nodes of option `k`.
    #[inline]
    pub(super) fn option_nodes(&self, k: u32) -> std::ops::Range<usize> {
        self.starts[k as usize] as usize..self.starts[k as usize + 1] as usize
    }

    /// The items of option `k` with their colours.
    pub fn option(&self, k: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.option_nodes(k as u32)
            .map(|x| (self.itm[x], self.clr[x]))
    }

    /// The nodes holding item `i`, in option order.
    #[inline]
    pub(super) fn nodes_of(&self, i: u32) -> &[u32] {
        &self.item_nodes
            [self.item_start[i as usize] as usize..self.item_start[i as usize + 1] as usize]
    }

    /// The bytes of this problem, for memory estimates.
    pub fn bytes(&self) -> u64 {
        problem_bytes(self.n_nodes(), self.n_items(), self.n_options())
    }
}

/// Every option has a primary item, names known items once each, and
/// gives colours to secondary items only.
fn check_options(
    n_primary: usize,
    n_items: usize,
    starts: &[u32],
    items: &[u32],
    colors: &[u32],
) -> Result<(), CountError> {
    // `seen[i] == k + 1` while option `k` is checked: repeats in O(1).
    let mut seen: Vec<u32> = memory::try_zeroed(n_items, "the item check")?;
    for k in 0..starts.len() - 1 {
        let (a, b) = (starts[k] as usize, starts[k + 1] as usize);
        if b < a || b > items.len() {
            return Err(InputError(format!(
                "starts must not decrease, but option {k} starts at {a} and ends at {b} \
                 (of {} entries)",
                items.len()
            ))
            .into());
        }
        let mut primary = false;
        for x in a..b {
            let (i, c) = (items[x] as usize, colors[x]);
            if i >= n_items {
                return Err(InputError(format!(
                    "option {k} names item {i}, but there are only {n_items} items"
                ))
                .into());
            }
            if seen[i] == k as u32 + 1 {
                return Err(InputError(format!("option {k} names item {i} twice")).into());
            }
            seen[i] = k as u32 + 1;
            if i < n_primary {
                primary = true;
                if c != 0 {
                    return Err(InputError(format!(
                        "option {k} gives primary item {i} a colour ({c}); only secondary items \
                         (numbered {n_primary} and up) take colours"
                    ))
                    .into());
                }
            }
        }
        if !primary {
            return Err(InputError(format!(
                "option {k} has no primary item (every option must cover one of items 0..{n_primary})"
            ))
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(p: usize, s: usize, starts: &[u32], items: &[u32], colors: &[u32]) -> String {
        Problem::new(p, s, starts, items, colors)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_problems_are_refused_with_the_reason() {
        assert!(err(0, 1, &[0], &[], &[]).contains("at least one primary"));
        assert!(err(2, 0, &[0, 1], &[5], &[0]).contains("names item 5"));
        assert!(err(2, 0, &[0, 2], &[1, 1], &[0, 0]).contains("twice"));
        assert!(err(1, 1, &[0, 1], &[1], &[0]).contains("no primary item"));
        assert!(err(1, 1, &[0, 2], &[0, 0], &[0, 3]).contains("twice"));
        assert!(err(1, 1, &[0, 2], &[0, 1], &[2, 0]).contains("colour"));
        assert!(err(1, 0, &[0, 2], &[0], &[0]).contains("starts must run"));
        assert!(err(1, 0, &[0, 1], &[0], &[]).contains("parallel"));
        assert!(err(2, 0, &[0, 2, 1, 2], &[0, 1], &[0, 0]).contains("decrease"));
        assert!(err(1, 0, &[], &[], &[]).contains("one entry more"));
    }

    #[test]
    fn items_index_their_nodes_in_option_order() {
        let p = Problem::new(2, 1, &[0, 2, 4, 5], &[0, 2, 1, 2, 0], &[0, 1, 0, 1, 0]).unwrap();
        assert_eq!(p.nodes_of(0), &[0, 4]);
        assert_eq!(p.nodes_of(2), &[1, 3]);
        assert_eq!(p.option(1).collect::<Vec<_>>(), vec![(1, 0), (2, 1)]);
        assert_eq!((p.n_options(), p.n_items(), p.n_primary()), (3, 3, 2));
    }
}
