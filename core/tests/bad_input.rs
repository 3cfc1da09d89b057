//! The Rust column of docs/bad-input.md: every class of bad input gets a typed error naming the
//! field (or a saturated, in-range answer where SPEC.md defines one), never a panic, a wrap or a
//! hang, and a rejected call leaves the state unchanged. Expected values come from SPEC.md, or,
//! where marked, from the independent Python model (tests/model/spec_model.py).

use seeded_backoff::bindings::RawBackoff;
use seeded_backoff::StepInput;
use seeded_backoff::{
    budget::{BudgetConfig, BudgetError, RetryBudget, RetryGate},
    classify_http,
    http::{classify_grpc, parse_grpc_pushback, ParseError},
    parse_retry_after,
    policy::{DeadlineMode, PolicyError, MAX_DELAY_MS},
    snapshot::{SnapshotError, SNAPSHOT_SIZE},
    Backoff, Classification, FailureKind, GiveUpReason, Invalid, Jitter, Policy, ServerHint, Step,
};

const M: u32 = MAX_DELAY_MS;

fn base() -> seeded_backoff::PolicyBuilder {
    Policy::builder()
}

/// Each error's message names its field and says "must be" with the allowed range.
fn assert_names_field(e: PolicyError) {
    let stem = e.field().split('_').next().unwrap();
    assert!(e.message().starts_with(stem), "{e:?}: {}", e.message());
    assert!(e.message().contains("must be"), "{e:?}: {}", e.message());
    assert_eq!(e.to_string(), e.message());
}

#[test]
fn policy_zero_values() {
    let cases: [(seeded_backoff::PolicyBuilder, Result<(), PolicyError>); 6] = [
        (base().initial_ms(0), Err(PolicyError::InitialMs)),
        (
            base().initial_ms(1).max_backoff_ms(0),
            Err(PolicyError::MaxBackoffMs),
        ),
        (base().multiplier(0, 0), Err(PolicyError::MultiplierDen)),
        (
            base().multiplier(0, 1),
            Err(PolicyError::MultiplierBelowOne),
        ),
        // Zero is allowed for these, and means what SPEC.md §2 says.
        (
            base().max_retries(0).max_elapsed_ms(0).max_hint_ms(0),
            Ok(()),
        ),
        (base().jitter(Jitter::Google { jitter_ms: 0 }), Ok(())),
    ];
    for (b, expected) in cases {
        assert_eq!(
            b.build().map(|_| ()).map_err(|e| e.error),
            expected,
            "{b:?}"
        );
        if let Err(e) = expected {
            assert_names_field(e);
        }
    }
    let never = base().max_retries(0).build().unwrap();
    let mut b = Backoff::new(&never, 1);
    assert_eq!(b.next_delay(&never), Step::GiveUp(GiveUpReason::MaxRetries));
}

#[test]
fn policy_min_above_max() {
    assert_eq!(
        base()
            .initial_ms(5000)
            .max_backoff_ms(4999)
            .build()
            .map_err(|e| e.error),
        Err(PolicyError::MaxBackoffMs)
    );
    assert_eq!(
        base().multiplier(999, 1000).build().map_err(|e| e.error),
        Err(PolicyError::MultiplierBelowOne)
    );
    assert_eq!(
        base()
            .max_backoff_ms(1000)
            .jitter(Jitter::Google { jitter_ms: 1001 })
            .build()
            .map_err(|e| e.error),
        Err(PolicyError::JitterMs)
    );
    // The first failing check in SPEC order is the one reported.
    assert_eq!(
        base()
            .initial_ms(0)
            .max_backoff_ms(0)
            .multiplier(0, 0)
            .build()
            .map_err(|e| e.error),
        Err(PolicyError::InitialMs)
    );
    assert_eq!(
        base()
            .initial_ms(10)
            .max_backoff_ms(5)
            .multiplier(0, 0)
            .build()
            .map_err(|e| e.error),
        Err(PolicyError::MaxBackoffMs)
    );
}

