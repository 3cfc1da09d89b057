//! The stable status codes every function returns, and their messages.
//!
//! Codes never change meaning once released: `0` OK, `1` retry, `11..=14` give-up reasons
//! (10 + the SPEC.md section 5 reason code), `100` and up errors, grouped by decades.

use core::ffi::c_char;

use seeded_backoff::{BudgetError, GiveUpReason, ParseError, PolicyError, SnapshotError};

use crate::cstr::c_str;

/// What a call did. Every function of the C ABI that can fail returns one of these.
///
/// Errors (`SB_ERR_*`, all >= 100) leave every caller-owned struct unchanged.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum sb_status {
    /// Success.
    SB_OK = 0,
    /// Retry: wait the returned delay, then send the request again.
    SB_RETRY = 1,
    /// Give up: the policy's `max_retries` retries were already issued.
    SB_GIVE_UP_MAX_RETRIES = 11,
    /// Give up: the next delay would cross the policy's time budget (`max_elapsed_ms`).
    SB_GIVE_UP_DEADLINE = 12,
    /// Give up: the shared retry budget refused another retry.
    SB_GIVE_UP_BUDGET = 13,
    /// Give up: the server said not to retry.
    SB_GIVE_UP_SERVER_STOP = 14,
    /// A pointer argument is NULL.
    SB_ERR_NULL = 100,
    /// An `sb_backoff` or `sb_budget` holds values no init function produces (uninitialised or
    /// corrupted memory).
    SB_ERR_BAD_STATE = 101,
    /// A failure kind other than `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
    SB_ERR_FAILURE_KIND = 102,
    /// Policy: `initial_ms` must be in 1..=2147483647.
    SB_ERR_POLICY_INITIAL_MS = 110,
    /// Policy: `max_backoff_ms` must be in initial_ms..=2147483647.
    SB_ERR_POLICY_MAX_BACKOFF_MS = 111,
    /// Policy: `multiplier_den` must be in 1..=1000.
    SB_ERR_POLICY_MULTIPLIER_DEN = 112,
    /// Policy: the multiplier must be >= 1 (`multiplier_num >= multiplier_den`).
    SB_ERR_POLICY_MULTIPLIER_BELOW_ONE = 113,
    /// Policy: the multiplier must be <= 1000 (`multiplier_num <= 1000 * multiplier_den`).
    SB_ERR_POLICY_MULTIPLIER_TOO_LARGE = 114,
    /// Policy: `jitter_ms` must be in 0..=max_backoff_ms (Google jitter).
    SB_ERR_POLICY_JITTER_MS = 115,
    /// Policy: `spread_per_mille` must be in 0..=1000 (proportional jitter).
    SB_ERR_POLICY_SPREAD_PER_MILLE = 116,
    /// Policy: `max_hint_ms` must be in 0..=2147483647.
    SB_ERR_POLICY_MAX_HINT_MS = 117,
    /// Policy: `jitter` must be one of the `SB_JITTER_*` codes (0..=5).
    SB_ERR_POLICY_JITTER = 118,
    /// Policy: `deadline` must be `SB_DEADLINE_GIVE_UP` (0) or `SB_DEADLINE_CLAMP` (1).
    SB_ERR_POLICY_DEADLINE = 119,
    /// Snapshot: not exactly `SB_SNAPSHOT_SIZE` bytes.
    SB_ERR_SNAPSHOT_WRONG_LENGTH = 120,
    /// Snapshot: a format version this library does not know.
    SB_ERR_SNAPSHOT_UNKNOWN_VERSION = 121,
    /// Snapshot: the CRC-32 does not match (damaged bytes).
    SB_ERR_SNAPSHOT_BAD_CHECKSUM = 122,
    /// Snapshot: taken under a different policy.
    SB_ERR_SNAPSHOT_POLICY_MISMATCH = 123,
    /// Snapshot: the random state is all zero.
    SB_ERR_SNAPSHOT_ZERO_RNG_STATE = 124,
    /// Snapshot: a state the policy cannot reach.
    SB_ERR_SNAPSHOT_INVALID_STATE = 125,
    /// Retry hint: nothing but whitespace.
    SB_ERR_PARSE_EMPTY = 130,
    /// Retry hint: a leading minus sign.
    SB_ERR_PARSE_NEGATIVE = 131,
    /// Retry hint: neither delta-seconds nor an HTTP-date.
    SB_ERR_PARSE_INVALID_FORMAT = 132,
    /// HTTP-date: the day name is not Mon..Sun (Monday..Sunday in RFC 850).
    SB_ERR_PARSE_BAD_DAY_NAME = 133,
    /// HTTP-date: the month is not Jan..Dec.
    SB_ERR_PARSE_BAD_MONTH = 134,
    /// HTTP-date: the day is outside the month.
    SB_ERR_PARSE_BAD_DAY = 135,
    /// HTTP-date: the hour is above 23.
    SB_ERR_PARSE_BAD_HOUR = 136,
    /// HTTP-date: the minute is above 59.
    SB_ERR_PARSE_BAD_MINUTE = 137,
    /// HTTP-date: the second is above 60.
    SB_ERR_PARSE_BAD_SECOND = 138,
    /// HTTP-date: the year is outside 1970..=9999.
    SB_ERR_PARSE_BAD_YEAR = 139,
    /// Budget: gRPC `max_tokens` must be in 1..=1000.
    SB_ERR_BUDGET_MAX_TOKENS = 140,
    /// Budget: gRPC `token_ratio_milli` must be in 1..=1000*max_tokens.
    SB_ERR_BUDGET_TOKEN_RATIO = 141,
    /// Budget: AWS `capacity` must be in 1..=1000000.
    SB_ERR_BUDGET_CAPACITY = 142,
    /// Budget: AWS `retry_cost` and `timeout_cost` must be in 1..=capacity.
    SB_ERR_BUDGET_COST = 143,
    /// Budget: AWS `no_retry_increment` must be in 0..=capacity.
    SB_ERR_BUDGET_NO_RETRY_INCREMENT = 144,
    /// An error this version of the C layer has no code for (a newer core).
    SB_ERR_OTHER = 199,
}

