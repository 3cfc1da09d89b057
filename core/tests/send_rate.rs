//! The adaptive send rate (SPEC.md §17): every tests/vectors/send-rate*.json case replayed through
//! `SendRate` and `AtomicSendRate`, the shared form under many threads, the configuration kept, and
//! the answer an HTTP status denotes.

use seeded_backoff::{
    send_rate::{Answer, AtomicSendRate, Pace, SendRate, SendRateConfig, SendRateError},
    ServerHint,
};
use seeded_backoff_test_support::vector_files;
use serde_json::{json, Value};

fn config(v: &Value) -> SendRateConfig {
    let u = |k: &str| u32::try_from(v[k].as_u64().unwrap()).unwrap();
    SendRateConfig {
        min_rate_milli: u("min_rate_milli"),
        max_rate_milli: u("max_rate_milli"),
        margin_permille: u("margin_permille"),
        probe_ms: u("probe_ms"),
        probe_first_permille: u("probe_first_permille"),
        probe_max_permille: u("probe_max_permille"),
        guard_ms: u("guard_ms"),
        burst: u("burst"),
        max_hold_ms: u("max_hold_ms"),
        fail_fast: v["fail_fast"].as_bool().unwrap(),
    }
}

fn pace_json(p: Pace) -> Value {
    match p {
        Pace::Send => json!({ "pace": "send" }),
        Pace::Wait { ms } => json!({ "pace": "wait", "ms": ms }),
        Pace::Refuse { ms } => json!({ "pace": "refuse", "ms": ms }),
    }
}

fn answer(e: &Value) -> Answer {
    match e["e"].as_str().unwrap() {
        "accepted" => Answer::Accepted,
        "no_answer" => Answer::NoAnswer,
        "throttled" => Answer::Throttled {
            hint_ms: u32::try_from(e["hint_ms"].as_u64().unwrap()).unwrap(),
        },
        other => panic!("unknown event {other}"),
    }
}

#[test]
fn every_send_rate_vector_replays_in_both_forms() {
    let files: Vec<_> = vector_files()
        .unwrap()
        .into_iter()
        .filter(|(_, f)| f["kind"] == "send_rate")
        .collect();
    assert!(!files.is_empty(), "no send-rate vector file");
    let mut checks = 0;
    for (name, file) in files {
        for case in file["cases"].as_array().unwrap() {
            let c = config(&case["config"]);
            let mut plain = SendRate::new(c).unwrap();
            let shared = AtomicSendRate::new(c).unwrap();
            for (event, expect) in case["events"]
                .as_array()
                .unwrap()
                .iter()
                .zip(case["expect"].as_array().unwrap())
            {
                let now = event["now"].as_u64().unwrap();
                let (a, b) = if event["e"] == "ask" {
                    (
                        pace_json(plain.before_attempt(now)),
                        pace_json(shared.before_attempt(now)),
                    )
                } else {
                    plain.on_answer(now, answer(event));
                    shared.on_answer(now, answer(event));
                    (
                        json!({ "rate_milli": plain.rate_milli() }),
                        json!({ "rate_milli": shared.rate_milli() }),
                    )
                };
                assert_eq!(&a, expect, "{name} {} {event}", case["name"]);
                assert_eq!(&b, expect, "{name} {} {event} (shared)", case["name"]);
                checks += 1;
            }
            assert_eq!(shared.load(), plain);
        }
        for err in file["errors"].as_array().unwrap() {
            let got = SendRate::new(config(&err["config"])).unwrap_err().error;
            assert_eq!(got.name(), err["error"].as_str().unwrap());
            assert!(SendRateError::ALL.contains(&got));
            checks += 1;
        }
    }
    assert!(checks > 1000, "only {checks} checks");
}

