//! What the `reqwest` feature adds beside [`Verdict::from_reqwest`]: a request sent with retries
//! in one call, which waits what the server's `Retry-After` asks, gives each call its own seed,
//! and ends a give-up in an error a caller can match on.

extern crate std;

use core::fmt;

use crate::budget::RetryGate;
use crate::retry::OnRetry;
use crate::send_rate::LoopSendRate;
use crate::{FailureKind, Policy, Retry, RetryError, Verdict};

/// Why an attempt of [`retry_reqwest`] failed: a response the verdict calls a retry, or no
/// response at all. It is the `cause` of the [`RetryError`] a give-up returns, so the last
/// response of a request whose retries ran out is there to read.
#[derive(Debug)]
pub enum ReqwestFailure {
    /// A 429 or 5xx response ([`Verdict::from_reqwest`]); its `Retry-After` or rate-limit hint
    /// set the wait before the next attempt.
    Response(reqwest::Response),
    /// No response: a connection error or a timeout (retried), or a request that could not be
    /// built (not retried).
    Error(reqwest::Error),
    /// Not sent: the request's body is a stream, which cannot be copied for another attempt
    /// (send it with reqwest directly).
    NotRepeatable,
}

impl fmt::Display for ReqwestFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReqwestFailure::Response(r) => write!(f, "HTTP {}", r.status()),
            ReqwestFailure::Error(e) => write!(f, "{e}"),
            ReqwestFailure::NotRepeatable => f.write_str("a streaming body cannot be sent again"),
        }
    }
}

impl std::error::Error for ReqwestFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReqwestFailure::Response(_) | ReqwestFailure::NotRepeatable => None,
            ReqwestFailure::Error(e) => Some(e),
        }
    }
}

/// Sends `request` until the server answers with anything but a 429 or 5xx, waiting between
/// attempts what `policy` says, at least what the server's `Retry-After` (or a 429's rate-limit
/// reset) asks (SPEC.md §5, §8). Each call draws a fresh seed from the operating system, so calls
/// made together retry apart; to replay a schedule, give the seed:
/// `Retry::new(&policy, seed).send_reqwest(request)`. A request whose body cannot be copied (a
/// stream) is not sent: the give-up's cause is [`ReqwestFailure::NotRepeatable`], after 0
/// attempts.
///
/// Any response but a 429 or 5xx is `Ok` (a 404 included: read its status). A give-up is a
/// [`RetryError`] whose `cause` is the last [`ReqwestFailure`] (the last 503 itself, say), with
/// the attempts made and the reason. The future is `Send`, so it can be spawned.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use seeded_backoff::{retry_reqwest, Policy};
/// let client = reqwest::Client::new();
/// let response = retry_reqwest(&Policy::google(), client.get("http://127.0.0.1:8080/")).await?;
/// # Ok(()) }
/// ```
pub async fn retry_reqwest(
    policy: &Policy,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, RetryError<ReqwestFailure>> {
    Retry::new(policy, crate::std_support::fresh_seed())
        .send_reqwest(request)
        .await
}

/// The verdict on a failed attempt: a response's own (with its hint), a timeout a retry of kind
/// timeout, a request that cannot be built none, any other error a retry.
fn classify(failure: &ReqwestFailure) -> Verdict {
    match failure {
        ReqwestFailure::Response(response) => Verdict::from_reqwest(response),
        ReqwestFailure::Error(e) if e.is_builder() => Verdict::Stop,
        ReqwestFailure::NotRepeatable => Verdict::Stop,
        ReqwestFailure::Error(e) if e.is_timeout() => Verdict::Retry {
            hint: None,
            failure_kind: FailureKind::Timeout,
            answer: None,
        },
        ReqwestFailure::Error(_) => Verdict::RETRY,
    }
}

impl<'a, G: RetryGate, C: FnMut() -> u64, H, R> Retry<'a, G, C, H, R> {
    /// [`retry_reqwest`] with this loop's seed, budget, callback and send rate, on Tokio.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    /// use seeded_backoff::{Policy, Retry};
    /// let policy = Policy::google();
    /// let client = reqwest::Client::new();
    /// // Seed 7 replays the same waits on every run.
    /// let response = Retry::new(&policy, 7).send_reqwest(client.get("http://127.0.0.1:8080/")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn send_reqwest(
        self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, RetryError<ReqwestFailure>>
    where
        H: OnRetry<ReqwestFailure>,
        R: LoopSendRate<ReqwestFailure>,
    {
        if request.try_clone().is_none() {
            return Err(RetryError {
                cause: ReqwestFailure::NotRepeatable,
                attempts: 0,
                reason: None,
            });
        }
        let op = move |_attempt: u32| {
            let copy = request.try_clone();
            async move {
                let request = copy.ok_or(ReqwestFailure::NotRepeatable)?;
                let response = request.send().await.map_err(ReqwestFailure::Error)?;
                // The status alone says whether to retry; `classify` reads the hint.
                match Verdict::from_status(response.status().as_u16(), None) {
                    Verdict::Stop => Ok(response),
                    Verdict::Retry { .. } => Err(ReqwestFailure::Response(response)),
                }
            }
        };
        self.run_tokio(op, classify).await
    }
}
