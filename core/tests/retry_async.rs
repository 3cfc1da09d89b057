//! The async retry loop on a virtual clock: no real sleeping, and every delay it sleeps is checked
//! against the vector files (the step's delays, computed independently by tests/model).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use seeded_backoff::{
    budget::{RetryBudget, RetryGate},
    retry_async, FailureKind, GiveUpReason, Jitter, Policy, Retry, RetryError, RetryEvent,
    ServerHint, Verdict,
};
use seeded_backoff_test_support::{policy_from_json, seed_of, vector_files};
use serde_json::Value;

/// Polls a future whose sleeps are virtual (always ready) to completion.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("the retry loop did not finish");
}

/// One vector case's leading ops up to the first reset or snapshot, as the attempts of one request.
fn one_request(ops: &[Value], expect: &[Value]) -> Vec<(String, Value)> {
    ops.iter()
        .zip(expect)
        .map(|(op, e)| (op.as_str().unwrap().to_string(), e.clone()))
        .take_while(|(op, _)| op != "r" && op != "s")
        .collect()
}

#[test]
fn the_async_loop_sleeps_exactly_the_vector_delays_on_a_virtual_clock() {
    let mut requests = 0;
    for (name, file) in vector_files().unwrap() {
        if file["kind"] != "schedule" {
            continue;
        }
        let policy = policy_from_json(&file["policy"]).unwrap();
        for case in file["cases"].as_array().unwrap() {
            let seed = seed_of(case).unwrap();
            let steps = one_request(
                case["ops"].as_array().unwrap(),
                case["expect"].as_array().unwrap(),
            );
            // Each failed attempt is one op; the request ends at the first give-up, or succeeds
            // on the attempt after the last op.
            let end = steps.iter().position(|(_, e)| e.is_string());
            let attempts = end.map_or(steps.len(), |i| i + 1);
            let uses_clock = steps.iter().any(|(op, _)| op.starts_with('t'));
            let clock = Cell::new(0u64);
            let slept = RefCell::new(Vec::new());
            let sleep = |d: Duration| {
                slept.borrow_mut().push(d.as_millis() as u64);
                clock.set(clock.get().saturating_add(d.as_millis() as u64));
                std::future::ready(())
            };
            // Attempts count from 1: attempt n meets step n - 1.
            let op = |attempt: u32| {
                let i = attempt as usize - 1;
                let outcome = match steps.get(i) {
                    Some((op, _)) if i < attempts => {
                        let (code, arg) = op.split_at(1);
                        match code {
                            "h" => Err(Verdict::with_hint(ServerHint::RetryAfterMs(
                                arg.parse().unwrap(),
                            ))),
                            "l" => Err(Verdict::with_hint(ServerHint::RateLimitResetMs(
                                arg.parse().unwrap(),
                            ))),
                            "x" => Err(Verdict::with_hint(ServerHint::DoNotRetry)),
                            "t" => {
                                clock.set(arg.parse().unwrap());
                                Err(Verdict::RETRY)
                            }
                            _ => Err(Verdict::RETRY),
                        }
                    }
                    _ => Ok(attempt),
                };
                std::future::ready(outcome)
            };
            let retry = Retry::new(&policy, seed);
            let result = if uses_clock {
                block_on(retry.clock(|| clock.get()).run(sleep, op, |v: &Verdict| *v))
            } else {
                block_on(retry.run(sleep, op, |v: &Verdict| *v))
            };
            let want: Vec<u64> = steps[..attempts.min(steps.len())]
                .iter()
                .filter_map(|(_, e)| e.as_u64())
                .collect();
            assert_eq!(*slept.borrow(), want, "{name} seed {seed}");
            match (end, result) {
                (Some(i), Err(e)) => {
                    assert_eq!(e.reason.map(|r| r.name()), steps[i].1.as_str());
                    assert_eq!(e.attempts as usize, i + 1, "{name} seed {seed}");
                }
                (None, Ok(attempt)) => assert_eq!(attempt as usize, steps.len() + 1),
                (end, result) => panic!("{name} seed {seed}: {end:?} {result:?}"),
            }
            requests += 1;
        }
    }
    assert!(requests >= 50, "only {requests} requests replayed");
}

