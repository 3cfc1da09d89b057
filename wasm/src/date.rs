//! The date part: `Retry-After` in all three RFC 9110 forms, and the rate-limit headers of a 429.
//! A separate wasm file, loaded the first time a value is not delta-seconds or a 429 carries no
//! valid `Retry-After`: servers send these far less often than a plain failure, so the main part
//! (every `retry()` call site) stays without both parsers.

use wasm_bindgen::prelude::*;

use crate::io;
use crate::rt::io as shared;

/// `Retry-After` from the first `len` shared bytes at the Unix time `hi:lo` seconds; see
/// [`io::encode_parse`].
#[wasm_bindgen(js_name = retryAfter)]
pub fn retry_after(len: u32, lo: u32, hi: u32) -> f64 {
    shared(|io| {
        let bytes = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        let now = u64::from(hi) << 32 | u64::from(lo);
        io::encode_parse(seeded_backoff::parse_retry_after(bytes, now))
    })
}

/// Milliseconds until a rate-limit quota resets, from the first `len` shared bytes read as the
/// header at `header` in the core's `RATE_LIMIT_HEADERS`, at the Unix time `hi:lo` seconds (SPEC.md
/// §8.3). See [`io::encode_parse`]; a header index outside the table answers `InvalidFormat`.
#[wasm_bindgen(js_name = rateLimit)]
pub fn rate_limit(header: u32, len: u32, now_lo: u32, now_hi: u32) -> f64 {
    let now = u64::from(now_hi) << 32 | u64::from(now_lo);
    let header = u8::try_from(header)
        .ok()
        .and_then(seeded_backoff::RateLimitHeader::from_code);
    shared(|io| {
        let bytes = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        io::encode_parse(
            header.map_or(Err(seeded_backoff::ParseError::InvalidFormat), |h| {
                seeded_backoff::parse_rate_limit(h, bytes, now)
            }),
        )
    })
}

/// The address of the shared words and bytes (each part has its own memory).
#[wasm_bindgen(js_name = dateIo)]
pub fn date_io() -> u32 {
    crate::rt::io_address()
}
