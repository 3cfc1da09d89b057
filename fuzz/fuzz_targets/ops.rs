//! An arbitrary sequence of calls on one Backoff (and a shared budget), each checked against the
//! reference model of SPEC.md in `src/model.rs`, plus the bounds every step must respect whatever
//! the model says: delay ≤ max(cap, max_hint) ≤ 2^31 − 1, the strategy's `jitter_bounds`, give-up
//! stickiness, retries ≤ max_retries, and bit-identical snapshots.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::budget::{AtomicRetryBudget, RetryBudget, RetryGate};
use seeded_backoff::policy::{jitter_bounds, MAX_DELAY_MS};
use seeded_backoff::{Backoff, FailureKind, Policy, ServerHint, Step, StepInput};
use seeded_backoff_fuzz::inputs::{BudgetFields, PolicyFields};
use seeded_backoff_fuzz::model::{ModelBackoff, ModelBudget, ModelHint, ModelPolicy, ModelStep};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Hint {
    RetryAfter(u32),
    RateLimit(u32),
    DoNotRetry,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Next,
    NextWithHint(Hint),
    NextAt(u64),
    NextWithBudget {
        timeout: bool,
    },
    /// The general step with every input at once.
    NextWith {
        hint: Option<Hint>,
        elapsed: Option<u64>,
        budget: Option<bool>,
    },
    BudgetSuccess(Option<bool>),
    Reset,
    SnapshotRestore,
    FastForward(u32),
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: PolicyFields,
    seed: u64,
    budget: BudgetFields,
    atomic_budget: bool,
    ops: Vec<Op>,
}

fn spread_hint(h: Hint) -> Hint {
    match h {
        Hint::RetryAfter(ms) => Hint::RetryAfter(seeded_backoff_fuzz::inputs::spread(ms)),
        Hint::RateLimit(ms) => Hint::RateLimit(seeded_backoff_fuzz::inputs::spread(ms)),
        other => other,
    }
}

fn to_core(h: Hint) -> ServerHint {
    match h {
        Hint::RetryAfter(ms) => ServerHint::RetryAfterMs(ms),
        Hint::RateLimit(ms) => ServerHint::RateLimitResetMs(ms),
        Hint::DoNotRetry => ServerHint::DoNotRetry,
    }
}

fn to_model(h: Hint) -> ModelHint {
    match h {
        Hint::RetryAfter(ms) => ModelHint::RetryAfter(ms),
        Hint::RateLimit(ms) => ModelHint::RateLimit(ms),
        Hint::DoNotRetry => ModelHint::DoNotRetry,
    }
}

fn kind(timeout: bool) -> FailureKind {
    if timeout {
        FailureKind::Timeout
    } else {
        FailureKind::Error
    }
}

fn model_step(step: Step) -> ModelStep {
    match step {
        Step::Retry { delay_ms, retry } => ModelStep::Retry(delay_ms, retry),
        Step::GiveUp(r) => ModelStep::GiveUp(r.code()),
    }
}

/// The checks that hold for any step, independent of the model.
fn check_bounds(
    policy: &Policy,
    before: &Backoff,
    step: Step,
    hint: Option<Hint>,
    elapsed: Option<u64>,
) {
    let cap = policy.max_backoff_ms();
    // SPEC.md §5's bound: a rate-limit hint may add up to 1 s + 10 % of max_hint_ms.
    let max_hint = policy.max_hint_ms();
    let ceiling = match hint {
        Some(Hint::RateLimit(_)) => cap.max((max_hint + 1000 + max_hint / 10).min(MAX_DELAY_MS)),
        _ => cap.max(max_hint),
    };
    assert!(ceiling <= MAX_DELAY_MS);
    if let Some(reason) = before.gave_up() {
        assert_eq!(step, Step::GiveUp(reason), "give-up must be sticky");
        return;
    }
    let Step::Retry { delay_ms, retry } = step else {
        return;
    };
    assert_eq!(retry, before.retries());
    assert!(retry < policy.max_retries());
    assert!(
        delay_ms <= ceiling,
        "delay {delay_ms} above max(cap, max_hint) {ceiling}"
    );
    let (lo, hi) = jitter_bounds(policy, before.to_raw().level);
    let (hinted_lo, hinted_hi) = match hint {
        Some(Hint::RetryAfter(h)) => (h.min(max_hint), h.min(max_hint)),
        Some(Hint::RateLimit(h)) => {
            let h_c = h.min(max_hint);
            (h_c, (h_c + 1000 + h_c / 10).min(MAX_DELAY_MS))
        }
        _ => (0, 0),
    };
    let (mut lo, mut hi) = (lo.max(hinted_lo), hi.max(hinted_hi));
    if policy.max_elapsed_ms() > 0 {
        let e = elapsed.map_or(before.elapsed_ms(), |e| e.min(u32::MAX as u64) as u32);
        let remaining = policy.max_elapsed_ms().saturating_sub(e);
        assert!(
            delay_ms <= remaining,
            "delay {delay_ms} crosses the time budget"
        );
        if policy.deadline() == seeded_backoff::policy::DeadlineMode::Clamp {
            lo = lo.min(remaining);
            hi = hi.min(remaining);
        }
    }
    assert!(
        (lo..=hi).contains(&delay_ms),
        "delay {delay_ms} outside ({lo}, {hi})"
    );
}

