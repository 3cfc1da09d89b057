//! The send-rate vectors (SPEC.md §17): event sequences and what the core's `SendRate` answers,
//! some written by hand for the edges, some from a closed loop against a model server whose quota
//! changes. The independent model (tests/model/send_rate_model.py) recomputes every answer.

use seeded_backoff::send_rate::{Answer, Pace, SendRate, SendRateConfig};
use serde_json::{json, Value};

pub(crate) fn config_json(c: &SendRateConfig) -> Value {
    json!({
        "min_rate_milli": c.min_rate_milli, "max_rate_milli": c.max_rate_milli,
        "margin_permille": c.margin_permille, "probe_ms": c.probe_ms,
        "probe_first_permille": c.probe_first_permille, "probe_max_permille": c.probe_max_permille,
        "guard_ms": c.guard_ms, "burst": c.burst, "max_hold_ms": c.max_hold_ms,
        "fail_fast": c.fail_fast,
    })
}

/// One event: `a` asks before an attempt, `ok` / `no` / `thr` report an answer (`hint_ms` for a
/// throttle). The expectation of an ask is the pace; of an answer, the rate after it.
#[derive(Clone, Copy)]
enum Ev {
    Ask(u64),
    Ok(u64),
    No(u64),
    Thr(u64, u32),
}

fn apply(rate: &mut SendRate, ev: Ev) -> (Value, Value) {
    match ev {
        Ev::Ask(t) => {
            let pace = match rate.before_attempt(t) {
                Pace::Send => json!({ "pace": "send" }),
                Pace::Wait { ms } => json!({ "pace": "wait", "ms": ms }),
                Pace::Refuse { ms } => json!({ "pace": "refuse", "ms": ms }),
            };
            (json!({ "e": "ask", "now": t }), pace)
        }
        Ev::Ok(t) => {
            rate.on_answer(t, Answer::Accepted);
            (
                json!({ "e": "accepted", "now": t }),
                json!({ "rate_milli": rate.rate_milli() }),
            )
        }
        Ev::No(t) => {
            rate.on_answer(t, Answer::NoAnswer);
            (
                json!({ "e": "no_answer", "now": t }),
                json!({ "rate_milli": rate.rate_milli() }),
            )
        }
        Ev::Thr(t, h) => {
            rate.on_answer(t, Answer::Throttled { hint_ms: h });
            (
                json!({ "e": "throttled", "now": t, "hint_ms": h }),
                json!({ "rate_milli": rate.rate_milli() }),
            )
        }
    }
}

fn case(name: &str, config: SendRateConfig, events: &[Ev]) -> Value {
    let mut rate = SendRate::new(config).expect("vector configurations are valid");
    let (evs, exps): (Vec<Value>, Vec<Value>) = events.iter().map(|&e| apply(&mut rate, e)).unzip();
    json!({ "name": name, "config": config_json(&config), "events": evs, "expect": exps })
}

/// A closed loop: one client asking every `think` ms, a server bucket of `quota(t)` per second and
/// `burst`, answering at once. Returns the events the client produced.
fn closed_loop(config: SendRateConfig, until: u64, think: u64, quota: fn(u64) -> u64) -> Vec<Ev> {
    let mut rate = SendRate::new(config).expect("valid");
    let mut events = Vec::new();
    let burst_us: u64 = 5 * 1_000_000;
    let mut level_us: u64 = burst_us; // tokens · 10^6
    let mut last = 0u64;
    let mut t = 0u64;
    while t < until {
        let ev = Ev::Ask(t);
        let pace = rate.before_attempt(t);
        events.push(ev);
        let send_at = match pace {
            Pace::Send => t,
            Pace::Wait { ms } => t + u64::from(ms),
            Pace::Refuse { .. } => {
                t += think;
                continue;
            }
        };
        level_us = (level_us + (send_at - last) * quota(send_at) * 1000).min(burst_us);
        last = send_at;
        let answer = if level_us >= 1_000_000 {
            level_us -= 1_000_000;
            Ev::Ok(send_at)
        } else {
            Ev::Thr(send_at, 0)
        };
        match answer {
            Ev::Ok(at) => rate.on_answer(at, Answer::Accepted),
            Ev::Thr(at, h) => rate.on_answer(at, Answer::Throttled { hint_ms: h }),
            _ => {}
        }
        events.push(answer);
        t = send_at + think;
    }
    events
}

