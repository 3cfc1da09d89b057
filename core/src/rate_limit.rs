//! Rate-limit headers sent with HTTP 429 (SPEC.md §8.3): which ones, in which order, how each value
//! reads as "milliseconds until the quota resets", and when a response's hint comes from them.

use crate::coded_enum::coded_enum;
use crate::decimal::{digits, push_digit, sat32, seconds_to_ms, times};
use crate::hint::trim;
use crate::parse_error::ParseError;

coded_enum! {
    /// A rate-limit header the core understands, in precedence order (SPEC.md §8.3); its name is
    /// the header's name in lower case, as HTTP/2 sends it and `Headers.get` accepts it, and its
    /// code is its index in [`RATE_LIMIT_HEADERS`].
    ///
    /// Every binding's list of these headers (the npm package's table, the C constants, the CLI's
    /// `--header` names) is [`RATE_LIMIT_HEADERS`] or generated from it.
    ///
    /// ```
    /// use seeded_backoff::http::RateLimitHeader;
    /// assert_eq!(RateLimitHeader::from_code(1), Some(RateLimitHeader::RateLimitReset));
    /// assert_eq!(RateLimitHeader::from_code(4), None);
    /// ```
    pub enum RateLimitHeader {
        /// `RateLimit`, the IETF structured field (draft-ietf-httpapi-ratelimit-headers).
        RateLimit = 0, "ratelimit";
        /// `RateLimit-Reset`: seconds until the quota resets.
        RateLimitReset = 1, "ratelimit-reset";
        /// `X-RateLimit-Retry-After`: seconds, or a Unix time.
        XRateLimitRetryAfter = 2, "x-ratelimit-retry-after";
        /// `X-RateLimit-Reset`: seconds (GitHub sends a Unix time, Discord fractional seconds).
        XRateLimitReset = 3, "x-ratelimit-reset";
    }
}

/// Every rate-limit header, in the order a response is searched (the first present one that
/// parses wins). A header's index here is its [`RateLimitHeader::code`].
///
/// ```
/// use seeded_backoff::http::RATE_LIMIT_HEADERS;
/// let names = RATE_LIMIT_HEADERS.map(|h| h.name());
/// assert_eq!(names, ["ratelimit", "ratelimit-reset", "x-ratelimit-retry-after", "x-ratelimit-reset"]);
/// ```
pub const RATE_LIMIT_HEADERS: [RateLimitHeader; 4] = RateLimitHeader::ALL;

impl RateLimitHeader {
    /// The header a response header's name denotes, ignoring ASCII case (header names are
    /// case-insensitive).
    ///
    /// ```
    /// use seeded_backoff::http::RateLimitHeader;
    /// assert_eq!(RateLimitHeader::from_header_name(b"X-RateLimit-Reset"), Some(RateLimitHeader::XRateLimitReset));
    /// assert_eq!(RateLimitHeader::from_header_name(b"retry-after"), None);
    /// ```
    pub fn from_header_name(name: &[u8]) -> Option<RateLimitHeader> {
        RATE_LIMIT_HEADERS
            .into_iter()
            .find(|h| h.name().as_bytes().eq_ignore_ascii_case(name))
    }
}

/// Whether a response with this HTTP status is read for rate-limit headers: only a 429 (SPEC.md
/// §8.3; on a 5xx the reset time describes a quota, not the server's recovery).
///
/// ```
/// use seeded_backoff::http::rate_limit_applies;
/// assert!(rate_limit_applies(429));
/// assert!(!rate_limit_applies(503));
/// ```
pub const fn rate_limit_applies(status: u16) -> bool {
    status == 429
}

/// Epoch seconds start above this many seconds (about 31.7 years): a smaller reset is a delay.
const EPOCH_THRESHOLD_S: u64 = 1_000_000_000;

/// A reset value (`RateLimit-Reset`, `X-RateLimit-Retry-After`, `X-RateLimit-Reset`), SPEC.md
/// §8.3.2: seconds with an optional fraction (rounded up to whole ms); above 10^9 s, a Unix time.
fn parse_reset(value: &[u8], now_unix_s: u64) -> Result<u32, ParseError> {
    let value = trim(value);
    match value.first() {
        None => return Err(ParseError::Empty),
        Some(b'-') => return Err(ParseError::Negative),
        _ => {}
    }
    let (mut seconds, mut int_digits) = (0u64, 0u32);
    // The fraction: its first three digits as ms, how many digits, and whether any later one is
    // not 0 (then the ms round up).
    let (mut frac_ms, mut frac_digits, mut round_up, mut dot) = (0u64, 0u32, false, false);
    for &b in value {
        if b == b'.' && !dot {
            dot = true;
            continue;
        }
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return Err(ParseError::InvalidFormat);
        }
        if !dot {
            seconds = push_digit(seconds, d);
            int_digits = int_digits.saturating_add(1);
        } else {
            if frac_digits < 3 {
                frac_ms = frac_ms * 10 + u64::from(d);
            } else {
                round_up |= d != 0;
            }
            frac_digits = frac_digits.saturating_add(1);
        }
    }
    if int_digits == 0 || (dot && frac_digits == 0) {
        return Err(ParseError::InvalidFormat);
    }
    for _ in frac_digits..3 {
        frac_ms *= 10;
    }
    let ms = times(seconds, 1000).saturating_add(frac_ms + u64::from(round_up));
    if seconds > EPOCH_THRESHOLD_S {
        Ok(sat32(ms.saturating_sub(times(now_unix_s, 1000))))
    } else {
        Ok(sat32(ms))
    }
}

