//! Long-running behaviour: one `Backoff` driven through 10^7 steps per strategy, and an
//! `AtomicRetryBudget` hammered from several threads.
//!
//! The 10^7-step test is `#[ignore]`d because it needs a release build; `scripts/test.d/40-hardening.sh`
//! runs it with `cargo test --release -p seeded-backoff --all-features --test long_running -- --include-ignored`.
//! The same driver runs 10^5 steps in every ordinary `cargo test` (a few hundred under Miri).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

use seeded_backoff::StepInput;
use seeded_backoff::{
    budget::{AtomicRetryBudget, BudgetConfig, RetryGate},
    policy::{jitter_bounds, MAX_DELAY_MS},
    Backoff, FailureKind, GiveUpReason, Jitter, Policy, ServerHint, Step,
};

const STRATEGIES: [Jitter; 6] = [
    Jitter::None,
    Jitter::Google { jitter_ms: 1000 },
    Jitter::Full,
    Jitter::Equal,
    Jitter::Decorrelated,
    Jitter::Proportional {
        spread_per_mille: 200,
    },
];

/// Drives `steps` retries (max_retries = steps exactly) and checks every one, then the give-up.
/// The cap is MAX_DELAY_MS so the elapsed sum saturates u32 after a few steps, and every 97th step
/// carries a hint of exactly max_hint_ms, the longest one a policy takes.
fn drive(jitter: Jitter, steps: u32, seed: u64) {
    let policy = Policy::builder()
        .initial_ms(1000)
        .multiplier(1999, 1000)
        .max_backoff_ms(MAX_DELAY_MS)
        .max_hint_ms(MAX_DELAY_MS / 2)
        .jitter(jitter)
        .max_retries(steps)
        .build()
        .unwrap();
    let mut b = Backoff::new(&policy, seed);
    assert_eq!(b.to_raw().level, 1000);
    let mut elapsed: u64 = 0;
    let mut at_cap = 0u64;
    for i in 0..steps {
        let level = b.to_raw().level;
        assert!(
            (1000..=MAX_DELAY_MS).contains(&level),
            "{jitter:?} step {i}: level {level}"
        );
        let (lo, hi) = jitter_bounds(&policy, level);
        let hinted = i % 97 == 0;
        let step = if hinted {
            b.next_delay_with(
                &policy,
                StepInput::default().hint(ServerHint::RetryAfterMs(MAX_DELAY_MS / 2)),
            )
        } else {
            b.next_delay(&policy)
        };
        let Step::Retry { delay_ms, retry } = step else {
            panic!("{jitter:?} step {i}: gave up early: {step:?}");
        };
        assert_eq!(
            retry, i,
            "{jitter:?}: the retry index must count up without wrapping"
        );
        if hinted {
            // The hint is a lower bound on the jittered delay.
            let h = MAX_DELAY_MS / 2;
            assert!(
                (lo.max(h)..=hi.max(h)).contains(&delay_ms),
                "{jitter:?} step {i}: hinted {delay_ms} outside ({}, {})",
                lo.max(h),
                hi.max(h)
            );
        } else {
            assert!(
                (lo..=hi).contains(&delay_ms),
                "{jitter:?} step {i}: {delay_ms} outside ({lo}, {hi})"
            );
        }
        assert!(delay_ms <= MAX_DELAY_MS);
        at_cap += (delay_ms == MAX_DELAY_MS) as u64;
        elapsed = (elapsed + delay_ms as u64).min(u32::MAX as u64);
        assert_eq!(
            b.elapsed_ms() as u64,
            elapsed,
            "elapsed must saturate, not wrap"
        );
        assert_eq!(b.retries(), i + 1);
    }
    // Exactly max_retries retries, then the right reason, forever.
    for _ in 0..3 {
        assert_eq!(
            b.next_delay(&policy),
            Step::GiveUp(GiveUpReason::MaxRetries)
        );
    }
    assert_eq!(b.retries(), steps);
    if matches!(jitter, Jitter::None | Jitter::Google { .. }) && steps > 100 {
        // These lose their jitter at the cap: nearly every delay is exactly the cap.
        assert!(
            at_cap > steps as u64 / 2,
            "{jitter:?}: only {at_cap} delays at the cap"
        );
    }
    // The deepest retry number still answers within bounds, then gives up for the right reason.
    let deep = policy.to_builder().max_retries(u32::MAX).build().unwrap();
    b.reset(&deep);
    b.fast_forward(&deep, u32::MAX - 1);
    match b.next_delay(&deep) {
        Step::Retry { delay_ms, retry } => {
            assert_eq!(retry, u32::MAX - 1);
            assert!(delay_ms <= MAX_DELAY_MS);
        }
        other => panic!("{jitter:?}: {other:?} at retry u32::MAX - 1"),
    }
    assert_eq!(b.retries(), u32::MAX);
    assert_eq!(b.next_delay(&deep), Step::GiveUp(GiveUpReason::MaxRetries));
}

fn quick_steps() -> u32 {
    if cfg!(miri) {
        300
    } else {
        100_000
    }
}

#[test]
fn every_strategy_stays_in_bounds_over_many_steps() {
    for (i, jitter) in STRATEGIES.into_iter().enumerate() {
        drive(jitter, quick_steps(), 0x5eed + i as u64);
    }
}

