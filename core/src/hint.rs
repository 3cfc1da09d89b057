//! Server hints: `Retry-After` (RFC 9110 §10.2.3) and gRPC's `grpc-retry-pushback-ms`, parsed
//! without allocation (SPEC.md §8); the rate-limit headers are in `rate_limit.rs`.

use crate::decimal::{digits, sat32, seconds_to_ms};
use crate::parse_error::ParseError;

/// What the server said about retrying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerHint {
    /// Wait at least this long (a lower bound on the computed delay, clamped to `max_hint_ms`).
    RetryAfterMs(u32),
    /// A rate-limit quota resets in this many ms (SPEC.md §8.3): wait at least that long (clamped
    /// to `max_hint_ms`) plus an upward jitter of up to 1 s + 10 %, so that clients told the same
    /// reset time do not all return at that instant. From [`parse_rate_limit`](crate::parse_rate_limit).
    RateLimitResetMs(u32),
    /// Do not retry at all.
    DoNotRetry,
}

impl ServerHint {
    /// The hint a `grpc-retry-pushback-ms` value gives. As gRFC A6 requires, a negative or
    /// unparseable value means "do not retry".
    ///
    /// ```
    /// use seeded_backoff::ServerHint;
    /// assert_eq!(ServerHint::from_grpc_pushback(b"250"), ServerHint::RetryAfterMs(250));
    /// assert_eq!(ServerHint::from_grpc_pushback(b"-1"), ServerHint::DoNotRetry);
    /// assert_eq!(ServerHint::from_grpc_pushback(b"soon"), ServerHint::DoNotRetry);
    /// ```
    pub fn from_grpc_pushback(value: &[u8]) -> ServerHint {
        match parse_grpc_pushback(value) {
            Ok(ms) => ServerHint::RetryAfterMs(ms),
            Err(_) => ServerHint::DoNotRetry,
        }
    }
}

/// The longest header value a parser reads, in bytes (SPEC.md §8): a longer one is
/// [`ParseError::TooLong`] in every binding, whatever it holds, so that bindings with a fixed
/// buffer (the npm package's) and bindings without one answer alike. Real servers send a few bytes;
/// HTTP servers commonly refuse header fields over 8 KiB.
pub const MAX_HEADER_VALUE_LEN: usize = 8192;

/// `value`, if it is not longer than [`MAX_HEADER_VALUE_LEN`] and is ASCII (SPEC.md §8): a byte
/// above 0x7F is [`ParseError::InvalidFormat`] in every header, so that text bindings, whatever
/// encoding an HTTP library decoded a value with, answer as the byte bindings do.
pub(crate) fn bounded(value: &[u8]) -> Result<&[u8], ParseError> {
    if value.len() > MAX_HEADER_VALUE_LEN {
        Err(ParseError::TooLong)
    } else if !value.is_ascii() {
        Err(ParseError::InvalidFormat)
    } else {
        Ok(value)
    }
}

pub(crate) fn trim(value: &[u8]) -> &[u8] {
    let is_ws = |b: &u8| *b == b' ' || *b == b'\t';
    let start = value.iter().position(|b| !is_ws(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !is_ws(b))
        .map_or(start, |i| i + 1);
    value.get(start..end).unwrap_or(&[])
}

/// Parses a `Retry-After` value into milliseconds from `now_unix_s`.
///
/// Accepts delta-seconds (saturating, never an overflow error) and the three HTTP-date formats a
/// recipient must accept. A date in the past gives 0. Surrounding spaces and tabs are allowed.
///
/// ```
/// use seeded_backoff::{parse_retry_after, ParseError};
/// assert_eq!(parse_retry_after(b"120", 0), Ok(120_000));
/// let now = 784_111_777 - 30; // 30 s before the RFC's example date
/// assert_eq!(parse_retry_after(b"Sun, 06 Nov 1994 08:49:37 GMT", now), Ok(30_000));
/// assert_eq!(parse_retry_after(b"Sunday, 06-Nov-94 08:49:37 GMT", now), Ok(30_000));
/// assert_eq!(parse_retry_after(b"Sun Nov  6 08:49:37 1994", now), Ok(30_000));
/// assert_eq!(parse_retry_after(b"Sun, 30 Feb 2025 00:00:00 GMT", now), Err(ParseError::BadDay));
/// ```
pub fn parse_retry_after(value: &[u8], now_unix_s: u64) -> Result<u32, ParseError> {
    match parse_retry_after_seconds(value) {
        Err(ParseError::InvalidFormat) if value.is_ascii() => Ok(seconds_to_ms(
            crate::httpdate::seconds_until(trim(value), now_unix_s)?,
        )),
        other => other,
    }
}

/// The delta-seconds form of `Retry-After` alone: what [`parse_retry_after`] answers for it, and
/// [`ParseError::InvalidFormat`] for anything else, an HTTP-date included.
///
/// Servers send delta-seconds far more often than dates, so a binding that ships the date parser
/// separately (the npm package) answers the common case with this and loads the rest only when a
/// value is not delta-seconds.
///
/// ```
/// use seeded_backoff::bindings::parse_retry_after_seconds;
/// use seeded_backoff::ParseError;
/// assert_eq!(parse_retry_after_seconds(b" 120 "), Ok(120_000));
/// assert_eq!(parse_retry_after_seconds(b"-1"), Err(ParseError::Negative));
/// // Zero-padded to the bound is still read; one byte more is not.
/// let mut padded = [b'0'; 8192];
/// padded[8191] = b'7';
/// assert_eq!(parse_retry_after_seconds(&padded), Ok(7_000));
/// assert_eq!(parse_retry_after_seconds(&[b'0'; 8193]), Err(ParseError::TooLong));
/// let date = b"Sun, 06 Nov 1994 08:49:37 GMT";
/// assert_eq!(parse_retry_after_seconds(date), Err(ParseError::InvalidFormat));
/// ```
pub fn parse_retry_after_seconds(value: &[u8]) -> Result<u32, ParseError> {
    let value = trim(bounded(value)?);
    match value.first() {
        None => Err(ParseError::Empty),
        Some(b'-') => Err(ParseError::Negative),
        _ => digits(value)
            .map(seconds_to_ms)
            .ok_or(ParseError::InvalidFormat),
    }
}

/// Parses a `grpc-retry-pushback-ms` value: non-negative decimal milliseconds, saturating.
///
/// ```
/// use seeded_backoff::{parse_grpc_pushback, ParseError};
/// assert_eq!(parse_grpc_pushback(b" 1500 "), Ok(1500));
/// assert_eq!(parse_grpc_pushback(b"-1"), Err(ParseError::Negative));
/// ```
pub fn parse_grpc_pushback(value: &[u8]) -> Result<u32, ParseError> {
    let value = trim(bounded(value)?);
    match value.first() {
        None => Err(ParseError::Empty),
        Some(b'-') => Err(ParseError::Negative),
        _ => digits(value).map(sat32).ok_or(ParseError::InvalidFormat),
    }
}
