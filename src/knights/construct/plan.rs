//! The construction's plans: how each side of the board is cut into bands
//! of block sizes that have the covers needed, with the start's special
//! block (odd sides) where the board has no closed tour.

/// How a dimension is cut into bands.
#[derive(Debug, Clone)]
pub(super) struct Bands {
    /// Band starts, with the length at the end.
    pub(super) starts: Vec<usize>,
}

impl Bands {
    fn of(sizes: &[usize]) -> Bands {
        let mut starts = Vec::with_capacity(sizes.len() + 1);
        let mut at = 0;
        starts.push(0);
        for &s in sizes {
            at += s;
            starts.push(at);
        }
        Bands { starts }
    }
    pub(super) fn count(&self) -> usize {
        self.starts.len() - 1
    }
    pub(super) fn size(&self, i: usize) -> usize {
        self.starts[i + 1] - self.starts[i]
    }
}

/// Parts of `len` from `sizes` (all but a small tail are `standard`), or
/// `None` if `len` has no such split.  `len = 0` is the empty split.
pub(super) fn split(len: usize, sizes: &[usize], standard: usize) -> Option<Vec<usize>> {
    let max = *sizes.iter().max()?;
    let tail_room = 4 * max;
    let mut parts = Vec::new();
    let mut rest = len;
    while rest > tail_room {
        parts.push(standard);
        rest -= standard;
    }
    // Small dynamic programme for the tail, preferring `standard` parts.
    let mut best: Vec<Option<usize>> = vec![None; rest + 1];
    let mut ok = vec![false; rest + 1];
    ok[0] = true;
    for x in 1..=rest {
        let order = std::iter::once(standard).chain(sizes.iter().copied());
        for s in order {
            if s <= x && ok[x - s] {
                ok[x] = true;
                best[x] = Some(s);
                break;
            }
        }
    }
    if !ok[rest] {
        return None;
    }
    let mut x = rest;
    while x > 0 {
        let s = best[x]?;
        parts.push(s);
        x -= s;
    }
    Some(parts)
}

/// Splits of `len` with one band from `special` holding position `pos` and
/// the others from `sizes`: `(parts, index of the special band)`, best first.
fn split_around(
    len: usize,
    pos: usize,
    sizes: &[usize],
    standard: usize,
    special: &[usize],
    most: usize,
) -> Vec<(Vec<usize>, usize)> {
    let mut out = Vec::new();
    for &w in special {
        if w > len {
            continue;
        }
        // Starts `a` with a <= pos < a + w, nearest to centring `pos`.
        let lo = (pos + 1).saturating_sub(w);
        let hi = pos.min(len - w);
        let centre = pos.saturating_sub(w / 2);
        let mut starts: Vec<usize> = (lo..=hi).collect();
        starts.sort_by_key(|&a| a.abs_diff(centre));
        for a in starts {
            let (Some(left), Some(right)) = (
                split(a, sizes, standard),
                split(len - a - w, sizes, standard),
            ) else {
                continue;
            };
            let index = left.len();
            let mut parts = left;
            parts.push(w);
            parts.extend(right);
            out.push((parts, index));
            break;
        }
        if out.len() >= most {
            break;
        }
    }
    out
}

/// The plan of one construction: bands, and where the start's special block is.
pub(super) struct Plan {
    pub(super) rows: Bands,
    pub(super) cols: Bands,
    /// The block `(row band, col band)` covered by a path from the start.
    pub(super) special: Option<(usize, usize)>,
}

/// The plans to try for `board` (at most a few), or none where this
/// construction does not apply.
pub(super) fn plans(rows: usize, cols: usize, start: usize, closed: bool) -> Vec<Plan> {
    let (m, n) = (rows.min(cols), rows.max(cols));
    let (sr, sc) = (start / cols, start % cols);
    let cycle_board = !((m % 2 == 1 && n % 2 == 1)
        || matches!(m, 1 | 2 | 4)
        || (m == 3 && matches!(n, 4 | 6 | 8)));
    let mut out = Vec::new();
    let even: &[usize] = &[6, 8, 10];
    let any: &[usize] = &[5, 6, 7, 8, 9];
    let narrow: &[usize] = &[10, 12, 14, 16, 18];
    let plain = |r: Vec<usize>, c: Vec<usize>| Plan {
        rows: Bands::of(&r),
        cols: Bands::of(&c),
        special: None,
    };
    if cycle_board {
        if m >= 5 {
            let (r, c) = if cols % 2 == 0 {
                (split(rows, any, 8), split(cols, even, 8))
            } else {
                (split(rows, even, 8), split(cols, any, 8))
            };
            if let (Some(r), Some(c)) = (r, c) {
                out.push(plain(r, c));
            }
        } else if m == 3 {
            if rows == 3 {
                if let Some(c) = split(cols, narrow, 10) {
                    out.push(plain(vec![3], c));
                }
            } else if let Some(r) = split(rows, narrow, 10) {
                out.push(plain(r, vec![3]));
            }
        }
        return out;
    }
    if closed {
        return out;
    }
    // Open tours on boards without a closed tour: the start's block is special.
    let odd: &[usize] = &[7, 9, 5, 11, 13];
    let odd3: &[usize] = &[11, 13, 9, 15, 7, 17, 19, 21];
    let four: &[usize] = &[8, 6, 7, 9, 10, 11, 12, 13, 5, 14, 15, 16];
    let four_plain: &[usize] = &[6, 8, 10];
    let combine = |rs: Vec<(Vec<usize>, usize)>, cs: Vec<(Vec<usize>, usize)>| {
        let mut v = Vec::new();
        for (r, ri) in &rs {
            for (c, ci) in &cs {
                v.push(Plan {
                    rows: Bands::of(r),
                    cols: Bands::of(c),
                    special: Some((*ri, *ci)),
                });
            }
        }
        v
    };
    if m >= 5 && m % 2 == 1 && n % 2 == 1 {
        let rs = split_around(rows, sr, even, 8, odd, 3);
        let cs = split_around(cols, sc, even, 8, odd, 3);
        out = combine(rs, cs);
    } else if m == 3 && n % 2 == 1 {
        let along = |len: usize, pos: usize| split_around(len, pos, narrow, 10, odd3, 4);
        out = if rows == 3 {
            combine(vec![(vec![3], 0)], along(cols, sc))
        } else {
            combine(along(rows, sr), vec![(vec![3], 0)])
        };
    } else if m == 4 {
        let along = |len: usize, pos: usize| split_around(len, pos, four_plain, 8, four, 6);
        out = if rows == 4 {
            combine(vec![(vec![4], 0)], along(cols, sc))
        } else {
            combine(along(rows, sr), vec![(vec![4], 0)])
        };
    }
    out
}
