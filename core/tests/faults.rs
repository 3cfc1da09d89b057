//! `retry_tokio` and `TowerPolicy` against the fault server (tests/faults/fault_server.py) on real
//! sockets and real time: resets before and after the head, a stall, a trickling head, a
//! truncated chunked body, refused connections, and a storm of 5xx/429 with garbage hints.
//!
//! For each fault the loop gives up on the policy's `max_elapsed_ms` (the reason says so) and ends
//! long before a loop that ignored it would (a bound ten times the budget and one attempt's
//! timeout: what the loop overshoots by, printed, is the lab's figure), the error returned is the
//! last attempt's failure, and nothing is left behind: no task alive on the runtime, no connection
//! open at the server.
// Miri has neither processes nor sockets: the fault server and the loops run natively only.
#![cfg(all(feature = "tower", not(miri)))]

mod fault_support;

use std::time::{Duration, Instant};

use fault_support::{attempt, model_delays, Failure, FaultServer, Response};
use seeded_backoff::{
    tower::TowerPolicy, FailureKind, GiveUpReason, Jitter, Policy, Retry, Verdict,
};
use tower::{service_fn, ServiceExt};

const ATTEMPT: Duration = Duration::from_millis(300);
const BUDGET_MS: u32 = 1500;
/// How far above the expected time a loop may end: the loop's own overshoot is milliseconds, so
/// only a loop that ignored its budget or its delays reaches ten times the time.
const MARGIN: u32 = 10;

fn policy() -> Policy {
    Policy::google()
        .to_builder()
        .initial_ms(50)
        .max_backoff_ms(200)
        .jitter(Jitter::Google { jitter_ms: 20 })
        .max_retries(1000)
        .max_elapsed_ms(BUDGET_MS)
        .build()
        .unwrap()
}

fn bound() -> Duration {
    (Duration::from_millis(BUDGET_MS.into()) + ATTEMPT) * MARGIN
}

fn classify(failure: &Failure) -> Verdict {
    match failure {
        Failure::Status(r) => Verdict::Retry {
            hint: r.hint(),
            failure_kind: FailureKind::Error,
            answer: None,
        },
        _ => Verdict::RETRY,
    }
}

/// Runs `body` on a fresh current-thread runtime and checks no task is alive when it returns.
fn on_runtime<T>(body: impl std::future::Future<Output = T>) -> T {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = rt.block_on(body);
    assert_eq!(rt.metrics().num_alive_tasks(), 0, "a task was left running");
    out
}

fn target(server: &FaultServer, fault: &str) -> (u16, String) {
    match fault {
        "refused" => (server.refused_port, "/ok".into()),
        "trickle-headers" => (server.port, "/trickle-headers?interval_ms=50".into()),
        _ => (server.port, format!("/{fault}")),
    }
}

/// What every loop on a fault must do: end well within ten times the budget and one attempt,
/// report the fault's own failure last, and leave no connection open at the server.
fn ended_in_bounds(server: &FaultServer, fault: &str, took: Duration, last: &Failure) {
    assert!(took <= bound(), "{fault}: {took:?}");
    expect_last(fault, last);
    assert_eq!(
        server.open_connections(),
        0,
        "{fault}: connections left open"
    );
}

fn expect_last(fault: &str, failure: &Failure) {
    let ok = match fault {
        "reset-before-headers" => {
            matches!(
                failure,
                Failure::Read(std::io::ErrorKind::ConnectionReset) | Failure::Truncated
            )
        }
        "reset-after-headers" => {
            matches!(failure, Failure::Read(std::io::ErrorKind::ConnectionReset))
        }
        "stall" | "trickle-headers" => matches!(failure, Failure::Timeout),
        "truncated-chunked" => matches!(failure, Failure::Truncated),
        "refused" => matches!(
            failure,
            Failure::Connect(std::io::ErrorKind::ConnectionRefused)
        ),
        _ => unreachable!(),
    };
    assert!(ok, "{fault}: last failure {failure}");
}

const FAULTS: [&str; 6] = [
    "reset-before-headers",
    "reset-after-headers",
    "stall",
    "trickle-headers",
    "truncated-chunked",
    "refused",
];

#[test]
fn retry_tokio_gives_up_within_the_budget_on_every_fault() {
    let server = FaultServer::start();
    for fault in FAULTS {
        let (port, path) = target(&server, fault);
        let policy = policy();
        let start = Instant::now();
        let out = on_runtime(
            Retry::new(&policy, 1).run_tokio(|_| attempt(port, &path, ATTEMPT), classify),
        );
        let took = start.elapsed();
        let e = out.expect_err(fault);
        eprintln!("retry_tokio {fault}: {e} after {took:?}");
        assert_eq!(e.reason, Some(GiveUpReason::Deadline), "{fault}");
        assert!(e.attempts >= 2, "{fault}: {} attempts", e.attempts);
        assert!(e.to_string().ends_with(&e.cause.to_string()), "{e}");
        ended_in_bounds(&server, fault, took, &e.cause);
    }
}

