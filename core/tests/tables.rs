//! The coded tables and the binding rules against SPEC.md, typed here from the spec's text (§2,
//! §5, §7, §7.1, §8.3, §10), not read from the code: a renamed or renumbered row fails.

use seeded_backoff::bindings::{
    one_hint, BudgetMode, BudgetOption, PolicyOption, PolicyOptions, StepInputError,
};
use seeded_backoff::{
    budget::BudgetError,
    http::{is_idempotent_method, request_may_retry},
    policy::Preset,
    Classification, FailureKind, ServerHint,
};

#[test]
fn preset_class_kind_and_budget_mode_codes_are_the_specs() {
    // Jitter, deadline, give-up and rate-limit header codes: `spec_tables.rs`.
    let presets = ["google", "google_64s", "aws_standard", "grpc", "mobile"];
    let classes = ["success", "retry", "do_not_retry", "invalid"];
    let kinds = ["error", "timeout"];
    assert_eq!(Preset::NAMES, presets);
    assert_eq!(Classification::NAMES, classes);
    assert_eq!(FailureKind::NAMES, kinds);
    for (i, p) in Preset::ALL.into_iter().enumerate() {
        assert_eq!((usize::from(p.code()), p.name()), (i, presets[i]));
        assert_eq!(Preset::from_code(p.code()), Some(p));
        assert_eq!(Preset::from_name(presets[i]), Some(p));
    }
    for (i, c) in Classification::ALL.into_iter().enumerate() {
        assert_eq!((usize::from(c.code()), c.name()), (i, classes[i]));
    }
    assert_eq!(Classification::from_code(4), None);

    assert_eq!(
        (BudgetMode::Grpc.code(), BudgetMode::Grpc.name()),
        (1, "grpc")
    );
    assert_eq!(
        (BudgetMode::AwsQuota.code(), BudgetMode::AwsQuota.name()),
        (2, "aws_quota")
    );
    assert_eq!(BudgetMode::from_code(0), None);
}

#[test]
fn budget_options_are_the_specs_table() {
    use BudgetOption::*;
    // SPEC.md §10: mode, option, default (None: required), the error naming its range.
    let table = [
        (
            BudgetMode::Grpc,
            MaxTokens,
            "max_tokens",
            None,
            BudgetError::MaxTokens,
        ),
        (
            BudgetMode::Grpc,
            TokenRatio,
            "token_ratio",
            None,
            BudgetError::TokenRatio,
        ),
        (
            BudgetMode::AwsQuota,
            Capacity,
            "capacity",
            Some(500),
            BudgetError::Capacity,
        ),
        (
            BudgetMode::AwsQuota,
            RetryCost,
            "retry_cost",
            Some(5),
            BudgetError::Cost,
        ),
        (
            BudgetMode::AwsQuota,
            TimeoutCost,
            "timeout_cost",
            Some(10),
            BudgetError::Cost,
        ),
        (
            BudgetMode::AwsQuota,
            NoRetryIncrement,
            "no_retry_increment",
            Some(1),
            BudgetError::NoRetryIncrement,
        ),
    ];
    for (mode, option, name, default, error) in table {
        assert_eq!(option.name(), name);
        assert_eq!(option.mode(), mode);
        assert!(mode.options().contains(&option), "{name}");
        assert_eq!(option.default_value(), default, "{name}");
        assert_eq!(option.error(), error, "{name}");
    }
    assert_eq!(
        BudgetMode::Grpc.options().len() + BudgetMode::AwsQuota.options().len(),
        6
    );
}