#[test]
fn a_permanent_error_stops_at_once_and_a_bool_classifier_works() {
    let policy = Policy::google();
    let calls = Cell::new(0);
    let result: Result<(), _> = block_on(retry_async(
        &policy,
        1,
        |_| async { unreachable!("no sleep before a permanent error") },
        |_| {
            calls.set(calls.get() + 1);
            async { Err::<(), _>(404) }
        },
        |status: &u16| *status >= 500,
    ));
    assert_eq!(
        result,
        Err(RetryError {
            cause: 404,
            attempts: 1,
            reason: None
        })
    );
    assert_eq!(calls.get(), 1);
}

#[test]
fn max_retries_gives_up_after_that_many_retries() {
    // Hand-derived: max_retries 3 means 4 attempts and 3 sleeps of 1, 2, 4 s (no jitter).
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .max_retries(3)
        .build()
        .unwrap();
    let slept = RefCell::new(Vec::new());
    let result: Result<(), _> = block_on(retry_async(
        &policy,
        0,
        |d| {
            slept.borrow_mut().push(d);
            async {}
        },
        |_| async { Err("503") },
        |_| true,
    ));
    let e = result.unwrap_err();
    assert_eq!((e.attempts, e.reason), (4, Some(GiveUpReason::MaxRetries)));
    assert_eq!(*slept.borrow(), [1, 2, 4].map(Duration::from_secs).to_vec());
    assert_eq!(e.to_string(), "gave up after 4 attempts (max_retries): 503");
}

#[test]
fn the_time_budget_counts_time_spent_in_attempts() {
    // Hand-derived: no jitter, budget 10 s; each attempt takes 3 s of the caller's clock. Attempt
    // 1 fails at 3 s, sleep 1 s; attempt 2 fails at 7 s, the 2 s delay would end at 9 s: sleep;
    // attempt 3 fails at 12 s, past the budget: give up with `deadline` after 3 attempts.
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .max_elapsed_ms(10_000)
        .build()
        .unwrap();
    let now = Cell::new(0u64);
    let result: Result<(), _> = block_on(Retry::new(&policy, 0).clock(|| now.get()).run(
        |d| {
            now.set(now.get() + d.as_millis() as u64);
            async {}
        },
        |_| {
            now.set(now.get() + 3000);
            async { Err("timeout") }
        },
        |_| Verdict::Retry {
            hint: None,
            failure_kind: FailureKind::Timeout,
            answer: None,
        },
    ));
    let e = result.unwrap_err();
    assert_eq!((e.attempts, e.reason), (3, Some(GiveUpReason::Deadline)));
    assert_eq!(now.get(), 12_000);
}

#[test]
fn a_retry_budget_is_charged_and_refunded() {
    // gRFC A6 with 3 tokens, ratio 1: each failure costs 1, retries while more than 1.5 remain.
    // Failure 1 → 2 tokens, retry; failure 2 → 1 token, refused: give up with `budget`.
    let policy = Policy::google();
    let budget = RetryBudget::grpc(3, 1000).unwrap();
    let result: Result<(), _> = block_on(Retry::new(&policy, 5).budget(&budget).run(
        |_| async {},
        |_| async { Err("503") },
        |_| true,
    ));
    let e = result.unwrap_err();
    assert_eq!((e.attempts, e.reason), (2, Some(GiveUpReason::Budget)));
    assert_eq!(budget.tokens_milli(), 1000);
    // A success after a retry refunds the ratio (1 token).
    let ok = block_on(Retry::new(&policy, 5).budget(&budget).run(
        |_| async {},
        |attempt| async move {
            if attempt == 1 {
                Ok(7)
            } else {
                Err("x")
            }
        },
        |_| true,
    ));
    assert_eq!(ok, Ok(7));
    assert_eq!(budget.tokens_milli(), 2000);
    // The budget is the caller's: it can still be used directly.
    budget.record_failure(FailureKind::Error);
    assert_eq!(budget.tokens_milli(), 1000);
}

