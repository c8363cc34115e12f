//! Shapes placed on a board of cells, numbered as exact-cover options in
//! one pass: the statement of the package's tilings and Langford pairs
//! (a pair of `k`s is a shape of two cells `k + 1` apart), made without a
//! step in Python for each option.
//!
//! Option order: shape by shape, and for each shape its anchors in the
//! order given (the board position where the shape's first cell lands);
//! an option holds the shape's `head` item, if any, then the items of its
//! cells in the shape's order.  A placement with a cell off the board is
//! no option.

use crate::engine::SearchError;
use crate::memory;

/// One shape: its cells as offsets from its first cell, the item that goes
/// first in each of its options (a piece's own item), and the board
/// positions (`row * cols + col`) where its first cell is tried.
#[derive(Clone, Debug)]
pub struct Shape {
    pub offsets: Vec<(i64, i64)>,
    pub head: Option<u32>,
    pub anchors: Vec<u32>,
}

/// The options placed: option `k` holds `items[starts[k]..starts[k + 1]]`;
/// it is shape `shape[k]` at the position `anchor[k]`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Placed {
    pub starts: Vec<u32>,
    pub items: Vec<u32>,
    pub shape: Vec<u32>,
    pub anchor: Vec<u32>,
}

/// Every placement of `shapes` on the board `board` (`rows * cols`
/// positions, each the item number of its cell or `u32::MAX` where the
/// board has none); `None` past `max_entries` items in all, `Err(Memory)`
/// where the tables do not fit (never an abort).
pub fn place(
    cols: usize,
    board: &[u32],
    shapes: &[Shape],
    max_entries: usize,
) -> Result<Option<Placed>, SearchError> {
    let what = "the options of the placed shapes";
    let rows = board.len().checked_div(cols).unwrap_or(0);
    let mut placed = Placed {
        starts: vec![0],
        ..Placed::default()
    };
    let mut cells = Vec::new();
    for (s, shape) in shapes.iter().enumerate() {
        for &at in &shape.anchors {
            let (r0, c0) = (
                (at as usize / cols.max(1)) as i64,
                (at as usize % cols.max(1)) as i64,
            );
            cells.clear();
            let fits = shape.offsets.iter().all(|&(dr, dc)| {
                let (r, c) = (r0 + dr, c0 + dc);
                let inside = (0..rows as i64).contains(&r) && (0..cols as i64).contains(&c);
                let item = if inside {
                    board[r as usize * cols + c as usize]
                } else {
                    u32::MAX
                };
                cells.push(item);
                item != u32::MAX
            });
            if !fits {
                continue;
            }
            let size = cells.len() + usize::from(shape.head.is_some());
            if placed.items.len() + size > max_entries {
                return Ok(None);
            }
            memory::try_reserve(&mut placed.items, size, what)?;
            for table in [&mut placed.starts, &mut placed.shape, &mut placed.anchor] {
                memory::try_reserve(table, 1, what)?;
            }
            placed.items.extend(shape.head);
            placed.items.extend_from_slice(&cells);
            placed.starts.push(placed.items.len() as u32);
            placed.shape.push(s as u32);
            placed.anchor.push(at);
        }
    }
    Ok(Some(placed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dominoes_on_a_two_by_three_board_with_a_hole() {
        // cells numbered 0..5 in reading order, (1, 2) missing
        let none = u32::MAX;
        let board = [0, 1, 2, 3, 4, none];
        let flat = Shape {
            offsets: vec![(0, 0), (0, 1)],
            head: None,
            anchors: (0..6).collect(),
        };
        let upright = Shape {
            offsets: vec![(0, 0), (1, 0)],
            head: Some(9),
            anchors: vec![2, 1, 0],
        };
        let placed = place(3, &board, &[flat, upright], 100).unwrap().unwrap();
        assert_eq!(placed.items, [0, 1, 1, 2, 3, 4, 9, 1, 4, 9, 0, 3]);
        assert_eq!(placed.starts, [0, 2, 4, 6, 9, 12]);
        assert_eq!(placed.shape, [0, 0, 0, 1, 1]);
        assert_eq!(placed.anchor, [0, 1, 3, 1, 0]);
        assert_eq!(
            place(3, &board, &[], 0).unwrap(),
            Some(Placed {
                starts: vec![0],
                ..Placed::default()
            })
        );
    }

    #[test]
    fn past_the_entries_allowed_is_none() {
        let shape = Shape {
            offsets: vec![(0, 0), (0, 1)],
            head: None,
            anchors: vec![0, 1, 2],
        };
        assert!(place(4, &[0, 1, 2, 3], std::slice::from_ref(&shape), 6)
            .unwrap()
            .is_some());
        assert!(place(4, &[0, 1, 2, 3], &[shape], 5).unwrap().is_none());
    }
}
