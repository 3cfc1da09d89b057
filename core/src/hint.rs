//! Server hints: `Retry-After` (RFC 9110 §10.2.3) and gRPC's `grpc-retry-pushback-ms`, parsed
//! without allocation (SPEC.md §8), and a response's hint from its headers (§8.3); the rate-limit
//! headers' parsers are in `rate_limit.rs`.

use crate::decimal::{digits, sat32, seconds_to_ms};
use crate::parse_error::ParseError;
use crate::rate_limit::{
    parse_rate_limit, rate_limit_applies, RateLimitHeader, RATE_LIMIT_HEADERS, RETRY_AFTER,
};

/// What the server said about retrying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerHint {
    /// Wait at least this long (a lower bound on the computed delay, clamped to `max_hint_ms`).
    RetryAfterMs(u32),
    /// A rate-limit quota resets in this many ms (SPEC.md §8.3): wait at least that long (clamped
    /// to `max_hint_ms`) plus an upward jitter of up to 1 s + 10 %, so that clients told the same
    /// reset time do not all return at that instant. From [`parse_rate_limit`](crate::http::parse_rate_limit).
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
/// use seeded_backoff::http::ParseError;
/// use seeded_backoff::parse_retry_after;
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
/// use seeded_backoff::http::ParseError;
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
/// use seeded_backoff::http::{parse_grpc_pushback, ParseError};
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

impl ServerHint {
    /// The hint a response's headers give (SPEC.md §8.3 step 1): a valid `Retry-After` (any status);
    /// else, for a 429 only, the first rate-limit header of [`RATE_LIMIT_HEADERS`] that is present
    /// and parses; else none. `header` looks a rate-limit header up in the response.
    ///
    /// ```
    /// use seeded_backoff::http::RateLimitHeader;
    /// use seeded_backoff::ServerHint;
    /// let headers = |h: RateLimitHeader| (h == RateLimitHeader::XRateLimitReset).then_some(&b"30"[..]);
    /// assert_eq!(ServerHint::from_http_headers(429, None, headers, 0), Some(ServerHint::RateLimitResetMs(30_000)));
    /// assert_eq!(ServerHint::from_http_headers(503, None, headers, 0), None);
    /// assert_eq!(ServerHint::from_http_headers(429, Some(b"5"), headers, 0), Some(ServerHint::RetryAfterMs(5_000)));
    /// ```
    pub fn from_http_headers<'a>(
        status: u16,
        retry_after: Option<&[u8]>,
        mut header: impl FnMut(RateLimitHeader) -> Option<&'a [u8]>,
        now_unix_s: u64,
    ) -> Option<ServerHint> {
        if let Some(Ok(ms)) = retry_after.map(|v| parse_retry_after(v, now_unix_s)) {
            return Some(ServerHint::RetryAfterMs(ms));
        }
        if !rate_limit_applies(status) {
            return None;
        }
        RATE_LIMIT_HEADERS.into_iter().find_map(|h| {
            let value = header(h)?;
            parse_rate_limit(h, value, now_unix_s)
                .ok()
                .map(ServerHint::RateLimitResetMs)
        })
    }
}

impl ServerHint {
    /// [`ServerHint::from_http_headers`] where it needs neither the HTTP-date nor the rate-limit
    /// parser, for a binding that keeps those in a part loaded on demand (the npm package's date
    /// part): `Some(hint)` is the rule's answer; `None` means only the full rule can tell (a
    /// `Retry-After` that is not delta-seconds, or a rate-limit header on a response it applies
    /// to). A `status` beyond HTTP's u16 is no status.
    ///
    /// ```
    /// use seeded_backoff::ServerHint;
    /// assert_eq!(ServerHint::without_dates(503, Some(b"120"), false), Some(Some(ServerHint::RetryAfterMs(120_000))));
    /// assert_eq!(ServerHint::without_dates(503, None, true), Some(None)); // rate limits are a 429's
    /// assert_eq!(ServerHint::without_dates(429, None, true), None);       // the date part parses them
    /// assert_eq!(ServerHint::without_dates(503, Some(b"Sun, 06 Nov 1994 08:49:37 GMT"), false), None);
    /// ```
    pub fn without_dates(
        status: u32,
        retry_after: Option<&[u8]>,
        any_rate_limit_header: bool,
    ) -> Option<Option<ServerHint>> {
        match retry_after.map(parse_retry_after_seconds) {
            Some(Ok(ms)) => return Some(Some(ServerHint::RetryAfterMs(ms))),
            Some(Err(crate::parse_error::ParseError::InvalidFormat)) => return None,
            _ => {}
        }
        let applies = u16::try_from(status).is_ok_and(rate_limit_applies);
        (!applies || !any_rate_limit_header).then_some(None)
    }

    /// [`ServerHint::from_http_headers`] over a response's headers as name/value pairs, in the
    /// order received: names match ignoring ASCII case, and of a name given twice the first
    /// counts. The form a binding has at hand (a C array, a Python mapping's items, JS `Headers`).
    ///
    /// ```
    /// use seeded_backoff::ServerHint;
    /// let headers: [(&[u8], &[u8]); 2] = [(b"Content-Type", b"text/plain"), (b"X-RateLimit-Reset", b"30")];
    /// assert_eq!(ServerHint::from_headers(429, headers, 0), Some(ServerHint::RateLimitResetMs(30_000)));
    /// let headers: [(&[u8], &[u8]); 2] = [(b"Retry-After", b"soon"), (b"RETRY-AFTER", b"5")];
    /// assert_eq!(ServerHint::from_headers(503, headers, 0), None); // the first one counts
    /// ```
    pub fn from_headers<'a, I>(status: u16, headers: I, now_unix_s: u64) -> Option<ServerHint>
    where
        I: IntoIterator<Item = (&'a [u8], &'a [u8])> + Clone,
    {
        let find = |name: &str| {
            headers
                .clone()
                .into_iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
                .map(|(_, v)| v)
        };
        ServerHint::from_http_headers(status, find(RETRY_AFTER), |h| find(h.name()), now_unix_s)
    }
}
