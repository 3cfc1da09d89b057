//! Cases whose expected values were worked out by hand from SPEC.md and the reference documents,
//! not produced by running the code.

use seeded_backoff::bindings::crc32;
use seeded_backoff::StepInput;
use seeded_backoff::{
    budget::{RetryBudget, RetryGate},
    classify_http,
    http::classify_grpc,
    policy::{DeadlineMode, PolicyError},
    snapshot::{SnapshotError, SNAPSHOT_SIZE},
    Backoff, Classification, FailureKind, GiveUpReason, Jitter, Policy, ServerHint, Step,
};

fn delays(policy: &Policy, seed: u64) -> Vec<u32> {
    let mut b = Backoff::new(policy, seed);
    core::iter::from_fn(|| b.next_delay(policy).delay_ms()).collect()
}

#[test]
fn google_without_jitter_doubles_to_the_cap() {
    // Google's table: 1 s, 2 s, 4 s, ... then maximum_backoff (32 s) until the retries run out.
    let p = Policy::google()
        .to_builder()
        .jitter(Jitter::Google { jitter_ms: 0 })
        .max_retries(8)
        .build()
        .unwrap();
    assert_eq!(
        delays(&p, 42),
        [1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000]
    );
}

#[test]
fn google_preset_adds_up_to_one_second_and_loses_it_at_the_cap() {
    let p = Policy::google();
    for seed in 0..200 {
        let d = delays(&p, seed);
        assert_eq!(d.len(), 10);
        for (n, delay) in d.iter().enumerate() {
            let base = 1000u32 << n.min(5);
            if base >= 32_000 {
                assert_eq!(*delay, 32_000, "jitter vanishes at the cap");
            } else {
                assert!((base..=base + 1000).contains(delay), "retry {n}: {delay}");
            }
        }
    }
}

#[test]
fn grpc_bases_round_down_at_every_step() {
    // 1000 · 8/5 = 1600, · 8/5 = 2560, 4096, 6553.6 → 6553, 6553 · 8/5 = 10484.8 → 10484.
    let p = Policy::grpc();
    let bases: Vec<u32> = (0..6).map(|n| p.base_delay_ms(n)).collect();
    assert_eq!(bases, [1000, 1600, 2560, 4096, 6553, 10484]);
    assert_eq!(p.base_delay_ms(100), 120_000);
}

#[test]
fn every_strategy_clamps_to_the_cap_of_the_policy_passed_in() {
    // A state created under a 32 s cap and advanced to its cap, then stepped under a policy with a
    // 5 s cap: no strategy waits more than 5000 ms, and `None` waits exactly min(32000, 5000).
    let jitters = [
        Jitter::None,
        Jitter::Google { jitter_ms: 1000 },
        Jitter::Full,
        Jitter::Equal,
        Jitter::Proportional {
            spread_per_mille: 200,
        },
        Jitter::Decorrelated,
    ];
    for jitter in jitters {
        let build = |cap| {
            Policy::builder()
                .jitter(jitter)
                .max_backoff_ms(cap)
                .max_retries(20)
                .build()
                .unwrap()
        };
        let (big, small) = (build(32_000), build(5_000));
        for seed in 0..20 {
            let mut b = Backoff::new(&big, seed);
            b.fast_forward(&big, 10); // level 32000
            let Step::Retry { delay_ms, .. } = b.next_delay(&small) else {
                panic!("{jitter:?} gave up");
            };
            assert!(delay_ms <= 5_000, "{jitter:?} seed {seed}: {delay_ms}");
            if jitter == Jitter::None {
                assert_eq!(delay_ms, 5_000);
            }
        }
    }
}

