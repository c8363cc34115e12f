//! A placement's images under the symmetries of the square, and whether it
//! is the least of them: how a class is counted or listed once.

use crate::symmetry::Symmetry;

/// The image of a placement under symmetry `s`.
fn transform_placement(s: Symmetry, cols: &[u8]) -> Vec<u8> {
    let n = cols.len();
    let mut out = vec![0u8; n];
    for (r, &c) in cols.iter().enumerate() {
        let (r2, c2) = s.map(r, c as usize, n, n);
        out[r2] = c2 as u8;
    }
    out
}

/// Whether `cols` is lexicographically smallest among its images under `group`.
pub(super) fn is_least_image(cols: &[u8], group: &[Symmetry]) -> bool {
    group
        .iter()
        .all(|&s| transform_placement(s, cols).as_slice() >= cols)
}