/// The send-rate vector file.
pub fn file() -> Value {
    use Ev::*;
    let d = SendRateConfig::DEFAULT;
    // A rate learnt at 3.92/s: four answers 250 ms apart, then a throttle.
    let learnt = [Ok(0), Ok(250), Ok(500), Ok(750), Thr(1000, 0)];
    // Then asks that come 11 ms after their slots, at bursts 1 and 2.
    let late = &[
        learnt.as_slice(),
        &[
            Ask(1000),
            Ask(1000),
            Ask(1266),
            Ask(1266),
            Ask(1532),
            Ask(1533),
        ],
    ]
    .concat();
    let mut cases = vec![
        case(
            "off until the first throttle",
            d,
            &[Ask(0), Ask(0), Ok(5), Ask(10), No(12), Ask(12)],
        ),
        case(
            "a throttle 1 ms after the start reads the window over the 100 ms floor",
            d,
            &[[Ok(0); 10].as_slice(), &[Thr(1, 0), Ask(1), Ask(1), Ask(1)]].concat(),
        ),
        case(
            "throttle: accepted rate less 2 %, then spaced",
            d,
            &[
                Ok(0),
                Ok(100),
                Ok(200),
                Ok(300),
                Ok(400),
                Ok(500),
                Ok(600),
                Ok(700),
                Ok(800),
                Ok(900),
                Thr(1000, 0),
                Ask(1000),
                Ask(1000),
                Ask(1000),
                Ask(1050),
                Ask(1400),
            ],
        ),
        case(
            "a hint holds every attempt, a 200 ms guard ignores a second throttle",
            SendRateConfig { guard_ms: 200, ..d },
            &[
                Ask(0),
                Ask(0),
                Ok(20),
                Thr(30, 1500),
                Thr(100, 0),
                Ask(100),
                Ask(1530),
                Ask(1530),
                Thr(1600, 0),
            ],
        ),
        case(
            "hints clamped to max_hold_ms; clock going back counts as the last reading",
            SendRateConfig {
                max_hold_ms: 2000,
                ..d
            },
            &[
                Ask(5000),
                Thr(5000, 4_000_000_000),
                Ask(4000),
                Ask(7000),
                Ok(6000),
                Ask(7001),
            ],
        ),
        case(
            "waiting callers form a line one interval apart; a line a second long starts again",
            d,
            &[
                learnt.as_slice(),
                &[Ask(1000); 8],
                &[Ask(1256), Ask(1256), Ask(1300)],
            ]
            .concat(),
        ),
        case(
            "a line behind a server's hint",
            d,
            &[
                learnt.as_slice(),
                &[
                    Thr(1100, 300),
                    Ask(1100),
                    Ask(1100),
                    Ask(1100),
                    Ask(1400),
                    Ask(1400),
                ],
            ]
            .concat(),
        ),
        case(
            "fail fast refuses and reserves nothing",
            SendRateConfig {
                fail_fast: true,
                ..d
            },
            &[
                learnt.as_slice(),
                &[
                    Ask(1000),
                    Ask(1000),
                    Ask(1200),
                    Ask(1329),
                    Ask(1332),
                    Ask(1333),
                ],
            ]
            .concat(),
        ),
        case(
            "burst 1: a late attempt moves the schedule back",
            SendRateConfig { burst: 1, ..d },
            late,
        ),
        case(
            "burst 2: a late attempt stays on the schedule",
            SendRateConfig { burst: 2, ..d },
            late,
        ),
        case(
            "burst 3 lets three go after idling",
            SendRateConfig { burst: 3, ..d },
            &[
                Ok(0),
                Ok(200),
                Ok(400),
                Ok(600),
                Ok(800),
                Thr(1000, 0),
                Ask(5000),
                Ask(5000),
                Ask(5000),
                Ask(5000),
            ],
        ),
        case(
            "burst 10: a 5 s hint holds every ask before it, then the burst goes",
            SendRateConfig { burst: 10, ..d },
            &[
                Ok(0),
                Ok(100),
                Ok(200),
                Ok(300),
                Ok(400),
                Ok(500),
                Ok(600),
                Ok(700),
                Ok(800),
                Ok(900),
                Thr(1000, 5000),
                Ask(1000),
                Ask(3000),
                Ask(5082),
                Ask(5500),
                Ask(5999),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
                Ask(6000),
            ],
        ),
        case(
            "floor and ceiling; idle spells do not grow the rate",
            SendRateConfig {
                min_rate_milli: 500,
                max_rate_milli: 2000,
                probe_first_permille: 1000,
                probe_max_permille: 1000,
                ..d
            },
            &[
                Ask(0),
                Thr(1, 0),
                Ask(1),
                Ask(1),
                Ok(5000),
                Ask(9000),
                Ok(9001),
                Ask(9001),
                Ok(9600),
                Ask(11000),
                Ok(11001),
                Ask(11600),
                Ok(12200),
                Ask(90000),
                Ok(u64::MAX),
                Ask(u64::MAX),
            ],
        ),
    ];
    let top = u64::MAX;
    cases.extend([
        // 5 000 000 · 980 exceeds u32 but is exact: 4 900 000, not u32::MAX ÷ 1000 (SPEC.md §17).
        case(
            "a product is exact before the division: 500 accepted at 0, then a throttle",
            d,
            &[[Ok(0); 500].as_slice(), &[Thr(0, 0)]].concat(),
        ),
        // `last_probe + probe_ms` saturates to u64::MAX, so the probe is due: 9800 grows to 9898.
        case(
            "at the top of the clock a saturated sum makes a probe due",
            d,
            &[Ask(top), Ok(top), Thr(top, 0), Ok(top)],
        ),
        // `last_decrease + guard_ms` saturates to u64::MAX, so the guard is over: 9800 cut to 9604.
        case(
            "at the top of the clock a saturated sum ends the guard",
            SendRateConfig { guard_ms: 200, ..d },
            &[Ask(top), Ok(top), Thr(top, 0), Thr(top, 0)],
        ),
    ]);
    let halved = |t: u64| if (3000..6000).contains(&t) { 25 } else { 50 };
    for (name, config, think) in [
        ("closed loop: quota 50/s halved from 3 s to 6 s", d, 5),
        (
            "closed loop, fail fast, asks every 6 ms",
            SendRateConfig {
                fail_fast: true,
                ..d
            },
            6,
        ),
        (
            "closed loop, burst 4, guard 300 ms",
            SendRateConfig {
                burst: 4,
                guard_ms: 300,
                ..d
            },
            7,
        ),
    ] {
        let events = closed_loop(config, 9000, think, halved);
        cases.push(case(name, config, &events));
    }
    json!({
        "kind": "send_rate",
        "description": "adaptive send rate (SPEC.md §17): asks answer send / wait ms / refuse ms; answers give the rate after them",
        "cases": cases,
        "errors": crate::vectors_send_rate_errors::errors(),
    })
}
