//! N-Queens: counting with the whole symmetry group of the square, ordered
//! enumeration, an O(n) explicit construction, and a checker.
//!
//! A placement is `cols[row]`, the column of the queen in each row, 0-based.
//! Counting lives in [`frames`] (one border frame per symmetry class, filled
//! most-constrained row first); listing and finding use the plain row-by-row
//! search, whose order is the lexicographic order of the placements.
//!
//! One file per job:
//!
//! * `plain.rs`: the plain row-by-row search (optionally keeping one
//!   placement per class) and the board limit ([`MAX_SEARCH_N`]);
//! * `images.rs`: a placement's images under the symmetries of the square;
//! * `method.rs`: [`Method`], and which one `auto` picks;
//! * `count.rs`: [`count_queens`];
//! * `plan.rs`: [`QueensPlan`], a count split into subproblems;
//! * `stream.rs`: [`stream_queens`], listing in order;
//! * `find.rs`: [`search_queens`], one placement by search;
//! * `construct.rs`: [`construct_queens`], one placement in O(n);
//! * `check.rs`: [`placement_defect`], the checker;
//! * `frames.rs`, `join.rs`, `disjoint.rs`: the two counting methods.

mod check;
mod construct;
mod count;
mod disjoint;
mod find;
pub mod frames;
mod images;
pub mod join;
mod method;
mod plain;
mod plan;
mod stream;

pub use check::placement_defect;
pub use construct::{construct_queens, construction, MAX_CONSTRUCT_N};
pub use count::count_queens;
pub use find::search_queens;
pub use method::{Method, JOIN_FROM_N};
pub use plain::{QueenSearch, QueenTask, MAX_SEARCH_N};
pub use plan::{plan_queens, QueensPlan};
pub use stream::{stream_queens, PlacementReceiver};
