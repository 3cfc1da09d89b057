//! What the `tower` feature adds for a send rate (SPEC.md §17): a `tower::Layer` that paces every
//! call of the service it wraps through one shared [`AtomicSendRate`].
//!
//! A `tower::retry::Policy` such as [`TowerPolicy`](crate::tower::TowerPolicy) is asked only after an
//! attempt ends, so it can space retries but never a first attempt, and a send rate gates every
//! attempt. A layer sees every call; under tower's `RetryLayer` each retry is a call too, so one
//! rate paces first attempts and retries alike. The clock is the Tokio loop's
//! ([`Retry::run_tokio`](crate::Retry::run_tokio)), so a rate shared by this layer and by retry
//! loops reads one scale.

extern crate std;

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use core::time::Duration;
use std::boxed::Box;
use std::sync::Arc;

use crate::run::SendGate;
use crate::send_rate::{Answer, AtomicSendRate, Pace};
use crate::tokio_support::tokio_now_ms;

/// Why a [`SendRateService`] did not send a call: its send rate is fail-fast
/// ([`SendRateConfig::fail_fast`](crate::send_rate::SendRateConfig::fail_fast)) and would have made it wait.
/// The service's error is made from it (`E: From<SendRefused>`, as a `tower::BoxError` is), and
/// the inner service is not called.
///
/// ```
/// use seeded_backoff::tower::SendRefused;
/// assert_eq!(SendRefused { wait_ms: 250 }.to_string(), "not sent: the send rate has a slot in 250 ms");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SendRefused {
    /// Milliseconds until the send rate would send (a gateway may pass it on as `Retry-After`).
    pub wait_ms: u32,
}

impl fmt::Display for SendRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not sent: the send rate has a slot in {} ms",
            self.wait_ms
        )
    }
}

impl core::error::Error for SendRefused {}

/// A `tower::Layer` (tower 0.5) that paces every call of the service it wraps through one shared
/// [`AtomicSendRate`]: before each call it asks the rate (SPEC.md §17.4), sleeping on Tokio's
/// timer while it says wait and failing with [`SendRefused`] when a fail-fast rate refuses; after
/// the inner future resolves it tells the rate `answer(&result)` with the time it let the call go
/// (§17.5: a throttle of a call let go before the rate's last cut does not cut it again). Clones
/// of the layer and
/// of its services share the rate.
///
/// Put it under `RetryLayer`, as below, so that each retry is a call it paces: above it, it would
/// pace only the first attempt of each request; tell the policy so with
/// [`TowerPolicy::behind_send_rate`](crate::tower::TowerPolicy::behind_send_rate), and a throttled retry
/// waits for the rate rather than its own backoff (SPEC.md §15.2). A fail-fast refusal reaches
/// the retry policy as an error; classify it as a stop, or the policy retries what the rate
/// refused.
///
/// ```
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// use std::sync::{Arc, Mutex};
/// use seeded_backoff::send_rate::{Answer, AtomicSendRate, SendRateConfig};
/// use seeded_backoff::tower::{SendRateLayer, TowerPolicy};
/// use seeded_backoff::{Jitter, Policy, Verdict};
/// use tower::{retry::RetryLayer, service_fn, BoxError, ServiceBuilder, ServiceExt};
///
/// // 10 requests/s, one at a time: min = max holds the rate there once a throttle turns it on.
/// let config = SendRateConfig { min_rate_milli: 10_000, max_rate_milli: 10_000, burst: 1, ..SendRateConfig::DEFAULT };
/// let rate = Arc::new(AtomicSendRate::new(config).unwrap());
/// let layer = SendRateLayer::new(Arc::clone(&rate), |r: &Result<u16, BoxError>| match r {
///     Ok(status) => Answer::from_http(*status, None),
///     Err(_) => Answer::NoAnswer,
/// });
/// rate.on_answer(layer.now_ms(), Answer::Throttled { hint_ms: 0 });
///
/// let start = tokio::time::Instant::now();
/// let calls = Arc::new(Mutex::new(Vec::new()));
/// let seen = Arc::clone(&calls);
/// let server = service_fn(move |_req: ()| {
///     let mut seen = seen.lock().unwrap();
///     seen.push(start.elapsed().as_millis());
///     let status = if seen.len() == 1 { 503 } else { 200 };
///     async move { Ok::<u16, BoxError>(status) }
/// });
/// // The retry is due 5 ms after the 503; the rate holds it to 100 ms after the first call.
/// let policy = Policy::google().to_builder().initial_ms(5).jitter(Jitter::None).build().unwrap();
/// let retry = TowerPolicy::new(policy, |r: &Result<u16, BoxError>| match r {
///     Ok(status) => Verdict::from_status(*status, None),
///     Err(_) => Verdict::Stop,
/// }).seed(1)
/// .behind_send_rate();
/// let service = ServiceBuilder::new().layer(RetryLayer::new(retry)).layer(layer).service(server);
/// assert_eq!(service.oneshot(()).await.unwrap(), 200);
/// assert_eq!(*calls.lock().unwrap(), [0, 100]);
/// # }
/// ```
///
/// Any [`SendGate`] shared by the calls serves as the rate (`G`): a fleet's
/// [`SharedSendRate`](crate::shared::SharedSendRate) paces the calls of every process together.
#[derive(Debug)]
pub struct SendRateLayer<A, G = AtomicSendRate> {
    rate: Arc<G>,
    answer: A,
}

