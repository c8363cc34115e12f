//! The generic parallel subtree engine shared by every puzzle family.
//!
//! A family describes its search tree through [`SubtreeSearch`]: how to split a
//! node into its children, how to count the solutions below a node, and how to
//! visit them in order.  The engine does the rest, identically for every family:
//!
//! * [`plan`] expands the roots breadth-first, level by level, until there are
//!   enough independent subproblems ("tasks") to keep every thread busy.  The
//!   expansion keeps the search order, so tasks are listed in the order a plain
//!   depth-first search would reach them.  It polls the cancel flag, and its
//!   task list grows by fallible allocation (a huge plan is a `MemoryError`).
//! * [`count`] counts every task on a rayon pool built for this call with the
//!   requested number of threads.  Rayon's work stealing balances the very
//!   uneven subtrees; the per-task counts are summed with checked `u128`
//!   arithmetic, so an overflow is reported, never wrapped.  With one thread,
//!   or a tree too small to split into two tasks per thread, the tasks run in
//!   order on the calling thread: building a pool would cost more.
//! * [`find_first`] stops every thread as soon as one finds a solution (or, in
//!   deterministic mode, as soon as no earlier task can still produce one).
//! * [`stream`] visits the tasks in order on a producer thread and hands the
//!   solutions over a bounded channel, so memory stays constant however many
//!   solutions there are.
//!
//! Every mode polls the shared [`Control`]: setting its cancel flag stops the
//! search within a few thousand nodes, and its counters report progress.
//!
//! Only per-call pools ([`with_pool`]) run rayon work: nothing here touches
//! rayon's global pool, whose threads would otherwise idle for the life of
//! the process (the Python interpreter's).
//!
//! One file per job:
//!
//! * `control.rs`: [`Control`] (cancel flag, progress), [`Stop`] and [`Ticker`]
//!   (how a search polls them);
//! * `search.rs`: the [`SubtreeSearch`] contract a family implements;
//! * `plan.rs`: [`plan`], [`check_plan_size`] and [`Planned`];
//! * `run.rs`: [`count`], [`count_each`], [`find_first`] and [`stream`];
//! * `splittable.rs`: [`Splittable`], the contract of a plan whose
//!   subproblems other processes count by index;
//! * `pool.rs`: worker counts ([`workers`], [`tasks_for`]) and [`with_pool`];
//! * `handoff.rs`: [`run_on_thread`], a call's own thread, handed on to the
//!   next call if it comes within a moment.

mod control;
#[cfg(test)]
mod fixture;
mod handoff;
mod plan;
mod pool;
mod run;
mod search;
mod splittable;

pub use crate::error::SearchError;
pub use control::{Control, Stop, Ticker};
pub use handoff::run_on_thread;
pub use plan::{check_plan_size, plan, Planned, MAX_PLAN_TASKS};
pub use pool::{check_thread_room, spawn, tasks_for, wanted_threads, with_pool, workers, LazyPool};
pub use run::{count, count_each, find_first, stream};
pub use search::{count_by_visiting, SubtreeSearch};
pub use splittable::{Each, Splittable};
