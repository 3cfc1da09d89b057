//! Server hints: `Retry-After`, the rate-limit headers and `grpc-retry-pushback-ms` values parsed
//! by the core.

use core::ffi::c_char;

use seeded_backoff::{
    http::{
        parse_grpc_pushback, parse_rate_limit, rate_limit_applies, ParseError, RateLimitHeader,
        RATE_LIMIT_HEADERS,
    },
    parse_retry_after,
};

use crate::ptr;
use crate::status::{require_feature, sb_status};

/// Parses a `Retry-After` header value (`len` bytes at `s`, no NUL needed) into milliseconds from
/// `now_unix_s`: delta-seconds (saturating) or any of the three HTTP-date formats; a past date gives
/// 0. Returns `SB_OK` with `*out_ms` set, `SB_ERR_NULL`, or an `SB_ERR_PARSE_*` code
/// (`SB_ERR_UNSUPPORTED` in a build without the `retry-after` feature).
///
/// ```c
/// sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
/// if (sb_parse_retry_after(value, value_len, (uint64_t)time(NULL), &o.hint_ms) == SB_OK)
///     o.hint_flag = SB_INPUT_RETRY_AFTER;
/// rc = sb_run_outcome(&run, &o, now_ms(), NULL, &act);
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

/// The longest header value the parsers read, in bytes: a longer one is `SB_ERR_PARSE_TOO_LONG`, in
/// every binding (the core's `MAX_HEADER_VALUE_LEN`; a test checks they are equal).
pub const SB_MAX_HEADER_VALUE_LEN: u32 = 8192;

/// `RateLimit` (IETF structured field): the largest reset `t` among quotas with `r=0`.
pub const SB_RATE_LIMIT_RATELIMIT: u32 = 0;
/// `RateLimit-Reset`: seconds until the quota resets.
pub const SB_RATE_LIMIT_RATELIMIT_RESET: u32 = 1;
/// `X-RateLimit-Retry-After`: seconds, or a Unix time above 10^9.
pub const SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER: u32 = 2;
/// `X-RateLimit-Reset`: seconds (fractions allowed), or a Unix time above 10^9.
pub const SB_RATE_LIMIT_X_RATELIMIT_RESET: u32 = 3;
/// How many rate-limit headers there are: their codes are 0..SB_RATE_LIMIT_COUNT, in the order a
/// 429 response is searched (the first present one that parses gives the hint).
pub const SB_RATE_LIMIT_COUNT: u32 = 4;

/// The C constants in code order; each is `SB_RATE_LIMIT_` + the core's header name in upper case
/// with `_` for `-` (checked by a test), and its number is the core's code (checked here).
pub const RATE_LIMIT_CONSTANTS: [(&str, u32); 4] = [
    ("SB_RATE_LIMIT_RATELIMIT", SB_RATE_LIMIT_RATELIMIT),
    (
        "SB_RATE_LIMIT_RATELIMIT_RESET",
        SB_RATE_LIMIT_RATELIMIT_RESET,
    ),
    (
        "SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER",
        SB_RATE_LIMIT_X_RATELIMIT_RETRY_AFTER,
    ),
    (
        "SB_RATE_LIMIT_X_RATELIMIT_RESET",
        SB_RATE_LIMIT_X_RATELIMIT_RESET,
    ),
];

// The header's numbers are literals (cbindgen cannot evaluate paths); these pin them to the core.
const _: () = {
    assert!(SB_RATE_LIMIT_COUNT as usize == RATE_LIMIT_HEADERS.len());
    let mut i = 0;
    while i < RATE_LIMIT_HEADERS.len() {
        assert!(RATE_LIMIT_CONSTANTS[i].1 == RATE_LIMIT_HEADERS[i].code() as u32);
        assert!(RATE_LIMIT_CONSTANTS[i].1 == i as u32);
        i += 1;
    }
};

/// Parses a rate-limit header's value (`len` bytes at `s`) into milliseconds until the quota
/// resets, from `now_unix_s`. `header_kind` is an `SB_RATE_LIMIT_*` code. Read these headers only
/// for a 429 (`sb_rate_limit_applies`) without a valid `Retry-After`, in code order, and step
/// with the first that parses (`SB_INPUT_RATE_LIMIT`); `sb_hint_from_headers` does all of this
/// for a response's headers. Returns `SB_OK` with `*out_ms`
/// set, `SB_ERR_NULL`, `SB_ERR_RATE_LIMIT_HEADER`, or `SB_ERR_PARSE_EMPTY`, `_NEGATIVE` or
/// `_INVALID_FORMAT` (`SB_ERR_UNSUPPORTED` in a build without the `retry-after` feature).
///
/// ```c
/// sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
/// for (uint32_t k = 0; k < SB_RATE_LIMIT_COUNT; k++) {
///     const char *v = find_header(response, sb_rate_limit_name(k));
///     if (v && sb_parse_rate_limit(k, v, strlen(v), (uint64_t)time(NULL), &o.hint_ms) == SB_OK) {
///         o.hint_flag = SB_INPUT_RATE_LIMIT;
///         break;
///     }
/// }
/// ```
///
/// # Safety
/// `s` is NULL or valid for reads of `len` bytes; `out_ms` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_parse_rate_limit(
    header_kind: u32,
    s: *const c_char,
    len: usize,
    now_unix_s: u64,
    out_ms: *mut u32,
) -> sb_status {
    require_feature!("retry-after");
    let header = match u8::try_from(header_kind)
        .ok()
        .and_then(RateLimitHeader::from_code)
    {
        Some(h) => h,
        None => return sb_status::SB_ERR_RATE_LIMIT_HEADER,
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        parse_into(s, len, out_ms, |value| {
            parse_rate_limit(header, value, now_unix_s)
        })
    }
}

/// True for the HTTP statuses whose rate-limit headers are read: 429 only (on a 5xx the reset
/// time describes a quota, not the server's recovery).
#[no_mangle]
pub extern "C" fn sb_rate_limit_applies(status: u32) -> bool {
    u16::try_from(status).is_ok_and(rate_limit_applies)
}

/// Parses a `grpc-retry-pushback-ms` value: non-negative decimal milliseconds (saturating).
/// As gRFC A6 requires, treat every error as "do not retry" (`SB_INPUT_DO_NOT_RETRY`).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_names_are_the_cores_header_names() {
        for (header, (name, code)) in RATE_LIMIT_HEADERS.iter().zip(RATE_LIMIT_CONSTANTS) {
            let want = std::format!(
                "SB_RATE_LIMIT_{}",
                header.name().to_ascii_uppercase().replace('-', "_")
            );
            assert_eq!(name, want);
            assert_eq!(code, u32::from(header.code()));
        }
    }

    #[test]
    fn the_header_value_bound_is_the_cores() {
        assert_eq!(
            SB_MAX_HEADER_VALUE_LEN as usize,
            seeded_backoff::http::MAX_HEADER_VALUE_LEN
        );
    }
}
