//! The core's names for codes the C ABI carries as numbers (presets, strategies, deadline modes,
//! classes), so that a language binding over this library reads its tables of names from here
//! rather than typing them again. Each function returns a static NUL-terminated string, or NULL
//! for a code past the end of its table: a caller lists a table by counting up from 0 to NULL.

use core::ffi::c_char;
use core::ptr::null;

use seeded_backoff::{Classification, DeadlineMode, Jitter, Preset};

use crate::classify::sb_class;
use crate::cstr::c_str;

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
/// "aws_standard", "grpc"; NULL for any other code.
///
/// ```c
/// for (uint32_t i = 0; sb_preset_name(i) != NULL; i++) puts(sb_preset_name(i));
/// ```
#[no_mangle]
pub extern "C" fn sb_preset_name(code: u32) -> *const c_char {
    name_at!(Preset::NAMES, code, 0 1 2 3)
}

/// The name of the jitter strategy with code `code` (an `SB_JITTER_*` value): "none", "google",
/// "full", "equal", "decorrelated", "proportional"; NULL for any other code.
#[no_mangle]
pub extern "C" fn sb_jitter_name(code: u32) -> *const c_char {
    name_at!(Jitter::NAMES, code, 0 1 2 3 4 5)
}

/// The name of the deadline mode with code `code` (an `SB_DEADLINE_*` value): "give_up",
/// "clamp"; NULL for any other code.
#[no_mangle]
pub extern "C" fn sb_deadline_name(code: u32) -> *const c_char {
    match u8::try_from(code).ok().and_then(DeadlineMode::from_code) {
        Some(DeadlineMode::GiveUp) => c_str!(DeadlineMode::GiveUp.name()),
        Some(DeadlineMode::Clamp) => c_str!(DeadlineMode::Clamp.name()),
        None => null(),
    }
}

/// The name of a class (an `sb_class` value, as `sb_classify_http` returns it): "success",
/// "retry", "do_not_retry", "invalid"; NULL for any other value.
#[no_mangle]
pub extern "C" fn sb_class_name(class: i32) -> *const c_char {
    use sb_class::*;
    match class {
        c if c == SB_CLASS_SUCCESS as i32 => c_str!(Classification::Success.name()),
        c if c == SB_CLASS_RETRY as i32 => c_str!(Classification::Retry.name()),
        c if c == SB_CLASS_DO_NOT_RETRY as i32 => c_str!(Classification::DoNotRetry.name()),
        c if c == SB_CLASS_INVALID as i32 => c_str!(Classification::Invalid.name()),
        _ => null(),
    }
}

#[cfg(test)]
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
            list(|i| sb_class_name(i as i32)),
            ["success", "retry", "do_not_retry", "invalid"]
        );
        for code in [u32::MAX, 256, 256 + 1] {
            assert!(sb_jitter_name(code).is_null() && sb_preset_name(code).is_null());
            assert!(sb_deadline_name(code).is_null());
        }
        assert!(sb_class_name(-1).is_null());
    }
}