use sb_status::*;

/// Every status, for the code -> message lookup and the tests.
pub(crate) const ALL: [sb_status; 41] = [
    SB_OK,
    SB_RETRY,
    SB_GIVE_UP_MAX_RETRIES,
    SB_GIVE_UP_DEADLINE,
    SB_GIVE_UP_BUDGET,
    SB_GIVE_UP_SERVER_STOP,
    SB_ERR_NULL,
    SB_ERR_BAD_STATE,
    SB_ERR_FAILURE_KIND,
    SB_ERR_POLICY_INITIAL_MS,
    SB_ERR_POLICY_MAX_BACKOFF_MS,
    SB_ERR_POLICY_MULTIPLIER_DEN,
    SB_ERR_POLICY_MULTIPLIER_BELOW_ONE,
    SB_ERR_POLICY_MULTIPLIER_TOO_LARGE,
    SB_ERR_POLICY_JITTER_MS,
    SB_ERR_POLICY_SPREAD_PER_MILLE,
    SB_ERR_POLICY_MAX_HINT_MS,
    SB_ERR_POLICY_JITTER,
    SB_ERR_POLICY_DEADLINE,
    SB_ERR_SNAPSHOT_WRONG_LENGTH,
    SB_ERR_SNAPSHOT_UNKNOWN_VERSION,
    SB_ERR_SNAPSHOT_BAD_CHECKSUM,
    SB_ERR_SNAPSHOT_POLICY_MISMATCH,
    SB_ERR_SNAPSHOT_ZERO_RNG_STATE,
    SB_ERR_SNAPSHOT_INVALID_STATE,
    SB_ERR_PARSE_EMPTY,
    SB_ERR_PARSE_NEGATIVE,
    SB_ERR_PARSE_INVALID_FORMAT,
    SB_ERR_PARSE_BAD_DAY_NAME,
    SB_ERR_PARSE_BAD_MONTH,
    SB_ERR_PARSE_BAD_DAY,
    SB_ERR_PARSE_BAD_HOUR,
    SB_ERR_PARSE_BAD_MINUTE,
    SB_ERR_PARSE_BAD_SECOND,
    SB_ERR_PARSE_BAD_YEAR,
    SB_ERR_BUDGET_MAX_TOKENS,
    SB_ERR_BUDGET_TOKEN_RATIO,
    SB_ERR_BUDGET_CAPACITY,
    SB_ERR_BUDGET_COST,
    SB_ERR_BUDGET_NO_RETRY_INCREMENT,
    SB_ERR_OTHER,
];