// By hand, as for the service below: a derive would ask `G: Clone`, and only the `Arc` is cloned.
impl<A: Clone, G> Clone for SendRateLayer<A, G> {
    fn clone(&self) -> Self {
        SendRateLayer {
            rate: Arc::clone(&self.rate),
            answer: self.answer.clone(),
        }
    }
}

impl<A, G> SendRateLayer<A, G> {
    /// A layer over `rate`, telling it `answer(&result)` of each call: for HTTP,
    /// [`Answer::from_http`] of the status and hint, [`Answer::NoAnswer`] for an error that is no
    /// response.
    pub fn new(rate: Arc<G>, answer: A) -> Self {
        SendRateLayer { rate, answer }
    }

    /// The send rate this layer paces with.
    pub fn rate(&self) -> &Arc<G> {
        &self.rate
    }

    /// Milliseconds on the clock this layer reads (the Tokio loop's): the scale for anything else
    /// asking or telling the same rate.
    pub fn now_ms(&self) -> u64 {
        tokio_now_ms()
    }
}

impl<S, A: Clone, G> tower::Layer<S> for SendRateLayer<A, G> {
    type Service = SendRateService<S, A, G>;

    fn layer(&self, inner: S) -> SendRateService<S, A, G> {
        SendRateService {
            inner,
            rate: Arc::clone(&self.rate),
            answer: self.answer.clone(),
        }
    }
}

/// The service a [`SendRateLayer`] wraps around another.
#[derive(Debug)]
pub struct SendRateService<S, A, G = AtomicSendRate> {
    inner: S,
    rate: Arc<G>,
    answer: A,
}

impl<S: Clone, A: Clone, G> Clone for SendRateService<S, A, G> {
    fn clone(&self) -> Self {
        SendRateService {
            inner: self.inner.clone(),
            rate: Arc::clone(&self.rate),
            answer: self.answer.clone(),
        }
    }
}

impl<S, A, G, Req> tower::Service<Req> for SendRateService<S, A, G>
where
    G: SendGate + Send + Sync + 'static,
    S: tower::Service<Req> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: From<SendRefused>,
    Req: Send + 'static,
    A: Fn(&Result<S::Response, S::Error>) -> Answer + Clone + Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    /// Boxed: naming the future needs no pin projection, so the crate needs no unchecked code.
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send + 'static>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Req) -> Self::Future {
        // The service that said it is ready takes the call, after the wait; a clone stays for the
        // next `poll_ready`.
        let clone = self.inner.clone();
        let mut inner = core::mem::replace(&mut self.inner, clone);
        let (rate, answer) = (Arc::clone(&self.rate), self.answer.clone());
        Box::pin(async move {
            // Each wait asks again: nothing is reserved, so a cut while waiting applies (§17.4).
            let sent = loop {
                let now = tokio_now_ms();
                match SendGate::before_attempt(&*rate, now) {
                    Pace::Send => break now,
                    Pace::Wait { ms } => tokio::time::sleep(Duration::from_millis(ms.into())).await,
                    Pace::Refuse { ms } => return Err(SendRefused { wait_ms: ms }.into()),
                }
            };
            let result = inner.call(req).await;
            // With its send time: a throttle of a call admitted before the rate's last cut
            // answers the old rate and does not cut it again (SPEC.md §17.5).
            SendGate::on_answer_sent(&*rate, tokio_now_ms(), sent, answer(&result));
            result
        })
    }
}
