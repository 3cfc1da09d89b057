//! SPEC.md §16.3's bounds of the pacer, on arbitrary configurations, bursts and clocks (including
//! clocks that go backwards), and the refusal of every out-of-range field, by name.

use std::collections::HashMap;

use proptest::prelude::*;
use seeded_backoff::pacer::{Pacer, PacerError, PacerSlot, MAX_PACER_CAPACITY, MAX_PACER_WAIT_S};

#[test]
fn each_field_is_refused_by_name_at_its_edges() {
    let cases = [
        ((0, 0, 1), Some(PacerError::CapacityPerS)),
        ((1, 0, 1), None),
        ((MAX_PACER_CAPACITY, 0, 1), None),
        (
            (MAX_PACER_CAPACITY + 1, 0, 1),
            Some(PacerError::CapacityPerS),
        ),
        ((1, 999, 1), None),
        ((1, 1000, 1), Some(PacerError::ReservePerMille)),
        ((1, 0, 0), Some(PacerError::MaxWaitS)),
        ((1, 0, MAX_PACER_WAIT_S), None),
        ((1, 0, MAX_PACER_WAIT_S + 1), Some(PacerError::MaxWaitS)),
    ];
    for ((c, r, w), want) in cases {
        let err = Pacer::new(c, r, w, 0).err();
        assert_eq!(err.map(|e| e.error), want, "{c} {r} {w}");
        // The refusal names the value given for its field.
        let given = match want {
            Some(PacerError::CapacityPerS) => c,
            Some(PacerError::ReservePerMille) => r,
            _ => w,
        };
        assert_eq!(err.map(|e| e.got), want.map(|_| given), "{c} {r} {w}");
    }
    assert_eq!(PacerError::MaxWaitS.name(), "max_wait_s");
}

#[test]
fn a_shed_burst_keeps_the_reserve_in_its_first_second_only() {
    // 900 refused at once by a server of 100/s that keeps 6 % for first attempts: 94 in second
    // 1, where the burst's late first attempts arrive, then 100 a second: 8 more seconds hold
    // 800, and second 10 the last 6 (at 94 a second throughout, it would be 54 of second 10).
    let mut pacer = Pacer::new(100, 60, 60, 42).unwrap();
    let mut per_second = [0u32; 12];
    for _ in 0..900 {
        per_second[pacer.assign(0).retry_after_s as usize] += 1;
    }
    assert_eq!(
        per_second,
        [0, 94, 100, 100, 100, 100, 100, 100, 100, 100, 6, 0]
    );
    assert_eq!(
        [0, 1_000, 2_000, 9_000, 10_000].map(|t| pacer.pending(t)),
        [900, 806, 706, 6, 0]
    );
}

#[test]
fn a_shed_burst_fills_each_second_to_the_rate_and_no_further() {
    // 900 refused at once by a server of 100/s: seconds 1 to 9, 100 each.
    let mut pacer = Pacer::new(100, 0, 60, 42).unwrap();
    let mut per_second = [0u32; 11];
    for _ in 0..900 {
        let slot = pacer.assign(0);
        assert_eq!(slot.retry_after_s as u64, u64::from(slot.reset_ms) / 1000);
        per_second[slot.retry_after_s as usize] += 1;
    }
    assert_eq!(
        per_second,
        [0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 0]
    );
    assert_eq!(pacer.pending(0), 900);
}

proptest! {
    // Four cases under Miri (interpreted, for undefined behaviour only), as properties.rs does.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]
    #[test]
    fn returns_stay_in_range_and_in_their_second(
        capacity in prop_oneof![1u32..=5, 90u32..=110, 995u32..=1005, Just(MAX_PACER_CAPACITY)],
        reserve in prop_oneof![Just(0u32), 0u32..=999],
        max_wait in prop_oneof![1u32..=3, Just(60), Just(MAX_PACER_WAIT_S)],
        seed in any::<u64>(),
        start in prop_oneof![0u64..10_000, Just(u64::MAX - 5_000)],
        steps in prop::collection::vec(prop_oneof![Just(0i64), 0i64..50, 0i64..2_000, -3_000i64..0], 1..400),
    ) {
        let mut pacer = Pacer::new(capacity, reserve, max_wait, seed).unwrap();
        let rate = pacer.retry_rate();
        prop_assert_eq!(u64::from(rate), u64::from(capacity) - u64::from(capacity) * u64::from(reserve) / 1000);
        prop_assert_eq!(pacer.capacity(), capacity);
        // The seconds that open an empty schedule (the one after a refusal that found nothing
        // pending): each holds at most `rate`; every second at most `capacity`.
        let mut reserved = std::collections::HashSet::new();
        let mut now = start;
        let mut latest = 0u64;
        let mut per_second: HashMap<u64, u32> = HashMap::new();
        for step in steps {
            now = now.saturating_add_signed(step);
            latest = latest.max(now).min(1 << 63);
            if pacer.pending(now) == 0 {
                reserved.insert(latest / 1000 + 1);
            }
            let slot = pacer.assign(now);
            prop_assert!((1..=max_wait).contains(&slot.retry_after_s));
            prop_assert!(slot.reset_ms >= 1 && slot.reset_ms <= max_wait * 1000 + 999);
            let second = (latest + u64::from(slot.reset_ms)) / 1000;
            prop_assert_eq!(second, (latest + u64::from(slot.retry_after_s) * 1000) / 1000);
            if !slot.full {
                let n = per_second.entry(second).or_default();
                *n += 1;
                prop_assert!(*n <= capacity);
                if reserved.contains(&second) {
                    prop_assert!(*n <= rate, "second {} holds {} > {}", second, n, rate);
                }
            } else {
                prop_assert_eq!(slot.retry_after_s, max_wait);
            }
            let pending = pacer.pending(now);
            prop_assert!(pending <= u64::from(capacity) * u64::from(max_wait));
            // Exact: the unfull returns counted in the seconds after `latest`.
            let counted: u64 = per_second
                .iter()
                .filter(|(&s, _)| s > latest / 1000)
                .map(|(_, &n)| u64::from(n))
                .sum();
            prop_assert_eq!(pending, counted);
        }
    }
}

