//! What the `tower` and `http` features add on the server: a `tower::Layer` that gives each 429 or
//! 503 response of the service it wraps its slot from a shared [`Pacer`] (SPEC.md §16).

extern crate std;

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::boxed::Box;
use std::sync::{Arc, Mutex, PoisonError};

use crate::pacer::{Pacer, PacerSlot};

/// Sets the pacer's headers (SPEC.md §16.4) on `headers`, replacing any value they had.
///
/// ```
/// use seeded_backoff::pacer::PacerSlot;
/// use seeded_backoff::tower::pace_headers;
/// let mut headers = http::HeaderMap::new();
/// pace_headers(PacerSlot { retry_after_s: 2, reset_ms: 1500, full: false }, &mut headers);
/// assert_eq!(headers["retry-after"], "2");
/// assert_eq!(headers["ratelimit-reset"], "1.500");
/// assert_eq!(headers["ratelimit"], "\"pacer\";r=0;t=2");
/// ```
pub fn pace_headers(slot: PacerSlot, headers: &mut http::HeaderMap) {
    for (name, value) in slot.headers().pairs() {
        // Digits, a dot, quotes, `;` and `=`: always a valid header value.
        if let Ok(value) = http::HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
}

/// What a [`PaceLayer`] assigns slots from: a pacer behind a lock, or a fleet's
/// [`SharedPacer`](crate::shared::SharedPacer), whose replicas then hand out one schedule.
pub trait PaceSource: Send + Sync {
    /// [`Pacer::assign`] at `now_ms`, on whatever state the source shares.
    fn assign(&self, now_ms: u64) -> PacerSlot;
}

impl PaceSource for Mutex<Pacer> {
    /// A poisoned lock is taken all the same: `assign` cannot panic, so no thread left the pacer
    /// half-updated.
    fn assign(&self, now_ms: u64) -> PacerSlot {
        self.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .assign(now_ms)
    }
}

#[cfg(feature = "valkey")]
impl PaceSource for crate::shared::SharedPacer {
    fn assign(&self, now_ms: u64) -> PacerSlot {
        crate::shared::SharedPacer::assign(self, now_ms)
    }
}

/// The shared pacer and the start of the monotonic clock it is fed, as milliseconds since.
#[derive(Debug)]
struct Clocked<P> {
    pacer: Arc<P>,
    start: tokio::time::Instant,
}

// By hand: a derive would ask `P: Clone`, and only the `Arc` is cloned.
impl<P> Clone for Clocked<P> {
    fn clone(&self) -> Self {
        Clocked {
            pacer: Arc::clone(&self.pacer),
            start: self.start,
        }
    }
}

impl<P: PaceSource> Clocked<P> {
    /// Assigns a slot at the current time.
    fn assign(&self) -> PacerSlot {
        let now_ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.pacer.assign(now_ms)
    }

    /// Paces `response` if it is a 429 or a 503.
    fn pace<B>(&self, response: &mut http::Response<B>) {
        if Pacer::paces(response.status().as_u16()) {
            pace_headers(self.assign(), response.headers_mut());
        }
    }
}

/// A `tower::Layer` (tower 0.5) that paces the refusals of the service it wraps: every 429 or 503
/// response gets its own slot from one shared [`Pacer`], fed a monotonic clock (Tokio's) started
/// when the layer is made, and carries it as `retry-after`, `ratelimit-reset` and `ratelimit`
/// (SPEC.md §16.4), replacing any the service set. Other responses pass unchanged. Clones of the
/// layer and of its services share the pacer and the clock.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use seeded_backoff::pacer::Pacer;
/// use seeded_backoff::tower::PaceLayer;
/// use tower::{service_fn, Layer, ServiceExt};
///
/// // 1000 requests/s, none kept for first attempts, no wait above 60 s.
/// let layer = PaceLayer::new(Pacer::new(1000, 0, 60, 7).unwrap());
/// let busy = service_fn(|_req: http::Request<()>| async {
///     Ok::<_, std::convert::Infallible>(http::Response::builder().status(429).body(()).unwrap())
/// });
/// let service = layer.layer(busy);
/// let response = service.oneshot(http::Request::new(())).await.unwrap();
/// assert_eq!(response.headers()["retry-after"], "1");
/// assert_eq!(response.headers()["ratelimit"], "\"pacer\";r=0;t=1");
/// # }
/// ```
///
/// Over a fleet's [`SharedPacer`](crate::shared::SharedPacer) ([`PaceLayer::over`]), every
/// replica's refusals share one schedule.
#[derive(Debug)]
pub struct PaceLayer<P = Mutex<Pacer>> {
    clocked: Clocked<P>,
}

// By hand, as for the service below: a derive would ask `P: Clone`, and only the `Arc` is cloned.
impl<P> Clone for PaceLayer<P> {
    fn clone(&self) -> Self {
        PaceLayer {
            clocked: self.clocked.clone(),
        }
    }
}

impl PaceLayer {
    /// A layer over its own pacer, its clock started now.
    pub fn new(pacer: Pacer) -> Self {
        PaceLayer::shared(Arc::new(Mutex::new(pacer)))
    }

    /// A layer over a pacer the caller also holds (to read [`Pacer::pending`], say), its clock
    /// started now.
    pub fn shared(pacer: Arc<Mutex<Pacer>>) -> Self {
        PaceLayer::over(pacer)
    }
}

impl<P> PaceLayer<P> {
    /// A layer over any [`PaceSource`], its clock started now.
    pub fn over(pacer: Arc<P>) -> Self {
        PaceLayer {
            clocked: Clocked {
                pacer,
                start: tokio::time::Instant::now(),
            },
        }
    }

    /// The pacer this layer assigns from.
    pub fn pacer(&self) -> &Arc<P> {
        &self.clocked.pacer
    }

    /// Milliseconds on the clock this layer feeds its pacer.
    pub fn now_ms(&self) -> u64 {
        u64::try_from(self.clocked.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

impl<S, P> tower::Layer<S> for PaceLayer<P> {
    type Service = PacedService<S, P>;

    fn layer(&self, inner: S) -> PacedService<S, P> {
        PacedService {
            inner,
            clocked: self.clocked.clone(),
        }
    }
}

/// The service a [`PaceLayer`] wraps around another.
#[derive(Debug)]
pub struct PacedService<S, P = Mutex<Pacer>> {
    inner: S,
    clocked: Clocked<P>,
}

impl<S: Clone, P> Clone for PacedService<S, P> {
    fn clone(&self) -> Self {
        PacedService {
            inner: self.inner.clone(),
            clocked: self.clocked.clone(),
        }
    }
}

impl<S, P, Req, B> tower::Service<Req> for PacedService<S, P>
where
    P: PaceSource + 'static,
    S: tower::Service<Req, Response = http::Response<B>>,
    S::Future: Send + 'static,
    B: 'static,
{
    type Response = http::Response<B>;
    type Error = S::Error;
    /// Boxed: naming the future needs no pin projection, so the crate needs no unchecked code.
    type Future =
        Pin<Box<dyn Future<Output = Result<http::Response<B>, S::Error>> + Send + 'static>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Req) -> Self::Future {
        let response = self.inner.call(req);
        let clocked = self.clocked.clone();
        Box::pin(async move {
            let mut response = response.await?;
            clocked.pace(&mut response);
            Ok(response)
        })
    }
}
