//! Which outcomes are worth retrying (SPEC.md §7): Google retries 5xx and 429, nothing else.

/// What to do with an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Classification {
    /// It worked: call [`Backoff::reset`](crate::Backoff::reset) if the state is reused.
    Success,
    /// A transient failure: ask the backoff for a delay.
    Retry,
    /// A permanent failure: report it now.
    DoNotRetry,
    /// Not a valid status at all.
    Invalid,
}

impl Classification {
    /// The snake_case name used in vectors and the bindings.
    pub const fn name(self) -> &'static str {
        match self {
            Classification::Success => "success",
            Classification::Retry => "retry",
            Classification::DoNotRetry => "do_not_retry",
            Classification::Invalid => "invalid",
        }
    }
}

/// Classifies an HTTP status: 2xx success; 429 and 5xx retry; other 100–599 do not retry; anything
/// else is invalid.
///
/// It takes a `u16`, the type of `http::StatusCode::as_u16()` (hyper, reqwest, axum), so
/// `classify_http(resp.status().as_u16())` needs no cast. A binding holding a wider integer maps
/// values above `u16::MAX` to [`Classification::Invalid`].
///
/// ```
/// use seeded_backoff::{classify_http, Classification};
/// assert_eq!(classify_http(503), Classification::Retry);
/// assert_eq!(classify_http(429), Classification::Retry);
/// assert_eq!(classify_http(404), Classification::DoNotRetry);
/// assert_eq!(classify_http(204), Classification::Success);
/// assert_eq!(classify_http(600), Classification::Invalid);
/// ```
pub const fn classify_http(status: u16) -> Classification {
    match status {
        200..=299 => Classification::Success,
        429 | 500..=599 => Classification::Retry,
        100..=599 => Classification::DoNotRetry,
        _ => Classification::Invalid,
    }
}

/// Whether an HTTP status should be retried (429 or 5xx).
pub const fn is_retryable_http(status: u16) -> bool {
    matches!(classify_http(status), Classification::Retry)
}

/// Classifies a gRPC status code: OK success; UNAVAILABLE (14) and RESOURCE_EXHAUSTED (8) retry;
/// other codes up to 16 do not retry; above 16 is invalid.
///
/// ```
/// use seeded_backoff::{classify_grpc, Classification};
/// assert_eq!(classify_grpc(14), Classification::Retry);
/// assert_eq!(classify_grpc(5), Classification::DoNotRetry);
/// ```
pub const fn classify_grpc(code: u32) -> Classification {
    match code {
        0 => Classification::Success,
        8 | 14 => Classification::Retry,
        1..=16 => Classification::DoNotRetry,
        _ => Classification::Invalid,
    }
}