impl sb_status {
    /// An `SB_ERR_*` code: the call changed nothing.
    pub(crate) fn is_error(self) -> bool {
        self as i32 >= SB_ERR_NULL as i32
    }
}

impl From<PolicyError> for sb_status {
    fn from(e: PolicyError) -> Self {
        match e {
            PolicyError::InitialMs => SB_ERR_POLICY_INITIAL_MS,
            PolicyError::MaxBackoffMs => SB_ERR_POLICY_MAX_BACKOFF_MS,
            PolicyError::MultiplierDen => SB_ERR_POLICY_MULTIPLIER_DEN,
            PolicyError::MultiplierBelowOne => SB_ERR_POLICY_MULTIPLIER_BELOW_ONE,
            PolicyError::MultiplierTooLarge => SB_ERR_POLICY_MULTIPLIER_TOO_LARGE,
            PolicyError::JitterMs => SB_ERR_POLICY_JITTER_MS,
            PolicyError::SpreadPerMille => SB_ERR_POLICY_SPREAD_PER_MILLE,
            PolicyError::MaxHintMs => SB_ERR_POLICY_MAX_HINT_MS,
            _ => SB_ERR_OTHER,
        }
    }
}

impl From<SnapshotError> for sb_status {
    fn from(e: SnapshotError) -> Self {
        match e {
            SnapshotError::WrongLength => SB_ERR_SNAPSHOT_WRONG_LENGTH,
            SnapshotError::UnknownVersion => SB_ERR_SNAPSHOT_UNKNOWN_VERSION,
            SnapshotError::BadChecksum => SB_ERR_SNAPSHOT_BAD_CHECKSUM,
            SnapshotError::PolicyMismatch => SB_ERR_SNAPSHOT_POLICY_MISMATCH,
            SnapshotError::ZeroRngState => SB_ERR_SNAPSHOT_ZERO_RNG_STATE,
            SnapshotError::InvalidState => SB_ERR_SNAPSHOT_INVALID_STATE,
            _ => SB_ERR_OTHER,
        }
    }
}

impl From<ParseError> for sb_status {
    fn from(e: ParseError) -> Self {
        match e {
            ParseError::Empty => SB_ERR_PARSE_EMPTY,
            ParseError::Negative => SB_ERR_PARSE_NEGATIVE,
            ParseError::InvalidFormat => SB_ERR_PARSE_INVALID_FORMAT,
            ParseError::BadDayName => SB_ERR_PARSE_BAD_DAY_NAME,
            ParseError::BadMonth => SB_ERR_PARSE_BAD_MONTH,
            ParseError::BadDay => SB_ERR_PARSE_BAD_DAY,
            ParseError::BadHour => SB_ERR_PARSE_BAD_HOUR,
            ParseError::BadMinute => SB_ERR_PARSE_BAD_MINUTE,
            ParseError::BadSecond => SB_ERR_PARSE_BAD_SECOND,
            ParseError::BadYear => SB_ERR_PARSE_BAD_YEAR,
            _ => SB_ERR_OTHER,
        }
    }
}

