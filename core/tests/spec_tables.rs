//! SPEC.md's tables, typed in from the SPEC and checked entry by entry and at every boundary:
//! give-up codes (§5), jitter and deadline codes (§2), classification (§7) over every `u16` and
//! the gRPC codes, and the rate-limit headers' codes and names (§8.3).

use seeded_backoff::{
    budget::BudgetConfig,
    classify_http,
    http::{classify_grpc, is_retryable_http, rate_limit_applies, RateLimitHeader},
    policy::DeadlineMode,
    Classification as C, GiveUpReason, Jitter,
};

#[test]
fn give_up_reasons_have_the_specs_codes_and_names() {
    let spec = [
        (1, "max_retries"),
        (2, "deadline"),
        (3, "budget"),
        (4, "server_stop"),
        (5, "hint_exceeds_max"),
        (6, "throttled"),
    ];
    for (code, name) in spec {
        let reason = GiveUpReason::from_code(code).unwrap_or_else(|| panic!("code {code}"));
        assert_eq!((reason.code(), reason.name()), (code, name));
        assert_eq!(reason.to_string(), name);
        assert_eq!(GiveUpReason::from_name(name), Some(reason));
        assert_eq!(GiveUpReason::NAMES[usize::from(code) - 1], name);
    }
    for code in [0, 7, 8, 255] {
        assert_eq!(GiveUpReason::from_code(code), None, "code {code}");
    }
}

#[test]
fn jitter_and_deadline_codes_are_the_specs() {
    let spec = [
        "none",
        "google",
        "full",
        "equal",
        "decorrelated",
        "proportional",
    ];
    for (code, name) in spec.into_iter().enumerate() {
        let code = code as u8;
        let jitter = Jitter::from_code(code, 0).unwrap_or_else(|| panic!("code {code}"));
        assert_eq!((jitter.code(), jitter.name()), (code, name));
        assert_eq!(Jitter::from_name(name, 0).map(Jitter::code), Some(code));
    }
    assert_eq!(Jitter::from_code(6, 0), None);
    assert_eq!(Jitter::from_name("Google", 0), None);
    // A strategy's parameter rides with its code or name; the others have none.
    assert_eq!(
        Jitter::from_code(1, 7),
        Some(Jitter::Google { jitter_ms: 7 })
    );
    assert_eq!(
        Jitter::from_name("proportional", 7),
        Some(Jitter::Proportional {
            spread_per_mille: 7
        })
    );
    assert_eq!(Jitter::from_name("full", 7), Some(Jitter::Full));
    assert_eq!(DeadlineMode::from_name("clamp"), Some(DeadlineMode::Clamp));
    for (code, name) in [(0, "give_up"), (1, "clamp")] {
        let mode = DeadlineMode::from_code(code).unwrap();
        assert_eq!((mode.code(), mode.name()), (code, name));
    }
    assert_eq!(DeadlineMode::from_code(2), None);
}

/// §7 in its own words.
fn spec_http(status: u16) -> C {
    match status {
        200..=299 => C::Success,
        429 | 500..=599 => C::Retry,
        100..=599 => C::DoNotRetry,
        _ => C::Invalid,
    }
}

#[test]
fn every_http_status_is_classified_as_the_spec_says() {
    for status in 0..=u16::MAX {
        let class = classify_http(status);
        assert_eq!(class, spec_http(status), "HTTP {status}");
        assert_eq!(
            is_retryable_http(status),
            class == C::Retry,
            "HTTP {status}"
        );
        assert_eq!(rate_limit_applies(status), status == 429, "HTTP {status}");
    }
    let names = [
        (C::Success, "success"),
        (C::Retry, "retry"),
        (C::DoNotRetry, "do_not_retry"),
    ];
    for (class, name) in names.into_iter().chain([(C::Invalid, "invalid")]) {
        assert_eq!(class.name(), name);
    }
}

#[test]
fn grpc_codes_are_classified_as_the_spec_says() {
    for code in 0..=20u32 {
        let want = match code {
            0 => C::Success,
            8 | 14 => C::Retry,
            1..=16 => C::DoNotRetry,
            _ => C::Invalid,
        };
        assert_eq!(classify_grpc(code), want, "gRPC {code}");
    }
    assert_eq!(classify_grpc(u32::MAX), C::Invalid);
}

#[test]
fn rate_limit_headers_have_the_specs_codes_names_and_order() {
    let spec = [
        "ratelimit",
        "ratelimit-reset",
        "x-ratelimit-retry-after",
        "x-ratelimit-reset",
    ];
    for (code, name) in spec.into_iter().enumerate() {
        let code = code as u8;
        let header = RateLimitHeader::from_code(code).unwrap_or_else(|| panic!("code {code}"));
        assert_eq!((header.code(), header.name()), (code, name));
        assert_eq!(RateLimitHeader::from_name(name), Some(header));
        assert_eq!(
            seeded_backoff::http::RATE_LIMIT_HEADERS[usize::from(code)],
            header
        );
    }
    assert_eq!(RateLimitHeader::from_code(4), None);
    assert_eq!(RateLimitHeader::from_name("retry-after"), None);
}

