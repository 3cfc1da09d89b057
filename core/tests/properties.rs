//! Property tests of the core: one property per test, over arbitrary valid policies and seeds.

use proptest::prelude::*;
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    policy::{DeadlineMode, MAX_DELAY_MS},
    snapshot::SNAPSHOT_SIZE,
    Backoff, FailureKind, GiveUpReason, Jitter, Policy, ServerHint, Step, StepInput,
};

/// Miri runs every case through an interpreter: a handful is enough there.
fn config() -> ProptestConfig {
    ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 })
}

fn jitter() -> impl Strategy<Value = Jitter> {
    prop_oneof![
        Just(Jitter::None),
        (0u32..=2000).prop_map(|jitter_ms| Jitter::Google { jitter_ms }),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated),
        (0u32..=1000).prop_map(|spread_per_mille| Jitter::Proportional { spread_per_mille }),
    ]
}

/// Any valid policy, with values spread over the whole allowed ranges (including the extremes).
fn policy() -> impl Strategy<Value = Policy> {
    (
        prop_oneof![1u32..=5000, Just(MAX_DELAY_MS), 1u32..=MAX_DELAY_MS],
        prop_oneof![0u32..=100_000, Just(MAX_DELAY_MS), 0u32..=MAX_DELAY_MS],
        1u32..=1000,
        0u32..=3000,
        0u32..=60,
        jitter(),
        prop::option::of(0u32..=MAX_DELAY_MS),
        prop_oneof![Just(0u32), 1u32..=u32::MAX],
        any::<bool>(),
    )
        .prop_map(
            |(initial, extra, den, num_extra, retries, jitter, hint, elapsed, clamp)| {
                let cap = initial.saturating_add(extra).min(MAX_DELAY_MS);
                let num = (den + num_extra * den / 1000).min(1000 * den);
                let jitter = match jitter {
                    Jitter::Google { jitter_ms } => Jitter::Google {
                        jitter_ms: jitter_ms.min(cap),
                    },
                    other => other,
                };
                let mut b = Policy::builder()
                    .initial_ms(initial)
                    .max_backoff_ms(cap)
                    .multiplier(num, den)
                    .max_retries(retries)
                    .jitter(jitter)
                    .max_elapsed_ms(elapsed)
                    .deadline(if clamp {
                        DeadlineMode::Clamp
                    } else {
                        DeadlineMode::GiveUp
                    });
                if let Some(h) = hint {
                    b = b.max_hint_ms(h);
                }
                b.build().expect("generated policies are valid")
            },
        )
}

/// SPEC.md §4.2 by hand, in 128-bit arithmetic so nothing saturates by accident: `base_n` from
/// `grow` applied `n` times (rounded down at every step), written apart from the crate's
/// `base_delay_ms`.
fn spec_base(p: &Policy, n: u32) -> u128 {
    let (num, den) = p.multiplier();
    let cap = u128::from(p.max_backoff_ms());
    let mut level = u128::from(p.initial_ms());
    for _ in 0..n {
        let next = (level * u128::from(num) / u128::from(den)).min(cap);
        if next == level {
            break;
        }
        level = next;
    }
    level
}

/// The smallest and largest delay SPEC.md §4.2 allows for a level `l` (the base, or the previous
/// delay for decorrelated jitter): each strategy's `low + uniform(span)` range, clamped to the cap.
fn spec_bounds(p: &Policy, l: u128) -> (u128, u128) {
    let cap = u128::from(p.max_backoff_ms());
    let init = u128::from(p.initial_ms());
    let (low, high) = match p.jitter() {
        Jitter::None => (l, l),
        Jitter::Google { jitter_ms } => (l, l + u128::from(jitter_ms)),
        Jitter::Full => (0, l),
        Jitter::Equal => (l / 2, l / 2 + (l - l / 2)),
        Jitter::Proportional { spread_per_mille } => {
            let s = l * u128::from(spread_per_mille) / 1000;
            (l - s, l - s + 2 * s)
        }
        Jitter::Decorrelated => (init, init.max((3 * l).min(u128::from(u32::MAX)))),
    };
    (low.min(cap), high.min(cap))
}

