//! The 8 symmetries of the square (the dihedral group D4), one copy for every
//! family: knight's tours count from one start per symmetry class of squares,
//! N-Queens counts one frame per symmetry class and lists one placement per
//! class.
//!
//! A symmetry is numbered `0..8` by three bits applied in this order: bit 2
//! transposes (swaps row and column), then bit 0 reflects top to bottom and
//! bit 1 reflects left to right.  So `0` is the identity, `0..4` are the maps
//! of any rectangle onto itself, and `4..8` (the transposing ones) map an
//! `R x C` board onto a `C x R` one: they are symmetries of a rectangle only
//! when it is square.  The numbering is part of the contract: queens' frame
//! stabilisers and the knights' start classes are stored as these numbers.
//!
//! ```
//! use _core::symmetry::Symmetry;
//! // On a 3 x 5 board: reflect top to bottom, then transpose.
//! assert_eq!(Symmetry::new(1).map(0, 4, 3, 5), (2, 4));
//! assert_eq!(Symmetry::new(4).map(0, 4, 3, 5), (4, 0));
//! assert_eq!(Symmetry::of_rectangle(3, 5).len(), 4);
//! assert_eq!(Symmetry::of_rectangle(4, 4).len(), 8);
//! ```

/// One of the 8 symmetries of the square (see the module doc for the numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry(0); 8];
        let mut k = 0;
        while k < 8 {
            all[k] = Symmetry(k as u8);
            k += 1;
        }
        all
    };

    /// The 7 that are not the identity.
    pub fn non_identity() -> &'static [Symmetry] {
        let all: &'static [Symmetry; 8] = &Self::ALL;
        &all[1..]
    }

    /// Symmetry number `k` (`k < 8`).
    pub const fn new(k: usize) -> Symmetry {
        assert!(k < 8, "a symmetry of the square is numbered 0..8");
        Symmetry(k as u8)
    }

    /// The maps of a `rows x cols` rectangle onto itself: all 8 for a square,
    /// else the 4 that do not transpose.
    pub fn of_rectangle(rows: usize, cols: usize) -> &'static [Symmetry] {
        if rows == cols {
            &Self::ALL
        } else {
            &Self::ALL[..4]
        }
    }

    /// Its number, `0..8`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether it swaps rows and columns (so maps `R x C` onto `C x R`).
    #[inline]
    pub const fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// The image of cell `(r, c)` of a `rows x cols` board; it lies on a
    /// `cols x rows` board if the symmetry [transposes](Self::transposes).
    #[inline]
    pub const fn map(self, r: usize, c: usize, rows: usize, cols: usize) -> (usize, usize) {
        let (r, c, rows, cols) = if self.transposes() {
            (c, r, cols, rows)
        } else {
            (r, c, rows, cols)
        };
        let r = if self.0 & 1 != 0 { rows - 1 - r } else { r };
        let c = if self.0 & 2 != 0 { cols - 1 - c } else { c };
        (r, c)
    }

    /// The symmetry that undoes this one.  Each is its own inverse except
    /// the two quarter turns (5 and 6), which are each other's.
    pub const fn inverse(self) -> Symmetry {
        match self.0 {
            5 => Symmetry(6),
            6 => Symmetry(5),
            k => Symmetry(k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rows: usize, cols: usize) -> impl Iterator<Item = (usize, usize)> {
        (0..rows).flat_map(move |r| (0..cols).map(move |c| (r, c)))
    }

    #[test]
    fn each_is_a_bijection_of_the_board() {
        for (rows, cols) in [(1, 1), (3, 5), (5, 3), (4, 4), (7, 7)] {
            for s in Symmetry::ALL {
                let (h, w) = if s.transposes() {
                    (cols, rows)
                } else {
                    (rows, cols)
                };
                let mut hit = vec![false; rows * cols];
                for (r, c) in cells(rows, cols) {
                    let (r2, c2) = s.map(r, c, rows, cols);
                    assert!(r2 < h && c2 < w);
                    assert!(!hit[r2 * w + c2], "{s:?} is not injective on {rows}x{cols}");
                    hit[r2 * w + c2] = true;
                }
            }
        }
    }

    #[test]
    fn the_eight_are_distinct_and_closed_under_inverse() {
        let n = 5;
        let images: Vec<Vec<(usize, usize)>> = Symmetry::ALL
            .iter()
            .map(|s| cells(n, n).map(|(r, c)| s.map(r, c, n, n)).collect())
            .collect();
        for i in 0..8 {
            for j in 0..i {
                assert_ne!(images[i], images[j], "symmetries {i} and {j} agree");
            }
        }
        for s in Symmetry::ALL {
            let back = s.inverse();
            for (r, c) in cells(3, 5) {
                let (r2, c2) = s.map(r, c, 3, 5);
                let (h, w) = if s.transposes() { (5, 3) } else { (3, 5) };
                assert_eq!(back.map(r2, c2, h, w), (r, c), "{s:?}");
            }
        }
    }

    #[test]
    fn a_rectangle_keeps_the_four_that_do_not_transpose() {
        assert_eq!(Symmetry::of_rectangle(2, 3), &Symmetry::ALL[..4]);
        assert!(Symmetry::of_rectangle(2, 3).iter().all(|s| !s.transposes()));
        assert_eq!(Symmetry::of_rectangle(6, 6).len(), 8);
        assert_eq!(Symmetry::non_identity(), &Symmetry::ALL[1..]);
        assert!(!Symmetry::non_identity().contains(&Symmetry::IDENTITY));
        assert_eq!(Symmetry::IDENTITY.map(1, 2, 3, 4), (1, 2));
    }
}