#[test]
fn presets_match_their_references() {
    let g = Policy::google();
    assert_eq!(
        (
            g.initial_ms(),
            g.multiplier(),
            g.max_backoff_ms(),
            g.max_retries()
        ),
        (1000, (2, 1), 32_000, 10)
    );
    assert_eq!(g.jitter(), Jitter::Google { jitter_ms: 1000 });
    assert_eq!(Policy::google_64s().max_backoff_ms(), 64_000);
    let a = Policy::aws_standard();
    assert_eq!(
        (
            a.initial_ms(),
            a.max_backoff_ms(),
            a.max_retries(),
            a.jitter()
        ),
        (100, 20_000, 2, Jitter::Full)
    );
    let r = Policy::grpc();
    assert_eq!(
        (r.multiplier(), r.max_backoff_ms(), r.jitter()),
        (
            (8, 5),
            120_000,
            Jitter::Proportional {
                spread_per_mille: 200
            }
        )
    );
    for seed in 0..100 {
        let d = delays(&a, seed);
        assert_eq!(d.len(), 2);
        assert!(d[0] <= 100 && d[1] <= 200);
    }
}

// SPEC.md §2's mobile preset: retry n waits in [2^n s, 2^(n+1) s] up to the cap, then in
// [32 s, 64 s]; 16 retries, whose waits add up to 383..=766 s. The jitter stays at the cap: across
// seeds the capped waits take many values, not the one a Google fleet waits.
#[test]
fn mobile_waits_between_googles_base_and_twice_it_and_stays_spread_at_the_cap() {
    let m = Policy::mobile();
    assert_eq!(
        (
            m.initial_ms(),
            m.multiplier(),
            m.max_backoff_ms(),
            m.max_retries()
        ),
        (2000, (2, 1), 64_000, 16)
    );
    assert_eq!(m.jitter(), Jitter::Equal);
    let mut at_cap = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let d = delays(&m, seed);
        assert_eq!(d.len(), 16);
        for (n, &ms) in d.iter().enumerate() {
            let lo = 1000u32 << n.min(5);
            assert!((lo..=2 * lo).contains(&ms), "seed {seed} retry {n}: {ms}");
        }
        let total: u32 = d.iter().sum();
        assert!((383_000..=766_000).contains(&total), "{total}");
        at_cap.extend(d[5..].iter().copied());
    }
    assert!(at_cap.len() > 1000, "{}", at_cap.len());
    let google: std::collections::BTreeSet<u32> = (0..200)
        .flat_map(|s| delays(&Policy::google(), s)[5..].to_vec())
        .collect();
    assert_eq!(google.into_iter().collect::<Vec<_>>(), [32_000]);
}

/// Each refused field names itself, its allowed range and the value given (SPEC.md §2), in the
/// words a reader of Python's or the CLI's errors sees.
#[test]
fn each_invalid_field_names_itself_and_the_value_given() {
    let b = Policy::builder();
    let cases = [
        (
            b.initial_ms(0),
            PolicyError::InitialMs,
            "initial_ms must be in 1..=2147483647, got 0",
        ),
        (
            b.initial_ms(2_147_483_648),
            PolicyError::InitialMs,
            "initial_ms must be in 1..=2147483647, got 2147483648",
        ),
        (
            b.initial_ms(1000).max_backoff_ms(500),
            PolicyError::MaxBackoffMs,
            "max_backoff_ms must be in initial_ms..=2147483647, got 500",
        ),
        (
            b.multiplier(1, 0),
            PolicyError::MultiplierDen,
            "multiplier denominator must be in 1..=1000, got 0",
        ),
        (
            b.multiplier(1, 2),
            PolicyError::MultiplierBelowOne,
            "multiplier must be >= 1 (num >= den), got 1/2",
        ),
        (
            b.multiplier(1001, 1),
            PolicyError::MultiplierTooLarge,
            "multiplier must be <= 1000 (num <= 1000 * den), got 1001/1",
        ),
        (
            b.jitter(Jitter::Google { jitter_ms: 32_001 }),
            PolicyError::JitterMs,
            "jitter_ms must be in 0..=max_backoff_ms, got 32001",
        ),
        (
            b.jitter(Jitter::Proportional {
                spread_per_mille: 1001,
            }),
            PolicyError::SpreadPerMille,
            "spread_per_mille must be in 0..=1000, got 1001",
        ),
        (
            b.max_hint_ms(u32::MAX),
            PolicyError::MaxHintMs,
            "max_hint_ms must be in 0..=2147483647, got 4294967295",
        ),
    ];
    for (builder, rule, message) in cases {
        let err = builder.build().unwrap_err();
        assert_eq!((err.error, err.to_string().as_str()), (rule, message));
    }
    assert!(b.multiplier(1000, 1).max_retries(u32::MAX).build().is_ok());
}