impl From<BudgetError> for sb_status {
    fn from(e: BudgetError) -> Self {
        match e {
            BudgetError::MaxTokens => SB_ERR_BUDGET_MAX_TOKENS,
            BudgetError::TokenRatio => SB_ERR_BUDGET_TOKEN_RATIO,
            BudgetError::Capacity => SB_ERR_BUDGET_CAPACITY,
            BudgetError::Cost => SB_ERR_BUDGET_COST,
            BudgetError::NoRetryIncrement => SB_ERR_BUDGET_NO_RETRY_INCREMENT,
            _ => SB_ERR_OTHER,
        }
    }
}

impl From<GiveUpReason> for sb_status {
    fn from(reason: GiveUpReason) -> Self {
        match reason {
            GiveUpReason::MaxRetries => SB_GIVE_UP_MAX_RETRIES,
            GiveUpReason::Deadline => SB_GIVE_UP_DEADLINE,
            GiveUpReason::Budget => SB_GIVE_UP_BUDGET,
            GiveUpReason::ServerStop => SB_GIVE_UP_SERVER_STOP,
            _ => SB_ERR_OTHER,
        }
    }
}

fn message(status: sb_status) -> *const c_char {
    match status {
        SB_OK => c_str!("ok"),
        SB_RETRY => c_str!("retry: wait the returned delay, then try again"),
        SB_GIVE_UP_MAX_RETRIES => c_str!("give up: the policy's max_retries retries were issued"),
        SB_GIVE_UP_DEADLINE => c_str!("give up: the next delay would cross max_elapsed_ms"),
        SB_GIVE_UP_BUDGET => c_str!("give up: the retry budget refused another retry"),
        SB_GIVE_UP_SERVER_STOP => c_str!("give up: the server said not to retry"),
        SB_ERR_NULL => c_str!("a pointer argument is NULL"),
        SB_ERR_BAD_STATE => {
            c_str!("the sb_backoff or sb_budget was not initialised or has been corrupted")
        }
        SB_ERR_FAILURE_KIND => {
            c_str!("failure kind must be SB_FAILURE_ERROR (0) or SB_FAILURE_TIMEOUT (1)")
        }
        SB_ERR_OTHER => c_str!("an error this version of the C library has no code for"),
        SB_ERR_POLICY_INITIAL_MS => c_str!(PolicyError::InitialMs.message()),
        SB_ERR_POLICY_MAX_BACKOFF_MS => c_str!(PolicyError::MaxBackoffMs.message()),
        SB_ERR_POLICY_MULTIPLIER_DEN => c_str!(PolicyError::MultiplierDen.message()),
        SB_ERR_POLICY_MULTIPLIER_BELOW_ONE => c_str!(PolicyError::MultiplierBelowOne.message()),
        SB_ERR_POLICY_MULTIPLIER_TOO_LARGE => c_str!(PolicyError::MultiplierTooLarge.message()),
        SB_ERR_POLICY_JITTER_MS => c_str!(PolicyError::JitterMs.message()),
        SB_ERR_POLICY_SPREAD_PER_MILLE => c_str!(PolicyError::SpreadPerMille.message()),
        SB_ERR_POLICY_MAX_HINT_MS => c_str!(PolicyError::MaxHintMs.message()),
        SB_ERR_POLICY_JITTER => c_str!("jitter must be an SB_JITTER_* code in 0..=5"),
        SB_ERR_POLICY_DEADLINE => {
            c_str!("deadline must be SB_DEADLINE_GIVE_UP (0) or SB_DEADLINE_CLAMP (1)")
        }
        SB_ERR_SNAPSHOT_WRONG_LENGTH => c_str!(SnapshotError::WrongLength.message()),
        SB_ERR_SNAPSHOT_UNKNOWN_VERSION => c_str!(SnapshotError::UnknownVersion.message()),
        SB_ERR_SNAPSHOT_BAD_CHECKSUM => c_str!(SnapshotError::BadChecksum.message()),
        SB_ERR_SNAPSHOT_POLICY_MISMATCH => c_str!(SnapshotError::PolicyMismatch.message()),
        SB_ERR_SNAPSHOT_ZERO_RNG_STATE => c_str!(SnapshotError::ZeroRngState.message()),
        SB_ERR_SNAPSHOT_INVALID_STATE => c_str!(SnapshotError::InvalidState.message()),
        SB_ERR_PARSE_EMPTY => c_str!(ParseError::Empty.message()),
        SB_ERR_PARSE_NEGATIVE => c_str!(ParseError::Negative.message()),
        SB_ERR_PARSE_INVALID_FORMAT => c_str!(ParseError::InvalidFormat.message()),
        SB_ERR_PARSE_BAD_DAY_NAME => c_str!(ParseError::BadDayName.message()),
        SB_ERR_PARSE_BAD_MONTH => c_str!(ParseError::BadMonth.message()),
        SB_ERR_PARSE_BAD_DAY => c_str!(ParseError::BadDay.message()),
        SB_ERR_PARSE_BAD_HOUR => c_str!(ParseError::BadHour.message()),
        SB_ERR_PARSE_BAD_MINUTE => c_str!(ParseError::BadMinute.message()),
        SB_ERR_PARSE_BAD_SECOND => c_str!(ParseError::BadSecond.message()),
        SB_ERR_PARSE_BAD_YEAR => c_str!(ParseError::BadYear.message()),
        SB_ERR_BUDGET_MAX_TOKENS => c_str!(BudgetError::MaxTokens.message()),
        SB_ERR_BUDGET_TOKEN_RATIO => c_str!(BudgetError::TokenRatio.message()),
        SB_ERR_BUDGET_CAPACITY => c_str!(BudgetError::Capacity.message()),
        SB_ERR_BUDGET_COST => c_str!(BudgetError::Cost.message()),
        SB_ERR_BUDGET_NO_RETRY_INCREMENT => c_str!(BudgetError::NoRetryIncrement.message()),
    }
}

