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
//!
//! A state is kept in its layer's table as a shorter *key*: in layer `j`
//! every item before `j` is closed, and no item past `reach(j)` (the last
//! primary item of any option whose first one comes before `j`) has been
//! touched, so only the fields from `j` to `reach(j)` and the secondary
//! items vary.  The key is those bits; [`Layout::unpack`] puts the rest
//! back.  A tiling of a board `w` cells wide keeps about `w` bits of its
//! cells instead of one for every cell.

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
    /// For each primary item `j`, the bits of the fields of layer `j`'s
    /// states that vary (`j` to `reach(j)`), `lo..hi`.
    windows: Vec<(u32, u32)>,
    /// The bits of the secondary items' fields.
    secondary: (u32, u32),
    /// The state with nothing chosen.
    start: Vec<u64>,
    /// The most words of any layer's key.
    pub key_most: usize,
}

/// For each primary item `j`, the last primary item of any option whose
/// first primary item comes before `j` (`0` where there is none).
fn reaches(p: &Problem) -> Vec<usize> {
    let np = p.n_primary();
    let mut last_from = vec![0usize; np];
    for k in 0..p.n_options() {
        let (mut first, mut last) = (usize::MAX, 0);
        for i in p.option(k).map(|(i, _)| i as usize).filter(|&i| i < np) {
            (first, last) = (first.min(i), last.max(i));
        }
        if first < np {
            last_from[first] = last_from[first].max(last);
        }
    }
    let mut reach = 0;
    let mut out = Vec::with_capacity(np);
    for last in last_from {
        out.push(reach);
        reach = reach.max(last);
    }
    out
}

/// The bits of word `at / 64` (`at` its first bit) below bit `bit` of a
/// state, as a mask.
#[inline]
fn ones_below(bit: u32, at: u32) -> u64 {
    match bit.saturating_sub(at) {
        0 => 0,
        b if b >= 64 => !0,
        b => (1 << b) - 1,
    }
}

/// Bits `lo..hi` of `state` into the words at the front of `out`; how
/// many words.
#[inline]
fn extract(state: &[u64], lo: u32, hi: u32, out: &mut [u64]) -> usize {
    let len = (hi - lo) as usize;
    let n = len.div_ceil(64);
    for (k, slot) in out[..n].iter_mut().enumerate() {
        let b = lo as usize + 64 * k;
        let (w, s) = (b / 64, b % 64);
        let mut v = state[w] >> s;
        if s > 0 && w + 1 < state.len() {
            v |= state[w + 1] << (64 - s);
        }
        let left = len - 64 * k;
        if left < 64 {
            v &= (1 << left) - 1;
        }
        *slot = v;
    }
    n
}