/// Pearson's chi-square statistic of observed counts against a uniform expectation.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn jitter_is_uniform_by_chi_square() {
    // Google jitter 0..=9 over 100 000 seeds: 10 cells, 9 degrees of freedom. The 0.1 % critical
    // value is 27.88; the seeds are fixed, so the statistic is too.
    let p = Policy::builder()
        .jitter(Jitter::Google { jitter_ms: 9 })
        .build()
        .unwrap();
    let mut counts = [0u64; 10];
    for seed in 0..100_000 {
        let d = Backoff::new(&p, seed).next_delay(&p).delay_ms().unwrap();
        counts[(d - 1000) as usize] += 1;
    }
    let stat = chi_square(&counts);
    println!("google jitter 0..=9 over seeds: chi2 = {stat:.2} (df 9, critical 27.88)");
    assert!(stat < 27.88, "{counts:?}");

    // Full jitter over [0, 99] along one long stream: 100 cells, 99 degrees of freedom, critical
    // value 148.23 at 0.1 %.
    let p = Policy::builder()
        .initial_ms(99)
        .multiplier(1, 1)
        .max_backoff_ms(99)
        .max_retries(u32::MAX)
        .jitter(Jitter::Full)
        .build()
        .unwrap();
    let mut counts = [0u64; 100];
    let mut b = Backoff::new(&p, 7);
    for _ in 0..200_000 {
        counts[b.next_delay(&p).delay_ms().unwrap() as usize] += 1;
    }
    let stat = chi_square(&counts);
    println!("full jitter 0..=99 along one stream: chi2 = {stat:.2} (df 99, critical 148.23)");
    assert!(stat < 148.23, "{counts:?}");
}

#[test]
fn give_up_reasons_are_distinct_and_sticky() {
    let p = Policy::google();
    let mut b = Backoff::new(&p, 1);
    assert_eq!(
        b.next_delay_with(&p, StepInput::default().hint(ServerHint::DoNotRetry)),
        Step::GiveUp(GiveUpReason::ServerStop)
    );
    assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::ServerStop));
    b.reset(&p);
    assert!(matches!(b.next_delay(&p), Step::Retry { retry: 0, .. }));

    // gRPC budget of 2 tokens: the first failure leaves 1 (not > 1), so no retry.
    let budget = RetryBudget::grpc(2, 1000).unwrap();
    let mut b = Backoff::new(&p, 1);
    assert_eq!(
        b.next_delay_with(&p, StepInput::default().budget(&budget, FailureKind::Error)),
        Step::GiveUp(GiveUpReason::Budget)
    );
    assert_eq!(budget.tokens_milli(), 1000);

    // 2.5 s of time budget: retry 0 takes 1..2 s, retry 1 (2..3 s) would cross it.
    let p = Policy::google()
        .to_builder()
        .max_elapsed_ms(2500)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 1);
    assert!(matches!(b.next_delay(&p), Step::Retry { .. }));
    assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::Deadline));
    // Clamp mode spends exactly what is left, then gives up.
    let p = p
        .to_builder()
        .deadline(DeadlineMode::Clamp)
        .build()
        .unwrap();
    let mut b = Backoff::new(&p, 1);
    let first = b.next_delay(&p).delay_ms().unwrap();
    assert_eq!(b.next_delay(&p).delay_ms(), Some(2500 - first));
    assert_eq!(b.next_delay(&p), Step::GiveUp(GiveUpReason::Deadline));
    // With the caller's clock, time spent in requests counts too.
    let mut b = Backoff::new(&p, 1);
    assert_eq!(
        b.next_delay_with(&p, StepInput::default().elapsed_ms(2000))
            .delay_ms(),
        Some(500)
    );
}