/// One quota's reset and remaining count, as far as given.
#[derive(Clone, Copy, Default)]
struct Quota {
    reset: Option<u64>,
    remaining: Option<u64>,
}

impl Quota {
    fn apply(&mut self, key: &[u8], value: &[u8]) {
        let Some(n) = digits(value) else { return };
        match key {
            b"t" | b"reset" => self.reset = Some(n),
            b"r" | b"remaining" => self.remaining = Some(n),
            _ => {}
        }
    }
}

/// The largest reset so far among exhausted quotas (`remaining` 0) and among all quotas.
#[derive(Default)]
struct Resets {
    exhausted: Option<u64>,
    any: Option<u64>,
}

impl Resets {
    fn add(&mut self, q: Quota) {
        let Some(reset) = q.reset else { return };
        self.any = self.any.max(Some(reset));
        if q.remaining == Some(0) {
            self.exhausted = self.exhausted.max(Some(reset));
        }
    }
}

/// The `RateLimit` structured field, SPEC.md §8.3.3, in one pass: pieces end at `;`, members at
/// `,` (both outside double quotes, where `\` escapes the next byte) and at the end.
fn parse_structured(value: &[u8]) -> Result<u32, ParseError> {
    if trim(value).is_empty() {
        return Err(ParseError::Empty);
    }
    let mut resets = Resets::default();
    let (mut dictionary, mut quota) = (Quota::default(), Quota::default());
    let (mut quoted, mut escaped) = (false, false);
    // The current piece's start and first `=`; whether it is its member's first piece, and
    // whether that member is a dictionary member (its first piece a pair).
    let (mut start, mut eq) = (0usize, None);
    let (mut first, mut in_dictionary) = (true, false);
    for i in 0..=value.len() {
        let b = value.get(i).copied();
        match b {
            Some(_) if escaped => escaped = false,
            Some(b'\\') if quoted => escaped = true,
            Some(b'"') => quoted = !quoted,
            Some(_) if quoted => {}
            Some(b'=') => eq = eq.or(Some(i)),
            Some(b';' | b',') | None => {
                if let Some(e) = eq {
                    let key = trim(value.get(start..e).unwrap_or(&[]));
                    let v = trim(value.get(e + 1..i).unwrap_or(&[]));
                    in_dictionary |= first;
                    match (first, in_dictionary) {
                        (true, _) => dictionary.apply(key, v),
                        (false, false) => quota.apply(key, v),
                        (false, true) => {}
                    }
                }
                (start, eq, first) = (i + 1, None, false);
                if b != Some(b';') {
                    if !in_dictionary {
                        resets.add(quota);
                    }
                    (quota, first, in_dictionary) = (Quota::default(), true, false);
                }
            }
            Some(_) => {}
        }
    }
    resets.add(dictionary);
    resets
        .exhausted
        .or(resets.any)
        .map(seconds_to_ms)
        .ok_or(ParseError::InvalidFormat)
}

/// Parses a rate-limit header's value into milliseconds until the quota resets (SPEC.md §8.3).
///
/// `RateLimit` is the IETF structured field: the largest reset (`t`, or `reset`) among quotas with
/// nothing remaining (`r`, or `remaining`, 0), else the largest reset given. The others are
/// seconds, with an optional fraction (rounded up to whole ms); above 10^9 the number is a Unix
/// time and the result is the time from `now_unix_s` until then (0 if past). Saturates at
/// `u32::MAX` ms; never panics.
///
/// ```
/// use seeded_backoff::http::{parse_rate_limit, ParseError, RateLimitHeader as H};
/// assert_eq!(parse_rate_limit(H::RateLimit, br#""default";r=0;t=30"#, 0), Ok(30_000));
/// assert_eq!(parse_rate_limit(H::RateLimit, b"limit=100, remaining=0, reset=7", 0), Ok(7_000));
/// assert_eq!(parse_rate_limit(H::RateLimitReset, b"12", 0), Ok(12_000));
/// assert_eq!(parse_rate_limit(H::XRateLimitReset, b"1.2341", 0), Ok(1_235));
/// assert_eq!(parse_rate_limit(H::XRateLimitReset, b"1700000060", 1_700_000_000), Ok(60_000));
/// assert_eq!(parse_rate_limit(H::XRateLimitRetryAfter, b"-1", 0), Err(ParseError::Negative));
/// ```
pub fn parse_rate_limit(
    header: RateLimitHeader,
    value: &[u8],
    now_unix_s: u64,
) -> Result<u32, ParseError> {
    let value = crate::hint::bounded(value)?;
    match header {
        RateLimitHeader::RateLimit => parse_structured(value),
        _ => parse_reset(value, now_unix_s),
    }
}

/// The `Retry-After` header's name in lower case.
pub const RETRY_AFTER: &str = "retry-after";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_table_indices() {
        for (i, h) in RATE_LIMIT_HEADERS.into_iter().enumerate() {
            assert_eq!(usize::from(h.code()), i);
            assert_eq!(RateLimitHeader::from_code(h.code()), Some(h));
            assert_eq!(RateLimitHeader::from_name(h.name()), Some(h));
            assert_eq!(
                RateLimitHeader::from_header_name(h.name().as_bytes()),
                Some(h)
            );
        }
    }
}
