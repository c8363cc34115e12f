//! Exact cover with colours (Knuth's Algorithm C, TAOCP 7.2.2.1): choose
//! options so that every primary item is covered exactly once and every
//! secondary item at most once, options that give a secondary item the
//! same colour being allowed to share it.
//!
//! A problem arrives as flat `u32` arrays ([`Problem::new`] checks them);
//! the search runs Knuth's dancing cells ([`cells`]) under the engine
//! ([`CoverSearch`]): work stealing, cancel, plans for executors.  The
//! search order is fixed by the node alone (fewest options first, ties to
//! the first item; options in the order given), so counts, listings and
//! the deterministic find never depend on the threads.  Counts that
//! enumeration cannot reach (tilings of strips) come from the memo
//! ([`memo`]), which `auto` picks when it provably stays small.
//!
//! One file per job:
//!
//! * `problem.rs`: [`Problem`], the checked problem and its limits;
//! * `cells.rs`: [`Cells`], the dancing cells one worker searches;
//! * `walk.rs`: [`CoverWalk`], what the engine's search needs of a walk;
//! * `search.rs`: [`CoverSearch`] and [`Walk`], Algorithm C on the engine;
//! * `cheapest.rs`: [`cheapest_covers`], the `k` cheapest covers (DLX5);
//! * `multi.rs`: [`MultiWalk`], Algorithm M: primary items with bounds;
//! * `memo/`: the memoised count over what is left to cover, layer by
//!   layer in parallel;
//! * `sample.rs`: [`random_covers`], covers drawn uniformly from the memo;
//! * `method.rs`: [`Method`], and which one `auto` picks;
//! * `instances.rs`: ready-made problems for the tests and benches;
//! * `count.rs`: [`count_covers`], [`find_cover`], [`stream_covers`],
//!   [`plan_covers`].

mod bits;
#[cfg(test)]
mod bits_tests;
mod cells;
mod cheapest;
#[cfg(test)]
mod cheapest_tests;
mod count;
pub mod dlx;
pub mod instances;
pub mod memo;
mod method;
mod multi;
mod multi_drop;
#[cfg(test)]
mod multi_tests;
pub mod placements;
mod problem;
mod sample;
#[cfg(test)]
mod sample_tests;
mod search;
#[cfg(test)]
mod tests;
mod walk;

pub use cells::Cells;
pub use cheapest::{cheapest_covers, Costs, MAX_CHEAPEST, MAX_COST};
pub use count::{
    count_covers, find_cover, first_covers, plan_covers, stream_covers, CoverReceiver,
};
pub use method::Method;
pub use multi::{MultiWalk, LEFT_OUT};
pub use problem::{Problem, MAX_BOUNDED_OPTIONS, MAX_ITEMS, MAX_NODES, MAX_OPTIONS};
pub use sample::{random_covers, Rng};
pub use search::{CoverSearch, Walk};
pub use walk::{CoverWalk, Probe};
