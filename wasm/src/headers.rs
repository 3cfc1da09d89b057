//! Server hints and status classes: header bytes and numbers in, the core's answers out.

use seeded_backoff::{Classification, ParseError};
use wasm_bindgen::prelude::*;

use crate::errors::{index_of, name_and_message, PARSE_ERRORS};

/// `Retry-After` in ms from `now_unix_s` (SPEC.md §8.1), or, for a value that does not parse,
/// `-(1 + i)` where `i` indexes [`PARSE_ERRORS`].
#[wasm_bindgen(js_name = parseRetryAfterBytes)]
pub fn parse_retry_after(value: &[u8], now_unix_s: f64) -> f64 {
    // The wrapper passes a non-negative number; `as` saturates anything else instead of wrapping.
    match seeded_backoff::parse_retry_after(value, now_unix_s as u64) {
        Ok(ms) => f64::from(ms),
        Err(e) => -1.0 - f64::from(index_of(&PARSE_ERRORS, &e)),
    }
}

/// `"name message"` of the `Retry-After` error with index `i`.
#[wasm_bindgen(js_name = retryAfterError)]
pub fn retry_after_error(i: u32) -> String {
    let e = PARSE_ERRORS
        .get(i as usize)
        .copied()
        .unwrap_or(ParseError::InvalidFormat);
    name_and_message(e.name(), e.message())
}

/// A class as a number for JS: 0 success, 1 retry, 2 do_not_retry, 3 invalid (the order of
/// `CLASSES` in `js/headers.js`).
fn class_code(c: Classification) -> u32 {
    match c {
        Classification::Success => 0,
        Classification::Retry => 1,
        Classification::DoNotRetry => 2,
        _ => 3,
    }
}

/// The HTTP status class (SPEC.md §7), as a class code.
#[wasm_bindgen(js_name = classifyHttp)]
pub fn classify_http(status: u32) -> u32 {
    // The core takes HTTP's u16; a wider value is no status at all.
    class_code(u16::try_from(status).map_or(Classification::Invalid, seeded_backoff::classify_http))
}

/// The gRPC status code class (SPEC.md §7), as a class code.
#[wasm_bindgen(js_name = classifyGrpc)]
pub fn classify_grpc(code: u32) -> u32 {
    class_code(seeded_backoff::classify_grpc(code))
}

/// Whether an HTTP status is worth retrying (429 and 5xx).
#[wasm_bindgen(js_name = isRetryableHttp)]
pub fn is_retryable_http(status: u32) -> bool {
    u16::try_from(status).is_ok_and(seeded_backoff::is_retryable_http)
}

/// The wasm linear memory's size in bytes, for leak checks.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) as f64 * 65536.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
