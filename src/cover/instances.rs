//! Ready-made problems in the flat form of [`Problem::new`], for the tests
//! and the benches: domino tilings, pentomino packings, Langford pairs,
//! N-Queens and Sudoku.  (The Python package has its own models; these
//! exist so the Rust side can check itself against published counts.)

use super::problem::Problem;
use crate::error::CountError;

/// A problem under construction: items by index, options appended.
#[derive(Default)]
pub struct Builder {
    starts: Vec<u32>,
    items: Vec<u32>,
    colors: Vec<u32>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            starts: vec![0],
            ..Builder::default()
        }
    }

    /// Append an option of `(item, colour)` entries.
    pub fn option(&mut self, entries: impl IntoIterator<Item = (u32, u32)>) {
        for (i, c) in entries {
            self.items.push(i);
            self.colors.push(c);
        }
        self.starts.push(self.items.len() as u32);
    }

    pub fn build(&self, n_primary: usize, n_secondary: usize) -> Result<Problem, CountError> {
        Problem::new(
            n_primary,
            n_secondary,
            &self.starts,
            &self.items,
            &self.colors,
        )
    }
}

/// Domino tilings of a `rows x cols` board: cells in row-major order.
pub fn dominoes(rows: u32, cols: u32) -> Problem {
    let mut b = Builder::new();
    for r in 0..rows {
        for c in 0..cols {
            let cell = r * cols + c;
            if c + 1 < cols {
                b.option([(cell, 0), (cell + 1, 0)]);
            }
            if r + 1 < rows {
                b.option([(cell, 0), (cell + cols, 0)]);
            }
        }
    }
    b.build((rows * cols) as usize, 0).expect("a valid problem")
}

/// The 12 pentominoes, each a 5-row picture of 5 columns.
const PENTOMINOES: [&str; 12] = [
    ".##/##./.#.",
    "#####",
    "####/#...",
    "##../.###",
    "##/##/#.",
    "###/.#./.#.",
    "#.#/###",
    "#../#../###",
    "#../##./.##",
    ".#./###/.#.",
    ".#../####",
    "##./.#./.##",
];

/// The distinct orientations of a piece, as sorted cell lists at the origin.
fn orientations(picture: &str) -> Vec<Vec<(i32, i32)>> {
    let cells: Vec<(i32, i32)> = picture
        .split('/')
        .enumerate()
        .flat_map(|(r, row)| {
            row.chars()
                .enumerate()
                .filter(|&(_, ch)| ch == '#')
                .map(move |(c, _)| (r as i32, c as i32))
        })
        .collect();
    let mut all: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut shape: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                let r = if t & 1 != 0 { -r } else { r };
                let c = if t & 2 != 0 { -c } else { c };
                (r, c)
            })
            .collect();
        let (r0, c0) = (
            shape.iter().map(|p| p.0).min().unwrap_or(0),
            shape.iter().map(|p| p.1).min().unwrap_or(0),
        );
        for p in &mut shape {
            *p = (p.0 - r0, p.1 - c0);
        }
        shape.sort_unstable();
        if !all.contains(&shape) {
            all.push(shape);
        }
    }
    all
}

/// The 12 pentominoes in a `rows x cols` box (60 cells): items are the 12
/// pieces, then the cells in row-major order.
pub fn pentominoes(rows: i32, cols: i32) -> Problem {
    let mut b = Builder::new();
    for (piece, picture) in PENTOMINOES.iter().enumerate() {
        for shape in orientations(picture) {
            for r in 0..rows {
                for c in 0..cols {
                    if shape.iter().all(|&(dr, dc)| r + dr < rows && c + dc < cols) {
                        let cells = shape
                            .iter()
                            .map(|&(dr, dc)| (12 + ((r + dr) * cols + c + dc) as u32, 0));
                        b.option(std::iter::once((piece as u32, 0)).chain(cells));
                    }
                }
            }
        }
    }
    b.build(12 + (rows * cols) as usize, 0)
        .expect("a valid problem")
}

/// Langford pairs of `1..=n`: items the values, then the `2n` positions.
/// Each pairing and its reversal are both covers.
pub fn langford(n: u32) -> Problem {
    let mut b = Builder::new();
    for k in 1..=n {
        for i in 0..2 * n {
            let j = i + k + 1;
            if j < 2 * n {
                b.option([(k - 1, 0), (n + i, 0), (n + j, 0)]);
            }
        }
    }
    b.build(3 * n as usize, 0).expect("a valid problem")
}

/// N-Queens: primary rows and columns, secondary diagonals.
pub fn queens(n: u32) -> Problem {
    let mut b = Builder::new();
    let diag = 2 * n - 1;
    for r in 0..n {
        for c in 0..n {
            b.option([
                (r, 0),
                (n + c, 0),
                (2 * n + r + c, 0),
                (2 * n + diag + (n - 1 - r + c), 0),
            ]);
        }
    }
    b.build(2 * n as usize, 2 * diag as usize)
        .expect("a valid problem")
}

/// A 9x9 Sudoku from its 81 characters (`1`-`9`, anything else blank):
/// items cell, row-digit, column-digit, box-digit (324 primary).
pub fn sudoku(grid: &str) -> Problem {
    let given: Vec<u32> = grid
        .chars()
        .map(|ch| ch.to_digit(10).unwrap_or(0))
        .collect();
    let mut b = Builder::new();
    for cell in 0..81u32 {
        let (r, c) = (cell / 9, cell % 9);
        let bx = r / 3 * 3 + c / 3;
        for d in 0..9u32 {
            let g = given.get(cell as usize).copied().unwrap_or(0);
            if g != 0 && g != d + 1 {
                continue;
            }
            b.option([
                (cell, 0),
                (81 + r * 9 + d, 0),
                (162 + c * 9 + d, 0),
                (243 + bx * 9 + d, 0),
            ]);
        }
    }
    b.build(324, 0).expect("a valid problem")
}
