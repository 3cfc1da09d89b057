//! The date part: `Retry-After` in all three RFC 9110 forms. A separate wasm file, loaded the first
//! time a value is not delta-seconds.

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

/// The address of the shared words and bytes (each part has its own memory).
#[wasm_bindgen(js_name = dateIo)]
pub fn date_io() -> u32 {
    crate::rt::io_address()
}