#[test]
fn paced_is_bit_1_of_the_deadline_byte_and_nothing_else() {
    use seeded_backoff::policy::DeadlineMode;
    use seeded_backoff::Policy;
    for base in [Policy::google(), Policy::grpc(), Policy::aws_standard()] {
        for mode in [DeadlineMode::GiveUp, DeadlineMode::Clamp] {
            let plain = base.to_builder().deadline(mode).build().unwrap();
            let paced = base
                .to_builder()
                .deadline(mode)
                .paced(true)
                .build()
                .unwrap();
            let (a, b) = (plain.canonical_bytes(), paced.canonical_bytes());
            assert_eq!(a[..33], b[..33]);
            assert_eq!((a[33], b[33]), (mode.code(), mode.code() + 2));
            assert_ne!(plain.fingerprint(), paced.fingerprint());
            assert!(!base.paced() && paced.paced());
        }
    }
}

#[test]
fn a_paced_hint_below_the_backoff_is_the_wait_and_an_unpaced_one_is_a_floor() {
    use seeded_backoff::{Backoff, Policy, ServerHint, Step, StepInput};
    let plain = Policy::builder()
        .jitter(seeded_backoff::Jitter::None)
        .build()
        .unwrap();
    let paced = plain.to_builder().paced(true).build().unwrap();
    let hint = |ms| StepInput::default().hint(ServerHint::RetryAfterMs(ms));
    let (mut a, mut b) = (Backoff::new(&plain, 1), Backoff::new(&paced, 1));
    // Backoff 1000 ms then 2000 ms (no jitter); the server says 200 ms, then 90 s (above the
    // 32 s cap, within the 300 s hint limit: both wait it).
    assert_eq!(
        a.next_delay_with(&plain, hint(200)),
        Step::Retry {
            delay_ms: 1000,
            retry: 0
        }
    );
    assert_eq!(
        b.next_delay_with(&paced, hint(200)),
        Step::Retry {
            delay_ms: 200,
            retry: 0
        }
    );
    assert_eq!(
        a.next_delay_with(&plain, hint(90_000)),
        Step::Retry {
            delay_ms: 90_000,
            retry: 1
        }
    );
    assert_eq!(
        b.next_delay_with(&paced, hint(90_000)),
        Step::Retry {
            delay_ms: 90_000,
            retry: 1
        }
    );
    // Without a hint the paced policy backs off as the plain one: 4000 ms.
    assert_eq!(
        b.next_delay(&paced),
        Step::Retry {
            delay_ms: 4000,
            retry: 2
        }
    );
}

#[test]
fn the_reset_header_is_seconds_with_three_decimals() {
    // §16.4: `reset_ms / 1000`, `.`, `reset_ms mod 1000` as three digits.
    let cases = [
        (0, "0.000"),
        (1, "0.001"),
        (10, "0.010"),
        (999, "0.999"),
        (1000, "1.000"),
        (2350, "2.350"),
        (60_999, "60.999"),
        (86_400_999, "86400.999"),
        (u32::MAX, "4294967.295"),
    ];
    let mut buf = [0u8; 12];
    for (reset_ms, want) in cases {
        let slot = PacerSlot {
            retry_after_s: 1,
            reset_ms,
            full: false,
        };
        assert_eq!(slot.reset_seconds(&mut buf), want, "{reset_ms}");
    }
    for reset_ms in (0..200_000).step_by(7) {
        let slot = PacerSlot {
            retry_after_s: 1,
            reset_ms,
            full: false,
        };
        let want = format!("{}.{:03}", reset_ms / 1000, reset_ms % 1000);
        assert_eq!(slot.reset_seconds(&mut buf), want);
    }
}

#[test]
fn a_raw_tail_may_be_one_second_past_the_longest_wait_and_no_further() {
    // SPEC.md §16.3: no return is told more than max_wait_s ahead, so the tail second (the next
    // with room) is at most latest_s + max_wait_s + 1. Here latest_s 5, max_wait_s 2: 8 and no more.
    let mut raw = Pacer::new(3, 0, 2, 9).unwrap().to_raw();
    raw.latest_ms = 5_400;
    raw.reserve_s = 6;
    raw.tail_count = 0;
    for (tail_s, ok) in [(6, true), (8, true), (9, false)] {
        raw.tail_s = tail_s;
        assert_eq!(Pacer::from_raw(raw).is_some(), ok, "tail_s {tail_s}");
    }
}
