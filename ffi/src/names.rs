//! The core's names for codes the C ABI carries as numbers (presets, strategies, deadline modes,
//! classes, give-up reasons and errors), so that a language binding over this library reads its tables of names from here
//! rather than typing them again. Each function returns a static NUL-terminated string, or NULL
//! for a code past the end of its table: a caller lists a table by counting up from 0 to NULL.
//! A build without the `bindings` feature returns NULL for every code.

use core::ffi::c_char;
use core::ptr::null;

use seeded_backoff::{
    http::RateLimitHeader,
    policy::{DeadlineMode, Preset},
    Classification, Jitter,
};

use crate::cstr::c_str;
use crate::status::{core_name, policy_field};

/// `match code { 0 => NAMES[0], ... }` as C strings, NULL past the listed indexes.
macro_rules! name_at {
    ($names:expr, $code:expr, $($i:literal)*) => {{
        // Every index of the table is listed: a name the core adds fails the build here.
        const _: () = assert!($names.len() == [$($i),*].len());
        match $code {
            $($i => c_str!($names[$i]),)*
            _ => null(),
        }
    }};
}

/// The name of the preset with code `code` (an `SB_PRESET_*` value): "google", "google_64s",
/// "aws_standard", "grpc", "mobile"; NULL for any other code.
///
/// ```c
/// for (uint32_t i = 0; sb_preset_name(i) != NULL; i++) puts(sb_preset_name(i));
/// ```
#[no_mangle]
pub extern "C" fn sb_preset_name(code: u32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    name_at!(Preset::NAMES, code, 0 1 2 3 4)
}

/// The name of the jitter strategy with code `code` (an `SB_JITTER_*` value): "none", "google",
/// "full", "equal", "decorrelated", "proportional"; NULL for any other code.
#[no_mangle]
pub extern "C" fn sb_jitter_name(code: u32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    name_at!(Jitter::NAMES, code, 0 1 2 3 4 5)
}

/// The name of the deadline mode with code `code` (an `SB_DEADLINE_*` value): "give_up",
/// "clamp"; NULL for any other code.
#[no_mangle]
pub extern "C" fn sb_deadline_name(code: u32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    name_at!(DeadlineMode::NAMES, code, 0 1)
}

/// The lower-case name of the rate-limit header with code `code` (an `SB_RATE_LIMIT_*` value, in
/// the order a 429 is searched): "ratelimit", "ratelimit-reset", "x-ratelimit-retry-after",
/// "x-ratelimit-reset"; NULL for any other code.
///
/// ```c
/// for (uint32_t k = 0; sb_rate_limit_name(k) != NULL; k++) {
///     const char *v = find_header(response, sb_rate_limit_name(k));
///     if (v && sb_parse_rate_limit(k, v, strlen(v), (uint64_t)time(NULL), &ms) == SB_OK) break;
/// }
/// ```
#[no_mangle]
pub extern "C" fn sb_rate_limit_name(code: u32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    name_at!(RateLimitHeader::NAMES, code, 0 1 2 3)
}

/// The name of a class (an `sb_class` value, as `sb_classify_http` returns it): "success",
/// "retry", "do_not_retry", "invalid"; NULL for any other value.
#[no_mangle]
pub extern "C" fn sb_class_name(class: i32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    // The discriminants of `sb_class` are the core's codes (checked in classify.rs).
    name_at!(Classification::NAMES, class, 0 1 2 3)
}

/// The core's snake_case name for what a status stands for: the give-up reason of an
/// `SB_GIVE_UP_*` status ("max_retries", ...) or the core error of an `SB_ERR_*` status
/// ("bad_day", "initial_ms", ...), as the test vectors and the other bindings name them. NULL for
/// a status that stands for no core variant (`SB_OK`, `SB_ERR_NULL`, ...) and for unknown codes.
///
/// ```c
/// if (rc >= SB_GIVE_UP_MAX_RETRIES && rc <= SB_GIVE_UP_HINT_EXCEEDS_MAX) log("gave up: %s", sb_status_name(rc));
/// ```
#[no_mangle]
pub extern "C" fn sb_status_name(code: i32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    core_name(code)
}