/// Many threads asking at once at one clock reading: exactly one is told to send, the others
/// their places in one line, and the state matches one thread's after the same asks.
#[test]
fn shared_rate_lets_one_of_many_threads_send_per_slot() {
    let c = SendRateConfig {
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let shared = AtomicSendRate::new(c).unwrap();
    let mut plain = SendRate::new(c).unwrap();
    for t in 0..100u64 {
        shared.on_answer(t * 10, Answer::Accepted);
        plain.on_answer(t * 10, Answer::Accepted);
    }
    shared.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    plain.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    assert_eq!(shared.rate_milli(), 98_000);
    let (threads, per) = (16, 250);
    let paces: Vec<Pace> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    (0..per)
                        .map(|_| shared.before_attempt(1000))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert_eq!(paces.iter().filter(|p| **p == Pace::Send).count(), 1);
    // The waiting callers form a line (SPEC.md §17.4 step 5): the k-th is told to come back
    // k intervals of 1/98 s = 10 204 µs (floored) after the slot at 1 010 204 µs; 98 intervals
    // reach 999 992 µs past it, so the 100th place starts the line again at the slot: place
    // k mod 99, each rounded up to ms from 1 000 000 µs.
    let mut waits: Vec<u32> = paces
        .iter()
        .filter_map(|p| match p {
            Pace::Wait { ms } => Some(*ms),
            _ => None,
        })
        .collect();
    waits.sort_unstable();
    let mut line: Vec<u32> = (0..threads * per - 1)
        .map(|k| {
            let back = 1_010_204 + 10_204 * (k as u64 % 99);
            (back - 1_000_000).div_ceil(1000) as u32
        })
        .collect();
    line.sort_unstable();
    assert_eq!(waits, line);
    for _ in 0..threads * per {
        let _ = plain.before_attempt(1000);
    }
    assert_eq!(shared.load(), plain);
    assert_eq!(shared.before_attempt(1011), Pace::Send);
}

/// Answers from many threads interleaved with asks: counts stay consistent (no lost update), so the
/// accepted rate the next throttle reads is exactly the number reported.
#[test]
fn shared_rate_counts_every_answer_from_threads() {
    let shared = AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap();
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..125 {
                    shared.on_answer(500, Answer::Accepted);
                    let _ = shared.before_attempt(500);
                }
            });
        }
    });
    shared.on_answer(0, Answer::Accepted); // a reading earlier than the last counts as 500
                                           // 1001 accepted over the 500 ms since the first reading (at 500), less 2 %.
    shared.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    assert_eq!(shared.rate_milli(), 1001 * 1_000_000 / 500 * 98 / 100);
}

#[test]
fn both_forms_keep_the_configuration_they_were_given() {
    // §17.1: every field as given (none of them the default), in the plain and the shared form.
    let given = SendRateConfig {
        min_rate_milli: 2,
        max_rate_milli: 5_000,
        margin_permille: 30,
        probe_ms: 250,
        probe_first_permille: 20,
        probe_max_permille: 200,
        guard_ms: 100,
        burst: 3,
        max_hold_ms: 1_000,
        fail_fast: true,
    };
    assert_eq!(SendRate::new(given).unwrap().config(), given);
    assert_eq!(AtomicSendRate::new(given).unwrap().config(), given);
    assert_eq!(SendRateConfig::default(), SendRateConfig::DEFAULT);
}

#[test]
fn a_429_or_a_hinted_503_is_a_throttle_and_anything_else_accepted() {
    // §17.3: a 429, or a 503 with a Retry-After or rate-limit hint, is throttled with that hint
    // (0 if none); every other response spent quota.
    let after = |ms| Some(ServerHint::RetryAfterMs(ms));
    let reset = |ms| Some(ServerHint::RateLimitResetMs(ms));
    let throttled = |hint_ms| Answer::Throttled { hint_ms };
    let cases = [
        (429, None, throttled(0)),
        (429, after(2_000), throttled(2_000)),
        (429, reset(1_500), throttled(1_500)),
        (429, Some(ServerHint::DoNotRetry), throttled(0)),
        (503, None, Answer::Accepted),
        (503, after(3_000), throttled(3_000)),
        (503, reset(700), throttled(700)),
        (503, Some(ServerHint::DoNotRetry), Answer::Accepted),
        (200, None, Answer::Accepted),
        (200, after(5_000), Answer::Accepted),
        (500, reset(100), Answer::Accepted),
        (502, None, Answer::Accepted),
    ];
    for (status, hint, want) in cases {
        assert_eq!(Answer::from_http(status, hint), want, "{status} {hint:?}");
    }
}