#[test]
fn policy_overflowing_values() {
    let cases = [
        (base().initial_ms(M + 1), PolicyError::InitialMs),
        (base().initial_ms(u32::MAX), PolicyError::InitialMs),
        (base().max_backoff_ms(M + 1), PolicyError::MaxBackoffMs),
        (base().max_backoff_ms(u32::MAX), PolicyError::MaxBackoffMs),
        (base().multiplier(2000, 1001), PolicyError::MultiplierDen),
        (
            base().multiplier(u32::MAX, u32::MAX),
            PolicyError::MultiplierDen,
        ),
        (
            base().multiplier(1_000_001, 1000),
            PolicyError::MultiplierTooLarge,
        ),
        (base().multiplier(1001, 1), PolicyError::MultiplierTooLarge),
        (
            base().multiplier(u32::MAX, 1000),
            PolicyError::MultiplierTooLarge,
        ),
        (
            base().jitter(Jitter::Google {
                jitter_ms: u32::MAX,
            }),
            PolicyError::JitterMs,
        ),
        (
            base().jitter(Jitter::Proportional {
                spread_per_mille: 1001,
            }),
            PolicyError::SpreadPerMille,
        ),
        (
            base().jitter(Jitter::Proportional {
                spread_per_mille: u32::MAX,
            }),
            PolicyError::SpreadPerMille,
        ),
        (base().max_hint_ms(M + 1), PolicyError::MaxHintMs),
        (base().max_hint_ms(u32::MAX), PolicyError::MaxHintMs),
    ];
    for (b, expected) in cases {
        assert_eq!(b.build().map_err(|e| e.error), Err(expected), "{b:?}");
        assert_names_field(expected);
    }
    assert_eq!(
        PolicyError::MaxHintMs.message(),
        "max_hint_ms must be in 0..=2147483647"
    );
    assert_eq!(
        PolicyError::MultiplierTooLarge.name(),
        "multiplier_too_large"
    );
}

/// The largest valid value of every field: steps stay at or under the cap, sums do not wrap.
#[test]
fn policy_extreme_valid_values_run_in_bounds() {
    for jitter in [
        Jitter::None,
        Jitter::Google { jitter_ms: M },
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
        Jitter::Proportional {
            spread_per_mille: 1000,
        },
    ] {
        for (initial, num, den) in [
            (M, 1000, 1),
            (1, 1_000_000, 1000),
            (1, 1001, 1000),
            (M, 1, 1),
        ] {
            let p = base()
                .initial_ms(initial)
                .max_backoff_ms(M)
                .multiplier(num, den)
                .jitter(jitter)
                .max_hint_ms(M)
                .max_retries(u32::MAX)
                .max_elapsed_ms(u32::MAX)
                .deadline(DeadlineMode::Clamp)
                .build()
                .unwrap();
            let mut b = Backoff::new(&p, u64::MAX);
            for i in 0..64 {
                match b.next_delay_with(&p, StepInput::default().hint(ServerHint::RetryAfterMs(M)))
                {
                    Step::Retry { delay_ms, retry } => {
                        assert_eq!(retry, i);
                        assert!(delay_ms <= M);
                    }
                    Step::GiveUp(r) => {
                        // Only the u32::MAX time budget can stop it, once the sum saturates.
                        assert_eq!(r, GiveUpReason::Deadline, "{jitter:?}");
                        assert_eq!(b.elapsed_ms(), u32::MAX);
                        break;
                    }
                }
            }
        }
    }
}

