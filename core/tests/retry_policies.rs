//! The `retry-policies` feature: `SeededRetryPolicy` inside the real reqwest-retry middleware
//! (reqwest-middleware 0.5.2, reqwest-retry 0.9.1, pinned as dev-dependencies) against a real
//! HTTP server on 127.0.0.1 (an ephemeral port), on Tokio's paused clock. reqwest-retry takes no
//! clock or sleep of its own: it sleeps with `tokio::time::sleep`, which the paused clock runs in
//! virtual time, so the gaps between the requests the server sees are exactly what it waited. The
//! expected delays are the vector files' (tests/vectors, checked against the independent model).
// Miri has no sockets: these run natively only.
#![cfg(all(feature = "retry-policies", not(miri)))]

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use reqwest_middleware::ClientBuilder;
use reqwest_retry::RetryTransientMiddleware;
use retry_policies::{RetryDecision, RetryPolicy};
use seeded_backoff::{
    call_seed, classify_http, retry_policies::SeededRetryPolicy, Backoff, Classification, Policy,
};
use seeded_backoff_test_support::{seed_of, vectors_dir};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The first `n` expected delays of a vector file's case with `seed`.
fn vector_delays(file: &str, seed: u64, n: usize) -> Vec<u64> {
    let text = std::fs::read_to_string(vectors_dir().join(file)).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let case = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| seed_of(c) == Ok(seed))
        .unwrap();
    case["expect"].as_array().unwrap()[..n]
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// A server on 127.0.0.1:0 answering `script` in order (then its last status), one connection
/// per request; it records when each request arrives, in virtual ms since it started.
async fn serve(script: &'static [u16]) -> (String, Arc<Mutex<Vec<u64>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/items", listener.local_addr().unwrap());
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&arrivals);
    let start = tokio::time::Instant::now();
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = Vec::new();
            let mut buf = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = socket.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
            }
            let status = {
                let mut seen = seen.lock().unwrap();
                seen.push(start.elapsed().as_millis() as u64);
                script[(seen.len() - 1).min(script.len() - 1)]
            };
            let response = format!(
                "HTTP/1.1 {status} X\r\nRetry-After: 1\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
            socket.write_all(response.as_bytes()).await.unwrap();
            socket.shutdown().await.unwrap();
        }
    });
    (url, arrivals)
}

fn client(policy: SeededRetryPolicy) -> reqwest_middleware::ClientWithMiddleware {
    // No pooled connections: an idle pool's timers would let the paused clock jump while a
    // request waits for the server.
    let inner = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .pool_idle_timeout(None)
        .build()
        .unwrap();
    ClientBuilder::new(inner)
        .with(RetryTransientMiddleware::new_with_policy(policy))
        .build()
}

#[tokio::test(start_paused = true)]
async fn reqwest_retry_waits_the_vector_delays() {
    // schedule-preset-google.json, seed 0: 1274, 2451, 4720 ms. The server's Retry-After: 1 does
    // not reach the policy (the trait passes no response), and is below these delays anyway.
    let expected = vector_delays("schedule-preset-google.json", 0, 3);
    let (url, arrivals) = serve(&[503, 500, 429, 200]).await;
    let policy = SeededRetryPolicy::new(Policy::google()).seed(0);
    let response = client(policy.clone()).get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(policy.gave_up(), 0);
    let at = arrivals.lock().unwrap().clone();
    let waited: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(waited, expected);
}

#[tokio::test(start_paused = true)]
async fn a_give_up_stops_reqwest_retry_with_the_last_response() {
    // schedule-preset-aws.json, seed 0: 27, 90 ms, then max_retries (2).
    let expected = vector_delays("schedule-preset-aws.json", 0, 2);
    let (url, arrivals) = serve(&[503]).await;
    let policy = SeededRetryPolicy::new(Policy::aws_standard()).seed(0);
    let response = client(policy.clone()).get(&url).send().await.unwrap();
    assert_eq!(response.status(), 503);
    // The 503 alone does not say whether retries ran out; the policy's count does.
    assert_eq!(policy.gave_up(), 1);
    let at = arrivals.lock().unwrap().clone();
    assert_eq!(at.len(), 3);
    let waited: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(waited, expected);
}

#[test]
fn every_request_replays_the_seeded_schedule() {
    let retry = SeededRetryPolicy::new(Policy::google()).seed(0);
    let start = SystemTime::now();
    let delays: Vec<u64> = (0..10)
        .map(|n| u64::from(retry.delay_ms(start, n).unwrap()))
        .collect();
    assert_eq!(delays, vector_delays("schedule-preset-google.json", 0, 10));
    assert_eq!(retry.delay_ms(start, 10), None);
    // A retry count far past max_retries costs max_retries steps, not u32::MAX.
    assert!(matches!(
        retry.should_retry(start, u32::MAX),
        RetryDecision::DoNotRetry
    ));
}

