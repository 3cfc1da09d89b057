//! Arbitrary policy fields: validation must agree with SPEC.md §2 (first failing check, in order),
//! and every valid policy must run 200 steps within every documented bound. Budget parameters
//! (§10) are validated the same way.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::budget::BudgetConfig;
use seeded_backoff::policy::{jitter_bounds, MAX_DELAY_MS};
use seeded_backoff::{Backoff, Step};
use seeded_backoff_fuzz::inputs::PolicyFields;
use seeded_backoff_fuzz::model::ModelPolicy;

#[derive(Arbitrary, Debug)]
struct Input {
    fields: PolicyFields,
    spread: bool,
    seed: u64,
    budget: [u32; 4],
    budget_spread: bool,
}

/// SPEC.md §2's checks in table order; the name of the first that fails.
fn expected_error(f: &PolicyFields) -> Option<&'static str> {
    let (initial, cap) = (f.initial_ms as u64, f.max_backoff_ms as u64);
    let (num, den) = (f.multiplier_num as u64, f.multiplier_den as u64);
    let max = MAX_DELAY_MS as u64;
    if initial == 0 || initial > max {
        return Some("initial_ms");
    }
    if cap < initial || cap > max {
        return Some("max_backoff_ms");
    }
    if den == 0 || den > 1000 {
        return Some("multiplier_den");
    }
    if num < den {
        return Some("multiplier_below_one");
    }
    if num > 1000 * den {
        return Some("multiplier_too_large");
    }
    match f.jitter_code % 6 {
        1 if f.jitter_param as u64 > cap => return Some("jitter_ms"),
        5 if f.jitter_param > 1000 => return Some("spread_per_mille"),
        _ => {}
    }
    if f.max_hint_ms.unwrap_or(seeded_backoff::policy::DEFAULT_MAX_HINT_MS) as u64 > max {
        return Some("max_hint_ms");
    }
    None
}

fn check_budget(raw: [u32; 4]) {
    let [a, b, c, d] = raw;
    let grpc = BudgetConfig::grpc(a, b);
    let grpc_ok = (1..=1000).contains(&a) && b >= 1 && b as u64 <= 1000 * a as u64;
    assert_eq!(grpc.is_ok(), grpc_ok, "grpc({a}, {b}) gave {grpc:?}");
    if let Ok(cfg) = grpc {
        assert_eq!(cfg.max_milli() as u64, a as u64 * 1000);
    }
    let aws = BudgetConfig::aws_quota(a, b, c, d);
    let aws_ok =
        (1..=1_000_000).contains(&a) && (1..=a).contains(&b) && (1..=a).contains(&c) && d <= a;
    assert_eq!(
        aws.is_ok(),
        aws_ok,
        "aws_quota({a}, {b}, {c}, {d}) gave {aws:?}"
    );
}

fuzz_target!(|input: Input| {
    let f = if input.spread {
        input.fields.spread()
    } else {
        input.fields
    };
    let built = f.build();
    let expected = expected_error(&f);
    match (&built, expected) {
        (Err(e), Some(name)) => {
            assert_eq!(e.name(), name, "{f:?}");
            // The message names the field's stem and its allowed range.
            let stem = e.field().split('_').next().unwrap_or("");
            assert!(
                e.message().starts_with(stem) && e.message().contains("must be"),
                "{e:?}"
            );
        }
        (Ok(_), None) => {}
        _ => panic!("fields {f:?}: built {built:?}, spec expects {expected:?}"),
    }
    let budget = if input.budget_spread {
        input.budget.map(seeded_backoff_fuzz::inputs::spread)
    } else {
        input.budget
    };
    check_budget(budget);

    let Ok(policy) = built else { return };
    // The fields survived validation unchanged.
    let m = ModelPolicy::of(&policy);
    assert_eq!(
        (m.initial, m.cap, m.num, m.den),
        (
            f.initial_ms,
            f.max_backoff_ms,
            f.multiplier_num,
            f.multiplier_den
        )
    );
    assert_eq!(m.max_hint, f.max_hint_ms.unwrap_or(seeded_backoff::policy::DEFAULT_MAX_HINT_MS));
    assert_eq!(
        (m.max_retries, m.max_elapsed),
        (f.max_retries, f.max_elapsed_ms)
    );
    assert_eq!(policy.to_builder().build(), Ok(policy));

    let mut b = Backoff::new(&policy, input.seed);
    let mut prev_base = 0;
    let mut gave_up = None;
    for n in 0..200u32 {
        let base = policy.base_delay_ms(n);
        assert_eq!(base, m.base(n), "base_delay_ms({n})");
        assert!(base >= prev_base && (m.initial..=m.cap).contains(&base));
        prev_base = base;

        let raw = b.to_raw();
        let elapsed_before = b.elapsed_ms();
        assert!(
            (m.initial..=m.cap).contains(&raw.level),
            "level {} out of range",
            raw.level
        );
        let (lo, hi) = jitter_bounds(&policy, raw.level);
        assert!(
            lo <= hi && hi <= m.cap,
            "bounds ({lo}, {hi}) at level {}",
            raw.level
        );
        let step = b.next_delay(&policy);
        match (step, gave_up) {
            (Step::GiveUp(r), Some(before)) => assert_eq!(r, before, "give-up is sticky"),
            (Step::Retry { .. }, Some(before)) => panic!("retried after giving up ({before:?})"),
            (Step::GiveUp(r), None) => gave_up = Some(r),
            (Step::Retry { delay_ms, retry }, None) => {
                assert_eq!(retry, n);
                assert!(retry < m.max_retries);
                assert!(delay_ms <= m.cap && m.cap <= MAX_DELAY_MS);
                // A time budget can only shorten (clamp) or forbid (give up) a delay.
                let remaining = match m.max_elapsed {
                    0 => u32::MAX,
                    budget => budget.saturating_sub(elapsed_before),
                };
                let (lo, hi) = if m.clamp {
                    (lo.min(remaining), hi.min(remaining))
                } else {
                    (lo, hi)
                };
                assert!(
                    (lo..=hi).contains(&delay_ms),
                    "delay {delay_ms} outside ({lo}, {hi})"
                );
                assert!(delay_ms <= remaining);
            }
        }
        assert!(b.retries() <= m.max_retries);
    }
    // The deepest retry number is answered at once and within bounds.
    b.reset(&policy);
    b.fast_forward(&policy, u32::MAX);
    assert_eq!(b.retries(), m.max_retries);
    assert_eq!(b.to_raw().level, m.base(m.max_retries));
});