#[test]
fn the_aws_quota_preset_is_500_5_10_1_and_each_field_defaults_alone() {
    // SPEC.md §10.2: preset 500, 5, 10, 1 (whole tokens).
    let quota = |c, r, t, n| BudgetConfig::aws_quota(c, r, t, n).unwrap();
    assert_eq!(BudgetConfig::AWS_DEFAULT, quota(500, 5, 10, 1));
    let or_default = BudgetConfig::aws_quota_or_default;
    assert_eq!(or_default(None, None, None, None), Ok(quota(500, 5, 10, 1)));
    assert_eq!(
        or_default(Some(50), None, None, None),
        Ok(quota(50, 5, 10, 1))
    );
    assert_eq!(
        or_default(None, Some(7), None, None),
        Ok(quota(500, 7, 10, 1))
    );
    assert_eq!(
        or_default(None, None, Some(20), None),
        Ok(quota(500, 5, 20, 1))
    );
    assert_eq!(
        or_default(None, None, None, Some(0)),
        Ok(quota(500, 5, 10, 0))
    );
}

#[test]
fn policy_errors_name_the_field_of_specs_table() {
    use seeded_backoff::policy::PolicyError as E;
    use seeded_backoff::Policy;
    let b = || Policy::google().to_builder();
    let cases = [
        (b().initial_ms(0).build(), E::InitialMs, "initial_ms"),
        (
            b().max_backoff_ms(10).build(),
            E::MaxBackoffMs,
            "max_backoff_ms",
        ),
        (
            b().multiplier(2, 0).build(),
            E::MultiplierDen,
            "multiplier_den",
        ),
        (
            b().multiplier(1, 2).build(),
            E::MultiplierBelowOne,
            "multiplier",
        ),
        (
            b().multiplier(2000, 1).build(),
            E::MultiplierTooLarge,
            "multiplier",
        ),
        (
            b().max_hint_ms(u32::MAX).build(),
            E::MaxHintMs,
            "max_hint_ms",
        ),
    ];
    for (got, want, field) in cases {
        assert_eq!(got.map_err(|e| e.error), Err(want));
        assert_eq!(want.field(), field, "{want:?}");
    }
    assert_eq!(E::JitterMsNotApplicable.field(), "jitter_ms");
    assert_eq!(E::SpreadNotApplicable.field(), "spread_per_mille");
    assert_eq!(E::UnknownJitter.field(), "jitter");
}

#[test]
fn one_hint_limit_for_every_constructor() {
    use seeded_backoff::bindings::PolicyOptions;
    use seeded_backoff::{
        policy::{Preset, DEFAULT_MAX_HINT_MS},
        Policy,
    };
    // SPEC.md §1 and §2: 300 000 ms, whatever the cap and however the policy is made.
    assert_eq!(DEFAULT_MAX_HINT_MS, 300_000);
    let built = |b: seeded_backoff::PolicyBuilder| b.max_backoff_ms(1_000).build().unwrap();
    assert_eq!(built(Policy::builder()).max_hint_ms(), 300_000);
    assert_eq!(built(Policy::google().to_builder()).max_hint_ms(), 300_000);
    for preset in [
        Policy::google(),
        Policy::google_64s(),
        Policy::aws_standard(),
        Policy::grpc(),
        Policy::mobile(),
    ] {
        assert_eq!(preset.max_hint_ms(), 300_000, "{preset:?}");
    }
    for preset in Preset::ALL {
        let options = PolicyOptions {
            preset: Some(preset),
            max_backoff_ms: Some(5_000),
            ..PolicyOptions::default()
        };
        assert_eq!(
            options.build().unwrap().max_hint_ms(),
            300_000,
            "{preset:?}"
        );
    }
}

#[test]
fn no_backoff_state_holds_the_runs_throttled_reason() {
    use seeded_backoff::snapshot::SnapshotError;
    use seeded_backoff::{Backoff, Policy};
    let p = Policy::google();
    let mut raw = Backoff::new(&p, 1).to_raw();
    raw.gave_up = u32::from(GiveUpReason::Throttled.code());
    assert_eq!(Backoff::from_raw(&p, raw), Err(SnapshotError::InvalidState));
    raw.gave_up = u32::from(GiveUpReason::HintExceedsMax.code());
    assert!(Backoff::from_raw(&p, raw).is_ok());
}