#[test]
fn every_field_is_accepted_at_both_edges_of_its_range() {
    // §17.1's ranges, each field alone at its lowest and highest allowed value, then one past.
    let d = SendRateConfig::DEFAULT;
    let edges = [
        SendRateConfig {
            max_rate_milli: 1,
            min_rate_milli: 1,
            ..d
        },
        SendRateConfig {
            max_rate_milli: 1_000_000_000,
            ..d
        },
        SendRateConfig {
            min_rate_milli: 1_000_000_000,
            ..d
        },
        SendRateConfig {
            margin_permille: 1,
            ..d
        },
        SendRateConfig {
            margin_permille: 500,
            ..d
        },
        SendRateConfig { probe_ms: 10, ..d },
        SendRateConfig {
            probe_ms: 60_000,
            ..d
        },
        SendRateConfig {
            probe_first_permille: 1,
            ..d
        },
        SendRateConfig {
            probe_first_permille: 250,
            ..d
        },
        SendRateConfig {
            probe_first_permille: 1,
            probe_max_permille: 1,
            ..d
        },
        SendRateConfig {
            probe_max_permille: 1000,
            ..d
        },
        SendRateConfig {
            guard_ms: 60_000,
            ..d
        },
        SendRateConfig { burst: 1000, ..d },
        SendRateConfig {
            max_hold_ms: 0,
            ..d
        },
        SendRateConfig {
            max_hold_ms: 3_600_000,
            ..d
        },
    ];
    for config in edges {
        assert_eq!(config.check(), Ok(config), "{config:?}");
        assert!(SendRate::new(config).is_ok());
    }
    let beyond = [
        (
            SendRateConfig {
                min_rate_milli: 2,
                max_rate_milli: 1,
                ..d
            },
            SendRateError::MinRate,
        ),
        (SendRateConfig { probe_ms: 9, ..d }, SendRateError::ProbeMs),
        (
            SendRateConfig {
                probe_max_permille: 1001,
                probe_first_permille: 1,
                ..d
            },
            SendRateError::ProbeMax,
        ),
        (
            SendRateConfig {
                guard_ms: 60_001,
                ..d
            },
            SendRateError::GuardMs,
        ),
        (SendRateConfig { burst: 1001, ..d }, SendRateError::Burst),
    ];
    for (config, error) in beyond {
        assert_eq!(config.check().unwrap_err().error, error, "{config:?}");
    }
}