#[test]
fn budget_bad_parameters() {
    // The refusal names the rule and the value given for its field.
    let refused = |error, got| -> Result<BudgetConfig, Invalid<BudgetError>> {
        Err(Invalid {
            error,
            got,
            den: None,
        })
    };
    assert_eq!(BudgetConfig::grpc(0, 1), refused(BudgetError::MaxTokens, 0));
    assert_eq!(
        BudgetConfig::grpc(1001, 1),
        refused(BudgetError::MaxTokens, 1001)
    );
    assert_eq!(
        BudgetConfig::grpc(u32::MAX, u32::MAX),
        refused(BudgetError::MaxTokens, u32::MAX)
    );
    assert_eq!(
        BudgetConfig::grpc(10, 0),
        refused(BudgetError::TokenRatio, 0)
    );
    assert_eq!(
        BudgetConfig::grpc(10, 10_001),
        refused(BudgetError::TokenRatio, 10_001)
    );
    assert_eq!(
        BudgetConfig::grpc(1000, u32::MAX),
        refused(BudgetError::TokenRatio, u32::MAX)
    );
    assert!(BudgetConfig::grpc(1000, 1_000_000).is_ok());
    assert_eq!(
        BudgetConfig::aws_quota(0, 1, 1, 0),
        refused(BudgetError::Capacity, 0)
    );
    assert_eq!(
        BudgetConfig::aws_quota(1_000_001, 1, 1, 0),
        refused(BudgetError::Capacity, 1_000_001)
    );
    assert_eq!(
        BudgetConfig::aws_quota(u32::MAX, 1, 1, 0),
        refused(BudgetError::Capacity, u32::MAX)
    );
    assert_eq!(
        BudgetConfig::aws_quota(10, 0, 1, 0),
        refused(BudgetError::Cost, 0)
    );
    assert_eq!(
        BudgetConfig::aws_quota(10, 1, 11, 0),
        refused(BudgetError::Cost, 11)
    );
    assert_eq!(
        BudgetConfig::aws_quota(10, u32::MAX, 1, 0),
        refused(BudgetError::Cost, u32::MAX)
    );
    assert_eq!(
        BudgetConfig::aws_quota(10, 1, 1, 11),
        refused(BudgetError::NoRetryIncrement, 11)
    );
    let max = BudgetConfig::aws_quota(1_000_000, 1_000_000, 1_000_000, 1_000_000).unwrap();
    assert_eq!(max.max_milli(), 1_000_000_000);
    for e in [
        BudgetError::MaxTokens,
        BudgetError::TokenRatio,
        BudgetError::Capacity,
        BudgetError::Cost,
        BudgetError::NoRetryIncrement,
    ] {
        assert!(e.message().contains("must be in"), "{e:?}");
    }
    // A saved count above the bucket is refused and changes nothing.
    let b = RetryBudget::grpc(10, 100).unwrap();
    b.record_failure(FailureKind::Error);
    assert_eq!(b.set_tokens_milli(10_001), None);
    assert_eq!(b.set_tokens_milli(u32::MAX), None);
    assert_eq!(b.tokens_milli(), 9_000);
    // An empty bucket stays at zero, a full one at max.
    for _ in 0..100 {
        b.record_failure(FailureKind::Timeout);
    }
    assert_eq!(b.tokens_milli(), 0);
    for _ in 0..1000 {
        b.record_success(None);
    }
    assert_eq!(b.tokens_milli(), 10_000);
}

#[test]
fn retry_numbers_near_u32_max() {
    for jitter in [Jitter::None, Jitter::Full, Jitter::Decorrelated] {
        let p = Policy::google()
            .to_builder()
            .jitter(jitter)
            .max_retries(u32::MAX)
            .build()
            .unwrap();
        let mut b = Backoff::new(&p, 3);
        b.fast_forward(&p, u32::MAX);
        assert_eq!(b.retries(), u32::MAX);
        assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::MaxRetries));
        b.reset(&p);
        b.fast_forward(&p, u32::MAX - 1);
        let Step::Retry { delay_ms, retry } = b.next_delay(&p) else {
            panic!()
        };
        assert_eq!(retry, u32::MAX - 1);
        assert!(delay_ms <= 32_000);
        assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::MaxRetries));
    }
    // fast_forward past max_retries is clamped, so the state stays restorable.
    let p = Policy::google();
    let mut b = Backoff::new(&p, 3);
    b.fast_forward(&p, u32::MAX);
    assert_eq!(b.retries(), 10);
    assert!(Backoff::restore(&p, &b.snapshot(&p)).is_ok());
    // The slowest growth (x1.001) from 1000 ms to the largest cap answers any n at once.
    let slow = base()
        .initial_ms(1000)
        .multiplier(1001, 1000)
        .max_backoff_ms(M)
        .build()
        .unwrap();
    assert_eq!(slow.base_delay_ms(u32::MAX), M);
    assert_eq!(slow.base_delay_ms(0), 1000);
    // A multiplier that rounds to no change stops at once instead of looping 2^32 times.
    let stuck = base()
        .initial_ms(1)
        .multiplier(1999, 1000)
        .max_backoff_ms(M)
        .build()
        .unwrap();
    assert_eq!(stuck.base_delay_ms(u32::MAX), 1);
}

