//! Server hints: `Retry-After` and `grpc-retry-pushback-ms` values parsed by the core.

use core::ffi::c_char;

use seeded_backoff::{parse_grpc_pushback, parse_retry_after, ParseError};

use crate::ptr;
use crate::status::{require_feature, sb_status};

/// Parses a `Retry-After` header value (`len` bytes at `s`, no NUL needed) into milliseconds from
/// `now_unix_s`: delta-seconds (saturating) or any of the three HTTP-date formats; a past date gives
/// 0. Returns `SB_OK` with `*out_ms` set, `SB_ERR_NULL`, or an `SB_ERR_PARSE_*` code
/// (`SB_ERR_UNSUPPORTED` in a build without the `retry-after` feature).
///
/// ```c
/// uint32_t hint_ms;
/// if (sb_parse_retry_after(value, value_len, (uint64_t)time(NULL), &hint_ms) == SB_OK)
///     rc = sb_backoff_next_with_hint(&b, hint_ms, &delay_ms);
/// ```
///
/// # Safety
/// `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_parse_retry_after(
    s: *const c_char,
    len: usize,
    now_unix_s: u64,
    out_ms: *mut u32,
) -> sb_status {
    require_feature!("retry-after");
    // SAFETY: forwarded from this function's contract.
    unsafe { parse_into(s, len, out_ms, |value| parse_retry_after(value, now_unix_s)) }
}

/// Parses a `grpc-retry-pushback-ms` value: non-negative decimal milliseconds (saturating).
/// As gRFC A6 requires, treat every error as "do not retry" (`sb_backoff_next_do_not_retry`).
/// `SB_ERR_UNSUPPORTED` in a build without the `hints` feature.
///
/// # Safety
/// `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_parse_grpc_pushback(
    s: *const c_char,
    len: usize,
    out_ms: *mut u32,
) -> sb_status {
    require_feature!("hints");
    // SAFETY: forwarded from this function's contract.
    unsafe { parse_into(s, len, out_ms, parse_grpc_pushback) }
}

/// Runs a core parser over `len` bytes at `s` and writes its milliseconds to `*out_ms`: the NULL
/// checks and the status translation both parsers share.
///
/// # Safety
/// `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
unsafe fn parse_into(
    s: *const c_char,
    len: usize,
    out_ms: *mut u32,
    parse: impl FnOnce(&[u8]) -> Result<u32, ParseError>,
) -> sb_status {
    ptr::status((|| {
        if out_ms.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let value = unsafe { ptr::bytes(s.cast::<u8>(), len) }?;
        let ms = parse(value)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(out_ms, ms) }?;
        Ok(sb_status::SB_OK)
    })())
}
