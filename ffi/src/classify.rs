//! Which outcomes are worth retrying (SPEC.md section 7).

use seeded_backoff::{classify_grpc, classify_http, is_retryable_http, Classification};

/// What to do with a response.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum sb_class {
    /// It worked: `sb_backoff_reset` if the state is reused.
    SB_CLASS_SUCCESS = 0,
    /// A transient failure: ask `sb_backoff_next` for a delay.
    SB_CLASS_RETRY = 1,
    /// A permanent failure: report it now.
    SB_CLASS_DO_NOT_RETRY = 2,
    /// Not a valid status at all.
    SB_CLASS_INVALID = 3,
}

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
/// if (sb_http_status_is_retryable(status)) rc = sb_backoff_next(&b, &delay_ms);
/// ```
#[no_mangle]
pub extern "C" fn sb_http_status_is_retryable(status: u32) -> bool {
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