#[test]
fn crc32_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

fn with_crc(mut bytes: [u8; SNAPSHOT_SIZE]) -> [u8; SNAPSHOT_SIZE] {
    let crc = crc32(&bytes[..36]);
    bytes[36..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn each_snapshot_defect_has_its_own_error() {
    let p = Policy::google();
    let mut b = Backoff::new(&p, 3);
    b.next_delay(&p);
    let good = b.snapshot(&p);
    assert_eq!(good[0], 1);
    assert_eq!(
        Backoff::restore(&p, &good[..39]),
        Err(SnapshotError::WrongLength)
    );
    assert_eq!(
        Backoff::restore(&p, &[good.as_slice(), &[0]].concat()),
        Err(SnapshotError::WrongLength)
    );
    let mut v = good;
    v[0] = 2;
    assert_eq!(Backoff::restore(&p, &v), Err(SnapshotError::UnknownVersion));
    let mut v = good;
    v[10] ^= 1;
    assert_eq!(Backoff::restore(&p, &v), Err(SnapshotError::BadChecksum));
    assert_eq!(
        Backoff::restore(&Policy::google_64s(), &good),
        Err(SnapshotError::PolicyMismatch)
    );
    let mut v = good;
    v[4..20].fill(0);
    assert_eq!(
        Backoff::restore(&p, &with_crc(v)),
        Err(SnapshotError::ZeroRngState)
    );
    let mut v = good;
    v[20..24].copy_from_slice(&11u32.to_le_bytes()); // 11 retries > max 10
    assert_eq!(
        Backoff::restore(&p, &with_crc(v)),
        Err(SnapshotError::InvalidState)
    );
    let mut v = good;
    v[24..28].copy_from_slice(&64_000u32.to_le_bytes()); // level above the cap
    assert_eq!(
        Backoff::restore(&p, &with_crc(v)),
        Err(SnapshotError::InvalidState)
    );
    let mut v = good;
    v[1] = 6;
    assert_eq!(
        Backoff::restore(&p, &with_crc(v)),
        Err(SnapshotError::InvalidState)
    );
    assert_eq!(Backoff::restore(&p, &good), Ok(b));
}

#[test]
fn classification_follows_the_reference() {
    use Classification::*;
    for (status, class) in [
        (200, Success),
        (299, Success),
        (429, Retry),
        (500, Retry),
        (503, Retry),
        (599, Retry),
        (404, DoNotRetry),
        (100, DoNotRetry),
        (304, DoNotRetry),
        (428, DoNotRetry),
        (99, Invalid),
        (600, Invalid),
    ] {
        assert_eq!(classify_http(status), class, "{status}");
    }
    for (code, class) in [
        (0, Success),
        (14, Retry),
        (8, Retry),
        (1, DoNotRetry),
        (16, DoNotRetry),
        (17, Invalid),
    ] {
        assert_eq!(classify_grpc(code), class, "{code}");
    }
}

#[test]
fn budgets_follow_grpc_a6_and_aws_numbers() {
    // AWS: 500 tokens, 5 per retry → exactly 100 retries from full, then fail fast.
    let aws = RetryBudget::aws_default();
    assert_eq!(
        (0..150)
            .filter(|_| aws.try_acquire(FailureKind::Error))
            .count(),
        100
    );
    aws.record_success(Some(FailureKind::Error));
    assert_eq!(aws.tokens_milli(), 5_000);
    // gRPC A6, 10 tokens: failures 1..=4 leave 9..6 (> 5): retry; the 5th leaves 5: no retry.
    let g = RetryBudget::grpc(10, 100).unwrap();
    let allowed: Vec<bool> = (0..6)
        .map(|_| {
            g.record_failure(FailureKind::Error);
            g.try_acquire(FailureKind::Error)
        })
        .collect();
    assert_eq!(allowed, [true, true, true, true, false, false]);
}