#[test]
fn the_callback_hears_each_retry_numbered_from_1_and_the_give_up_names_the_cause() {
    // Hand-derived: no jitter, max_retries 2: attempts 1 and 2 are retried after 1 s and 2 s,
    // attempt 3 gives up; op sees 1, 2, 3.
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .max_retries(2)
        .build()
        .unwrap();
    let told = RefCell::new(Vec::new());
    let seen = RefCell::new(Vec::new());
    let result: Result<(), _> = block_on(
        Retry::new(&policy, 0)
            .on_retry(|e: RetryEvent<'_, String>| {
                told.borrow_mut()
                    .push((e.attempt, e.delay_ms, e.error.clone()))
            })
            .run(
                |_| async {},
                |attempt| {
                    seen.borrow_mut().push(attempt);
                    async move { Err(format!("503 on attempt {attempt}")) }
                },
                |_| true,
            ),
    );
    assert_eq!(*seen.borrow(), [1, 2, 3]);
    assert_eq!(
        *told.borrow(),
        [
            (1, 1000, "503 on attempt 1".to_string()),
            (2, 2000, "503 on attempt 2".to_string())
        ]
    );
    let e = result.unwrap_err();
    assert_eq!(e.cause, "503 on attempt 3");
    assert_eq!((e.attempts, e.reason), (3, Some(GiveUpReason::MaxRetries)));
}

#[test]
fn dropping_the_future_stops_the_loop() {
    let policy = Policy::google();
    let calls = Cell::new(0);
    {
        let future = retry_async(
            &policy,
            3,
            |_| std::future::pending::<()>(), // a sleep that never ends
            |_| {
                calls.set(calls.get() + 1);
                async { Err::<(), _>("503") }
            },
            |_| true,
        );
        let mut future = pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        for _ in 0..10 {
            assert!(future.as_mut().poll(&mut cx).is_pending());
        }
    } // dropped mid-sleep
    assert_eq!(calls.get(), 1, "no attempt after the drop");
}

#[test]
fn errors_convert_into_box_dyn_error_with_their_message() {
    fn policy() -> Result<Policy, Box<dyn core::error::Error>> {
        Ok(Policy::builder().initial_ms(0).build()?)
    }
    let e = policy().unwrap_err();
    assert_eq!(e.to_string(), "initial_ms must be in 1..=2147483647, got 0");
    use seeded_backoff::{
        budget::BudgetError, http::ParseError, policy::PolicyError, snapshot::SnapshotError,
    };
    fn check<E: core::error::Error + Copy>(all: &[E], name: fn(E) -> &'static str) -> usize {
        let mut names: Vec<&str> = all.iter().map(|e| name(*e)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "names are unique");
        for e in all {
            assert!(!e.to_string().is_empty());
        }
        all.len()
    }
    assert_eq!(check(&PolicyError::ALL, PolicyError::name), 11);
    assert_eq!(check(&ParseError::ALL, ParseError::name), 11);
    assert_eq!(check(&SnapshotError::ALL, SnapshotError::name), 6);
    assert_eq!(check(&BudgetError::ALL, BudgetError::name), 5);
}

#[cfg(feature = "tokio")]
#[tokio::test(start_paused = true)]
async fn retry_tokio_sleeps_the_vector_delays_on_tokio_virtual_time() {
    // schedule-preset-google.json, seed 0: 1274, 2451, 4720 ms; then the 4th attempt succeeds.
    let policy = Policy::google();
    let start = tokio::time::Instant::now();
    let times = RefCell::new(Vec::new());
    let out = seeded_backoff::Retry::new(&policy, 0)
        .run_tokio(
            |attempt| {
                times.borrow_mut().push(start.elapsed().as_millis() as u64);
                async move {
                    if attempt < 4 {
                        Err("503")
                    } else {
                        Ok("200")
                    }
                }
            },
            |_| true,
        )
        .await;
    assert_eq!(out, Ok("200"));
    assert_eq!(*times.borrow(), [0, 1274, 1274 + 2451, 1274 + 2451 + 4720]);
}