/// The policy option an `SB_ERR_POLICY_*` status is about, as SPEC.md section 2 names it
/// ("initial_ms", "multiplier", "jitter_ms", ...), so a binding can show the value at fault. NULL
/// for any other code, `SB_ERR_POLICY_DEADLINE` and `SB_ERR_POLICY_PRESET` included.
#[no_mangle]
pub extern "C" fn sb_policy_error_field(code: i32) -> *const c_char {
    if !cfg!(feature = "bindings") {
        return null();
    }
    policy_field(code)
}

#[cfg(all(test, feature = "bindings"))]
mod tests {
    use super::*;
    use core::ffi::CStr;

    fn list(f: impl Fn(u32) -> *const c_char) -> std::vec::Vec<&'static str> {
        (0..)
            .map_while(|i| {
                let p = f(i);
                // SAFETY: a non-NULL result is a static NUL-terminated string.
                (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap())
            })
            .collect()
    }

    #[test]
    fn tables_are_the_cores() {
        assert_eq!(list(|i| sb_preset_name(i)), Preset::NAMES);
        assert_eq!(list(|i| sb_jitter_name(i)), Jitter::NAMES);
        assert_eq!(list(|i| sb_deadline_name(i)), ["give_up", "clamp"]);
        assert_eq!(
            list(|i| sb_rate_limit_name(i)),
            seeded_backoff::http::RATE_LIMIT_HEADERS.map(|h| h.name())
        );
        assert_eq!(
            list(|i| sb_class_name(i as i32)),
            ["success", "retry", "do_not_retry", "invalid"]
        );
        for code in [u32::MAX, 256, 256 + 1] {
            assert!(sb_jitter_name(code).is_null() && sb_preset_name(code).is_null());
            assert!(sb_deadline_name(code).is_null());
        }
        assert!(sb_class_name(-1).is_null());
    }

    fn c(p: *const c_char) -> Option<&'static str> {
        // SAFETY: a non-NULL result is a static NUL-terminated string.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap())
    }

    #[test]
    fn names_and_fields_are_the_cores() {
        use crate::status::sb_status;
        use crate::status::sb_status::*;
        use seeded_backoff::http::ParseError;
        use seeded_backoff::policy::PolicyError;
        assert_eq!(
            c(sb_status_name(SB_GIVE_UP_SERVER_STOP as i32)),
            Some("server_stop")
        );
        assert_eq!(
            c(sb_status_name(SB_ERR_PARSE_BAD_DAY as i32)),
            Some(ParseError::BadDay.name())
        );
        assert_eq!(
            c(sb_status_name(SB_ERR_POLICY_MULTIPLIER_BELOW_ONE as i32)),
            Some("multiplier_below_one")
        );
        assert_eq!(
            c(sb_policy_error_field(
                SB_ERR_POLICY_MULTIPLIER_BELOW_ONE as i32
            )),
            Some("multiplier")
        );
        assert_eq!(
            c(sb_policy_error_field(
                SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE as i32
            )),
            Some("jitter_ms")
        );
        for s in [SB_OK, SB_ERR_NULL, SB_ERR_POLICY_DEADLINE, SB_ERR_OTHER] {
            assert_eq!(c(sb_status_name(s as i32)), None, "{s:?}");
        }
        assert_eq!(c(sb_policy_error_field(SB_ERR_PARSE_BAD_DAY as i32)), None);
        assert_eq!(c(sb_status_name(-1)), None);
        assert_eq!(
            sb_status::from(PolicyError::UnknownJitter),
            SB_ERR_POLICY_JITTER
        );
        assert_eq!(
            sb_status::from(PolicyError::SpreadNotApplicable),
            SB_ERR_POLICY_SPREAD_NOT_APPLICABLE
        );
    }
}