#[test]
fn elapsed_near_u64_max() {
    let budgeted = Policy::google()
        .to_builder()
        .max_elapsed_ms(60_000)
        .build()
        .unwrap();
    for elapsed in [u64::MAX, u64::MAX - 1, u32::MAX as u64 + 1, u32::MAX as u64] {
        let mut b = Backoff::new(&budgeted, 1);
        assert_eq!(
            b.next_delay_with(&budgeted, StepInput::default().elapsed_ms(elapsed)),
            Step::GiveUp(GiveUpReason::Deadline)
        );
        let clamp = budgeted
            .to_builder()
            .deadline(DeadlineMode::Clamp)
            .build()
            .unwrap();
        let mut c = Backoff::new(&clamp, 1);
        assert_eq!(
            c.next_delay_with(&clamp, StepInput::default().elapsed_ms(elapsed)),
            Step::GiveUp(GiveUpReason::Deadline)
        );
    }
    // Without a time budget the clock is only recorded: saturated at u32::MAX, never wrapped.
    let p = Policy::google();
    let mut b = Backoff::new(&p, 1);
    assert!(matches!(
        b.next_delay_with(&p, StepInput::default().elapsed_ms(u64::MAX)),
        Step::Retry { retry: 0, .. }
    ));
    assert_eq!(b.elapsed_ms(), u32::MAX);
    assert!(matches!(b.next_delay(&p), Step::Retry { retry: 1, .. }));
    assert_eq!(b.elapsed_ms(), u32::MAX);
}

#[test]
fn huge_hints_give_up_rather_than_return_early() {
    let p = Policy::google()
        .to_builder()
        .max_hint_ms(60_000)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 1);
    assert_eq!(
        b.next_delay_with(
            &p,
            StepInput::default().hint(ServerHint::RetryAfterMs(u32::MAX))
        ),
        Step::GiveUp(GiveUpReason::HintExceedsMax)
    );
    assert_eq!(b.retries(), 0);
    let zero = Policy::google()
        .to_builder()
        .max_hint_ms(0)
        .build()
        .unwrap();
    let mut z = Backoff::new(&zero, 1);
    let d = z
        .next_delay_with(
            &zero,
            StepInput::default().hint(ServerHint::RetryAfterMs(0)),
        )
        .delay_ms()
        .unwrap();
    assert!((1000..=2000).contains(&d), "a zero wait is honoured: {d}");
    assert_eq!(
        z.next_delay_with(
            &zero,
            StepInput::default().hint(ServerHint::RetryAfterMs(1))
        ),
        Step::GiveUp(GiveUpReason::HintExceedsMax),
        "a zero max_hint takes no server wait"
    );
}

#[test]
fn snapshot_truncated_flipped_foreign() {
    let p = Policy::google();
    let mut live = Backoff::new(&p, 77);
    live.next_delay(&p);
    let good = live.snapshot(&p);
    let before = live.clone();
    // Truncated and extended.
    for n in [0, 1, 20, 39] {
        assert_eq!(
            Backoff::restore(&p, &good[..n]),
            Err(SnapshotError::WrongLength)
        );
    }
    let mut long = good.to_vec();
    long.push(0);
    assert_eq!(Backoff::restore(&p, &long), Err(SnapshotError::WrongLength));
    // Every single flipped bit is caught: by the version byte or by the CRC.
    for bit in 0..SNAPSHOT_SIZE * 8 {
        let mut bad = good;
        bad[bit / 8] ^= 1 << (bit % 8);
        let err = Backoff::restore(&p, &bad).unwrap_err();
        let expected = if bit < 8 {
            SnapshotError::UnknownVersion
        } else {
            SnapshotError::BadChecksum
        };
        assert_eq!(err, expected, "bit {bit}");
    }
    // Foreign: another policy, or another format version.
    assert_eq!(
        Backoff::restore(&Policy::grpc(), &good),
        Err(SnapshotError::PolicyMismatch)
    );
    let mut v2 = good;
    v2[0] = 2;
    assert_eq!(
        Backoff::restore(&p, &v2),
        Err(SnapshotError::UnknownVersion)
    );
    assert_eq!(
        Backoff::restore(&p, &[0u8; 40]),
        Err(SnapshotError::UnknownVersion)
    );
    assert_eq!(
        Backoff::restore(&p, &[0xFF; 40]),
        Err(SnapshotError::UnknownVersion)
    );
    // The live state was never touched by the failed restores.
    assert_eq!(live, before);
    for e in [
        SnapshotError::WrongLength,
        SnapshotError::UnknownVersion,
        SnapshotError::BadChecksum,
        SnapshotError::PolicyMismatch,
        SnapshotError::ZeroRngState,
        SnapshotError::InvalidState,
    ] {
        assert!(e.message().starts_with("snapshot"), "{e:?}");
        assert_eq!(e.to_string(), e.message());
    }
}

