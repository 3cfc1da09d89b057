//! Side-by-side measurements of seeded-backoff and its peer crates.
//!
//! The benches (`cargo bench -p seeded-backoff-bench`) time one request's schedule of Google's ten
//! delays for each of the core's six strategies and for each peer, configured here as close to
//! Google's 1 s / ×2 / 32 s / 10 retries as each allows. This library holds what the benches and
//! their tests share: the configurations, the `size_of` table and the summary that turns
//! criterion's saved estimates into nanoseconds per delay and ratios.
//!
//! ```
//! let p = seeded_backoff_bench::core_policy(seeded_backoff::Jitter::Full);
//! assert_eq!(seeded_backoff_bench::core_schedule(&p, 7).len(), 10);
//! ```

use std::time::{Duration, SystemTime};

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro128PlusPlus;
use seeded_backoff::{Backoff, Jitter, Policy, Step};

mod summary;
pub use summary::{criterion_dir, schedule_ns, summarize, Row};

/// Delays per measured schedule: Google's 10 retries. Every figure is divided by this.
pub const DELAYS_PER_SCHEDULE: u32 = 10;

/// The criterion group every measurement is saved under.
pub const GROUP: &str = "next_delay";

/// The six strategies, by name, with the parameters the Google preset and gRPC use.
pub const STRATEGIES: [(&str, Jitter); 6] = [
    ("none", Jitter::None),
    ("google", Jitter::Google { jitter_ms: 1000 }),
    ("full", Jitter::Full),
    ("equal", Jitter::Equal),
    ("decorrelated", Jitter::Decorrelated),
    (
        "proportional",
        Jitter::Proportional {
            spread_per_mille: 200,
        },
    ),
];

/// The benchmark id of [`floor_run`], the hand-inlined reference for the speed goals.
pub const FLOOR: &str = "reference/floor-google";

/// The peers, by the benchmark id they are saved under.
pub const PEERS: [&str; 4] = [
    "peer/exponential-backoff",
    "peer/backon",
    "peer/backoff",
    "peer/retry-policies",
];

/// Google's shape (1 s, ×2, 32 s, 10 retries) with the given strategy.
pub fn core_policy(jitter: Jitter) -> Policy {
    Policy::google()
        .to_builder()
        .jitter(jitter)
        .build()
        .unwrap_or_else(|e| panic!("bench policy: {e}"))
}

/// One request's delays under the core, in ms: the work one benchmark iteration does.
#[inline]
pub fn core_schedule(policy: &Policy, seed: u64) -> Vec<u32> {
    let mut backoff = Backoff::new(policy, seed);
    std::iter::from_fn(|| backoff.next_delay(policy).delay_ms()).collect()
}

/// backon 1.6: no additive jitter exists; `with_jitter` adds `U[0, 1) · current delay`.
pub fn backon_builder(seed: u64) -> backon::ExponentialBuilder {
    backon::ExponentialBuilder::default()
        .with_min_delay(Duration::from_secs(1))
        .with_factor(2.0)
        .with_max_delay(Duration::from_secs(32))
        .with_max_times(DELAYS_PER_SCHEDULE as usize)
        .with_jitter()
        .with_jitter_seed(seed)
}

/// backoff 0.4: no retry count (callers stop after ten); its jitter is its default ±50 %.
pub fn backoff_crate() -> backoff::ExponentialBackoff {
    backoff::ExponentialBackoffBuilder::new()
        .with_initial_interval(Duration::from_secs(1))
        .with_multiplier(2.0)
        .with_max_interval(Duration::from_secs(32))
        .with_max_elapsed_time(None)
        .build()
}

/// exponential-backoff 2.1: counts attempts, so 11 attempts give 10 delays; jitter its default ±30 %.
pub fn exponential_backoff_crate() -> exponential_backoff::Backoff {
    exponential_backoff::Backoff::new(
        DELAYS_PER_SCHEDULE + 1,
        Duration::from_secs(1),
        Duration::from_secs(32),
    )
}

/// retry-policies 0.5: stateless; each decision draws from the thread's rng and reads the clock.
pub fn retry_policies_crate() -> retry_policies::policies::ExponentialBackoff {
    retry_policies::policies::ExponentialBackoff::builder()
        .retry_bounds(Duration::from_secs(1), Duration::from_secs(32))
        .jitter(retry_policies::Jitter::Bounded)
        .base(2)
        .build_with_max_retries(DELAYS_PER_SCHEDULE)
}

/// One schedule from each peer, as the benches compute it (delays in ms).
pub fn backon_schedule(builder: &backon::ExponentialBuilder) -> Vec<u64> {
    use backon::BackoffBuilder;
    builder.build().map(|d| d.as_millis() as u64).collect()
}

