//! The memo's states and their children.
//!
//! A state is a packed record of every item, one bit field each: a primary
//! item's field holds how often it is covered so far, or all ones once it is
//! *closed* (covered its most times, or branched on and finished); a
//! secondary item's field holds 0 (free), 1 (taken without a colour) or
//! `2 + colour`.  Closed and full are one value, so two ways to the same
//! choices left give the same key.  Without bounds every primary field is
//! one bit: the state is the bitset of covered items.
//!
//! A state branches on its first open primary item `i` in item order (all
//! before it are closed).  Its children choose, among the options holding
//! `i` that fit, a set of `least..=most` of them (so that `i` ends within
//! its bounds), then close `i`.  An option is so chosen only at the step of
//! its first item, so every cover (a set of options) is reached by exactly
//! one path, and every child's branch item comes after `i`: the states fall
//! into layers by branch item, each feeding only later ones.

use super::super::problem::Problem;

/// Where an item's field lies in a state: its word, shift and mask (the
/// mask is also the closed value).
#[derive(Clone, Copy)]
struct Field {
    word: u32,
    shift: u32,
    mask: u64,
}

/// The packing of a problem's states.
pub(crate) struct Layout {
    fields: Vec<Field>,
    /// Each primary item's most (`hi`), as a field value.
    most: Vec<u64>,
    /// Each primary item's least (`lo`).
    least: Vec<u32>,
    np: u32,
    /// Whether every primary item is one bit, item `i` at bit `i` (no
    /// bounds but "exactly once" and "at most once"): the hot tests then
    /// read the bit directly.
    unit: bool,
    /// Words of a state.
    pub words: usize,
}

/// The bits that hold `n`.
fn bits(n: u64) -> u32 {
    (64 - n.leading_zeros()).max(1)
}

impl Layout {
    pub fn new(p: &Problem) -> Layout {
        let np = p.n_primary() as u32;
        let colours = p.clr.iter().copied().max().unwrap_or(0) as u64;
        let mut fields = Vec::with_capacity(p.n_items());
        let (mut word, mut at) = (0u32, 0u32);
        for i in 0..p.n_items() {
            let width = if (i as u32) < np {
                bits(p.bounds_of(i).1 as u64)
            } else {
                bits(colours + 2)
            };
            if at + width > 64 {
                word += 1;
                at = 0;
            }
            let mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
            fields.push(Field {
                word,
                shift: at,
                mask,
            });
            at += width;
        }
        let words = if at == 0 {
            word as usize
        } else {
            word as usize + 1
        };
        let bounds = (0..np as usize).map(|i| p.bounds_of(i));
        let unit = (0..np as usize).all(|i| fields[i].mask == 1);
        Layout {
            unit,
            fields,
            most: bounds.clone().map(|(_, hi)| hi as u64).collect(),
            least: bounds.map(|(lo, _)| lo).collect(),
            np,
            words: words.max(1),
        }
    }

    #[inline]
    fn get(&self, state: &[u64], i: u32) -> u64 {
        let f = self.fields[i as usize];
        state[f.word as usize] >> f.shift & f.mask
    }

    #[inline]
    fn set(&self, state: &mut [u64], i: u32, v: u64) {
        let f = self.fields[i as usize];
        let w = &mut state[f.word as usize];
        *w = *w & !(f.mask << f.shift) | v << f.shift;
    }

    /// The state with nothing chosen: every primary item open at 0, but
    /// those that may never be covered (at most 0 times), which are closed.
    pub fn root(&self) -> Vec<u64> {
        let mut state = vec![0; self.words];
        for i in 0..self.np {
            if self.most[i as usize] == 0 {
                self.close(&mut state, i);
            }
        }
        state
    }

    #[inline]
    fn close(&self, state: &mut [u64], i: u32) {
        self.set(state, i, self.fields[i as usize].mask);
    }

    /// The first open primary item at or after `from`, if any: the item
    /// `state` branches on.
    pub fn branch(&self, state: &[u64], from: u32) -> Option<u32> {
        if !self.unit {
            return (from..self.np).find(|&i| self.get(state, i) != self.fields[i as usize].mask);
        }
        // The first 0 bit at or after `from`.
        if from >= self.np {
            return None;
        }
        let mut w = from as usize / 64;
        let mut open = !state[w] & (!0u64 << (from % 64));
        loop {
            if open != 0 {
                let i = (w * 64) as u32 + open.trailing_zeros();
                return (i < self.np).then_some(i);
            }
            w += 1;
            if w * 64 >= self.np as usize {
                return None;
            }
            open = !state[w];
        }
    }