#[test]
fn a_probe_comes_exactly_probe_ms_after_the_last() {
    // §17.5 step P: `now ≥ last_probe + probe_ms`, equality included. 100 accepted in a second,
    // a throttle at 1000 ms (rate 98/s, last_probe 1000), then asks at 1499 and 1500 ms; expected
    // values from tests/model/send_rate_model.py, burst 1.
    let one = SendRateConfig {
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let mut rate = SendRate::new(one).unwrap();
    for t in (0..1000).step_by(10) {
        assert_eq!(rate.before_attempt(t), Pace::Send);
        rate.on_answer(t, Answer::Accepted);
    }
    rate.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    assert_eq!(rate.rate_milli(), 98_000);
    assert_eq!(rate.before_attempt(1499), Pace::Send);
    assert_eq!(rate.rate_milli(), 98_000);
    // 51 sent in the last second (500 to 1499 ms) ≥ 98/s ÷ 2: one step of 1 %.
    assert_eq!(rate.before_attempt(1500), Pace::Wait { ms: 10 });
    assert_eq!(rate.rate_milli(), 98_980);
}

#[test]
fn a_client_sending_exactly_half_the_rate_still_grows_it() {
    // §17.5 step P grows the rate when `sent_rate ≥ rate ÷ 2`, equality included. One send at 0,
    // a throttle at 1000 ms sets the floor of 20/s; ten sends 50 ms apart, then the probe at
    // 1500 ms sees 10 sends in 1 s: 10/s, half the rate. Values from send_rate_model.py.
    let config = SendRateConfig {
        min_rate_milli: 20_000,
        ..SendRateConfig::DEFAULT
    };
    let mut rate = SendRate::new(config).unwrap();
    assert_eq!(rate.before_attempt(0), Pace::Send);
    rate.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    assert_eq!(rate.rate_milli(), 20_000);
    for t in (1000..1500).step_by(50) {
        assert_eq!(rate.before_attempt(t), Pace::Send, "{t}");
    }
    assert_eq!(rate.rate_milli(), 20_000);
    assert_eq!(rate.before_attempt(1500), Pace::Send);
    assert_eq!(rate.rate_milli(), 20_200);
}

/// SPEC.md §17.1: at the start the step is `probe_first_permille` and every other word is zero (a
/// step of 0 would be a state `from_words` refuses).
#[test]
fn a_new_rate_starts_at_the_first_step_and_zero_elsewhere() {
    let config = SendRateConfig {
        probe_first_permille: 37,
        ..SendRateConfig::DEFAULT
    };
    let words = SendRate::new(config).unwrap().to_words();
    for (i, &w) in words.iter().enumerate() {
        assert_eq!(
            w,
            if i == 3 { 37 } else { 0 },
            "word {i} of a new send rate"
        );
    }
    let mut zero = words;
    zero[3] = 0;
    assert_eq!(SendRate::from_words(config, &zero), None);
}

/// The defaults the C header and the npm types document for a send rate's configuration are the
/// core's (SPEC.md §17.1): each field's `(default N)`, read from the text beside the field.
#[test]
fn every_binding_documents_the_cores_send_rate_defaults() {
    let d = SendRateConfig::DEFAULT;
    let fields = [
        ("max_rate_milli", "maxRateMilli", d.max_rate_milli),
        ("min_rate_milli", "minRateMilli", d.min_rate_milli),
        ("margin_permille", "marginPermille", d.margin_permille),
        ("probe_ms", "probeMs", d.probe_ms),
        (
            "probe_first_permille",
            "probeFirstPermille",
            d.probe_first_permille,
        ),
        (
            "probe_max_permille",
            "probeMaxPermille",
            d.probe_max_permille,
        ),
        ("guard_ms", "guardMs", d.guard_ms),
        ("burst", "burst", d.burst),
        ("max_hold_ms", "maxHoldMs", d.max_hold_ms),
    ];
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |p: &str| std::fs::read_to_string(format!("{root}/../{p}")).unwrap();
    let header = read("ffi/include/seeded_backoff.h");
    let types = read("wasm/types/send-rate.d.ts");
    let c_struct = section(
        &header,
        "typedef struct sb_send_rate_config {",
        "} sb_send_rate_config;",
    );
    let js_options = section(&types, "export interface SendRateOptions {", "\n}");
    for (c, js, default) in fields {
        for (doc, decl) in [
            (c_struct, format!("uint32_t {c};")),
            (js_options, format!("{js}?: number;")),
        ] {
            let at = doc
                .find(&decl)
                .unwrap_or_else(|| panic!("no `{decl}` documented"));
            let comment = &doc[..at].rsplit("/**").next().unwrap();
            let written = comment
                .split("(default ")
                .nth(1)
                .and_then(|r| r.split(|ch: char| !ch.is_ascii_digit()).next())
                .unwrap_or_else(|| panic!("`{decl}` documents no default"));
            assert_eq!(
                written,
                default.to_string(),
                "the default `{decl}` documents"
            );
        }
    }
}

fn section<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text.find(from).unwrap_or_else(|| panic!("no `{from}`"));
    let rest = &text[start..];
    &rest[..rest.find(to).unwrap_or(rest.len())]
}
