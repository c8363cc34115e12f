//! Uniform random covers: each cover of a problem drawn with the same
//! probability, from the memo's counts ([`Memo`]).
//!
//! A draw takes a number `r` uniform below the number of covers, then goes
//! down from the root as the memo branches (on the first open primary
//! item): the choices for that item lead to states whose covers add up to
//! the state's own, and the draw takes the choice whose share holds `r`,
//! less the shares before it.  So each cover is the image of
//! exactly one `r`.  The generator is xoshiro256** seeded by splitmix64
//! (Blackman and Vigna), so a seed gives the same covers everywhere.

use super::memo::Memo;
use super::problem::Problem;
use crate::engine::{Control, Stop, Ticker};
use crate::error::SearchError;
use crate::memory;

/// xoshiro256**: small, fast, and good enough for sampling.
pub struct Rng([u64; 4]);

impl Rng {
    /// The generator of `seed`, its state filled by splitmix64.
    pub fn new(seed: u64) -> Rng {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// A number uniform below `n` (not 0), without bias: draws that fall
    /// in the short last stretch of the 128-bit range are drawn again.
    pub fn below(&mut self, n: u128) -> u128 {
        let short = n.wrapping_neg() % n; // 2^128 mod n
        loop {
            let r = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
            if r >= short {
                return r % n;
            }
        }
    }
}

/// `k` covers of `p`, each drawn independently and uniformly from the
/// seed `seed` (each as its options ascending); none where `p` has none.
/// The memo is built on `threads` threads, every layer kept, within
/// `budget` bytes (else `Err(Memory)`, naming the estimate); the covers
/// drawn do not depend on `threads`.
pub fn random_covers(
    p: &Problem,
    k: usize,
    seed: u64,
    budget: u64,
    threads: usize,
    ctl: &Control,
) -> Result<Vec<Vec<u32>>, SearchError> {
    let memo = Memo::build(p, budget, threads, ctl)?;
    if memo.total == 0 || k == 0 {
        return Ok(Vec::new());
    }
    let mut out = memory::try_with_capacity(k, "the covers drawn")?;
    let mut rng = Rng::new(seed);
    let stop = Stop::new(ctl);
    let mut ticker = Ticker::new();
    let mut children = memo.children();
    let root = memo.root();
    let mut state = root.clone();
    for _ in 0..k {
        let mut r = rng.below(memo.total);
        state.copy_from_slice(&root);
        let mut chosen = Vec::new();
        while let Some(item) = memo.branch(&state) {
            ticker.tick(&stop)?;
            children.reset(&state, item);
            let mut taken = false;
            while let Some(child) = children.next() {
                let share = memo.covers(child);
                if r < share {
                    state.copy_from_slice(child);
                    taken = true;
                    break;
                }
                r -= share;
            }
            // The shares of a state's children add up to its own count, so
            // `r` always falls in one (the memo's invariant).
            if !taken {
                return Err(SearchError::Corrupt(
                    "the memo's counts do not add up (a bug: please report it)".into(),
                ));
            }
            chosen.extend_from_slice(children.picked());
        }
        chosen.sort_unstable();
        out.push(chosen);
    }
    Ok(out)
}
