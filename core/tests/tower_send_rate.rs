//! The `tower` feature's `SendRateLayer` on Tokio's paused (virtual) clock: it tells the rate
//! each call's answer, so a throttle cuts it as SPEC.md §17.5 says; a fail-fast rate refuses
//! without calling the inner service; the inner service's readiness is the layer's; and under a
//! `TowerPolicy` told so, a throttled retry waits for the rate, not its backoff. Expected
//! rates and waits are derived here from §17.4 and §17.5. (Fifty concurrent calls on real time:
//! send_rate_tasks.rs.)
#![cfg(feature = "tower")]

use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use seeded_backoff::{
    send_rate::{Answer, AtomicSendRate, SendRateConfig},
    tower::{SendRateLayer, SendRefused, TowerPolicy},
    Policy, Verdict,
};
use tower::retry::RetryLayer;
use tower::{service_fn, Layer, Service, ServiceBuilder, ServiceExt};

#[derive(Debug, PartialEq)]
enum Error {
    Down,
    Refused(SendRefused),
}

impl From<SendRefused> for Error {
    fn from(r: SendRefused) -> Self {
        Error::Refused(r)
    }
}

fn answer(result: &Result<u16, Error>) -> Answer {
    match result {
        Ok(status) => Answer::from_http(*status, None),
        Err(_) => Answer::NoAnswer,
    }
}

/// A service answering `status(n)` to its n-th call (from 0), recording when each arrives, in ms
/// of virtual time since `start`.
fn recorded(
    start: tokio::time::Instant,
    status: fn(usize) -> u16,
) -> (
    impl Service<(), Response = u16, Error = Error, Future: Send> + Clone + Send + 'static,
    Arc<Mutex<Vec<u128>>>,
) {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let service = service_fn(move |()| {
        let mut seen = seen.lock().unwrap();
        let s = status(seen.len());
        seen.push(start.elapsed().as_millis());
        async move { Ok::<u16, Error>(s) }
    });
    (service, calls)
}

/// The layer's clock has one origin per process, set by its first reading, which a test on
/// another runtime, so on another virtual clock, may have made ahead of this one: until this
/// runtime's clock passes it, readings stand at 0. Virtual time is advanced until they move.
async fn past_the_clocks_origin<A>(layer: &SendRateLayer<A>) {
    while layer.now_ms() == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_throttled_answer_cuts_the_rate_to_the_accepted_rate_less_the_margin() {
    // Burst 1: each call after the throttle goes one interval after the one before it.
    let config = SendRateConfig {
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let rate = Arc::new(AtomicSendRate::new(config).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), answer);
    past_the_clocks_origin(&layer).await;
    let start = tokio::time::Instant::now();
    let (inner, calls) = recorded(start, |n| if n == 10 { 429 } else { 200 });
    let mut service = layer.layer(inner);
    // Off until the first throttle: 10 calls 10 ms apart all go, then an 11th is refused (429).
    for n in 0..11 {
        let status = service.ready().await.unwrap().call(()).await.unwrap();
        assert_eq!(status, if n == 10 { 429 } else { 200 });
        if n < 10 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    // §17.5 at the 429, 100 ms after the first call: 11 sent and 10 accepted over a 100 ms span,
    // so sent_rate 110 000 and accepted_rate 100 000; rate off, current = 110 000;
    // base = max(min(110 000, 100 000), 55 000) = 100 000; rate = 100 000 · 980 ÷ 1000.
    assert_eq!(rate.rate_milli(), 98_000);
    // §17.4: interval 10^9 ÷ 98 000 = 10 204 µs. The next call goes at once (next_us was the
    // 429's time), the one after it waits ⌈10.204⌉ = 11 ms.
    for _ in 0..2 {
        service.ready().await.unwrap().call(()).await.unwrap();
    }
    let mut want: Vec<u128> = (0..11).map(|n| n * 10).collect();
    want.extend([100, 111]);
    assert_eq!(*calls.lock().unwrap(), want);
}

#[tokio::test(start_paused = true)]
async fn two_calls_let_go_together_and_both_throttled_cut_the_rate_once() {
    let rate = Arc::new(AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), answer);
    past_the_clocks_origin(&layer).await;
    let slow = service_fn(|()| async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        Ok::<u16, Error>(429)
    });
    let (mut a, mut b) = (layer.layer(slow), layer.layer(slow));
    let first = a.ready().await.unwrap().call(());
    let second = b.ready().await.unwrap().call(());
    assert_eq!(tokio::join!(first, second), (Ok(429), Ok(429)));
    // §17.5 at the first 429, 20 ms after both went: 2 sent over the 100 ms floor (§17.2) is
    // 20 000, none accepted, so base = max(min(20 000, 0), 10 000) and the rate 10 000 · 0.98.
    // The second 429 answers a call the layer let go before that cut: it cuts nothing (a second
    // cut would give max(0, 9 800 ÷ 2) · 0.98 = 4 802).
    assert_eq!(rate.rate_milli(), 9_800);
}

