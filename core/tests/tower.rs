//! The `tower` feature: `TowerPolicy` drives tower 0.5's `Retry` middleware around a mock service,
//! on Tokio's paused (virtual) clock, with the delays of the vector files.
#![cfg(feature = "tower")]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use seeded_backoff::{
    budget::{AtomicRetryBudget, RetryGate},
    call_seed,
    tower::TowerPolicy,
    Backoff, Policy, ServerHint, Verdict,
};
use tower::{service_fn, ServiceExt};

/// A mock service answering from a script of statuses, recording when each call arrives.
fn scripted(
    script: &'static [u16],
) -> (
    impl tower::Service<&'static str, Response = u16, Error = &'static str, Future: Send> + Clone,
    Arc<Mutex<Vec<u64>>>,
) {
    let start = tokio::time::Instant::now();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let service = service_fn(move |_req: &'static str| {
        let mut calls = seen.lock().unwrap();
        let status = script.get(calls.len()).copied().unwrap_or(200);
        calls.push(start.elapsed().as_millis() as u64);
        async move { Ok(status) }
    });
    (service, calls)
}

fn classify(result: &Result<u16, &'static str>) -> Verdict {
    match result {
        Ok(429) => Verdict::with_hint(ServerHint::RetryAfterMs(10_000)),
        Ok(s) if *s >= 500 => Verdict::RETRY,
        Err(_) => Verdict::RETRY,
        Ok(_) => Verdict::Stop,
    }
}

#[tokio::test(start_paused = true)]
async fn retries_503_with_the_vector_delays_then_returns_200() {
    // schedule-preset-google.json, seed 0: 1274, 2451 ms.
    let (service, calls) = scripted(&[503, 503, 200]);
    let policy = TowerPolicy::new(Policy::google(), classify).seed(0);
    let retry = tower::retry::Retry::new(policy, service);
    assert_eq!(retry.oneshot("GET /").await, Ok(200));
    assert_eq!(*calls.lock().unwrap(), [0, 1274, 1274 + 2451]);
}

#[tokio::test(start_paused = true)]
async fn gives_up_after_max_retries_with_the_last_response() {
    // schedule-preset-aws.json, seed 0: 27, 90 ms, then max_retries (2).
    let (service, calls) = scripted(&[500, 500, 500, 500]);
    let policy = TowerPolicy::new(Policy::aws_standard(), classify).seed(0);
    let out = tower::retry::Retry::new(policy, service)
        .oneshot("GET /")
        .await;
    assert_eq!(out, Ok(500));
    assert_eq!(*calls.lock().unwrap(), [0, 27, 27 + 90]);
}

#[tokio::test(start_paused = true)]
async fn a_retry_after_hint_is_a_lower_bound() {
    let (service, calls) = scripted(&[429]);
    let policy = TowerPolicy::new(Policy::google(), classify).seed(0);
    let out = tower::retry::Retry::new(policy, service)
        .oneshot("GET /")
        .await;
    assert_eq!(out, Ok(200));
    assert_eq!(*calls.lock().unwrap(), [0, 10_000]);
}

