//! `sb_hint_from_headers`: the server hint a response's headers give, by the core's rule (SPEC.md
//! §8.3 step 1), so a C program passes its headers instead of writing the search itself.

use core::ffi::c_char;

use seeded_backoff::ServerHint;

use crate::input::{SB_INPUT_RATE_LIMIT, SB_INPUT_RETRY_AFTER};
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// One response header: `name_len` bytes at `name` and `value_len` bytes at `value`, no NUL
/// needed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
#[allow(non_camel_case_types)]
pub struct sb_header {
    /// The header's name, in any case.
    pub name: *const c_char,
    /// Bytes at `name`.
    pub name_len: usize,
    /// The header's value.
    pub value: *const c_char,
    /// Bytes at `value`.
    pub value_len: usize,
}

/// The server hint a response gives: a valid `Retry-After` (any status); else, for a 429 only,
/// the first rate-limit header in `SB_RATE_LIMIT_*` order that is present and parses; else none.
/// Header names match in any case, and of a name given twice the first counts. `now_unix_s` is
/// the time HTTP-dates and Unix times are measured from.
///
/// Returns `SB_OK` with `*hint_flag` set to `SB_INPUT_RETRY_AFTER`, `SB_INPUT_RATE_LIMIT` or 0
/// (no hint) and `*hint_ms` to its milliseconds (0 without a hint), ready for an `sb_outcome`
/// (or an `sb_step_input`); `SB_ERR_NULL` for a NULL output, a NULL `headers` (it may be NULL when
/// `count` is 0) or a header with a NULL pointer; `SB_ERR_UNSUPPORTED` in a build without the
/// `retry-after` feature.
///
/// ```c
/// sb_header headers[] = {{"Retry-After", 11, "120", 3}};
/// sb_outcome o = {SB_OUTCOME_RETRYABLE, SB_FAILURE_ERROR, 0, 0};
/// if (sb_hint_from_headers(503, headers, 1, (uint64_t)time(NULL), &o.hint_flag, &o.hint_ms) == SB_OK)
///     rc = sb_run_outcome(&run, &o, now_ms(), NULL, &act);
/// ```
///
/// # Safety
/// `headers` is NULL or valid for reads of `count` `sb_header`s, each pointer NULL or valid for
/// reads of its length; `hint_flag` and `hint_ms` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_hint_from_headers(
    status: u32,
    headers: *const sb_header,
    count: usize,
    now_unix_s: u64,
    hint_flag: *mut u32,
    hint_ms: *mut u32,
) -> sb_status {
    require_feature!("retry-after");
    ptr::status((|| {
        if hint_flag.is_null() || hint_ms.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let headers: &[sb_header] = if count == 0 {
            &[]
        } else {
            // SAFETY: forwarded from this function's contract.
            unsafe { ptr::slice(headers, count) }?
        };
        // SAFETY: each pointer is valid for its length by this function's contract.
        let pair = |h: &sb_header| unsafe {
            Ok::<_, sb_status>((
                ptr::bytes(h.name.cast::<u8>(), h.name_len)?,
                ptr::bytes(h.value.cast::<u8>(), h.value_len)?,
            ))
        };
        // Every pointer is checked before the search, so a NULL one is an error wherever it is.
        for h in headers {
            pair(h)?;
        }
        let pairs = headers.iter().filter_map(|h| pair(h).ok());
        // A status beyond HTTP's u16 is no status: it reads only Retry-After.
        let status = u16::try_from(status).unwrap_or(0);
        let (flag, ms) = match ServerHint::from_headers(status, pairs, now_unix_s) {
            Some(ServerHint::RetryAfterMs(ms)) => (SB_INPUT_RETRY_AFTER, ms),
            Some(ServerHint::RateLimitResetMs(ms)) => (SB_INPUT_RATE_LIMIT, ms),
            Some(ServerHint::DoNotRetry) | None => (0, 0),
        };
        // SAFETY: both checked non-NULL above, writable by this function's contract.
        unsafe {
            ptr::write(hint_flag, flag)?;
            ptr::write(hint_ms, ms)?;
        }
        Ok(sb_status::SB_OK)
    })())
}

#[cfg(all(test, feature = "retry-after"))]
mod tests {
    use super::*;

    fn header(name: &'static str, value: &'static str) -> sb_header {
        sb_header {
            name: name.as_ptr().cast(),
            name_len: name.len(),
            value: value.as_ptr().cast(),
            value_len: value.len(),
        }
    }

    fn hint(status: u32, headers: &[sb_header]) -> (sb_status, u32, u32) {
        let (mut flag, mut ms) = (99, 99);
        // SAFETY: a live slice of headers over static strings, and pointers to live locals.
        let rc = unsafe {
            sb_hint_from_headers(
                status,
                headers.as_ptr(),
                headers.len(),
                1_700_000_000,
                &mut flag,
                &mut ms,
            )
        };
        (rc, flag, ms)
    }

    #[test]
    fn retry_after_then_the_rate_limit_headers_of_a_429() {
        use sb_status::SB_OK;
        let reset = header("X-RateLimit-Reset", "1700000030");
        assert_eq!(hint(429, &[reset]), (SB_OK, SB_INPUT_RATE_LIMIT, 30_000));
        assert_eq!(hint(503, &[reset]), (SB_OK, 0, 0));
        let after = header("retry-AFTER", "7");
        assert_eq!(
            hint(429, &[reset, after]),
            (SB_OK, SB_INPUT_RETRY_AFTER, 7_000)
        );
        // An unparseable Retry-After falls through to the rate-limit headers.
        let bad = header("Retry-After", "soon");
        assert_eq!(
            hint(429, &[bad, reset]),
            (SB_OK, SB_INPUT_RATE_LIMIT, 30_000)
        );
        assert_eq!(hint(429, &[]), (SB_OK, 0, 0));
        assert_eq!(hint(70_000, &[after]), (SB_OK, SB_INPUT_RETRY_AFTER, 7_000));
    }

    #[test]
    fn null_pointers_are_refused_and_nothing_is_written() {
        let mut broken = header("Retry-After", "7");
        broken.value = core::ptr::null();
        assert_eq!(hint(503, &[broken]), (sb_status::SB_ERR_NULL, 99, 99));
        let mut ms = 0;
        // SAFETY: NULL headers with count 0 is allowed; the NULL flag output is the error.
        let rc = unsafe {
            sb_hint_from_headers(503, core::ptr::null(), 0, 0, core::ptr::null_mut(), &mut ms)
        };
        assert_eq!(rc, sb_status::SB_ERR_NULL);
        let (mut flag, mut ms) = (1, 1);
        // SAFETY: as above, with both outputs live.
        let rc = unsafe { sb_hint_from_headers(503, core::ptr::null(), 0, 0, &mut flag, &mut ms) };
        assert_eq!((rc, flag, ms), (sb_status::SB_OK, 0, 0));
        // SAFETY: NULL headers with a count is the error.
        let rc = unsafe { sb_hint_from_headers(503, core::ptr::null(), 1, 0, &mut flag, &mut ms) };
        assert_eq!(rc, sb_status::SB_ERR_NULL);
    }
}
