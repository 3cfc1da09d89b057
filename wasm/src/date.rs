//! The date part: `Retry-After` in all three RFC 9110 forms, and the rate-limit headers of a 429.
//! A separate wasm file, loaded the first time a value is not delta-seconds or a 429 carries no
//! valid `Retry-After`: servers send these far less often than a plain failure, so the main part
//! (every `retry()` call site) stays without both parsers.

use crate::io;
use crate::rt::io as shared;

/// `Retry-After` from the first `len` shared bytes at the Unix time `hi:lo` seconds; see
/// [`io::encode_parse`].
#[export_name = "retryAfter"]
pub extern "C" fn retry_after(len: u32, lo: u32, hi: u32) -> f64 {
    shared(|io| {
        let bytes = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        let now = u64::from(hi) << 32 | u64::from(lo);
        io::encode_parse(seeded_backoff::parse_retry_after(bytes, now))
    })
}

/// Milliseconds until a rate-limit quota resets, from the first `len` shared bytes read as the
/// header at `header` in the core's `RATE_LIMIT_HEADERS`, at the Unix time `hi:lo` seconds (SPEC.md
/// §8.3). See [`io::encode_parse`]; a header index outside the table answers `InvalidFormat`.
#[export_name = "rateLimit"]
pub extern "C" fn rate_limit(header: u32, len: u32, now_lo: u32, now_hi: u32) -> f64 {
    let now = u64::from(now_hi) << 32 | u64::from(now_lo);
    let header = u8::try_from(header)
        .ok()
        .and_then(seeded_backoff::http::RateLimitHeader::from_code);
    shared(|io| {
        let bytes = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        io::encode_parse(
            header.map_or(Err(seeded_backoff::http::ParseError::InvalidFormat), |h| {
                seeded_backoff::http::parse_rate_limit(h, bytes, now)
            }),
        )
    })
}

/// The hint a response with HTTP status `status` gives at the Unix time `hi:lo` seconds: the
/// core's `ServerHint::from_http_headers` on the header values at `lens`/`bytes`. See
/// [`io::encode_hint`].
#[export_name = "fromHttpHeaders"]
pub extern "C" fn from_http_headers(status: u32, now_lo: u32, now_hi: u32) -> f64 {
    let now = u64::from(now_hi) << 32 | u64::from(now_lo);
    shared(|io| {
        let [retry_after, rate_limits @ ..] = io::header_values(io);
        // A status beyond HTTP's u16 is no status: the rate-limit headers never apply to it.
        let status = u16::try_from(status).unwrap_or(0);
        io::encode_hint(seeded_backoff::ServerHint::from_http_headers(
            status,
            retry_after,
            |h| rate_limits.get(usize::from(h.code())).copied().flatten(),
            now,
        ))
    })
}