/// See [`backon_schedule`].
pub fn backoff_schedule(config: &backoff::ExponentialBackoff) -> Vec<u64> {
    use backoff::backoff::Backoff as _;
    let mut state = config.clone();
    (0..DELAYS_PER_SCHEDULE)
        .filter_map(|_| state.next_backoff())
        .map(|d| d.as_millis() as u64)
        .collect()
}

/// See [`backon_schedule`].
pub fn exponential_backoff_schedule(config: &exponential_backoff::Backoff) -> Vec<u64> {
    config
        .iter()
        .flatten()
        .map(|d| d.as_millis() as u64)
        .collect()
}

/// See [`backon_schedule`].
pub fn retry_policies_schedule(policy: &retry_policies::policies::ExponentialBackoff) -> Vec<u64> {
    use retry_policies::{RetryDecision, RetryPolicy};
    let start = SystemTime::now();
    (0..=DELAYS_PER_SCHEDULE)
        .map_while(|n| match policy.should_retry(start, n) {
            RetryDecision::Retry { execute_after } => Some(
                execute_after
                    .duration_since(SystemTime::now())
                    .unwrap_or_default()
                    .as_millis() as u64,
            ),
            RetryDecision::DoNotRetry => None,
        })
        .collect()
}

/// One benchmark iteration for the core: a fresh state and Google's ten delays, summed.
#[inline]
pub fn core_run(policy: &Policy, seed: u64) -> u32 {
    let mut backoff = Backoff::new(policy, seed);
    let mut sum = 0u32;
    for _ in 0..DELAYS_PER_SCHEDULE {
        sum = sum.wrapping_add(backoff.next_delay(policy).delay_ms().unwrap_or(0));
    }
    sum
}

/// [`core_run`] as a real program often has it: `next_delay` called from two places (here the
/// first failure and the later ones, each using the result its own way). Its bench program
/// (`benches/two_call_sites.rs`) contains only this use, so the compiler sees exactly two call
/// sites, where `core_run`'s program sees one.
#[inline]
pub fn core_run_two_sites(policy: &Policy, seed: u64) -> u32 {
    let mut backoff = Backoff::new(policy, seed);
    // First call site: the first failure (e.g. a refused connection).
    let mut sum = match backoff.next_delay(policy) {
        Step::Retry { delay_ms, .. } => delay_ms,
        Step::GiveUp(_) => return 0,
    };
    for _ in 1..DELAYS_PER_SCHEDULE {
        // Second call site: every later failure.
        sum = sum.wrapping_add(backoff.next_delay(policy).delay_ms().unwrap_or(0));
    }
    sum
}