fn no_time_budget(p: Policy) -> Policy {
    p.to_builder().max_elapsed_ms(0).build().unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn delay_never_exceeds_the_cap(p in policy(), seed in any::<u64>()) {
        let mut b = Backoff::new(&p, seed);
        for _ in 0..=p.max_retries() {
            if let Step::Retry { delay_ms, .. } = b.next_delay(&p) {
                prop_assert!(delay_ms <= p.max_backoff_ms());
            }
        }
    }

    #[test]
    fn each_strategy_stays_within_its_documented_bounds(p in policy(), seed in any::<u64>()) {
        let p = no_time_budget(p);
        let mut b = Backoff::new(&p, seed);
        let mut prev = p.initial_ms();
        for n in 0..p.max_retries() {
            // Decorrelated's bounds follow the previous delay, every other strategy's follow base_n.
            let level = match p.jitter() {
                Jitter::Decorrelated => u128::from(prev),
                _ => spec_base(&p, n),
            };
            let (lo, hi) = spec_bounds(&p, level);
            match b.next_delay(&p) {
                Step::Retry { delay_ms, retry } => {
                    prop_assert_eq!(retry, n);
                    let d = u128::from(delay_ms);
                    prop_assert!(lo <= d && d <= hi, "retry {}: {} not in [{}, {}]", n, delay_ms, lo, hi);
                    prev = delay_ms;
                }
                Step::GiveUp(r) => prop_assert!(false, "gave up early: {:?}", r),
            }
        }
    }

    #[test]
    fn exactly_max_retries_delays_then_give_up_forever(p in policy(), seed in any::<u64>()) {
        let p = no_time_budget(p);
        let mut b = Backoff::new(&p, seed);
        let delays = core::iter::from_fn(|| b.next_delay(&p).delay_ms()).count();
        prop_assert_eq!(delays as u32, p.max_retries());
        for _ in 0..5 {
            prop_assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::MaxRetries));
            prop_assert_eq!(b.next_delay_with(&p, StepInput::default().hint(ServerHint::RetryAfterMs(1))), Step::GiveUp(GiveUpReason::MaxRetries));
        }
        prop_assert_eq!(b.retries(), p.max_retries());
    }

    #[test]
    fn same_seed_gives_the_same_sequence(p in policy(), seed in any::<u64>()) {
        let mut a = Backoff::new(&p, seed);
        let mut b = Backoff::new(&p, seed);
        for _ in 0..=p.max_retries() {
            prop_assert_eq!(a.next_delay(&p), b.next_delay(&p));
        }
    }

    #[test]
    fn invalid_policies_are_rejected_without_panicking(
        initial in any::<u32>(), cap in any::<u32>(), num in any::<u32>(), den in any::<u32>(),
        param in any::<u32>(), code in 0u8..6, hint in any::<u32>(), retries in any::<u32>(),
    ) {
        let jitter = Jitter::from_code(code, param).unwrap();
        let built = Policy::builder().initial_ms(initial).max_backoff_ms(cap).multiplier(num, den)
            .jitter(jitter).max_hint_ms(hint).max_retries(retries).build();
        let valid = (1..=MAX_DELAY_MS).contains(&initial)
            && (initial..=MAX_DELAY_MS).contains(&cap)
            && (1..=1000).contains(&den)
            && num >= den
            && num as u64 <= 1000 * den as u64
            && match jitter {
                Jitter::Google { jitter_ms } => jitter_ms <= cap,
                Jitter::Proportional { spread_per_mille } => spread_per_mille <= 1000,
                _ => true,
            }
            && hint <= MAX_DELAY_MS;
        prop_assert_eq!(built.is_ok(), valid, "{:?}", built);
        if let Ok(p) = built {
            // A policy that validates runs without surprises.
            let mut b = Backoff::new(&p, 1);
            for _ in 0..3 {
                if let Step::Retry { delay_ms, .. } = b.next_delay(&p) {
                    prop_assert!(delay_ms <= p.max_backoff_ms());
                }
            }
        }
    }

    #[test]
    fn deep_retry_numbers_saturate_at_the_cap(p in policy(), n in any::<u32>()) {
        // base_n is non-decreasing, capped, and never overflows however deep n is.
        let base = p.base_delay_ms(n);
        prop_assert_eq!(u128::from(base), spec_base(&p, n));
        prop_assert!(base >= p.initial_ms() && base <= p.max_backoff_ms());
        prop_assert!(p.base_delay_ms(n.saturating_add(1)) >= base);
        let p = p.to_builder().max_retries(u32::MAX).max_elapsed_ms(0).build().unwrap();
        let mut b = Backoff::new(&p, 0);
        b.fast_forward(&p, n);
        let step = b.next_delay(&p);
        if n == u32::MAX {
            prop_assert_eq!(step, Step::GiveUp(GiveUpReason::MaxRetries));
        } else {
            let (lo, hi) = spec_bounds(&p, u128::from(base));
            match step {
                Step::Retry { delay_ms, retry } => {
                    prop_assert_eq!(retry, n);
                    prop_assert!(delay_ms <= p.max_backoff_ms());
                    let d = u128::from(delay_ms);
                    prop_assert!(lo <= d && d <= hi, "retry {}: {} not in [{}, {}]", n, delay_ms, lo, hi);
                }
                Step::GiveUp(r) => prop_assert!(false, "gave up: {:?}", r),
            }
        }
    }

    #[test]
    fn plain_next_delay_equals_the_general_step(p in policy(), seed in any::<u64>(), resets in prop::collection::vec(0u32..40, 0..3)) {
        // next_delay has a fast path; it must be SPEC.md §5 exactly, give-ups and resets included.
        let mut fast = Backoff::new(&p, seed);
        let mut general = Backoff::new(&p, seed);
        for i in 0..(p.max_retries().min(40) + 5) {
            if resets.contains(&i) {
                fast.reset(&p);
                general.reset(&p);
            }
            prop_assert_eq!(fast.next_delay(&p), general.next_delay_with(&p, StepInput::default()));
            prop_assert_eq!(&fast, &general);
        }
    }

    #[test]
    fn growth_is_the_exact_rounded_down_product(p in policy(), n in 0u32..64) {
        // SPEC.md §4.2 grow(L) = min(cap, L · num / den) with a 64-bit product, whatever arithmetic
        // the crate uses inside.
        let (num, den) = p.multiplier();
        let level = p.base_delay_ms(n);
        let expected = (level as u64 * num as u64 / den as u64).min(p.max_backoff_ms() as u64) as u32;
        let next = p.base_delay_ms(n + 1);
        prop_assert_eq!(next, expected);
    }

    #[test]
    fn a_hint_is_a_lower_bound_up_to_max_hint_and_changes_nothing_later(
        p in policy(), seed in any::<u64>(), hint in any::<u32>(), at in 0u32..10,
    ) {
        let p = no_time_budget(p);
        let mut plain = Backoff::new(&p, seed);
        let mut hinted = Backoff::new(&p, seed);
        for n in 0..=p.max_retries().min(20) {
            let a = plain.next_delay(&p);
            let b = if n == at { hinted.next_delay_with(&p, StepInput::default().hint(ServerHint::RetryAfterMs(hint))) } else { hinted.next_delay(&p) };
            match (a, b) {
                (Step::Retry { delay_ms: d, .. }, Step::Retry { delay_ms: h, .. }) if n == at => {
                    prop_assert!(hint <= p.max_hint_ms());
                    prop_assert_eq!(h, d.max(hint));
                }
                // Beyond the limit: a give-up of its own, never an early return.
                (Step::Retry { .. }, Step::GiveUp(reason)) if n == at => {
                    prop_assert!(hint > p.max_hint_ms());
                    prop_assert_eq!(reason, GiveUpReason::HintExceedsMax);
                    break;
                }
                (a, b) => prop_assert_eq!(a, b),
            }
        }
    }

    #[test]
    fn time_budget_is_never_crossed(p in policy(), seed in any::<u64>(), budget in 1u32..=200_000) {
        let p = p.to_builder().max_elapsed_ms(budget).max_retries(p.max_retries().max(1)).build().unwrap();
        let mut b = Backoff::new(&p, seed);
        let mut total: u64 = 0;
        loop {
            match b.next_delay(&p) {
                Step::Retry { delay_ms, .. } => total += delay_ms as u64,
                Step::GiveUp(r) => {
                    prop_assert!(matches!(r, GiveUpReason::MaxRetries | GiveUpReason::Deadline));
                    break;
                }
            }
        }
        prop_assert!(total <= budget as u64);
    }

    #[test]
    fn elapsed_near_u64_max_saturates_and_gives_up(p in policy(), seed in any::<u64>(), elapsed in (u64::MAX - 1000)..=u64::MAX) {
        let p = p.to_builder().max_elapsed_ms(u32::MAX).max_retries(5).build().unwrap();
        let mut b = Backoff::new(&p, seed);
        // Nothing is left of the budget: only a zero delay (full jitter can draw one) fits in it.
        let step = b.next_delay_with(&p, StepInput::default().elapsed_ms(elapsed));
        prop_assert!(
            step == Step::GiveUp(GiveUpReason::Deadline)
                || (p.deadline() == DeadlineMode::GiveUp && step.delay_ms() == Some(0)),
            "{:?}", step
        );
    }

    #[test]
    fn snapshot_at_any_step_resumes_identically(p in policy(), seed in any::<u64>(), at in 0u32..12) {
        let mut live = Backoff::new(&p, seed);
        for _ in 0..at {
            live.next_delay(&p);
        }
        let bytes = live.snapshot(&p);
        let mut resumed = Backoff::restore(&p, &bytes).unwrap();
        prop_assert_eq!(&resumed, &live);
        for _ in 0..=p.max_retries().min(20) {
            prop_assert_eq!(resumed.next_delay(&p), live.next_delay(&p));
        }
    }

    #[test]
    fn any_byte_flip_is_rejected_or_restores_a_valid_state(
        p in policy(), seed in any::<u64>(), at in 0u32..5, index in 0usize..SNAPSHOT_SIZE, mask in 1u8..=255,
    ) {
        let mut b = Backoff::new(&p, seed);
        for _ in 0..at {
            b.next_delay(&p);
        }
        let mut bytes = b.snapshot(&p);
        bytes[index] ^= mask;
        if let Ok(mut restored) = Backoff::restore(&p, &bytes) {
            prop_assert!(restored.retries() <= p.max_retries());
            if let Step::Retry { delay_ms, .. } = restored.next_delay(&p) {
                prop_assert!(delay_ms <= p.max_backoff_ms());
            }
        }
    }

    #[test]
    fn grpc_budget_caps_retries_under_sustained_failure(
        max_tokens in 1u32..=1000, ratio in 1u32..=5000, successes_every in prop::option::of(1usize..20),
    ) {
        let ratio = ratio.min(max_tokens * 1000);
        let budget = RetryBudget::grpc(max_tokens, ratio).unwrap();
        let mut allowed: u64 = 0;
        let mut successes: u64 = 0;
        for i in 0..3000usize {
            if successes_every.is_some_and(|k| i % k == 0) {
                budget.record_success(None);
                successes += 1;
                continue;
            }
            budget.record_failure(FailureKind::Error);
            if budget.try_acquire(FailureKind::Error) {
                allowed += 1;
            }
            prop_assert!(budget.tokens_milli() <= max_tokens * 1000);
        }
        // SPEC.md §10.1: each success buys token_ratio failures on top of half the bucket.
        let bound = max_tokens as u64 / 2 + successes * ratio as u64 / 1000 + 1;
        prop_assert!(allowed <= bound, "{} retries allowed, bound {}", allowed, bound);
        if successes_every.is_none() {
            prop_assert!(allowed <= max_tokens as u64 / 2 + 1);
        }
    }

    #[test]
    fn aws_quota_allows_capacity_over_cost_retries(capacity in 1u32..=2000, cost in 1u32..=50) {
        let cost = cost.min(capacity);
        let budget = RetryBudget::new(BudgetConfig::aws_quota(capacity, cost, cost, 1).unwrap());
        let allowed = (0..5000).filter(|_| budget.try_acquire(FailureKind::Error)).count() as u32;
        prop_assert_eq!(allowed, capacity / cost);
    }
}
