//! Errors for JS. Option errors become a `RangeError` (js-sys) here, with a message naming the JS
//! option.
//! Header and snapshot errors cross as numbers instead (an index into the core's error kinds, see
//! [`PARSE_ERRORS`] and [`SNAPSHOT_ERRORS`]), and the JS wrapper builds the error object with the
//! text of [`crate::headers::retry_after_error`] or [`crate::backoff::snapshot_error`]: one JS
//! import fewer in the glue that every bundle carries.

use seeded_backoff::{ParseError, SnapshotError};
use wasm_bindgen::JsValue;

use crate::options::OptionError;

impl From<OptionError> for JsValue {
    fn from(e: OptionError) -> JsValue {
        range_error(e.0)
    }
}

/// A JS `RangeError` with the given message.
pub fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// The core's `Retry-After` errors, by the number that crosses to JS.
pub const PARSE_ERRORS: [ParseError; 10] = [
    ParseError::Empty,
    ParseError::Negative,
    ParseError::InvalidFormat,
    ParseError::BadDayName,
    ParseError::BadMonth,
    ParseError::BadDay,
    ParseError::BadHour,
    ParseError::BadMinute,
    ParseError::BadSecond,
    ParseError::BadYear,
];

/// The core's snapshot errors, by the number that crosses to JS.
pub const SNAPSHOT_ERRORS: [SnapshotError; 6] = [
    SnapshotError::WrongLength,
    SnapshotError::UnknownVersion,
    SnapshotError::BadChecksum,
    SnapshotError::PolicyMismatch,
    SnapshotError::ZeroRngState,
    SnapshotError::InvalidState,
];

/// The number for an error: its index in `all` (the last index for a kind the table lacks).
pub fn index_of<E: PartialEq>(all: &[E], e: &E) -> u32 {
    let i = all
        .iter()
        .position(|x| x == e)
        .unwrap_or(all.len().saturating_sub(1));
    u32::try_from(i).unwrap_or(0)
}

/// `"name message"` for JS to split into an error's `code` and message.
pub fn name_and_message(name: &str, message: &str) -> String {
    let mut text = String::with_capacity(name.len() + 1 + message.len());
    text.push_str(name);
    text.push(' ');
    text.push_str(message);
    text
}