#[test]
fn policy_options_are_numbered_as_section_2_1_lists_them() {
    let spec = [
        "preset",
        "initial_ms",
        "multiplier",
        "max_backoff_ms",
        "max_retries",
        "jitter",
        "jitter_ms",
        "spread_per_mille",
        "max_hint_ms",
        "max_elapsed_ms",
        "deadline",
        "paced",
    ];
    assert_eq!(PolicyOption::NAMES, spec);
    for (code, name) in spec.iter().enumerate() {
        let option = PolicyOption::from_code(code as u8).unwrap();
        assert_eq!((option.code() as usize, option.name()), (code, *name));
    }
    assert_eq!(PolicyOption::from_code(12), None);
    // The struct's fields, in declaration order (as `Debug` prints them), are the same list.
    let debug = format!("{:?}", PolicyOptions::default());
    let fields: Vec<&str> = debug
        .trim_start_matches("PolicyOptions { ")
        .trim_end_matches(" }")
        .split(", ")
        .map(|f| f.trim_end_matches(": None"))
        .collect();
    assert_eq!(fields, spec);
}

#[test]
fn idempotent_methods_are_rfc_9110s() {
    for m in ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"] {
        assert!(is_idempotent_method(m.as_bytes()), "{m}");
        assert!(request_may_retry(m.as_bytes(), false), "{m}");
    }
    // POST and PATCH are not idempotent; CONNECT is left out (a tunnel); names are case-sensitive.
    for m in ["POST", "PATCH", "CONNECT", "get", "Get", " GET", "GET ", ""] {
        assert!(!is_idempotent_method(m.as_bytes()), "{m:?}");
        assert!(!request_may_retry(m.as_bytes(), false), "{m:?}");
        assert!(
            request_may_retry(m.as_bytes(), true),
            "{m:?}: an Idempotency-Key makes it safe"
        );
    }
}

#[test]
fn a_step_takes_at_most_one_hint() {
    let ra = Some(ServerHint::RetryAfterMs(5));
    let rl = Some(ServerHint::RateLimitResetMs(6));
    let stop = Some(ServerHint::DoNotRetry);
    let two = Err(StepInputError::TwoHints);
    // (retry_after_ms, rate_limit_ms, do_not_retry) over all eight combinations.
    let cases = [
        ((None, None, false), Ok(None)),
        ((Some(5), None, false), Ok(ra)),
        ((None, Some(6), false), Ok(rl)),
        ((None, None, true), Ok(stop)),
        ((Some(5), Some(6), false), two),
        ((Some(5), None, true), two),
        ((None, Some(6), true), two),
        ((Some(5), Some(6), true), two),
    ];
    for ((a, r, s), want) in cases {
        assert_eq!(one_hint(a, r, s), want, "{a:?} {r:?} {s}");
    }
    assert_eq!(StepInputError::TwoHints.name(), "two_hints");
}

#[test]
fn the_hint_of_a_response_follows_section_8_3() {
    let hint = |status, headers: &[(&str, &str)]| {
        let pairs = headers.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes()));
        ServerHint::from_headers(status, pairs, 1_700_000_000)
    };
    let reset = ("X-RateLimit-Reset", "1700000030");
    assert_eq!(
        hint(429, &[reset]),
        Some(ServerHint::RateLimitResetMs(30_000))
    );
    // Only a 429 reads the rate-limit headers; a Retry-After counts for any status.
    assert_eq!(hint(503, &[reset]), None);
    assert_eq!(
        hint(503, &[("retry-after", "3")]),
        Some(ServerHint::RetryAfterMs(3_000))
    );
    // A valid Retry-After wins; an invalid one is skipped, never an error.
    assert_eq!(
        hint(429, &[reset, ("Retry-After", "3")]),
        Some(ServerHint::RetryAfterMs(3_000))
    );
    assert_eq!(
        hint(429, &[("Retry-After", "soon"), reset]),
        Some(ServerHint::RateLimitResetMs(30_000))
    );
    // The table's order decides between rate-limit headers, not the response's.
    let both = [reset, ("RateLimit-Reset", "7")];
    assert_eq!(hint(429, &both), Some(ServerHint::RateLimitResetMs(7_000)));
    // Of a name given twice the first counts, even when it does not parse.
    let twice = [("ratelimit-reset", "x"), ("RATELIMIT-RESET", "9"), reset];
    assert_eq!(
        hint(429, &twice),
        Some(ServerHint::RateLimitResetMs(30_000))
    );
    assert_eq!(hint(429, &[]), None);
    assert_eq!(hint(429, &[("Content-Type", "text/plain")]), None);
}
