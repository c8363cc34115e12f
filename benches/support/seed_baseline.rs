//! A faithful Rust port of the seed article's `KnightProblemSolver::findMovesSequential`,
//! the plain backtracking baseline the benchmark table compares against.
//!
//! Kept deliberately as the article writes it, inefficiencies included:
//!
//! * the board is a 2-D array (`ROWS x COLS`, compile-time sizes like the C++
//!   template) holding the number of the move that reached each square, 0 = free;
//! * every step builds a fresh `Vec` of the legal next moves, tried in the
//!   article's order `(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2)`;
//! * no pruning of any kind: a branch ends only when the knight is stuck;
//! * every tour found is copied, as a list of `(row, col)` coordinates, into a
//!   list of all solutions, and the count is the length of that list.

/// A square of the board, `(row, col)`; signed so that off-board offsets are representable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coordinate {
    row: i32,
    col: i32,
}

impl Coordinate {
    pub fn new(row: i32, col: i32) -> Self {
        Coordinate { row, col }
    }

    /// The article's `Coordinate::fromOffset`.
    fn offset_by(self, rows: i32, cols: i32) -> Self {
        Coordinate::new(self.row + rows, self.col + cols)
    }
}

/// One tour: the coordinates in the order visited.
pub type Solution = Vec<Coordinate>;

/// The seed's solver for a `ROWS x COLS` board.
pub struct KnightProblemSolver<const ROWS: usize, const COLS: usize> {
    board: [[i32; COLS]; ROWS],
    current: Solution,
    solutions: Vec<Solution>,
    move_number: i32,
}

impl<const ROWS: usize, const COLS: usize> KnightProblemSolver<ROWS, COLS> {
    pub fn new() -> Self {
        KnightProblemSolver {
            board: [[0; COLS]; ROWS],
            current: Vec::new(),
            solutions: Vec::new(),
            move_number: 0,
        }
    }

    /// Find every tour from `start` (the article always starts in the
    /// lower-left corner, `(ROWS - 1, 0)`); returns the number found.
    pub fn find_moves_sequential(&mut self, start: Coordinate) -> usize {
        self.board = [[0; COLS]; ROWS];
        self.solutions.clear();
        self.current.clear();
        self.move_number = 0;
        self.find_moves_from(start)
    }

    pub fn solutions(&self) -> &[Solution] {
        &self.solutions
    }

    fn find_moves_from(&mut self, coord: Coordinate) -> usize {
        self.set_knight_move_at(coord);
        self.current.push(coord);

        if self.is_solution() {
            // Add the found solution to the list of all solutions.
            self.solutions.push(self.current.clone());
        } else {
            // Determine the list of possible next moves and try them in turn.
            let next_moves = self.next_knight_moves(coord);
            for next in next_moves {
                self.find_moves_from(next);
            }
        }

        self.unset_knight_move_at(coord);
        self.current.pop();
        self.solutions.len()
    }

    fn set_knight_move_at(&mut self, coord: Coordinate) {
        self.move_number += 1;
        self.board[coord.row as usize][coord.col as usize] = self.move_number;
    }

    fn unset_knight_move_at(&mut self, coord: Coordinate) {
        self.move_number -= 1;
        self.board[coord.row as usize][coord.col as usize] = 0;
    }

    fn next_knight_moves(&self, coord: Coordinate) -> Vec<Coordinate> {
        let mut list = Vec::new();
        for (dr, dc) in [
            (2, 1),
            (1, 2),
            (-2, 1),
            (-1, 2),
            (2, -1),
            (1, -2),
            (-2, -1),
            (-1, -2),
        ] {
            let tmp = coord.offset_by(dr, dc);
            if self.can_move_to(tmp) {
                list.push(tmp);
            }
        }
        list
    }

    fn in_range(&self, coord: Coordinate) -> bool {
        coord.row >= 0
            && (coord.row as usize) < ROWS
            && coord.col >= 0
            && (coord.col as usize) < COLS
    }

    fn can_move_to(&self, coord: Coordinate) -> bool {
        self.in_range(coord) && self.board[coord.row as usize][coord.col as usize] <= 0
    }

    fn is_solution(&self) -> bool {
        self.move_number as usize >= ROWS * COLS
    }
}

impl<const ROWS: usize, const COLS: usize> Default for KnightProblemSolver<ROWS, COLS> {
    fn default() -> Self {
        Self::new()
    }
}

/// Tours of a `ROWS x COLS` board from square `start` (`row * COLS + col`),
/// or summed over every start (`None`), by the seed's algorithm.
fn count_sized<const ROWS: usize, const COLS: usize>(start: Option<usize>) -> u128 {
    let mut solver = KnightProblemSolver::<ROWS, COLS>::new();
    let starts: Vec<usize> = match start {
        Some(s) => vec![s],
        None => (0..ROWS * COLS).collect(),
    };
    let mut total = 0u128;
    for s in starts {
        let coord = Coordinate::new((s / COLS) as i32, (s % COLS) as i32);
        let found = solver.find_moves_sequential(coord);
        debug_assert_eq!(found, solver.solutions().len());
        total += found as u128;
    }
    total
}

/// The seed's count of tours on a `rows x cols` board, for the board sizes the
/// benchmark table uses (the article's solver is a compile-time template);
/// `None` for any other size.
pub fn count(rows: usize, cols: usize, start: Option<usize>) -> Option<u128> {
    macro_rules! sizes {
        ($(($r:literal, $c:literal)),* $(,)?) => {
            match (rows, cols) {
                $(($r, $c) => Some(count_sized::<$r, $c>(start)),)*
                _ => None,
            }
        };
    }
    sizes!((3, 4), (4, 7), (4, 8), (5, 5), (5, 6), (5, 7), (6, 6),)
}
