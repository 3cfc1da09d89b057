//! The binding layer against the core it translates: options words to policies, seeds, the step
//! encoding, the shared area's round trips, snapshots and budgets. Runs on the host (`cargo test`)
//! and in Node as wasm (`wasm-bindgen-test-runner`, scripts/test.d/20-wasm.sh).

use seeded_backoff::bindings::{PolicyOption as O, PolicyOptions};
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget},
    policy::{PolicyError, Preset},
    Backoff, FailureKind, Jitter, Policy, ServerHint, Step, StepInput,
};
use seeded_backoff_wasm::io::option;
use seeded_backoff_wasm::rt::io;
use seeded_backoff_wasm::{budget, date, errors, snapshot, step};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Writes options (`(option, value)` pairs) to the shared words.
fn set_options(given: &[(O, u32)]) {
    io(|io| {
        io.options = [0; seeded_backoff_wasm::rt::OPTION_WORDS];
        for &(o, v) in given {
            let i = o.code() as usize;
            io.options[option::PRESENT] |= 1 << i;
            io.options[option::FIRST + i] = v;
        }
    });
}

fn expect(step: Step) -> i32 {
    match step {
        Step::Retry { delay_ms, .. } => delay_ms as i32,
        Step::GiveUp(r) => -(r.code() as i32),
    }
}

#[test]
fn options_words_resolve_to_the_cores_policy() {
    set_options(&[
        (O::Preset, 3),
        (O::Multiplier, 1500),
        (O::MaxBackoffMs, 60_000),
    ]);
    assert_eq!(step::policy_resolve(), 0);
    let core = PolicyOptions {
        preset: Some(Preset::Grpc),
        multiplier: Some((3, 2)),
        max_backoff_ms: Some(60_000),
        ..PolicyOptions::default()
    }
    .build()
    .unwrap();
    step::backoff_init(7, 0);
    let mut b = Backoff::new(&core, 7);
    for _ in 0..12 {
        assert_eq!(
            step::backoff_step(0, 0, false, 0, 0, 0, false),
            expect(b.next_delay(&core))
        );
    }
}

#[test]
fn policy_errors_cross_as_their_index_plus_one() {
    for (given, error) in [
        (vec![(O::InitialMs, 0)], PolicyError::InitialMs),
        (vec![(O::Multiplier, 999)], PolicyError::MultiplierBelowOne),
        (
            vec![(O::Jitter, 2), (O::JitterMs, 5)],
            PolicyError::JitterMsNotApplicable,
        ),
        (vec![(O::Jitter, 6)], PolicyError::UnknownJitter),
    ] {
        set_options(&given);
        let got = step::policy_resolve();
        assert_eq!(errors::POLICY[got as usize - 1], error, "{given:?}");
    }
}

#[test]
fn seed_halves_make_the_cores_u64_seed() {
    set_options(&[]);
    assert_eq!(step::policy_resolve(), 0);
    let p = Policy::google();
    for seed in [0u64, 1, 42, 1 << 32, (1 << 32) + 7, u64::MAX] {
        step::backoff_init(seed as u32, (seed >> 32) as u32);
        let mut b = Backoff::new(&p, seed);
        for _ in 0..11 {
            assert_eq!(
                step::backoff_step(0, 0, false, 0, 0, 0, false),
                expect(b.next_delay(&p)),
                "seed {seed}"
            );
        }
    }
}

#[test]
fn hints_clocks_and_give_ups_are_the_general_step() {
    set_options(&[(O::MaxElapsedMs, 5_000)]);
    assert_eq!(step::policy_resolve(), 0);
    let p = PolicyOptions {
        max_elapsed_ms: Some(5_000),
        ..PolicyOptions::default()
    }
    .build()
    .unwrap();
    step::backoff_init(3, 0);
    let mut b = Backoff::new(&p, 3);
    let input = |hint, elapsed| StepInput {
        hint,
        elapsed_ms: elapsed,
        budget: None,
    };
    let got = step::backoff_step(1, 2_500, true, 10, 0, 0, false);
    assert_eq!(
        got,
        expect(b.next_delay_with(&p, input(Some(ServerHint::RetryAfterMs(2_500)), Some(10))))
    );
    let got = step::backoff_step(3, 1_000, true, 20, 0, 0, false);
    assert_eq!(
        got,
        expect(b.next_delay_with(
            &p,
            input(Some(ServerHint::RateLimitResetMs(1_000)), Some(20))
        ))
    );
    let got = step::backoff_step(0, 0, true, 4_000, 0, 0, false);
    assert_eq!(got, expect(b.next_delay_with(&p, input(None, Some(4_000)))));
    assert_eq!(got, -2, "the deadline gives up");
    step::backoff_reset();
    assert_eq!(
        step::backoff_step(2, 0, false, 0, 0, 0, false),
        -4,
        "do not retry: server_stop"
    );
}