/// The floor the speed goals are measured against: SPEC.md's Google step (SplitMix64 seeding,
/// `rand_xoshiro`'s xoshiro128++, Lemire's draw, `min(level + draw, cap)`, doubling) written inline
/// for the Google shape only, with no policy validation, no strategy dispatch, no give-up state and no `Step`.
/// It computes the same delays as the core (test `floor_is_the_cores_google_schedule`), so its
/// time is what one Google delay costs on this machine before any of the crate's guarantees.
#[inline]
pub fn floor_run(policy: &Policy, seed: u64) -> u32 {
    fn splitmix64(x: &mut u64) -> u64 {
        *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let Jitter::Google { jitter_ms } = policy.jitter() else {
        return 0;
    };
    let (cap, span) = (policy.max_backoff_ms(), jitter_ms + 1);
    let mut x = seed;
    let words = (splitmix64(&mut x) as u128) | (splitmix64(&mut x) as u128) << 64;
    let mut rng = Xoshiro128PlusPlus::from_seed(words.to_le_bytes());
    let mut next_u32 = || rng.next_u32();
    let (mut level, mut sum) = (policy.initial_ms(), 0u32);
    for _ in 0..policy.max_retries() {
        let mut m = next_u32() as u64 * span as u64;
        if (m as u32) < span {
            let threshold = span.wrapping_neg() % span;
            while (m as u32) < threshold {
                m = next_u32() as u64 * span as u64;
            }
        }
        let delay = (level + (m >> 32) as u32).min(cap);
        level = (level * 2).min(cap);
        sum = sum.wrapping_add(delay);
    }
    sum
}

/// One benchmark iteration for backon: build from the builder (which seeds its rng), ten delays.
#[inline]
pub fn backon_run(seed: u64) -> Duration {
    use backon::BackoffBuilder;
    backon_builder(seed).build().sum()
}

/// One benchmark iteration for backoff: a fresh copy of the configured state, ten delays.
#[inline]
pub fn backoff_run(config: &backoff::ExponentialBackoff) -> Duration {
    use backoff::backoff::Backoff as _;
    let mut state = config.clone();
    let mut sum = Duration::ZERO;
    for _ in 0..DELAYS_PER_SCHEDULE {
        sum += state.next_backoff().unwrap_or_default();
    }
    sum
}

/// One benchmark iteration for exponential-backoff: a fresh iterator, its ten delays.
#[inline]
pub fn exponential_backoff_run(config: &exponential_backoff::Backoff) -> Duration {
    config.iter().flatten().sum()
}

/// One benchmark iteration for retry-policies: ten decisions for retries 0 to 9.
#[inline]
pub fn retry_policies_run(
    policy: &retry_policies::policies::ExponentialBackoff,
    start: SystemTime,
) -> SystemTime {
    use retry_policies::{RetryDecision, RetryPolicy};
    let mut last = start;
    for n in 0..DELAYS_PER_SCHEDULE {
        if let RetryDecision::Retry { execute_after } = policy.should_retry(start, n) {
            last = last.max(execute_after);
        }
    }
    last
}

/// `(what, bytes)`: the state one in-flight request holds, for the core and each peer.
pub fn size_table() -> Vec<(&'static str, usize)> {
    use std::mem::size_of;
    vec![
        ("seeded-backoff Backoff (per request)", size_of::<Backoff>()),
        ("seeded-backoff Policy (shared)", size_of::<Policy>()),
        (
            "backon ExponentialBackoff",
            size_of::<backon::ExponentialBackoff>(),
        ),
        (
            "backoff ExponentialBackoff",
            size_of::<backoff::ExponentialBackoff>(),
        ),
        (
            "exponential-backoff IntoIter",
            size_of::<exponential_backoff::IntoIter>(),
        ),
        (
            "retry-policies ExponentialBackoff (+ thread rng)",
            size_of::<retry_policies::policies::ExponentialBackoff>(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_configurations_are_googles_shape() {
        let none = core_policy(Jitter::None);
        assert_eq!(
            core_schedule(&none, 1),
            [1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000, 32000]
        );
        for (name, jitter) in STRATEGIES {
            let p = core_policy(jitter);
            let delays = core_schedule(&p, 42);
            assert_eq!(delays.len(), 10, "{name}");
            assert!(delays.iter().all(|&d| d <= 32_000), "{name}");
        }
    }

    #[test]
    fn two_call_sites_give_the_same_delays() {
        for (_, jitter) in STRATEGIES {
            let p = core_policy(jitter);
            for seed in 0..100 {
                assert_eq!(core_run_two_sites(&p, seed), core_run(&p, seed));
            }
        }
    }

    #[test]
    fn floor_is_the_cores_google_schedule() {
        let p = core_policy(Jitter::Google { jitter_ms: 1000 });
        for seed in 0..1000 {
            let core: u32 = core_schedule(&p, seed).iter().sum();
            assert_eq!(floor_run(&p, seed), core, "seed {seed}");
        }
        assert_eq!(floor_run(&core_policy(Jitter::Full), 1), 0);
    }

    // The peers are configured to give ten delays starting near 1 s and staying near the 32 s cap
    // (each within its own jitter rule), so the benches time comparable work.
    #[test]
    fn peers_give_ten_google_like_delays() {
        let schedules = [
            ("backon", backon_schedule(&backon_builder(3))),
            ("backoff", backoff_schedule(&backoff_crate())),
            (
                "exponential-backoff",
                exponential_backoff_schedule(&exponential_backoff_crate()),
            ),
            (
                "retry-policies",
                retry_policies_schedule(&retry_policies_crate()),
            ),
        ];
        for (name, delays) in schedules {
            assert_eq!(delays.len(), 10, "{name}: {delays:?}");
            // backoff's ±50 % gives 500..1500 ms first; retry-policies' bounded jitter 500..1000.
            assert!((400..=2000).contains(&delays[0]), "{name}: {delays:?}");
            // backon's jitter is applied after its cap, so it may reach 64 s (a known peer bug).
            assert!(delays.iter().all(|&d| d <= 64_000), "{name}: {delays:?}");
            if name == "retry-policies" {
                // Its bounded jitter draws retry n from [0.5 s, min(2^n s, 32 s)) (retry_policy.rs
                // in retry-policies 0.5.2), so any retry may come out near 0.5 s: only the bounds
                // are fixed. (The schedule reads the clock, hence 400 rather than 500.)
                for (n, &d) in delays.iter().enumerate() {
                    let high = (1000u64 << n).min(32_000);
                    assert!((400..=high).contains(&d), "{name} retry {n}: {delays:?}");
                }
            } else {
                // The others keep at least half the cap at retry 9: backoff ±50 %,
                // exponential-backoff ±30 %, backon only adds.
                assert!(delays[9] >= 16_000, "{name}: {delays:?}");
            }
        }
    }

    #[test]
    fn state_is_within_the_32_byte_goal() {
        let table = size_table();
        assert!(table[0].1 <= 32, "{table:?}");
    }
}