fuzz_target!(|input: Input| {
    let policy = input.policy.valid();
    let mp = ModelPolicy::of(&policy);
    let config = input.budget.valid();
    let cell_budget = RetryBudget::new(config);
    let atomic_budget = AtomicRetryBudget::new(config);
    let budget: &dyn RetryGate = if input.atomic_budget {
        &atomic_budget
    } else {
        &cell_budget
    };
    let tokens = || {
        if input.atomic_budget {
            atomic_budget.tokens_milli()
        } else {
            cell_budget.tokens_milli()
        }
    };
    let mut mb = ModelBudget::of(config);

    let mut b = Backoff::new(&policy, input.seed);
    let mut m = ModelBackoff::new(&mp, input.seed);

    for op in input.ops.iter().take(4096) {
        let before = b.clone();
        let mut stepped = None;
        match *op {
            Op::Next => {
                let s = b.next_delay(&policy);
                assert_eq!(model_step(s), m.step(&mp, None, None, None));
                stepped = Some((s, None, None));
            }
            Op::NextWithHint(h) => {
                let h = spread_hint(h);
                let s = b.next_delay_with(&policy, StepInput::default().hint(to_core(h)));
                assert_eq!(model_step(s), m.step(&mp, Some(to_model(h)), None, None));
                stepped = Some((s, Some(h), None));
            }
            Op::NextAt(e) => {
                let s = b.next_delay_with(&policy, StepInput::default().elapsed_ms(e));
                assert_eq!(model_step(s), m.step(&mp, None, Some(e), None));
                stepped = Some((s, None, Some(e)));
            }
            Op::NextWithBudget { timeout } => {
                let s =
                    b.next_delay_with(&policy, StepInput::default().budget(budget, kind(timeout)));
                assert_eq!(
                    model_step(s),
                    m.step(&mp, None, None, Some((&mut mb, timeout)))
                );
                stepped = Some((s, None, None));
            }
            Op::NextWith {
                hint,
                elapsed,
                budget: with_budget,
            } => {
                let hint = hint.map(spread_hint);
                let s = b.next_delay_with(
                    &policy,
                    StepInput {
                        hint: hint.map(to_core),
                        elapsed_ms: elapsed,
                        budget: with_budget.map(|t| (budget, kind(t))),
                    },
                );
                let expect = m.step(
                    &mp,
                    hint.map(to_model),
                    elapsed,
                    with_budget.map(|t| (&mut mb, t)),
                );
                assert_eq!(model_step(s), expect);
                stepped = Some((s, hint, elapsed));
            }
            Op::BudgetSuccess(retried) => {
                budget.record_success(retried.map(kind));
                mb.record_success(retried);
            }
            Op::Reset => {
                b.reset(&policy);
                m.reset(&mp);
            }
            Op::SnapshotRestore => {
                let bytes = b.snapshot(&policy);
                assert_eq!(bytes, m.snapshot(&mp), "snapshot bytes differ from SPEC §9");
                let restored =
                    Backoff::restore(&policy, &bytes).expect("own snapshot must restore");
                assert_eq!(restored, b);
                assert_eq!(restored.snapshot(&policy), bytes);
                b = restored;
            }
            Op::FastForward(n) => {
                let n = seeded_backoff_fuzz::inputs::spread(n);
                b.fast_forward(&policy, n);
                m.fast_forward(&mp, n);
            }
        }
        if let Some((s, hint, elapsed)) = stepped {
            check_bounds(&policy, &before, s, hint, elapsed);
        }
        // The whole state agrees with the model after every call.
        let raw = b.to_raw();
        assert_eq!(raw.rng, m.rng.0, "rng after {op:?}");
        assert_eq!(
            (raw.retries, raw.level, raw.elapsed_ms, raw.gave_up),
            (m.retries, m.level, m.elapsed, m.gave_up as u32),
            "state after {op:?}"
        );
        assert!(b.retries() <= policy.max_retries());
        assert!((policy.initial_ms()..=policy.max_backoff_ms()).contains(&raw.level));
        let t = tokens() as u64;
        assert_eq!(t, mb.tokens(), "budget tokens after {op:?}");
        assert!(t <= mb.max());
    }
});
