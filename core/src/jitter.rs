//! The six jitter strategies: one retry's delay from the current level (SPEC.md §4.2).

use crate::policy::{Jitter, Policy};
use crate::rng::SpecRng;

/// `level · spread_per_mille / 1000` exactly, in 32-bit steps (`spread_per_mille ≤ 1000` and
/// `level < 2^31`, so neither product overflows): no 64-bit division on small cores.
#[inline]
fn spread_ms(level: u32, spread_per_mille: u32) -> u32 {
    (level / 1000) * spread_per_mille + (level % 1000) * spread_per_mille / 1000
}

/// Retry `n`'s delay and the level for retry `n + 1`.
///
/// Always inlined into `Backoff::next_delay` (see there): out of line it takes the generator by
/// reference, which puts the caller's state in memory.
///
/// `level` is `base_n` for every strategy but decorrelated, where it is the previous delay. Each
/// jittered strategy makes exactly one bounded draw; `None` makes none. Every sum stays below 2^32
/// because the cap is at most 2^31 − 1, so only `3 · prev` needs to saturate.
///
/// Each strategy is a range `low + [0, span]`, clamped to the cap, drawn at one site: on a small
/// core the draw is then linked once instead of once per strategy. Every strategy, `None`
/// included, clamps to the cap of the policy passed in: a state created under a policy with a
/// larger cap can carry a level above it.
#[inline(always)]
pub(crate) fn delay_and_next_level(policy: &Policy, level: u32, rng: &mut SpecRng) -> (u32, u32) {
    let (low, span) = match policy.jitter() {
        Jitter::None => return (level.min(policy.max_backoff_ms()), policy.grow(level)),
        Jitter::Google { jitter_ms } => (level, jitter_ms),
        Jitter::Full => (0, level),
        Jitter::Equal => {
            let half = level / 2;
            (half, level - half)
        }
        Jitter::Proportional { spread_per_mille } => {
            let spread = spread_ms(level, spread_per_mille);
            (level.saturating_sub(spread), spread.saturating_mul(2))
        }
        Jitter::Decorrelated => {
            let initial = policy.initial_ms();
            let high = level.saturating_mul(3).max(initial);
            (initial, high.saturating_sub(initial))
        }
    };
    let delay = low
        .saturating_add(rng.uniform(span))
        .min(policy.max_backoff_ms());
    match policy.jitter() {
        Jitter::Decorrelated => (delay, delay),
        _ => (delay, policy.grow(level)),
    }
}

/// The smallest and largest delay retry `n` can take when its level is `level`: the documented
/// bounds that the property tests and fuzzers check every strategy against.
///
/// ```
/// use seeded_backoff::policy::jitter_bounds;
/// use seeded_backoff::Policy;
/// let p = Policy::google();
/// assert_eq!(jitter_bounds(&p, 1000), (1000, 2000));
/// assert_eq!(jitter_bounds(&p, 32_000), (32_000, 32_000));
/// ```
pub fn jitter_bounds(policy: &Policy, level: u32) -> (u32, u32) {
    let cap = policy.max_backoff_ms();
    let (low, high) = match policy.jitter() {
        Jitter::None => (level, level),
        Jitter::Google { jitter_ms } => (level, level.saturating_add(jitter_ms)),
        Jitter::Full => (0, level),
        Jitter::Equal => (level / 2, level),
        Jitter::Proportional { spread_per_mille } => {
            let spread = spread_ms(level, spread_per_mille);
            (level.saturating_sub(spread), level.saturating_add(spread))
        }
        Jitter::Decorrelated => {
            let initial = policy.initial_ms();
            (initial, level.saturating_mul(3).max(initial))
        }
    };
    (low.min(cap), high.min(cap))
}
