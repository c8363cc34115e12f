//! The knight graph of a board of at most 64 cells as bitboards: one `u64`
//! of neighbours per square, the colour classes, and bit-parallel moves for
//! the flood fill that checks the unvisited squares are still connected.
//!
//! Invariant: bit `i` of every mask is square `i` of the board the graph was
//! built from (its search window), so `board.cells() <= MAX_SEARCH_SQUARES`.

use super::board::{Board, MAX_SEARCH_SQUARES, MOVES};
use crate::error::InputError;

/// The knight graph of a board of at most 64 cells, as bitboards.
#[derive(Debug, Clone)]
pub struct KnightGraph {
    pub(super) board: Board,
    /// The squares.
    pub(super) all: u64,
    /// The light squares (the chessboard colouring; a knight changes colour).
    pub(super) light: u64,
    /// The neighbours of each square.
    pub(super) nbr: Vec<u64>,
    /// Neighbours of each square in the seed's move order.
    pub(super) order: Vec<Vec<u8>>,
    /// Bit-parallel knight moves: `(shift, cells whose move stays on the board)`.
    shifts: Vec<(i32, u64)>,
}

impl KnightGraph {
    /// `Err` if `board` has more cells than one `u64` has bits (checked
    /// before a caller copies a board to build the graph from).
    pub fn check_size(board: &Board) -> Result<(), InputError> {
        if board.cells() > MAX_SEARCH_SQUARES {
            return Err(InputError(format!(
                "exact tour search works on boards whose squares span at most \
                 {MAX_SEARCH_SQUARES} cells (rows x cols), this one spans {}",
                board.cells()
            )));
        }
        Ok(())
    }

    pub fn new(board: Board) -> Result<KnightGraph, InputError> {
        Self::check_size(&board)?;
        let cells = board.cells();
        let mut all = 0u64;
        let mut light = 0u64;
        let mut nbr = vec![0u64; cells];
        let mut order = vec![Vec::new(); cells];
        for (i, (mask, list)) in nbr.iter_mut().zip(order.iter_mut()).enumerate() {
            if !board.is_square(i) {
                continue;
            }
            all |= 1 << i;
            if Board::is_light(i, board.cols) {
                light |= 1 << i;
            }
            for j in board.neighbours(i) {
                *mask |= 1 << j;
                list.push(j as u8);
            }
        }
        let mut shifts = Vec::new();
        for (m, &(dr, dc)) in MOVES.iter().enumerate() {
            let mut src = 0u64;
            for i in 0..cells {
                if board.is_square(i) && board.jump(i, m).is_some() {
                    src |= 1 << i;
                }
            }
            if src != 0 {
                shifts.push((dr * board.cols as i32 + dc, src));
            }
        }
        Ok(KnightGraph {
            board,
            all,
            light,
            nbr,
            order,
            shifts,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every cell of `within` reachable from `seed` by knight moves inside `within`.
    #[inline(always)]
    pub(super) fn reach(&self, seed: u64, within: u64) -> u64 {
        let within = within | seed;
        let mut reached = seed;
        loop {
            let mut next = reached;
            for &(shift, src) in &self.shifts {
                let x = reached & src;
                next |= if shift > 0 { x << shift } else { x >> (-shift) };
            }
            next &= within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}
