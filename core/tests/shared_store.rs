//! Shared parts through a real redis-server on 127.0.0.1 (SPEC.md §19): the vectors of §10, §16
//! and §17 replayed through the store, by two clients taking turns on one key, give the vectors'
//! answers bit for bit; and clients at once on one key behave as one part.
#![cfg(feature = "valkey")]

mod store_support;

use seeded_backoff::shared::{LinkState, SharedBudget, SharedPacer, SharedPart, SharedSendRate};
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    pacer::Pacer,
    send_rate::{Answer, Pace, SendRate},
    FailureKind,
};
use seeded_backoff_test_support::{
    budget_config_from_json, send_rate_config_from_json, vector_files,
};
use serde_json::{json, Value};
use store_support::Server;

fn cases(kind: &str) -> Vec<Value> {
    let files = vector_files().unwrap();
    let cases: Vec<Value> = files
        .into_iter()
        .filter(|(_, f)| f["kind"] == kind)
        .flat_map(|(_, f)| f["cases"].as_array().unwrap().clone())
        .collect();
    assert!(!cases.is_empty(), "no {kind} vectors");
    cases
}

/// A case's inputs (`field`) beside their expected answers, numbered.
fn steps<'a>(case: &'a Value, field: &str) -> impl Iterator<Item = (usize, &'a Value, &'a Value)> {
    let inputs = case[field].as_array().unwrap();
    let expect = case["expect"].as_array().unwrap();
    assert_eq!(inputs.len(), expect.len());
    inputs
        .iter()
        .zip(expect)
        .enumerate()
        .map(|(i, (x, e))| (i, x, e))
}

#[test]
fn the_vectors_replay_through_the_store_bit_for_bit() {
    let server = Server::start();
    let (a, b) = (server.store(), server.store());
    let mut checks = 0;

    for (n, case) in cases("budget").iter().enumerate() {
        let config = budget_config_from_json(&case["budget"]).unwrap();
        let key = format!("budget-{n}");
        let clients = [
            SharedBudget::new(&a, &key, config),
            SharedBudget::new(&b, &key, config),
        ];
        for (i, op, expect) in steps(case, "ops") {
            let client = &clients[i % 2];
            let op = op.as_str().unwrap();
            let kind = |k: &str| {
                if k == "t" {
                    FailureKind::Timeout
                } else {
                    FailureKind::Error
                }
            };
            let allowed = match op.split_at(1) {
                ("f", k) => {
                    client.record_failure(kind(k));
                    true
                }
                ("a", k) => client.try_acquire(kind(k)),
                ("s", "") => {
                    client.record_success(None);
                    true
                }
                ("s", k) => {
                    client.record_success(Some(kind(k)));
                    true
                }
                _ => panic!("unknown budget op {op}"),
            };
            assert_eq!(
                json!([u8::from(allowed), client.tokens_milli()]),
                *expect,
                "budget {n} op {i} {op}"
            );
            checks += 1;
        }
        for c in &clients {
            assert_eq!(c.stats().alone, 0, "budget {n}: {:?}", c.stats());
            assert!(c.stats().decisions == 0 || c.link_state() == LinkState::Joined);
        }
    }

    for (n, case) in cases("pacer").iter().enumerate() {
        let c = &case["config"];
        let u = |k: &str| u32::try_from(c[k].as_u64().unwrap()).unwrap();
        let seed: u64 = c["seed"].as_str().unwrap().parse().unwrap();
        let Ok(pacer) = Pacer::new(
            u("capacity_per_s"),
            u("reserve_per_mille"),
            u("max_wait_s"),
            seed,
        ) else {
            continue;
        };
        let key = format!("pacer-{n}");
        let clients = [
            SharedPacer::new(&a, &key, pacer.clone()),
            SharedPacer::new(&b, &key, pacer),
        ];
        for (i, op, expect) in steps(case, "ops") {
            let client = &clients[i % 2];
            let op = op.as_str().unwrap();
            let now: u64 = op[1..].parse().unwrap();
            let got = match &op[..1] {
                "a" => {
                    let s = client.assign(now);
                    json!([s.retry_after_s, s.reset_ms, u8::from(s.full)])
                }
                "p" => json!(client.pending(now)),
                _ => panic!("unknown pacer op {op}"),
            };
            assert_eq!(got, *expect, "pacer {n} op {op}");
            checks += 1;
        }
        assert!(clients.iter().all(|c| c.stats().alone == 0));
    }

    for (n, case) in cases("send_rate").iter().enumerate() {
        let config = send_rate_config_from_json(&case["config"]).unwrap();
        let key = format!("send-rate-{n}");
        let clients = [
            SharedSendRate::new(&a, &key, config).unwrap(),
            SharedSendRate::new(&b, &key, config).unwrap(),
        ];
        for (i, e, expect) in steps(case, "events") {
            let client = &clients[i % 2];
            let now = e["now"].as_u64().unwrap();
            let got = match e["e"].as_str().unwrap() {
                "ask" => match client.before_attempt(now) {
                    Pace::Send => json!({ "pace": "send" }),
                    Pace::Wait { ms } => json!({ "pace": "wait", "ms": ms }),
                    Pace::Refuse { ms } => json!({ "pace": "refuse", "ms": ms }),
                },
                other => {
                    let answer = match other {
                        "accepted" => Answer::Accepted,
                        "no_answer" => Answer::NoAnswer,
                        _ => Answer::Throttled {
                            hint_ms: u32::try_from(e["hint_ms"].as_u64().unwrap()).unwrap(),
                        },
                    };
                    client.on_answer(now, answer);
                    json!({ "rate_milli": client.load().rate_milli() })
                }
            };
            assert_eq!(got, *expect, "send rate {} event {i} {e}", case["name"]);
            checks += 1;
        }
        assert!(clients.iter().all(|c| c.stats().alone == 0));
    }
    assert!(checks > 300, "{checks} checks");
}

