//! One meaning for a seed (SPEC.md §14): a loop given a seed runs each call with a seed of its
//! own, derived from the loop's seed and the call's index, so that calls made together do not
//! retry together, and a run replays call for call.

#[cfg(target_has_atomic = "64")]
use core::sync::atomic::{AtomicU64, Ordering};

use crate::rng::{splitmix64, GOLDEN_GAMMA};

/// The seed of call `index` (0, 1, 2, … in the order the calls start) of a loop seeded with
/// `seed`: `seed XOR z`, where `z` is output number `index` of a SplitMix64 generator started
/// from 0 (SPEC.md §3.1), and 0 for call 0.
///
/// So call 0 runs with the loop's seed itself (a loop of one call, such as
/// [`Retry::new`](crate::Retry::new), and the first call of a decorator follow the same
/// schedule), and every index gives a different seed (SplitMix64's outputs are a bijection of its
/// counter), hence its own jitter. `const`, O(1), no state.
///
/// ```
/// use seeded_backoff::{call_seed, Backoff, Policy};
///
/// let policy = Policy::google();
/// assert_eq!(call_seed(42, 0), 42);
/// assert_eq!(call_seed(42, 1), 42 ^ 0xE220_A839_7B1D_CDAF); // SplitMix64's first output from 0
/// assert_ne!(call_seed(42, 1), call_seed(42, 2));
/// // Each call of a loop seeded 42 gets its own backoff:
/// let third_call = Backoff::new(&policy, call_seed(42, 2));
/// # let _ = third_call;
/// ```
#[inline]
pub const fn call_seed(seed: u64, index: u64) -> u64 {
    // splitmix64(x) is SplitMix64's output after state x; output number `index` from 0 follows
    // state (index - 1) * GAMMA, and for index 0 that is the state -GAMMA, whose output is 0.
    seed ^ splitmix64(index.wrapping_sub(1).wrapping_mul(GOLDEN_GAMMA))
}

/// The seeds of a loop's calls: [`call_seed`] of the loop's seed and a counter shared by every
/// call (an atomic, so the calls may start on any threads). Call `n` to start gets index `n`, so
/// a run whose calls start in the same order replays every call's schedule.
///
/// `no_std`, no allocation; share it by reference (a `static` works: [`CallSeeds::new`] is
/// `const`).
///
/// ```
/// use seeded_backoff::{call_seed, CallSeeds, Policy, Retry};
///
/// static SEEDS: CallSeeds = CallSeeds::new(42);
/// let policy = Policy::google();
/// let first = Retry::new(&policy, SEEDS.next_seed());
/// let second = Retry::new(&policy, SEEDS.next_seed());
/// assert_ne!(first.backoff(), second.backoff());
/// assert_eq!(SEEDS.next_seed(), call_seed(42, 2));
/// ```
#[cfg(target_has_atomic = "64")]
#[derive(Debug)]
pub struct CallSeeds {
    seed: u64,
    next: AtomicU64,
}

#[cfg(target_has_atomic = "64")]
impl CallSeeds {
    /// The seeds of a loop seeded with `seed`, from call 0.
    pub const fn new(seed: u64) -> CallSeeds {
        CallSeeds {
            seed,
            next: AtomicU64::new(0),
        }
    }

    /// The loop's seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The seed of the next call to start: [`call_seed`]`(seed, n)` for the `n`-th call of this
    /// method (the index wraps after 2^64 calls).
    pub fn next_seed(&self) -> u64 {
        call_seed(self.seed, self.next.fetch_add(1, Ordering::Relaxed))
    }

    /// How many calls have taken a seed.
    pub fn calls(&self) -> u64 {
        self.next.load(Ordering::Relaxed)
    }
}