/// The words at the front of `key` (as [`extract`] wrote them) or'ed into
/// bits `lo..hi` of `state`; how many words.
#[inline]
fn deposit(key: &[u64], lo: u32, hi: u32, state: &mut [u64]) -> usize {
    let n = ((hi - lo) as usize).div_ceil(64);
    for (k, &v) in key[..n].iter().enumerate() {
        let b = lo as usize + 64 * k;
        let (w, s) = (b / 64, b % 64);
        state[w] |= v << s;
        if s > 0 && w + 1 < state.len() {
            state[w + 1] |= v >> (64 - s);
        }
    }
    n
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
        let bit = |i: usize| 64 * fields[i].word + fields[i].shift;
        let end = |i: usize| bit(i) + fields[i].mask.count_ones();
        let windows = (reaches(p).into_iter().enumerate())
            .map(|(j, r)| (bit(j), end(r.max(j))))
            .collect();
        let n = p.n_items();
        let secondary = if n > np as usize {
            (bit(np as usize), end(n - 1))
        } else {
            (0, 0)
        };
        let mut lay = Layout {
            unit,
            most: bounds.clone().map(|(_, hi)| hi as u64).collect(),
            least: bounds.map(|(lo, _)| lo).collect(),
            fields,
            np,
            words: words.max(1),
            windows,
            secondary,
            start: Vec::new(),
            key_most: 0,
        };
        lay.start = lay.root();
        lay.key_most = (0..np).map(|j| lay.key_words(j)).max().unwrap_or(1);
        lay
    }

    /// The words of the keys of layer `j`.
    #[inline]
    pub fn key_words(&self, j: u32) -> usize {
        let (lo, hi) = self.windows[j as usize];
        let (slo, shi) = self.secondary;
        (hi - lo).div_ceil(64) as usize + (shi - slo).div_ceil(64) as usize
    }

    /// The key of `state` (of layer `j`), written to the front of `out`
    /// (at least [`Self::key_most`] words).
    #[inline(always)]
    pub fn pack<'k>(&self, state: &[u64], j: u32, out: &'k mut [u64]) -> &'k [u64] {
        let (lo, hi) = self.windows[j as usize];
        let n = extract(state, lo, hi, out);
        let (slo, shi) = self.secondary;
        let m = extract(state, slo, shi, &mut out[n..]);
        &out[..n + m]
    }

    /// The state of layer `j` whose key is `key`, into `state`: every
    /// field before the window closed, every one after it as at the start.
    #[inline]
    pub fn unpack(&self, key: &[u64], j: u32, state: &mut [u64]) {
        let (lo, hi) = self.windows[j as usize];
        for (w, out) in state.iter_mut().enumerate() {
            let at = 64 * w as u32;
            *out = ones_below(lo, at) | self.start[w] & !ones_below(hi, at);
        }
        let n = deposit(key, lo, hi, state);
        let (slo, shi) = self.secondary;
        deposit(&key[n..], slo, shi, state);
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
        self.parent().copy_from_slice(state);
        self.begin(item);
    }

    /// Start on the children of the state of layer `item` whose key is
    /// `key` (see [`Layout::pack`]).
    #[inline]
    pub fn reset_key(&mut self, key: &[u64], item: u32) {
        let lay = self.lay;
        lay.unpack(key, item, self.parent());
        self.begin(item);
    }

    /// Row 0 of the walk, where the parent goes.
    #[inline]
    fn parent(&mut self) -> &mut [u64] {
        let w = self.lay.words;
        if self.states.len() < w {
            self.states.resize(w, 0);
        }
        &mut self.states[..w]
    }

    #[inline]
    fn begin(&mut self, item: u32) {
        let w = self.lay.words;
        let count = self.lay.get(&self.states[..w], item);
        let i = item as usize;
        let room = (self.lay.most[i] - count) as usize;
        self.item = item;
        self.most = room.min(self.p.nodes_of(item).len());
        self.least = (self.lay.least[i] as u64).saturating_sub(count) as usize;
        let rows = self.most + 1;
        if self.states.len() < rows * w {
            self.states.resize(rows * w, 0);
        }
        if self.at.len() < rows {
            self.at.resize(rows, 0);
        }
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

#[cfg(test)]
mod tests {
    use super::{deposit, extract, ones_below};

    #[test]
    fn bits_taken_out_of_a_state_go_back_where_they_were() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2000 {
            let words = 1 + (next() % 4) as usize;
            let state: Vec<u64> = (0..words).map(|_| next()).collect();
            let total = 64 * words as u32;
            let lo = (next() % total as u64) as u32;
            let hi = lo + 1 + (next() % (total - lo) as u64) as u32;
            let mut key = vec![0; 8];
            let n = extract(&state, lo, hi, &mut key);
            assert_eq!(n, (hi - lo).div_ceil(64) as usize);
            let mut back = vec![0; words];
            assert_eq!(deposit(&key, lo, hi, &mut back), n);
            for (w, (&got, &was)) in back.iter().zip(&state).enumerate() {
                let at = 64 * w as u32;
                let window = !ones_below(lo, at) & ones_below(hi, at);
                assert_eq!(got, was & window, "{lo}..{hi} of {words} words, word {w}");
            }
        }
    }
}