#[test]
fn clients_at_once_on_one_key_spend_one_budget_and_fill_one_schedule() {
    let server = Server::start();
    let stores: Vec<_> = (0..4).map(|_| server.store()).collect();

    // 100 tokens, 5 a retry: 20 retries for the whole fleet, however many ask at once.
    let config = BudgetConfig::aws_quota(100, 5, 10, 1).unwrap();
    let granted: u32 = std::thread::scope(|s| {
        let workers: Vec<_> = stores
            .iter()
            .map(|store| {
                s.spawn(move || {
                    let budget = SharedBudget::new(store, "budget", config);
                    let got = (0..15)
                        .filter(|_| budget.try_acquire(FailureKind::Error))
                        .count();
                    assert_eq!(budget.stats().alone, 0);
                    got as u32
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert_eq!(granted, 20);

    // 10 returns a second, none kept: 40 refusals at once across 4 replicas fill seconds 1 to 4
    // with 10 each, at 40 distinct reset times.
    let pacer = Pacer::new(10, 0, 60, 3).unwrap();
    let slots: Vec<_> = std::thread::scope(|s| {
        let workers: Vec<_> = stores
            .iter()
            .map(|store| {
                let pacer = pacer.clone();
                s.spawn(move || {
                    let shared = SharedPacer::new(store, "pacer", pacer);
                    (0..10).map(|_| shared.assign(0)).collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    for second in 1..=4 {
        assert_eq!(
            slots.iter().filter(|s| s.retry_after_s == second).count(),
            10,
            "second {second}"
        );
    }
    let mut resets: Vec<_> = slots.iter().map(|s| s.reset_ms).collect();
    resets.sort_unstable();
    resets.dedup();
    assert_eq!(resets.len(), 40);

    // A send rate held at 10/s with a burst of 1: among 4 clients asking at one instant, one
    // sends; the others form one line (SPEC.md §17.4 step 5), 100 ms apart.
    let config = seeded_backoff::send_rate::SendRateConfig {
        min_rate_milli: 10_000,
        max_rate_milli: 10_000,
        burst: 1,
        ..seeded_backoff::send_rate::SendRateConfig::DEFAULT
    };
    let rates: Vec<_> = stores
        .iter()
        .map(|s| SharedSendRate::new(s, "rate", config).unwrap())
        .collect();
    rates[0].on_answer(0, Answer::Throttled { hint_ms: 0 });
    let paces: Vec<_> = std::thread::scope(|s| {
        let workers: Vec<_> = rates
            .iter()
            .map(|r| s.spawn(move || r.before_attempt(1_000)))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(
        paces.iter().filter(|p| **p == Pace::Send).count(),
        1,
        "{paces:?}"
    );
    let mut waits: Vec<_> = paces
        .iter()
        .filter_map(|p| match p {
            Pace::Wait { ms } => Some(*ms),
            _ => None,
        })
        .collect();
    waits.sort_unstable();
    assert_eq!(waits, [100, 200, 300], "{paces:?}");
}

#[test]
fn the_stored_value_is_the_cores_encoding_and_a_flush_is_a_cold_start() {
    let server = Server::start();
    let store = server.store();
    let budget = SharedBudget::new(&store, "b", BudgetConfig::AWS_DEFAULT);
    assert!(budget.try_acquire(FailureKind::Timeout));
    assert!(budget.try_acquire(FailureKind::Timeout));
    assert_eq!(budget.tokens_milli(), 480_000);
    // What the store holds is the core's value of that state.
    let local = RetryBudget::aws_default();
    local.set_tokens_milli(480_000).unwrap();
    assert_eq!(
        server.command(&["STRLEN", "b"]),
        local.encode().len().to_string()
    );
    // A flush (a failover that lost the key) is a cold start: a full bucket again.
    server.command(&["FLUSHALL"]);
    assert!(budget.try_acquire(FailureKind::Timeout));
    assert_eq!(budget.tokens_milli(), 490_000);

    let config = seeded_backoff::send_rate::SendRateConfig::DEFAULT;
    let rate = SharedSendRate::new(&store, "r", config).unwrap();
    rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
    assert!(rate.load().rate_milli() > 0);
    server.command(&["FLUSHALL"]);
    rate.on_answer(10, Answer::NoAnswer);
    assert_eq!(rate.load(), {
        let mut cold = SendRate::new(config).unwrap();
        cold.on_answer(10, Answer::NoAnswer);
        cold
    });
    assert!(rate.link_state() == LinkState::Joined);
}