#[test]
fn a_state_the_caller_holds_continues_the_same_schedule() {
    set_options(&[]);
    step::backoff_init(11, 0);
    let first = step::backoff_step(0, 0, false, 0, 0, 0, false);
    let saved = io(|io| io.state);
    step::backoff_init(99, 0); // another schedule's state in the shared words
    step::backoff_step(0, 0, false, 0, 0, 0, false);
    io(|io| io.state = saved);
    let p = Policy::google();
    let mut b = Backoff::new(&p, 11);
    assert_eq!(first, expect(b.next_delay(&p)));
    assert_eq!(
        step::backoff_step(0, 0, false, 0, 0, 0, false),
        expect(b.next_delay(&p))
    );
    // A state the policy cannot reach is refused and left as it was.
    io(|io| io.state.level = 0);
    let bad = io(|io| io.state);
    assert_eq!(step::backoff_step(0, 0, false, 0, 0, 0, false), i32::MIN);
    assert_eq!(io(|io| io.state), bad);
}

fn put_bytes(text: &[u8]) -> u32 {
    io(|io| io.bytes[..text.len()].copy_from_slice(text));
    text.len() as u32
}

#[test]
fn retry_after_seconds_and_dates() {
    let n = put_bytes(b" 120 ");
    assert_eq!(step::retry_after_seconds(n), 120_000.0);
    let n = put_bytes(b"99999999999");
    assert_eq!(
        step::retry_after_seconds(n),
        f64::from(u32::MAX),
        "saturates"
    );
    let n = put_bytes(b"Sun, 06 Nov 1994 08:49:37 GMT");
    let not_seconds = step::retry_after_seconds(n);
    assert_eq!(
        errors::PARSE[(-not_seconds - 1.0) as usize],
        seeded_backoff::http::ParseError::InvalidFormat
    );
    assert_eq!(date::retry_after(n, 784_111_777 - 30, 0), 30_000.0);
    let n = put_bytes(b"Sun, 30 Feb 2025 00:00:00 GMT");
    let bad = date::retry_after(n, 0, 0);
    assert_eq!(
        errors::PARSE[(-bad - 1.0) as usize],
        seeded_backoff::http::ParseError::BadDay
    );
    // A length past the buffer reads the whole buffer rather than trapping.
    assert!(step::retry_after_seconds(10_000) < 0.0);
}

#[test]
fn snapshots_round_trip_and_refusals_cross_as_indexes() {
    set_options(&[(O::Preset, 0)]);
    let p = Policy::google();
    let mut b = Backoff::new(&p, 5);
    b.next_delay(&p);
    io(|io| io.state = b.to_raw());
    assert_eq!(snapshot::snapshot_take(), 0);
    let bytes: [u8; 40] = io(|io| io.bytes[..40].try_into().unwrap());
    assert_eq!(bytes, b.snapshot(&p));
    io(|io| io.state = Default::default());
    assert_eq!(snapshot::snapshot_restore(40), 0);
    assert_eq!(io(|io| io.state), b.to_raw());
    // Restored under another policy: policy_mismatch.
    set_options(&[(O::Preset, 1)]);
    let got = snapshot::snapshot_restore(40);
    assert_eq!(
        errors::SNAPSHOT[got as usize - 1],
        seeded_backoff::snapshot::SnapshotError::PolicyMismatch
    );
    assert_ne!(snapshot::snapshot_restore(39), 0);
}

#[test]
fn budgets_are_the_cores() {
    assert_eq!(budget::budget_new(false, 0b11, 10, 100, 0, 0), 0);
    let core = RetryBudget::new(BudgetConfig::grpc(10, 100).unwrap());
    for op in [0u32, 1, 2, 0, 0, 1] {
        let got = budget::budget_op(op, false, true);
        let expect = match op {
            0 => {
                seeded_backoff::budget::RetryGate::record_failure(&core, FailureKind::Error);
                0
            }
            1 => u32::from(seeded_backoff::budget::RetryGate::try_acquire(
                &core,
                FailureKind::Error,
            )),
            _ => {
                seeded_backoff::budget::RetryGate::record_success(&core, Some(FailureKind::Error));
                0
            }
        };
        assert_eq!(got, expect);
        assert_eq!(io(|io| io.budget[5]), core.tokens_milli());
    }
    let bad = budget::budget_new(false, 0b11, 1001, 100, 0, 0);
    assert_eq!(
        errors::BUDGET[bad as usize - 1],
        seeded_backoff::budget::BudgetError::MaxTokens
    );
    // The AWS quota with defaults: 500 tokens.
    assert_eq!(budget::budget_new(true, 0, 0, 0, 0, 0), 0);
    assert_eq!(io(|io| io.budget[5]), 500_000);
}