    /// Whether option `o` can be added to `state`.
    #[inline]
    fn fits(&self, p: &Problem, state: &[u64], o: u32) -> bool {
        p.option_nodes(o).all(|x| {
            let i = p.itm[x];
            if i < self.np {
                if self.unit {
                    return state[i as usize / 64] >> (i % 64) & 1 == 0;
                }
                return self.get(state, i) != self.fields[i as usize].mask;
            }
            let (s, c) = (self.get(state, i), p.clr[x]);
            s == 0 || (c != 0 && s == c as u64 + 2)
        })
    }

    /// Add option `o` (which fits) to `state`.
    #[inline]
    fn add(&self, p: &Problem, state: &mut [u64], o: u32) {
        for x in p.option_nodes(o) {
            let (i, c) = (p.itm[x], p.clr[x]);
            if self.unit && i < self.np {
                state[i as usize / 64] |= 1 << (i % 64);
                continue;
            }
            let v = if i < self.np {
                let v = self.get(state, i) + 1;
                if v == self.most[i as usize] {
                    self.fields[i as usize].mask
                } else {
                    v
                }
            } else if c == 0 {
                1
            } else {
                c as u64 + 2
            };
            self.set(state, i, v);
        }
    }
}

/// The children of one state at a time, in a fixed order: the sets of
/// options chosen for the branch item, as a depth-first walk over the
/// item's options in option order (a set before its extensions).  Its
/// buffers are kept from state to state.
pub(crate) struct Children<'a> {
    lay: &'a Layout,
    p: &'a Problem,
    item: u32,
    least: usize,
    most: usize,
    /// The state after each number of options chosen (row 0: the parent).
    states: Vec<u64>,
    /// For each depth, the next of the item's nodes to try.
    at: Vec<u32>,
    picked: Vec<u32>,
    started: bool,
    out: Vec<u64>,
}

impl<'a> Children<'a> {
    pub fn new(lay: &'a Layout, p: &'a Problem) -> Children<'a> {
        Children {
            lay,
            p,
            item: 0,
            least: 0,
            most: 0,
            states: Vec::new(),
            at: Vec::new(),
            picked: Vec::new(),
            started: false,
            out: vec![0; lay.words],
        }
    }

    /// Start on the children of `state`, which branches on `item`.
    pub fn reset(&mut self, state: &[u64], item: u32) {
        let w = self.lay.words;
        let count = self.lay.get(state, item);
        let i = item as usize;
        let room = (self.lay.most[i] - count) as usize;
        self.item = item;
        self.most = room.min(self.p.nodes_of(item).len());
        self.least = (self.lay.least[i] as u64).saturating_sub(count) as usize;
        let rows = self.most + 1;
        if self.states.len() < rows * w {
            self.states.resize(rows * w, 0);
            self.at.resize(rows, 0);
        }
        self.states[..w].copy_from_slice(state);
        self.at[0] = 0;
        self.picked.clear();
        self.started = false;
    }

    /// The options of the child last returned by [`Self::next`].
    pub fn picked(&self) -> &[u32] {
        &self.picked
    }

    /// The next child (its branch item closed), or `None` when all are out.
    #[allow(clippy::should_implement_trait)] // it lends its own buffer
    pub fn next(&mut self) -> Option<&[u64]> {
        let (w, lay, p) = (self.lay.words, self.lay, self.p);
        let nodes = p.nodes_of(self.item);
        if !self.started {
            self.started = true;
            if self.least == 0 {
                return Some(self.closed(0));
            }
        }
        loop {
            let d = self.picked.len();
            if d < self.most {
                let (done, rest) = self.states.split_at_mut((d + 1) * w);
                let base = &done[d * w..];
                let found = nodes[self.at[d] as usize..]
                    .iter()
                    .position(|&x| lay.fits(p, base, p.opt[x as usize]));
                if let Some(k) = found {
                    let j = self.at[d] as usize + k;
                    let o = p.opt[nodes[j] as usize];
                    self.at[d] = j as u32 + 1;
                    self.at[d + 1] = j as u32 + 1;
                    self.picked.push(o);
                    let next = &mut rest[..w];
                    next.copy_from_slice(base);
                    lay.add(p, next, o);
                    if d + 1 >= self.least {
                        return Some(self.closed(d + 1));
                    }
                    continue;
                }
            }
            self.picked.pop()?;
        }
    }

    /// The state after `d` options chosen, with the branch item closed.
    fn closed(&mut self, d: usize) -> &[u64] {
        let w = self.lay.words;
        let f = self.lay.fields[self.item as usize];
        let row = d * w..(d + 1) * w;
        if self.states[row.start + f.word as usize] >> f.shift & f.mask == f.mask {
            return &self.states[row];
        }
        self.out.copy_from_slice(&self.states[row]);
        self.lay.close(&mut self.out, self.item);
        &self.out
    }
}