#[tokio::test(start_paused = true)]
async fn a_fail_fast_rate_refuses_with_its_wait_and_does_not_call_the_inner_service() {
    let config = SendRateConfig {
        fail_fast: true,
        ..SendRateConfig::DEFAULT
    };
    let rate = Arc::new(AtomicSendRate::new(config).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), answer);
    past_the_clocks_origin(&layer).await;
    rate.on_answer(layer.now_ms(), Answer::Throttled { hint_ms: 5_000 });
    let (inner, calls) = recorded(tokio::time::Instant::now(), |_| 200);
    let service = layer.layer(inner);
    // §17.5: the 5 s hint holds every attempt; §17.4 step 2 and 5: refuse(⌈5 000 000 ÷ 1000⌉).
    let refused = service.clone().oneshot(()).await;
    assert_eq!(refused, Err(Error::Refused(SendRefused { wait_ms: 5_000 })));
    assert!(calls.lock().unwrap().is_empty());
    // Once the hold has passed, the call goes.
    tokio::time::sleep(Duration::from_millis(5_000)).await;
    assert_eq!(service.oneshot(()).await, Ok(200));
    assert_eq!(calls.lock().unwrap().len(), 1);
}

/// A service that is never ready.
#[derive(Clone)]
struct Down;

impl Service<()> for Down {
    type Response = u16;
    type Error = Error;
    type Future = std::future::Ready<Result<u16, Error>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Poll::Ready(Err(Error::Down))
    }

    fn call(&mut self, _req: ()) -> Self::Future {
        std::future::ready(Ok(200))
    }
}

#[tokio::test(start_paused = true)]
async fn the_inner_services_readiness_error_is_the_layers() {
    let rate = Arc::new(AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), answer);
    assert_eq!(layer.layer(Down).oneshot(()).await, Err(Error::Down));
    // Nothing was asked or told: the rate is as new.
    assert_eq!(
        rate.load(),
        AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap().load()
    );
}

/// A 429, then 200s, through `RetryLayer` over the layer, the rate held at 10/s (burst 1): the
/// retry's time after the first call, in virtual ms.
async fn retry_after_a_429(behind: bool) -> u128 {
    let config = SendRateConfig {
        min_rate_milli: 10_000,
        max_rate_milli: 10_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let rate = Arc::new(AtomicSendRate::new(config).unwrap());
    let layer = SendRateLayer::new(Arc::clone(&rate), answer);
    past_the_clocks_origin(&layer).await;
    rate.on_answer(layer.now_ms(), Answer::Throttled { hint_ms: 0 });
    let start = tokio::time::Instant::now();
    let (inner, calls) = recorded(start, |n| if n == 0 { 429 } else { 200 });
    let classify = |r: &Result<u16, Error>| match r {
        Ok(status) => Verdict::from_status(*status, None),
        Err(_) => Verdict::Stop,
    };
    let mut policy = TowerPolicy::new(Policy::google(), classify).seed(1);
    if behind {
        policy = policy.behind_send_rate();
    }
    let service = ServiceBuilder::new()
        .layer(RetryLayer::new(policy))
        .layer(layer)
        .service(inner);
    assert_eq!(service.oneshot(()).await, Ok(200));
    let calls = calls.lock().unwrap();
    assert_eq!((calls.len(), calls[0]), (2, 0));
    calls[1]
}

#[tokio::test(start_paused = true)]
async fn behind_a_send_rate_a_throttled_retry_waits_for_the_rate_not_its_backoff() {
    // SPEC.md §15.2: the 429 carries no hint, so the retry's wait is min(backoff, 0) = 0 and the
    // rate alone spaces it: 10^9 ÷ 10 000 = 100 000 µs after the first call.
    assert_eq!(retry_after_a_429(true).await, 100);
    // Without it, Google's first backoff: 2^0 s + random_ms, at least 1000 ms.
    assert!(retry_after_a_429(false).await >= 1000);
}