std::thread_local! {
    static ASKED: std::cell::RefCell<Vec<(u32, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn refusing_gate(op: u32, kind: u32) -> u32 {
    ASKED.with_borrow_mut(|a| a.push((op, kind)));
    0
}

#[test]
fn a_step_with_a_budget_asks_the_js_budget_and_gives_up_when_it_refuses() {
    use seeded_backoff_wasm::gate::op;
    set_options(&[]);
    let p = Policy::google();
    io(|io| io.state = Backoff::new(&p, 1).to_raw());
    seeded_backoff_wasm::rt::set_gate(refusing_gate);
    // A timeout (kind 1) the budget refuses: the core's budget give-up, code 3 (SPEC.md §5).
    assert_eq!(step::backoff_step(0, 0, false, 0, 0, 1, true), -3);
    let asked = ASKED.with_borrow(|a| a.clone());
    assert!(asked.contains(&(op::TRY_ACQUIRE, 1)), "asked {asked:?}");
    // Without the budget the same schedule retries.
    io(|io| io.state = Backoff::new(&p, 1).to_raw());
    assert!(step::backoff_step(0, 0, false, 0, 0, 0, false) >= 0);
    assert!(matches!(p.jitter(), Jitter::Google { .. }));
}

#[test]
fn fleet_seeds_and_startup_delays_are_the_cores() {
    use seeded_backoff_wasm::{fleet, startup};
    let n = put_bytes(b"kiosk-0042");
    fleet::fleet_seed(n, 7);
    let seed = io(|io| u64::from(io.options[1]) << 32 | u64::from(io.options[0]));
    assert_eq!(
        seed,
        seeded_backoff::fleet::seed_from_device(b"kiosk-0042", 7)
    );
    let (lo, hi) = (seed as u32, (seed >> 32) as u32);
    let got = startup::startup_delay(lo, hi, 60_000);
    assert_eq!(
        got,
        f64::from(seeded_backoff::fleet::startup_delay_ms(seed, 60_000).unwrap())
    );
    assert_eq!(startup::startup_delay(lo, hi, 1 << 31), -1.0);
}

#[test]
fn the_main_part_reads_the_active_policys_cap() {
    io(|io| {
        let i = O::MaxBackoffMs.code() as usize;
        io.options[option::PRESENT] = 1 << i;
        io.options[option::FIRST + i] = 5000;
    });
    assert_eq!(step::policy_resolve(), 0);
    assert_eq!(step::policy_cap_ms(), 5000);
}

#[test]
fn the_pacer_exports_answer_as_the_core_pacer() {
    use seeded_backoff::pacer::{Pacer, PACER_HEADER_NAMES};
    use seeded_backoff_wasm::pacer::{pacer_assign, pacer_new, pacer_pending};
    for (cfg, e) in [((0, 0, 60), 0), ((5, 1000, 60), 1), ((5, 0, 86_401), 2)] {
        let core = Pacer::new(cfg.0, cfg.1, cfg.2, 1).unwrap_err().error;
        assert_eq!(errors::PACER[e], core);
        assert_eq!(pacer_new(cfg.0, cfg.1, cfg.2, 1, 0), 1 + e as u32);
    }
    let seed = 0x1234_5678_9abc_def0_u64;
    let mut core = Pacer::new(3, 0, 2, seed).unwrap();
    assert_eq!(pacer_new(3, 0, 2, seed as u32, (seed >> 32) as u32), 0);
    for now in [1_200_u64, 1_300, 900, 5_000_000_000, 5_000_000_400] {
        let slot = core.assign(now);
        assert_eq!(pacer_assign(now as u32, (now >> 32) as u32), 0);
        io(|io| {
            assert_eq!(
                io.action[..3],
                [slot.retry_after_s, slot.reset_ms, u32::from(slot.full)]
            );
            let mut at = 0;
            for (i, (name, value)) in slot.headers().pairs().into_iter().enumerate() {
                assert_eq!(name, PACER_HEADER_NAMES[i]);
                let len = io.lens[i] as usize;
                assert_eq!(&io.bytes[at..at + len], value.as_bytes(), "{name} at {now}");
                at += len;
            }
        });
        assert_eq!(
            pacer_pending(now as u32, 0),
            core.pending(u64::from(now as u32)) as f64
        );
    }
    // Words no pacer has (a zero generator, words 6..10) are refused, unchanged.
    io(|io| io.run[6..10].fill(0));
    assert_eq!(pacer_assign(0, 0), 1);
    assert_eq!(pacer_pending(0, 0), -1.0);
}

#[test]
fn the_send_rate_exports_answer_as_the_core_send_rate() {
    use seeded_backoff::send_rate::{Answer, Pace, SendRate, SendRateConfig, SendRateError};
    use seeded_backoff_wasm::send_rate::{self as part, answer, config_words, pace, CONFIG_WORDS};
    let put = |words: &[u32]| {
        io(|io| {
            for (i, w) in words.iter().enumerate() {
                io.bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
            }
        })
    };
    let word =
        |i: usize| io(|io| u32::from_le_bytes(io.bytes[4 * i..4 * i + 4].try_into().unwrap()));
    // Each field out of range is refused by its own index, in the core's order.
    for (i, e) in SendRateError::ALL.into_iter().enumerate() {
        let mut w = config_words(SendRateConfig::DEFAULT);
        // Too large where 0 is allowed or would trip an earlier field's bound (probe_first ≤ probe_max).
        let high = [
            SendRateError::ProbeMax,
            SendRateError::GuardMs,
            SendRateError::MaxHold,
        ];
        w[i] = if high.contains(&e) { u32::MAX } else { 0 };
        put(&w);
        assert_eq!(part::send_rate_new(), 1 + i as u32, "{e:?}");
        assert_eq!(errors::SEND_RATE[i], e);
    }
    let mut bad = config_words(SendRateConfig::DEFAULT);
    bad[CONFIG_WORDS - 1] = 2;
    put(&bad);
    assert_eq!(part::send_rate_new(), 1 + SendRateError::ALL.len() as u32);
    // The same events through the part and the core: the same paces, the same rate.
    let config = SendRateConfig {
        burst: 3,
        fail_fast: true,
        ..SendRateConfig::DEFAULT
    };
    let mut core = SendRate::new(config).unwrap();
    put(&config_words(config));
    assert_eq!(part::send_rate_new(), 0);
    for t in 0..300_u64 {
        let now = 5_000_000_000 + t * 7;
        let (code, ms) = match core.before_attempt(now) {
            Pace::Send => (pace::SEND, 0),
            Pace::Wait { ms } => (pace::WAIT, ms),
            Pace::Refuse { ms } => (pace::REFUSE, ms),
        };
        assert_eq!(part::send_rate_ask(now as u32, (now >> 32) as u32), code);
        assert_eq!(io(|io| io.action[0]), ms);
        let (kind, a) = match t % 5 {
            0 => (answer::THROTTLED, Answer::Throttled { hint_ms: 20 }),
            4 => (answer::NO_ANSWER, Answer::NoAnswer),
            _ => (answer::ACCEPTED, Answer::Accepted),
        };
        core.on_answer(now + 3, a);
        assert_eq!(
            part::send_rate_answer(
                (now + 3) as u32,
                ((now + 3) >> 32) as u32,
                kind,
                20,
                false,
                0,
                0
            ),
            0
        );
        assert_eq!(part::send_rate_rate(), core.rate_milli());
    }
    assert!(core.rate_milli() > 0);
    // An unknown kind and words no send rate has are refused, unchanged.
    assert_eq!(part::send_rate_answer(0, 0, 3, 0, false, 0, 0), 1);
    let step_word = CONFIG_WORDS + 2 * 3;
    let saved = word(step_word);
    put(&{
        let mut w: Vec<u32> = (0..step_word).map(word).collect();
        w.push(0);
        w
    });
    assert_eq!(part::send_rate_ask(0, 0), pace::BAD_STATE);
    assert_eq!(
        part::send_rate_answer(0, 0, answer::ACCEPTED, 0, false, 0, 0),
        1
    );
    assert_eq!(part::send_rate_rate(), u32::MAX);
    assert_eq!(word(step_word), 0);
    assert_ne!(saved, 0);
}