#[test]
#[ignore = "10^7 steps per strategy: run in release by scripts/test.d/40-hardening.sh"]
fn ten_million_steps_per_strategy() {
    for (i, jitter) in STRATEGIES.into_iter().enumerate() {
        drive(jitter, 10_000_000, u64::MAX - i as u64);
    }
}

/// A time budget reached after many steps gives up with `Deadline`, never wrapping the sum.
#[test]
fn long_time_budget_ends_with_deadline() {
    let policy = Policy::builder()
        .initial_ms(1)
        .multiplier(1, 1)
        .max_backoff_ms(1)
        .jitter(Jitter::None)
        .max_retries(u32::MAX)
        .max_elapsed_ms(quick_steps())
        .build()
        .unwrap();
    let mut b = Backoff::new(&policy, 1);
    for i in 0..quick_steps() {
        assert_eq!(
            b.next_delay(&policy),
            Step::Retry {
                delay_ms: 1,
                retry: i
            }
        );
    }
    assert_eq!(b.next_delay(&policy), Step::GiveUp(GiveUpReason::Deadline));
    assert_eq!(b.elapsed_ms(), quick_steps());
}

/// A small xorshift so each thread makes its own reproducible mix of operations.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn hammer_rounds() -> u64 {
    if cfg!(miri) {
        200
    } else {
        200_000
    }
}

/// Four threads mix every budget operation (and budgeted steps) while a watcher reads the count:
/// it never leaves [0, max] (an underflow would wrap far above max).
fn hammer(config: BudgetConfig) {
    let budget = AtomicRetryBudget::new(config);
    let max = config.max_milli();
    let done = AtomicBool::new(false);
    let observed = AtomicU64::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Acquire) {
                let t = budget.tokens_milli();
                assert!(t <= max, "tokens {t} outside [0, {max}]");
                observed.fetch_add(1, Ordering::Relaxed);
            }
        });
        let workers: Vec<_> = (0..4u64)
            .map(|id| {
                let budget = &budget;
                let observed = &observed;
                s.spawn(move || {
                    // Start only once the watcher is reading, so it watches the contention.
                    while observed.load(Ordering::Relaxed) == 0 {
                        thread::yield_now();
                    }
                    let policy = Policy::google();
                    let mut b = Backoff::new(&policy, id);
                    let mut rng = 0x9E37_79B9_7F4A_7C15 ^ (id + 1);
                    for _ in 0..hammer_rounds() {
                        let r = xorshift(&mut rng);
                        let kind = if r & 1 == 0 {
                            FailureKind::Error
                        } else {
                            FailureKind::Timeout
                        };
                        match (r >> 1) % 6 {
                            0 => budget.record_failure(kind),
                            1 => {
                                budget.try_acquire(kind);
                            }
                            2 => budget.record_success(None),
                            3 => budget.record_success(Some(kind)),
                            4 => match b
                                .next_delay_with(&policy, StepInput::default().budget(budget, kind))
                            {
                                Step::Retry { .. } => {}
                                Step::GiveUp(reason) => {
                                    assert!(matches!(
                                        reason,
                                        GiveUpReason::Budget | GiveUpReason::MaxRetries
                                    ));
                                    b.reset(&policy);
                                }
                            },
                            _ => b.reset(&policy),
                        }
                        assert!(budget.tokens_milli() <= max);
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        done.store(true, Ordering::Release);
    });
    assert!(budget.tokens_milli() <= max);
    assert!(observed.load(Ordering::Relaxed) > 0);
}

#[test]
fn atomic_grpc_budget_stays_in_range_under_contention() {
    hammer(BudgetConfig::grpc(10, 1500).unwrap());
    hammer(BudgetConfig::grpc(1000, 1).unwrap());
}

#[test]
fn atomic_aws_budget_stays_in_range_under_contention() {
    hammer(BudgetConfig::AWS_DEFAULT);
    hammer(BudgetConfig::aws_quota(1, 1, 1, 1).unwrap());
}

/// No lost updates: threads only acquire, so every granted retry's cost must be missing from the
/// bucket, exactly, and acquisitions stop exactly when it runs dry.
#[test]
fn atomic_aws_budget_loses_no_update() {
    let config = BudgetConfig::aws_quota(1_000_000, 3, 7, 0).unwrap();
    let budget = AtomicRetryBudget::new(config);
    let spent = AtomicU64::new(0);
    let rounds = if cfg!(miri) { 100 } else { 400_000 };
    thread::scope(|s| {
        for id in 0..4u64 {
            let (budget, spent) = (&budget, &spent);
            s.spawn(move || {
                for i in 0..rounds {
                    let (kind, cost) = if (i + id) % 3 == 0 {
                        (FailureKind::Timeout, 7_000)
                    } else {
                        (FailureKind::Error, 3_000)
                    };
                    if budget.try_acquire(kind) {
                        spent.fetch_add(cost, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let left = budget.tokens_milli() as u64;
    assert_eq!(
        left + spent.load(Ordering::Relaxed),
        config.max_milli() as u64
    );
    if !cfg!(miri) {
        // 4 · 400 000 acquisitions want far more than 10^9 milli-tokens: the bucket ran dry.
        assert!(left < 7_000, "{left} milli-tokens left");
    }
}
