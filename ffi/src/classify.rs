//! Which outcomes are worth retrying (SPEC.md section 7).

use core::ffi::c_char;

use seeded_backoff::{
    classify_http,
    http::{classify_grpc, is_retryable_http, request_may_retry},
    Classification,
};

use crate::ptr;

/// What to do with a response.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum sb_class {
    /// It worked: `sb_backoff_reset` if the state is reused.
    SB_CLASS_SUCCESS = 0,
    /// A transient failure: report `SB_OUTCOME_RETRYABLE` to the run (or ask `sb_backoff_next`).
    SB_CLASS_RETRY = 1,
    /// A permanent failure: report it now.
    SB_CLASS_DO_NOT_RETRY = 2,
    /// Not a valid status at all.
    SB_CLASS_INVALID = 3,
}

// The header's numbers are literals (cbindgen cannot evaluate paths); these pin them to the core.
const _: () = {
    assert!(sb_class::SB_CLASS_SUCCESS as i32 == Classification::Success.code() as i32);
    assert!(sb_class::SB_CLASS_RETRY as i32 == Classification::Retry.code() as i32);
    assert!(sb_class::SB_CLASS_DO_NOT_RETRY as i32 == Classification::DoNotRetry.code() as i32);
    assert!(sb_class::SB_CLASS_INVALID as i32 == Classification::Invalid.code() as i32);
};

impl From<Classification> for sb_class {
    fn from(c: Classification) -> Self {
        match c {
            Classification::Success => sb_class::SB_CLASS_SUCCESS,
            Classification::Retry => sb_class::SB_CLASS_RETRY,
            Classification::DoNotRetry => sb_class::SB_CLASS_DO_NOT_RETRY,
            Classification::Invalid => sb_class::SB_CLASS_INVALID,
        }
    }
}

/// True for the HTTP statuses worth retrying: 429 and 500..=599.
///
/// ```c
/// o.kind = sb_is_retryable_http(status) ? SB_OUTCOME_RETRYABLE : SB_OUTCOME_PERMANENT;
/// ```
#[no_mangle]
pub extern "C" fn sb_is_retryable_http(status: u32) -> bool {
    u16::try_from(status).is_ok_and(is_retryable_http)
}

/// Classifies an HTTP status: 2xx success, 429 and 5xx retry, other 100..=599 do not retry,
/// anything else (a negative `int` converts to a large value) invalid.
#[no_mangle]
pub extern "C" fn sb_classify_http(status: u32) -> sb_class {
    // The core takes HTTP's u16; a wider value is no status at all.
    u16::try_from(status)
        .map_or(Classification::Invalid, classify_http)
        .into()
}

/// Classifies a gRPC status code: 0 success, 8 and 14 retry, other 1..=16 do not retry, above 16
/// invalid.
#[no_mangle]
pub extern "C" fn sb_classify_grpc(code: u32) -> sb_class {
    classify_grpc(code).into()
}

/// Whether a request may be sent again after a failure (SPEC.md section 7.1): its method
/// (`method_len` bytes at `method`, case-sensitive, e.g. "GET") is idempotent by RFC 9110 section
/// 9.2.2 (GET, HEAD, OPTIONS, PUT, DELETE, TRACE), or it carries an `Idempotency-Key` header. A
/// POST without one might charge a card twice: send it once. False for a NULL `method`.
///
/// ```c
/// if (!sb_request_may_retry("POST", 4, has_key)) return send_once(request);
/// ```
///
/// # Safety
/// `method` is NULL or valid for reads of `method_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_request_may_retry(
    method: *const c_char,
    method_len: usize,
    has_idempotency_key: bool,
) -> bool {
    // SAFETY: forwarded from this function's contract.
    let method = unsafe { ptr::bytes(method.cast::<u8>(), method_len) };
    method.is_ok_and(|m| request_may_retry(m, has_idempotency_key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn may(method: &str, key: bool) -> bool {
        // SAFETY: a live string and its length.
        unsafe { sb_request_may_retry(method.as_ptr().cast(), method.len(), key) }
    }

    #[test]
    fn idempotent_methods_or_a_key() {
        for m in ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"] {
            assert!(may(m, false), "{m}");
        }
        for m in ["POST", "PATCH", "CONNECT", "get", ""] {
            assert!(!may(m, false), "{m}");
            assert!(may(m, true), "{m}");
        }
        // SAFETY: NULL is allowed and answers false.
        assert!(!unsafe { sb_request_may_retry(core::ptr::null(), 3, true) });
    }
}