#[test]
fn tower_policy_gives_up_within_the_budget_on_every_fault() {
    let server = FaultServer::start();
    for fault in FAULTS {
        let (port, path) = target(&server, fault);
        let service = service_fn(|p: String| async move { attempt(port, &p, ATTEMPT).await });
        let retry = TowerPolicy::new(policy(), |r: &Result<Response, Failure>| match r {
            Ok(_) => Verdict::Stop,
            Err(f) => classify(f),
        })
        .seed(1);
        let start = Instant::now();
        let out = on_runtime(tower::retry::Retry::new(retry, service).oneshot(path));
        let took = start.elapsed();
        let last = out.expect_err(fault);
        eprintln!("TowerPolicy {fault}: {last} after {took:?}");
        ended_in_bounds(&server, fault, took, &last);
    }
}

/// The storm's policy: every hint is garbage, so each delay is the model's plain delay.
const STORM: (u32, u32, u32, u64, u32) = (20, 100, 10, 9, 6);

fn storm_policy() -> Policy {
    let (initial, cap, jitter, _, retries) = STORM;
    let b = Policy::google()
        .to_builder()
        .initial_ms(initial)
        .max_backoff_ms(cap);
    b.jitter(Jitter::Google { jitter_ms: jitter })
        .max_retries(retries)
        .build()
        .unwrap()
}

/// A storm loop slept at least the model's delays (every hint is garbage), ended well before ten
/// times them, and left no connection open.
fn slept_the_model_delays(server: &FaultServer, took: Duration) {
    let (initial, cap, jitter, seed, retries) = STORM;
    let sleep: u64 = model_delays(initial, cap, jitter, seed, retries)
        .iter()
        .sum();
    let (low, high) = (
        Duration::from_millis(sleep),
        Duration::from_millis(sleep) * MARGIN,
    );
    assert!(
        low <= took && took <= high,
        "{took:?} not in {low:?}..={high:?}"
    );
    assert_eq!(server.open_connections(), 0);
}

#[test]
fn retry_tokio_rides_out_a_storm_of_5xx_and_429_with_garbage_hints() {
    let server = FaultServer::start();
    let (policy, port) = (storm_policy(), server.port);
    let start = Instant::now();
    let out = on_runtime(
        Retry::new(&policy, STORM.3).run_tokio(|_| attempt(port, "/storm", ATTEMPT), classify),
    );
    let took = start.elapsed();
    let e = out.expect_err("the storm never ends");
    assert_eq!((e.attempts, e.reason), (7, Some(GiveUpReason::MaxRetries)));
    // 503, 429, 500, 502, 504 in turn: the 7th attempt gets a 429.
    assert!(
        matches!(&e.cause, Failure::Status(r) if r.status == 429),
        "{}",
        e.cause
    );
    assert!(e.to_string().ends_with("HTTP 429"), "{e}");
    slept_the_model_delays(&server, took);
}

#[test]
fn tower_policy_rides_out_a_storm_of_5xx_and_429_with_garbage_hints() {
    let server = FaultServer::start();
    let port = server.port;
    let service = service_fn(|p: &'static str| async move {
        match attempt(port, p, ATTEMPT).await {
            Err(Failure::Status(r)) => Ok(r),
            other => other,
        }
    });
    let retry = TowerPolicy::new(storm_policy(), |r: &Result<Response, Failure>| match r {
        Ok(resp) if seeded_backoff::http::is_retryable_http(resp.status) => Verdict::Retry {
            hint: resp.hint(),
            failure_kind: FailureKind::Error,
            answer: None,
        },
        Ok(_) => Verdict::Stop,
        Err(_) => Verdict::RETRY,
    })
    .seed(STORM.3);
    let start = Instant::now();
    let out = on_runtime(tower::retry::Retry::new(retry, service).oneshot("/storm"));
    let took = start.elapsed();
    assert_eq!(out.expect("the last response").status, 429);
    slept_the_model_delays(&server, took);
}

#[test]
fn retry_tokio_recovers_when_the_faults_stop() {
    let server = FaultServer::start();
    let (policy, port) = (policy(), server.port);
    let calls = std::cell::Cell::new(0);
    let out = on_runtime(Retry::new(&policy, 1).run_tokio(
        |_| {
            calls.set(calls.get() + 1);
            attempt(port, "/reset-before-headers?n=2", ATTEMPT)
        },
        classify,
    ));
    let r = out.expect("the third attempt succeeds");
    assert_eq!(
        (r.status, r.body.as_slice(), calls.get()),
        (200, &b"ok"[..], 3)
    );
    assert_eq!(server.open_connections(), 0);
}
