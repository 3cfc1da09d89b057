//! What the `http` feature adds: the verdict on an `http::Response` (and, with `reqwest`, on a
//! `reqwest::Response`), with its server hint, as every HTTP loop needs it (SPEC.md §7, §8.3).

extern crate std;

use std::time::SystemTime;

use crate::rate_limit::RETRY_AFTER;
use crate::{classify_http, Classification, ServerHint, Verdict};

fn now_unix_s() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Verdict {
    /// The verdict on a response's status and headers (SPEC.md §7): [`Verdict::from_status`] of
    /// the status and the response's hint (its `Retry-After`, or a 429's rate-limit reset, §8.3;
    /// `now_unix_s` dates an HTTP-date), so a 429 or 5xx is a retry carrying the send rate's
    /// answer (§17.3) and any other status, success included, is [`Verdict::Stop`]. A response
    /// this still calls a retry, returned by a retry loop, is one whose retries ran out.
    ///
    /// ```
    /// use seeded_backoff::send_rate::Answer;
    /// use seeded_backoff::{ServerHint, Verdict};
    /// let mut headers = http::HeaderMap::new();
    /// headers.insert("retry-after", http::HeaderValue::from_static("2"));
    /// let verdict = Verdict::from_http_parts(http::StatusCode::SERVICE_UNAVAILABLE, &headers, 0);
    /// assert!(matches!(verdict, Verdict::Retry { hint: Some(ServerHint::RetryAfterMs(2_000)), .. }));
    /// assert_eq!(verdict.answer(), Some(Answer::Throttled { hint_ms: 2_000 }));
    /// assert_eq!(Verdict::from_http_parts(http::StatusCode::OK, &headers, 0), Verdict::Stop);
    /// ```
    pub fn from_http_parts(
        status: http::StatusCode,
        headers: &http::HeaderMap,
        now_unix_s: u64,
    ) -> Verdict {
        let status = status.as_u16();
        if classify_http(status) != Classification::Retry {
            return Verdict::Stop;
        }
        // `HeaderMap::get` matches names ignoring case and returns a name's first value, as
        // SPEC.md §8.3 reads them.
        let value = |name: &str| headers.get(name).map(http::HeaderValue::as_bytes);
        let hint = ServerHint::from_http_headers(
            status,
            value(RETRY_AFTER),
            |h| value(h.name()),
            now_unix_s,
        );
        Verdict::from_status(status, hint)
    }

    /// [`Verdict::from_http_parts`] of an `http::Response` (any body), dated by the system clock.
    ///
    /// ```
    /// use seeded_backoff::{ServerHint, Verdict};
    /// let response = http::Response::builder().status(429).header("ratelimit-reset", "30").body(()).unwrap();
    /// assert_eq!(Verdict::from_http(&response), Verdict::throttled(Some(ServerHint::RateLimitResetMs(30_000))));
    /// ```
    pub fn from_http<B>(response: &http::Response<B>) -> Verdict {
        Verdict::from_http_parts(response.status(), response.headers(), now_unix_s())
    }

    /// [`Verdict::from_http_parts`] of a `reqwest::Response` (feature `reqwest`, reqwest 0.13),
    /// dated by the system clock.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), reqwest::Error> {
    /// use seeded_backoff::{Policy, Verdict};
    /// let response = reqwest::get("http://127.0.0.1:8080/").await?;
    /// match Verdict::from_reqwest(&response) {
    ///     Verdict::Retry { hint, .. } => println!("retry, server hint {hint:?}"),
    ///     Verdict::Stop => println!("done: {}", response.status()),
    /// }
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "reqwest")]
    pub fn from_reqwest(response: &reqwest::Response) -> Verdict {
        Verdict::from_http_parts(response.status(), response.headers(), now_unix_s())
    }
}

/// A [`TowerPolicy`](crate::tower::TowerPolicy) give-up hook (feature `tower` with `http`) that puts the
/// [`RetriesExhausted`](crate::tower::RetriesExhausted) in the last response's extensions, so the caller
/// reads `response.extensions().get::<RetriesExhausted>()`: `Some` when retries ran out.
#[cfg(feature = "tower")]
pub fn mark_exhausted<B, E>(
    result: &mut Result<http::Response<B>, E>,
    exhausted: crate::tower::RetriesExhausted,
) {
    if let Ok(response) = result {
        response.extensions_mut().insert(exhausted);
    }
}