#[test]
fn the_time_budget_counts_from_the_request_start() {
    let policy = Policy::google()
        .to_builder()
        .max_elapsed_ms(5_000)
        .build()
        .unwrap();
    let retry = SeededRetryPolicy::new(policy).seed(0);
    // 1274 ms fits in 5 s from now; the next request's first delay (at least 1 s) does not fit
    // in what is left 4.5 s after its start.
    assert_eq!(retry.delay_ms(SystemTime::now(), 0), Some(1274));
    let started = SystemTime::now() - Duration::from_millis(4_500);
    assert_eq!(retry.delay_ms(started, 0), None);
    // The third request: call_seed(0, 2)'s first delay, less the time since its start.
    let third = Backoff::new(&policy, call_seed(0, 2))
        .next_delay(&policy)
        .delay_ms()
        .unwrap();
    match retry.should_retry(SystemTime::now(), 0) {
        RetryDecision::Retry { execute_after } => {
            let wait = execute_after.duration_since(SystemTime::now()).unwrap();
            let third = Duration::from_millis(third.into());
            assert!(wait <= third && wait > third - Duration::from_millis(74));
        }
        RetryDecision::DoNotRetry => panic!("gave up"),
    }
}

/// A server on 127.0.0.1:0 answering 503 to every request, recording each request's path and
/// arrival (virtual ms), one connection per request.
async fn serve_503_by_path() -> (String, Arc<Mutex<Vec<(String, u64)>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&arrivals);
    let start = tokio::time::Instant::now();
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let seen = Arc::clone(&seen);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    let n = socket.read(&mut buf).await.unwrap();
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buf[..n]);
                }
                let text = String::from_utf8_lossy(&request);
                let path = text.split(' ').nth(1).unwrap_or("").to_string();
                seen.lock()
                    .unwrap()
                    .push((path, start.elapsed().as_millis() as u64));
                let response = "HTTP/1.1 503 X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                socket.write_all(response.as_bytes()).await.unwrap();
                socket.shutdown().await.unwrap();
            });
        }
    });
    (url, arrivals)
}

/// The schedules (first `retries` delays) of calls 0..n of a loop seeded `seed`, SPEC.md §14.
fn call_schedules(policy: &Policy, seed: u64, n: u64, retries: usize) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = (0..n)
        .map(|i| {
            let mut b = Backoff::new(policy, call_seed(seed, i));
            (0..retries)
                .map(|_| u64::from(b.next_delay(policy).delay_ms().unwrap()))
                .collect()
        })
        .collect();
    out.sort();
    out
}

/// Sends `n` requests at once through one client and returns each one's waits, sorted.
async fn concurrent_waits(policy: Policy, seed: u64, n: usize) -> (Vec<Vec<u64>>, u64) {
    let (url, arrivals) = serve_503_by_path().await;
    let retry = SeededRetryPolicy::new(policy).seed(seed);
    let client = client(retry.clone());
    let sends: Vec<_> = (0..n)
        .map(|k| {
            let (client, url) = (client.clone(), format!("{url}/items/{k}"));
            tokio::spawn(async move { client.get(&url).send().await.unwrap() })
        })
        .collect();
    for send in sends {
        let response = send.await.unwrap();
        // The retries ran out: the last response comes back as `Ok`, still retryable.
        assert_eq!(
            classify_http(response.status().as_u16()),
            Classification::Retry
        );
    }
    let arrivals = arrivals.lock().unwrap().clone();
    let mut waits: Vec<Vec<u64>> = (0..n)
        .map(|k| {
            let path = format!("/items/{k}");
            let at: Vec<u64> = arrivals
                .iter()
                .filter(|(p, _)| *p == path)
                .map(|&(_, t)| t)
                .collect();
            at.windows(2).map(|w| w[1] - w[0]).collect()
        })
        .collect();
    waits.sort();
    (waits, retry.gave_up())
}

#[tokio::test(start_paused = true)]
async fn concurrent_requests_each_follow_their_own_call_seed() {
    let policy = Policy::google()
        .to_builder()
        .max_retries(2)
        .build()
        .unwrap();
    let (waits, gave_up) = concurrent_waits(policy, 42, 16).await;
    assert_eq!(
        gave_up, 16,
        "every request ran out of retries, and the policy says so"
    );
    // Together, exactly the schedules of call_seed(42, 0..16), whatever order they ran in: each
    // its own (no two alike), and the same again on a second run.
    assert_eq!(waits, call_schedules(&policy, 42, 16, 2));
    let mut distinct = waits.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 16);
    assert_eq!(concurrent_waits(policy, 42, 16).await.0, waits);
}