/// The message for a status code: a static, NUL-terminated string that must not be freed.
/// Unknown codes give "unknown status code"; the result is never NULL.
///
/// ```c
/// int rc = sb_backoff_init(&b, &policy, seed);
/// if (rc != SB_OK) fprintf(stderr, "backoff: %s\n", sb_strerror(rc));
/// ```
#[no_mangle]
pub extern "C" fn sb_strerror(code: i32) -> *const c_char {
    match ALL.iter().find(|s| **s as i32 == code) {
        Some(&status) => message(status),
        None => c_str!("unknown status code"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;

    #[test]
    fn every_code_is_listed_once_and_has_its_own_message() {
        let mut seen = std::collections::BTreeSet::new();
        let mut messages = std::collections::BTreeSet::new();
        for s in ALL.iter() {
            assert!(seen.insert(*s as i32), "{s:?} listed twice");
            // SAFETY: `sb_strerror` returns a pointer to a static NUL-terminated string.
            let text = unsafe { CStr::from_ptr(sb_strerror(*s as i32)) }
                .to_str()
                .unwrap();
            assert!(!text.is_empty() && text != "unknown status code", "{s:?}");
            assert!(messages.insert(text), "{s:?} shares its message");
        }
    }

    #[test]
    fn unknown_codes_have_a_message_too() {
        for code in [-1, 2, 10, 15, 99, 109, 145, 200, i32::MIN, i32::MAX] {
            // SAFETY: as above.
            let text = unsafe { CStr::from_ptr(sb_strerror(code)) }
                .to_str()
                .unwrap();
            assert_eq!(text, "unknown status code", "code {code}");
        }
    }

    #[test]
    fn policy_messages_are_the_cores() {
        // SAFETY: as above.
        let text = unsafe { CStr::from_ptr(sb_strerror(SB_ERR_POLICY_INITIAL_MS as i32)) };
        assert_eq!(text.to_str().unwrap(), PolicyError::InitialMs.message());
    }
}
