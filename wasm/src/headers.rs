//! Server hints and status classes: header bytes and numbers in, the core's answers out.

use wasm_bindgen::prelude::*;

use crate::errors::syntax_error;

/// `Retry-After` in ms from `now_unix_s` (SPEC.md §8.1); a value that does not parse throws a
/// `SyntaxError` whose `code` is the core's error name.
#[wasm_bindgen(js_name = parseRetryAfterBytes)]
pub fn parse_retry_after(value: &[u8], now_unix_s: f64) -> Result<u32, JsValue> {
    // The wrapper passes a non-negative integer; `as` saturates anything else instead of wrapping.
    seeded_backoff::parse_retry_after(value, now_unix_s as u64)
        .map_err(|e| syntax_error(e.message(), e.name()))
}

/// The HTTP status class name (SPEC.md §7).
#[wasm_bindgen(js_name = classifyHttp)]
pub fn classify_http(status: u32) -> String {
    seeded_backoff::classify_http(status).name().into()
}

/// The gRPC status code class name (SPEC.md §7).
#[wasm_bindgen(js_name = classifyGrpc)]
pub fn classify_grpc(code: u32) -> String {
    seeded_backoff::classify_grpc(code).name().into()
}

/// Whether an HTTP status is worth retrying (429 and 5xx).
#[wasm_bindgen(js_name = isRetryableHttp)]
pub fn is_retryable_http(status: u32) -> bool {
    seeded_backoff::is_retryable_http(status)
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