/// Changes made to a snapshot's bytes before its CRC is recomputed.
type Edit = fn(&mut [u8; 40]);

/// A snapshot with a valid CRC and fingerprint around fields the policy cannot reach.
fn forged(p: &Policy, edit: impl Fn(&mut [u8; 40])) -> [u8; 40] {
    let mut s = Backoff::new(p, 5).snapshot(p);
    edit(&mut s);
    let crc = seeded_backoff::bindings::crc32(&s[..36]);
    s[36..].copy_from_slice(&crc.to_le_bytes());
    s
}

#[test]
fn snapshot_forged_garbage_fields() {
    let p = Policy::google();
    let cases: [(Edit, SnapshotError); 7] = [
        (|s| s[4..20].fill(0), SnapshotError::ZeroRngState),
        // All-zero rng is reported before the other field checks (SPEC.md §9 order).
        (
            |s| {
                s[4..20].fill(0);
                s[2] = 1;
            },
            SnapshotError::ZeroRngState,
        ),
        (|s| s[1] = 6, SnapshotError::InvalidState),
        (|s| s[3] = 1, SnapshotError::InvalidState),
        (
            |s| s[20..24].copy_from_slice(&11u32.to_le_bytes()),
            SnapshotError::InvalidState,
        ),
        (
            |s| s[24..28].copy_from_slice(&999u32.to_le_bytes()),
            SnapshotError::InvalidState,
        ),
        (
            |s| s[24..28].copy_from_slice(&32_001u32.to_le_bytes()),
            SnapshotError::InvalidState,
        ),
    ];
    for (edit, expected) in cases {
        assert_eq!(Backoff::restore(&p, &forged(&p, edit)), Err(expected));
    }
    // The largest reachable values are accepted.
    let edge = forged(&p, |s| {
        s[1] = 5;
        s[20..24].copy_from_slice(&10u32.to_le_bytes());
        s[24..28].copy_from_slice(&32_000u32.to_le_bytes());
        s[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    });
    let mut b = Backoff::restore(&p, &edge).unwrap();
    assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::HintExceedsMax));
}

#[test]
fn raw_state_garbage() {
    let p = Policy::google();
    let good = Backoff::new(&p, 1).to_raw();
    let cases = [
        (
            RawBackoff {
                rng: [0; 4],
                ..good
            },
            SnapshotError::ZeroRngState,
        ),
        (
            RawBackoff { gave_up: 6, ..good },
            SnapshotError::InvalidState,
        ),
        (
            RawBackoff {
                gave_up: u32::MAX,
                ..good
            },
            SnapshotError::InvalidState,
        ),
        (
            RawBackoff {
                gave_up: 256 + 1,
                ..good
            },
            SnapshotError::InvalidState,
        ),
        (
            RawBackoff {
                retries: u32::MAX,
                ..good
            },
            SnapshotError::InvalidState,
        ),
        (RawBackoff { level: 0, ..good }, SnapshotError::InvalidState),
        (
            RawBackoff {
                level: u32::MAX,
                ..good
            },
            SnapshotError::InvalidState,
        ),
    ];
    for (raw, expected) in cases {
        assert_eq!(Backoff::from_raw(&p, raw), Err(expected), "{raw:?}");
    }
    assert!(Backoff::from_raw(
        &p,
        RawBackoff {
            elapsed_ms: u32::MAX,
            ..good
        }
    )
    .is_ok());
}