#[tokio::test(start_paused = true)]
async fn each_request_gets_its_own_backoff_and_the_budget_is_shared() {
    // call_seed(0, 0) = 0 and call_seed(0, 1) (SPEC.md §14), by the model: first delays 1274 and
    // 1606 ms.
    let budget = Arc::new(AtomicRetryBudget::grpc(10, 1000).unwrap());
    let hits = Arc::new(AtomicU32::new(0));
    let start = tokio::time::Instant::now();
    let times = Arc::new(Mutex::new(Vec::new()));
    let (h, t) = (Arc::clone(&hits), Arc::clone(&times));
    let service = service_fn(move |req: u32| {
        let n = h.fetch_add(1, Ordering::SeqCst);
        t.lock()
            .unwrap()
            .push((req, start.elapsed().as_millis() as u64));
        async move { Ok::<u16, &'static str>(if n < 2 { 503 } else { 200 }) }
    });
    let policy = TowerPolicy::new(Policy::google(), |r: &Result<u16, &str>| match r {
        Ok(503) => Verdict::RETRY,
        _ => Verdict::Stop,
    })
    .seed(0)
    .with_budget(Arc::clone(&budget));
    let retry = tower::retry::Retry::new(policy, service);
    let (a, b) = tokio::join!(retry.clone().oneshot(1), retry.oneshot(2));
    assert_eq!((a, b), (Ok(200), Ok(200)));
    let mut times = times.lock().unwrap().clone();
    times.sort();
    assert_eq!(times, [(1, 0), (1, 1274), (2, 0), (2, 1606)]);
    // Two failures cost 2 tokens; two successes after a retry refund 1 each (ratio 1000).
    assert_eq!(budget.tokens_milli(), 10_000);
    budget.record_failure(seeded_backoff::FailureKind::Error);
    assert_eq!(budget.tokens_milli(), 9_000);
}

#[tokio::test(start_paused = true)]
async fn concurrent_requests_have_distinct_reproducible_schedules() {
    // 32 requests at once, each failing twice: together they wait exactly the first two delays
    // of call_seed(9, 0..32) (SPEC.md §14), each its own, the same on a second run.
    async fn run(seed: u64) -> Vec<Vec<u64>> {
        let start = tokio::time::Instant::now();
        let times = Arc::new(Mutex::new(Vec::new()));
        let t = Arc::clone(&times);
        let service = service_fn(move |req: u32| {
            let mut times = t.lock().unwrap();
            let tries = times.iter().filter(|(r, _)| *r == req).count();
            times.push((req, start.elapsed().as_millis() as u64));
            async move { Ok::<u16, &'static str>(if tries < 2 { 503 } else { 200 }) }
        });
        let policy = TowerPolicy::new(Policy::google(), |r: &Result<u16, &str>| match r {
            Ok(503) => Verdict::RETRY,
            _ => Verdict::Stop,
        })
        .seed(seed);
        let retry = tower::retry::Retry::new(policy, service);
        let calls: Vec<_> = (0..32)
            .map(|k| Box::pin(retry.clone().oneshot(k)))
            .collect();
        for out in futures_join(calls).await {
            assert_eq!(out, Ok(200));
        }
        let times = times.lock().unwrap().clone();
        let mut waits: Vec<Vec<u64>> = (0..32)
            .map(|k| {
                let at: Vec<u64> = times
                    .iter()
                    .filter(|(r, _)| *r == k)
                    .map(|&(_, t)| t)
                    .collect();
                at.windows(2).map(|w| w[1] - w[0]).collect()
            })
            .collect();
        waits.sort();
        waits
    }
    let policy = Policy::google();
    let mut expected: Vec<Vec<u64>> = (0..32)
        .map(|i| {
            let mut b = Backoff::new(&policy, call_seed(9, i));
            (0..2)
                .map(|_| u64::from(b.next_delay(&policy).delay_ms().unwrap()))
                .collect()
        })
        .collect();
    expected.sort();
    let waits = run(9).await;
    assert_eq!(waits, expected);
    let mut distinct = waits.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 32);
    assert_eq!(run(9).await, waits);
}

/// Awaits every future concurrently on this task (the dev-dependencies have no `futures`).
async fn futures_join<F: std::future::Future + Unpin>(mut futures: Vec<F>) -> Vec<F::Output> {
    let mut out: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, slot) in futures.iter_mut().zip(out.iter_mut()) {
            if slot.is_none() {
                match std::pin::Pin::new(f).poll(cx) {
                    std::task::Poll::Ready(v) => *slot = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    out.into_iter().map(|v| v.unwrap()).collect()
}

#[cfg(feature = "http")]
#[tokio::test(start_paused = true)]
async fn mark_exhausted_puts_the_give_up_in_the_last_responses_extensions() {
    use seeded_backoff::{
        tower::{mark_exhausted, RetriesExhausted},
        GiveUpReason,
    };
    let answer = |status: u16| {
        let service = service_fn(move |_req: &'static str| async move {
            Ok::<_, &'static str>(http::Response::builder().status(status).body(()).unwrap())
        });
        let policy = TowerPolicy::new(
            Policy::aws_standard(),
            |r: &Result<http::Response<()>, &str>| match r {
                Ok(response) => Verdict::from_http(response),
                Err(_) => Verdict::RETRY,
            },
        )
        .seed(0)
        .on_give_up(mark_exhausted);
        tower::retry::Retry::new(policy, service).oneshot("GET /")
    };
    let response = answer(503).await.unwrap();
    assert_eq!(
        response.extensions().get::<RetriesExhausted>(),
        Some(&RetriesExhausted {
            attempts: 3,
            reason: GiveUpReason::MaxRetries
        })
    );
    // A permanent answer, returned at once, is not marked: its retries did not run out.
    let response = answer(404).await.unwrap();
    assert_eq!(response.extensions().get::<RetriesExhausted>(), None);
}