#[test]
fn unknown_codes_and_names() {
    assert_eq!(Jitter::from_code(6, 0), None);
    assert_eq!(Jitter::from_code(u8::MAX, 0), None);
    assert_eq!(
        Jitter::from_name("Full", 0),
        None,
        "names are case-sensitive"
    );
    assert_eq!(Jitter::from_name("", 0), None);
    assert_eq!(DeadlineMode::from_code(2), None);
    assert_eq!(GiveUpReason::from_code(0), None);
    assert_eq!(GiveUpReason::from_code(7), None);
}

#[test]
fn classification_out_of_range() {
    for status in [0, 1, 99, 600, 999, 65_535, u16::MAX] {
        assert_eq!(classify_http(status), Classification::Invalid, "{status}");
    }
    for code in [17, 100, u32::MAX] {
        assert_eq!(classify_grpc(code), Classification::Invalid, "{code}");
    }
}

/// SPEC.md §8.1 error for each malformed `Retry-After` value.
#[test]
fn malformed_retry_after() {
    let now = 784_111_777; // Sun, 06 Nov 1994 08:49:37 GMT
    let cases: &[(&[u8], ParseError)] = &[
        (b"", ParseError::Empty),
        (b" \t \t", ParseError::Empty),
        (b"-1", ParseError::Negative),
        (b"  -0", ParseError::Negative),
        (b"1.5", ParseError::InvalidFormat),
        (b"+5", ParseError::InvalidFormat),
        (b"0x10", ParseError::InvalidFormat),
        (b"12 34", ParseError::InvalidFormat),
        (b"\x00", ParseError::InvalidFormat),
        (b"\xff\xfe\xfd", ParseError::InvalidFormat),
        (b"120\r\n", ParseError::InvalidFormat),
        (b"Sun, 06 Nov 1994 08:49:37 UTC", ParseError::InvalidFormat),
        (b"Sun, 6 Nov 1994 08:49:37 GMT", ParseError::InvalidFormat),
        (b"Sun, 06 Nov 1994 08:49:37 GMTX", ParseError::InvalidFormat),
        (b"sun, 06 Nov 1994 08:49:37 GMT", ParseError::BadDayName),
        (b"Sux, 06 Nov 1994 08:49:37 GMT", ParseError::BadDayName),
        (b"Sun, 06 nov 1994 08:49:37 GMT", ParseError::BadMonth),
        (b"Sun, 06 Nox 1994 08:49:37 GMT", ParseError::BadMonth),
        (b"Sun, 0a Nov 1994 08:49:37 GMT", ParseError::InvalidFormat),
        (b"Sun, 30 Feb 2024 00:00:00 GMT", ParseError::BadDay),
        (b"Sun, 29 Feb 2100 00:00:00 GMT", ParseError::BadDay),
        (b"Sun, 00 Nov 1994 08:49:37 GMT", ParseError::BadDay),
        (b"Sun, 31 Nov 1994 08:49:37 GMT", ParseError::BadDay),
        (b"Sun, 06 Nov 1994 24:00:00 GMT", ParseError::BadHour),
        (b"Sun, 06 Nov 1994 23:60:00 GMT", ParseError::BadMinute),
        (b"Sun, 06 Nov 1994 23:59:61 GMT", ParseError::BadSecond),
        (b"Sun, 06 Nov 0000 08:49:37 GMT", ParseError::BadYear),
        (b"Sun, 06-Nov-94 08:49:37 GMT", ParseError::InvalidFormat),
        (b"Sonday, 06-Nov-94 08:49:37 GMT", ParseError::BadDayName),
        (b"Sunday, 06-Nov-9X 08:49:37 GMT", ParseError::InvalidFormat),
        (b"Sun Nov  6 08:49:37 94", ParseError::InvalidFormat),
        (b"Sun Nov 6 08:49:37 1994", ParseError::InvalidFormat),
        (b"Sun Nov  6 08:49:37 0000", ParseError::BadYear),
        (b"soon", ParseError::InvalidFormat),
    ];
    for (value, expected) in cases {
        assert_eq!(
            parse_retry_after(value, now),
            Err(*expected),
            "{:?}",
            String::from_utf8_lossy(value)
        );
        assert!(!expected.message().is_empty());
    }
}

#[test]
fn retry_after_extremes_saturate() {
    // Delta-seconds of any length saturate instead of failing (SPEC.md §8.1 step 3).
    assert_eq!(
        parse_retry_after(b"99999999999999999999999999999", 0),
        Ok(u32::MAX)
    );
    assert_eq!(parse_retry_after(b"4294968", 0), Ok(u32::MAX));
    assert_eq!(parse_retry_after(b"4294967", 0), Ok(4_294_967_000));
    assert_eq!(parse_retry_after(b"0", u64::MAX), Ok(0));
    // A date in the past is 0, whatever now is.
    assert_eq!(
        parse_retry_after(b"Thu, 01 Jan 1970 00:00:00 GMT", u64::MAX),
        Ok(0)
    );
    // Far in the future from now = 0: 9999-12-31 saturates.
    assert_eq!(
        parse_retry_after(b"Fri, 31 Dec 9999 23:59:59 GMT", 0),
        Ok(u32::MAX)
    );
}

/// RFC 850 years come from now's century: with now near u64::MAX the date's seconds exceed i64.
/// (This overflowed, a panic with overflow checks, before the i128 fix.) Expected values are the
/// Python model's (`spec_model.parse_retry_after`, exact integers).
#[test]
fn rfc850_with_now_near_u64_max() {
    let m = u64::MAX;
    let cases: [(&[u8], u64, u32); 6] = [
        (b"Sunday, 06-Nov-94 08:49:37 GMT", m, 0),
        (
            b"Sunday, 06-Nov-94 08:49:37 GMT",
            m - 86_400 * 365 * 30,
            u32::MAX,
        ),
        (b"Sunday, 06-Nov-94 08:49:37 GMT", 1 << 63, 0),
        (b"Sunday, 06-Nov-00 08:49:37 GMT", m, 0),
        (b"Sunday, 06-Nov-60 00:00:00 GMT", m, u32::MAX),
        // Now is year …910-05-23 23:15:12, so …960-11-06 is more than 50 years ahead as a
        // timestamp (though exactly 50 as years): it is …860, in the past.
        (b"Sunday, 06-Nov-60 00:00:00 GMT", (1 << 63) + (1 << 62), 0),
    ];
    for (value, now, expected) in cases {
        assert_eq!(parse_retry_after(value, now), Ok(expected), "{now}");
    }
}

#[test]
fn malformed_grpc_pushback_means_do_not_retry() {
    for value in [
        &b""[..],
        b"  ",
        b"-1",
        b"-0",
        b"1.5",
        b"abc",
        b"\xff",
        b"1e3",
    ] {
        assert!(parse_grpc_pushback(value).is_err());
        assert_eq!(
            ServerHint::from_grpc_pushback(value),
            ServerHint::DoNotRetry
        );
    }
    assert_eq!(parse_grpc_pushback(b"99999999999999999999"), Ok(u32::MAX));
    let p = Policy::google();
    let mut b = Backoff::new(&p, 1);
    let hint = ServerHint::from_grpc_pushback(b"garbage");
    assert_eq!(
        b.next_delay_with(&p, StepInput::default().hint(hint)),
        Step::GiveUp(GiveUpReason::ServerStop)
    );
}

/// A call that is refused leaves the state (and a shared budget, where SPEC.md says so) unchanged.
#[test]
fn refused_calls_leave_state_unchanged() {
    let p = Policy::google()
        .to_builder()
        .max_retries(1)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 9);
    b.next_delay(&p);
    assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::MaxRetries));
    let given_up = b.clone();
    let budget = RetryBudget::grpc(10, 100).unwrap();
    assert_eq!(
        b.next_delay_with(&p, StepInput::default().budget(&budget, FailureKind::Error)),
        Step::GiveUp(GiveUpReason::MaxRetries)
    );
    assert_eq!(
        budget.tokens_milli(),
        10_000,
        "a given-up state does not touch the budget"
    );
    assert_eq!(b, given_up);
    // A give-up itself consumes no draw: after reset the schedule continues as if it never happened.
    let q = Policy::google();
    let mut x = Backoff::new(&q, 4);
    let mut y = x.clone();
    assert_eq!(
        x.next_delay_with(&q, StepInput::default().hint(ServerHint::DoNotRetry)),
        Step::GiveUp(GiveUpReason::ServerStop)
    );
    x.reset(&q);
    assert_eq!(x.next_delay(&q), y.next_delay(&q));
}
