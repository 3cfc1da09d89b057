//! The stable status codes every function returns, and their messages, declared once in the table
//! below: each row gives the code, its documentation, its `sb_strerror` text and, for a code that
//! stands for a core error or give-up reason, that variant. The enum, the list of every code, the
//! message lookup and the conversions from the core's types are all generated from the rows.
//!
//! Codes never change meaning once released: `0` OK, `1` retry, `2` and `3` a send rate's wait
//! and refusal, `11..=16` give-up reasons
//! (10 + the SPEC.md section 5 reason code), `100` and up errors, grouped by decades.

use core::ffi::c_char;

use seeded_backoff::bindings::StepInputError;
use seeded_backoff::{
    budget::BudgetError, fleet::FleetError, http::ParseError, pacer::PacerError,
    policy::PolicyError, run::RunError, send_rate::SendRateError, shared::StoreError,
    snapshot::SnapshotError, GiveUpReason, Invalid,
};

use crate::cstr::{c_str, packed_len, Packed};

/// A row's message: its own text, or (`core`) the core's message for the row's variant.
macro_rules! row_message {
    ($group:ident, $variant:ident, core) => {
        $group::$variant.message()
    };
    ($group:tt, $($variant:ident)?, $text:literal) => {
        $text
    };
}

/// A row's core name (`sb_status_name`): the name of the core variant it stands for, if any.
macro_rules! row_name {
    ($group:ident, $variant:ident) => {
        Some($group::$variant.name())
    };
    ($group:tt,) => {
        None
    };
}

/// A row's policy option (`sb_policy_error_field`): the field a policy error is about, if any.
macro_rules! row_field {
    (PolicyError, $variant:ident) => {
        Some(PolicyError::$variant.field())
    };
    ($group:tt, $($variant:ident)?) => {
        None
    };
}

/// `impl From<Group> for sb_status` for a group of rows that stand for a core type's variants;
/// nothing for the rows of `_`. A variant the core adds later maps to `SB_ERR_OTHER`.
macro_rules! group_from {
    (_, $($name:ident $($variant:ident)?),*) => {};
    ($group:ident, $($name:ident $variant:ident),*) => {
        impl From<$group> for sb_status {
            fn from(e: $group) -> Self {
                match e {
                    $($group::$variant => sb_status::$name,)*
                    #[allow(unreachable_patterns)]
                    _ => sb_status::SB_ERR_OTHER,
                }
            }
        }
    };
}

macro_rules! statuses {
    ($(
        $group:tt {$(
            $(#[doc = $doc:literal])*
            $name:ident = $code:literal $(if $variant:ident)? => $message:tt;
        )*}
    )*) => {
        /// What a call did. Every function of the C ABI that can fail returns one of these.
        ///
        /// Errors (`SB_ERR_*`, all >= 100) leave every caller-owned struct unchanged.
        #[repr(i32)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(non_camel_case_types)]
        pub enum sb_status {
            $($($(#[doc = $doc])* $name = $code,)*)*
        }

        /// Every status, in the order of the tables below.
        pub(crate) const ALL: &[sb_status] = &[$($(sb_status::$name,)*)*];

        /// Every code, as a byte (every code is below 200), in `ALL`'s order.
        const CODES: [u8; ALL.len()] = [$($($code,)*)*];

        $(group_from!($group, $($name $($variant)?),*);)*

        /// `sb_strerror`'s text of each status: with `long-messages`, what happened, naming the
        /// field and its allowed range; without, the status's name, as in the header. Only the
        /// statuses this build can return ([`in_build`]).
        const MESSAGE_ROWS: [Option<&str>; ALL.len()] = if cfg!(feature = "long-messages") {
            [$($(kept($code, row_message!($group, $($variant)?, $message)),)*)*]
        } else {
            [$($(kept($code, stringify!($name)),)*)*]
        };

        /// The core's snake_case name for the give-up reason or error each status stands for.
        const NAME_ROWS: [Option<&str>; ALL.len()] = [$($(row_name!($group, $($variant)?),)*)*];

        /// The policy option each `SB_ERR_POLICY_*` status is about.
        const FIELD_ROWS: [Option<&str>; ALL.len()] = [$($(row_field!($group, $($variant)?),)*)*];
    };
}

statuses! {
    _ {
        /// Success.
        SB_OK = 0 => "ok";
        /// Retry: wait the returned delay, then send the request again.
        SB_RETRY = 1 => "retry after the returned delay";
    }
    GiveUpReason {
        /// Give up: the policy's `max_retries` retries were already issued.
        SB_GIVE_UP_MAX_RETRIES = 11 if MaxRetries => "gave up: the policy's max_retries retries were issued";
        /// Give up: the next delay would cross the policy's time budget (`max_elapsed_ms`).
        SB_GIVE_UP_DEADLINE = 12 if Deadline => "gave up: the next delay would cross max_elapsed_ms";
        /// Give up: the shared retry budget refused another retry.
        SB_GIVE_UP_BUDGET = 13 if Budget => "gave up: the retry budget refused another retry";
        /// Give up: the server said not to retry.
        SB_GIVE_UP_SERVER_STOP = 14 if ServerStop => "gave up: the server said not to retry";
        /// Give up: the server asked for a wait longer than the policy's `max_hint_ms`.
        SB_GIVE_UP_HINT_EXCEEDS_MAX = 15 if HintExceedsMax => "gave up: the server asked for a wait longer than max_hint_ms";
        /// Give up: the run's send rate refused the attempt (fail-fast).
        SB_GIVE_UP_THROTTLED = 16 if Throttled => "gave up: the send rate refused the attempt (fail-fast)";
    }
    _ {
        /// A pointer argument is NULL.
        SB_ERR_NULL = 100 => "a pointer argument is NULL";
        /// An `sb_backoff`, `sb_budget` or `sb_pacer` holds values no init function produces
        /// (uninitialised or corrupted memory).
        SB_ERR_BAD_STATE = 101 => "the sb_backoff, sb_budget or sb_pacer was not initialised or has been corrupted";
        /// A failure kind other than `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
        SB_ERR_FAILURE_KIND = 102 => "failure kind must be SB_FAILURE_ERROR (0) or SB_FAILURE_TIMEOUT (1)";
        /// The function, or the jitter strategy the policy names, is not compiled into this build
        /// of the library (see the Cargo features in ffi/Cargo.toml).
        SB_ERR_UNSUPPORTED = 103 => "not compiled into this build of the library (see its Cargo features)";
        /// A rate-limit header kind other than the `SB_RATE_LIMIT_*` codes.
        SB_ERR_RATE_LIMIT_HEADER = 104 => "header kind must be an SB_RATE_LIMIT_* code in 0..=3";
    }
    PolicyError {
        /// Policy: `initial_ms` must be in 1..=2147483647.
        SB_ERR_POLICY_INITIAL_MS = 110 if InitialMs => core;
        /// Policy: `max_backoff_ms` must be in initial_ms..=2147483647.
        SB_ERR_POLICY_MAX_BACKOFF_MS = 111 if MaxBackoffMs => core;
        /// Policy: `multiplier_den` must be in 1..=1000.
        SB_ERR_POLICY_MULTIPLIER_DEN = 112 if MultiplierDen => core;
        /// Policy: the multiplier must be >= 1 (`multiplier_num >= multiplier_den`).
        SB_ERR_POLICY_MULTIPLIER_BELOW_ONE = 113 if MultiplierBelowOne => core;
        /// Policy: the multiplier must be <= 1000 (`multiplier_num <= 1000 * multiplier_den`).
        SB_ERR_POLICY_MULTIPLIER_TOO_LARGE = 114 if MultiplierTooLarge => core;
        /// Policy: `jitter_ms` must be in 0..=max_backoff_ms (Google jitter).
        SB_ERR_POLICY_JITTER_MS = 115 if JitterMs => core;
        /// Policy: `spread_per_mille` must be in 0..=1000 (proportional jitter).
        SB_ERR_POLICY_SPREAD_PER_MILLE = 116 if SpreadPerMille => core;
        /// Policy: `max_hint_ms` must be in 0..=2147483647.
        SB_ERR_POLICY_MAX_HINT_MS = 117 if MaxHintMs => core;
        /// Policy: `jitter` must be one of the `SB_JITTER_*` codes (0..=5).
        SB_ERR_POLICY_JITTER = 118 if UnknownJitter => "jitter must be an SB_JITTER_* code in 0..=5";
        /// Policy options: `jitter_ms` given for a strategy other than Google's
        /// (`sb_policy_from_options`).
        SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE = 160 if JitterMsNotApplicable => core;
        /// Policy options: `spread_per_mille` given for a strategy other than proportional
        /// (`sb_policy_from_options`).
        SB_ERR_POLICY_SPREAD_NOT_APPLICABLE = 161 if SpreadNotApplicable => core;
    }
    _ {
        /// Policy: `deadline` must be `SB_DEADLINE_GIVE_UP` (0) or `SB_DEADLINE_CLAMP` (1).
        SB_ERR_POLICY_DEADLINE = 119 => "deadline must be SB_DEADLINE_GIVE_UP (0) or SB_DEADLINE_CLAMP (1)";
        /// Policy options: `preset` must be one of the `SB_PRESET_*` codes (0..=4).
        SB_ERR_POLICY_PRESET = 162 => "preset must be an SB_PRESET_* code in 0..=4";
    }
    SnapshotError {
        /// Snapshot: not exactly `SB_SNAPSHOT_SIZE` bytes.
        SB_ERR_SNAPSHOT_WRONG_LENGTH = 120 if WrongLength => core;
        /// Snapshot: a format version this library does not know.
        SB_ERR_SNAPSHOT_UNKNOWN_VERSION = 121 if UnknownVersion => core;
        /// Snapshot: the CRC-32 does not match (damaged bytes).
        SB_ERR_SNAPSHOT_BAD_CHECKSUM = 122 if BadChecksum => core;
        /// Snapshot: taken under a different policy.
        SB_ERR_SNAPSHOT_POLICY_MISMATCH = 123 if PolicyMismatch => core;
        /// Snapshot: the random state is all zero.
        SB_ERR_SNAPSHOT_ZERO_RNG_STATE = 124 if ZeroRngState => core;
        /// Snapshot: a state the policy cannot reach.
        SB_ERR_SNAPSHOT_INVALID_STATE = 125 if InvalidState => core;
    }
    ParseError {
        /// Retry hint: nothing but whitespace.
        SB_ERR_PARSE_EMPTY = 130 if Empty => core;
        /// Retry hint: a leading minus sign.
        SB_ERR_PARSE_NEGATIVE = 131 if Negative => core;
        /// Retry hint: neither delta-seconds nor an HTTP-date.
        SB_ERR_PARSE_INVALID_FORMAT = 132 if InvalidFormat => core;
        /// HTTP-date: the day name is not Mon..Sun (Monday..Sunday in RFC 850).
        SB_ERR_PARSE_BAD_DAY_NAME = 133 if BadDayName => core;
        /// HTTP-date: the month is not Jan..Dec.
        SB_ERR_PARSE_BAD_MONTH = 134 if BadMonth => core;
        /// HTTP-date: the day is outside the month.
        SB_ERR_PARSE_BAD_DAY = 135 if BadDay => core;
        /// HTTP-date: the hour is above 23.
        SB_ERR_PARSE_BAD_HOUR = 136 if BadHour => core;
        /// HTTP-date: the minute is above 59.
        SB_ERR_PARSE_BAD_MINUTE = 137 if BadMinute => core;
        /// HTTP-date: the second is above 60.
        SB_ERR_PARSE_BAD_SECOND = 138 if BadSecond => core;
        /// HTTP-date: the year is 0000 (0001..=9999 are valid; before 1970 is in the past).
        SB_ERR_PARSE_BAD_YEAR = 139 if BadYear => core;
        /// Retry hint: longer than `SB_MAX_HEADER_VALUE_LEN` (8192) bytes; not read (the parse
        /// errors' decade, 130s, is full).
        SB_ERR_PARSE_TOO_LONG = 170 if TooLong => core;
    }
    BudgetError {
        /// Budget: gRPC `max_tokens` must be in 1..=1000.
        SB_ERR_BUDGET_MAX_TOKENS = 140 if MaxTokens => core;
        /// Budget: gRPC `token_ratio_milli` must be in 1..=1000*max_tokens.
        SB_ERR_BUDGET_TOKEN_RATIO = 141 if TokenRatio => core;
        /// Budget: AWS `capacity` must be in 1..=1000000.
        SB_ERR_BUDGET_CAPACITY = 142 if Capacity => core;
        /// Budget: AWS `retry_cost` and `timeout_cost` must be in 1..=capacity.
        SB_ERR_BUDGET_COST = 143 if Cost => core;
        /// Budget: AWS `no_retry_increment` must be in 0..=capacity.
        SB_ERR_BUDGET_NO_RETRY_INCREMENT = 144 if NoRetryIncrement => core;
    }
    StepInputError {
        /// Step input: more than one of `SB_INPUT_RETRY_AFTER`, `SB_INPUT_DO_NOT_RETRY` and
        /// `SB_INPUT_RATE_LIMIT` (a step takes at most one server hint).
        SB_ERR_TWO_HINTS = 105 if TwoHints => "give at most one server hint per step: SB_INPUT_RETRY_AFTER, SB_INPUT_DO_NOT_RETRY or SB_INPUT_RATE_LIMIT";
    }
    FleetError {
        /// Startup delay: `window_ms` must be in 0..=2147483647.
        SB_ERR_FLEET_WINDOW_MS = 150 if WindowMs => core;
    }
    StoreError {
        /// Stored value: not this format's tag and version, or not its kind's length.
        SB_ERR_STORE_FORMAT = 151 if Format => core;
        /// Stored value: another kind of part's (a pacer's where a send rate's is decoded).
        SB_ERR_STORE_KIND = 152 if Kind => core;
        /// Stored value: written under another configuration (its fingerprint differs).
        SB_ERR_STORE_CONFIG = 153 if Config => core;
        /// Stored value: words no state of this configuration reaches.
        SB_ERR_STORE_STATE = 154 if State => core;
    }
    _ {
        /// Store link: an `sb_store_link` or `sb_store_exchange` that `sb_store_link_init` and
        /// `sb_store_begin` did not set up, of another kind than its link, or corrupted.
        SB_ERR_STORE_LINK = 155 => "the sb_store_link or sb_store_exchange was not set up by sb_store_link_init and sb_store_begin, is of another kind, or has been corrupted";
        /// Store link: a kind other than `SB_STORE_BUDGET`, `SB_STORE_PACER` or `SB_STORE_SEND_RATE`.
        SB_ERR_STORE_PART_KIND = 156 => "kind must be SB_STORE_BUDGET (1), SB_STORE_PACER (2) or SB_STORE_SEND_RATE (3)";
        /// Store link: a clock other than `SB_STORE_CLOCK_STORE` or `SB_STORE_CLOCK_CALLER`.
        SB_ERR_STORE_CLOCK = 157 => "clock must be SB_STORE_CLOCK_STORE (0) or SB_STORE_CLOCK_CALLER (1)";
        /// Store link: a reply other than the `SB_STORE_REPLY_*` codes.
        SB_ERR_STORE_REPLY = 158 => "reply must be an SB_STORE_REPLY_* code in 0..=2";
    }
    RunError {
        /// Run: `sb_run_start` after the run has started.
        SB_ERR_RUN_START = 180 if Start => core;
        /// Run: `sb_run_outcome` while no attempt is in flight.
        SB_ERR_RUN_OUTCOME = 181 if Outcome => core;
        /// Run: `sb_run_wake` while the run is not sleeping.
        SB_ERR_RUN_WAKE = 182 if Wake => core;
        /// Run: `sb_run_pause` while an attempt is in flight or the run is paused.
        SB_ERR_RUN_PAUSE = 183 if Pause => core;
        /// Run: `sb_run_resume` while the run is neither paused nor sleeping.
        SB_ERR_RUN_RESUME = 184 if Resume => core;
        /// Run: an event after the run is done or has given up.
        SB_ERR_RUN_FINISHED = 185 if Finished => core;
        /// Run: a paced event (`sb_run_*_paced`) in a run without a clock (its first event's `now_ms` was NULL).
        SB_ERR_RUN_NO_CLOCK = 179 if NoClock => core;
    }
    _ {
        /// Run: `sb_run_init` flags other than `SB_RUN_COUNT_PAUSED`.
        SB_ERR_RUN_FLAGS = 186 => "run flags must be 0 or SB_RUN_COUNT_PAUSED (1)";
        /// Run: an outcome kind other than the `SB_OUTCOME_*` codes.
        SB_ERR_RUN_OUTCOME_KIND = 187 => "outcome kind must be an SB_OUTCOME_* code in 0..=3";
        /// Run: a pause reason other than `SB_PAUSE_HIDDEN` or `SB_PAUSE_OFFLINE`.
        SB_ERR_RUN_PAUSE_REASON = 188 => "pause reason must be SB_PAUSE_HIDDEN (0) or SB_PAUSE_OFFLINE (1)";
    }
    PacerError {
        /// Pacer: `capacity_per_s` must be in 1..=1000000.
        SB_ERR_PACER_CAPACITY_PER_S = 175 if CapacityPerS => core;
        /// Pacer: `reserve_per_mille` must be in 0..=999.
        SB_ERR_PACER_RESERVE_PER_MILLE = 176 if ReservePerMille => core;
        /// Pacer: `max_wait_s` must be in 1..=86400.
        SB_ERR_PACER_MAX_WAIT_S = 177 if MaxWaitS => core;
    }
    _ {
        /// Send rate: wait `*out_ms`, then ask again (`sb_send_rate_ask`).
        SB_SEND_RATE_WAIT = 2 => "wait the returned ms, then ask the send rate again";
        /// Send rate, `fail_fast`: do not send now; `*out_ms` is the wait sending would take.
        SB_SEND_RATE_REFUSE = 3 => "refused by the send rate (fail_fast): do not send now";
        /// Send rate: an answer kind other than the `SB_ANSWER_*` codes.
        SB_ERR_SEND_RATE_ANSWER_KIND = 189 => "answer kind must be an SB_ANSWER_* code in 0..=2";
    }
    SendRateError {
        /// Send rate: `max_rate_milli` must be in 1..=1000000000.
        SB_ERR_SEND_RATE_MAX_RATE_MILLI = 190 if MaxRate => core;
        /// Send rate: `min_rate_milli` must be in 1..=max_rate_milli.
        SB_ERR_SEND_RATE_MIN_RATE_MILLI = 191 if MinRate => core;
        /// Send rate: `margin_permille` must be in 1..=500.
        SB_ERR_SEND_RATE_MARGIN_PERMILLE = 192 if Margin => core;
        /// Send rate: `probe_ms` must be in 10..=60000.
        SB_ERR_SEND_RATE_PROBE_MS = 193 if ProbeMs => core;
        /// Send rate: `probe_first_permille` must be in 1..=probe_max_permille.
        SB_ERR_SEND_RATE_PROBE_FIRST_PERMILLE = 194 if ProbeFirst => core;
        /// Send rate: `probe_max_permille` must be in 1..=1000.
        SB_ERR_SEND_RATE_PROBE_MAX_PERMILLE = 195 if ProbeMax => core;
        /// Send rate: `guard_ms` must be in 0..=60000.
        SB_ERR_SEND_RATE_GUARD_MS = 196 if GuardMs => core;
        /// Send rate: `burst` must be in 1..=1000.
        SB_ERR_SEND_RATE_BURST = 197 if Burst => core;
        /// Send rate: `max_hold_ms` must be in 0..=3600000.
        SB_ERR_SEND_RATE_MAX_HOLD_MS = 198 if MaxHold => core;
    }
    _ {
        /// An error this version of the C layer has no code for (a newer core).
        SB_ERR_OTHER = 199 => "an error this version of the C library has no code for";
    }
}

/// Whether a function of this build can return the status `code`. A part the build leaves out
/// answers `SB_ERR_UNSUPPORTED` before any status of its own, so `sb_strerror`'s table leaves out
/// those statuses' text: a firmware that names one status carries the names of the parts it has,
/// not of all of them. Codes every build can return, and those
/// a left-out part's input checks might give before its feature check, are always in.
const fn in_build(code: u8) -> bool {
    match code {
        // A give-up this build's steps cannot reach may still be in a restored snapshot.
        12 => cfg!(any(feature = "time-budget", feature = "snapshot")),
        13 => cfg!(any(feature = "budget", feature = "snapshot")),
        14 | 15 => cfg!(any(feature = "hints", feature = "snapshot")),
        16 => cfg!(any(feature = "send-rate", feature = "snapshot")),
        104 => cfg!(feature = "retry-after"),
        2 | 3 | 189..=198 => cfg!(feature = "send-rate"),
        120..=125 => cfg!(feature = "snapshot"),
        130..=139 | 170 => cfg!(any(feature = "retry-after", feature = "hints")),
        140..=144 => cfg!(feature = "budget"),
        150 => cfg!(feature = "fleet"),
        151..=158 => cfg!(feature = "store"),
        160..=162 => cfg!(feature = "bindings"),
        175..=177 => cfg!(feature = "pacer"),
        179..=188 => cfg!(feature = "run"),
        _ => true,
    }
}

/// `text` for a status of this build, else none.
const fn kept(code: u8, text: &'static str) -> Option<&'static str> {
    if in_build(code) {
        Some(text)
    } else {
        None
    }
}

/// `sb_strerror`'s text for a status no function of this build returns.
const LEFT_OUT: &core::ffi::CStr = c"a status of a part this build of the library leaves out";

/// Returns `SB_ERR_UNSUPPORTED` from the enclosing function unless the Cargo feature is enabled.
/// The rest of the function still compiles in every build (so every feature set type-checks the
/// whole API); without the feature it is dead code, which the optimiser drops with everything only
/// it calls.
macro_rules! require_feature {
    ($feature:literal) => {
        if !cfg!(feature = $feature) {
            return $crate::status::sb_status::SB_ERR_UNSUPPORTED;
        }
    };
}
pub(crate) use require_feature;

impl sb_status {
    /// An `SB_ERR_*` code: the call changed nothing.
    pub(crate) fn is_error(self) -> bool {
        self as i32 >= sb_status::SB_ERR_NULL as i32
    }
}

/// The message for a status code: a static, NUL-terminated string that must not be freed.
/// Unknown codes give "unknown status code"; the result is never NULL. The default build says what
/// happened and names the field and its range; a build without the `long-messages` feature returns
/// the status's name (e.g. "SB_ERR_POLICY_INITIAL_MS"), which the header documents. A build
/// without a part holds no text for the statuses only that part returns: they give "a status of a
/// part this build of the library leaves out".
///
/// ```c
/// int rc = sb_backoff_init(&b, &policy, seed);
/// if (rc != SB_OK) fprintf(stderr, "backoff: %s\n", sb_strerror(rc));
/// ```
#[no_mangle]
pub extern "C" fn sb_strerror(code: i32) -> *const c_char {
    match index(code).map(|i| MESSAGES.get(i)) {
        Some(text) if !text.is_null() => text,
        Some(_) => LEFT_OUT.as_ptr(),
        None => c_str!("unknown status code"),
    }
}

static MESSAGES: Packed<{ packed_len(&MESSAGE_ROWS) }, { ALL.len() }> = Packed::new(MESSAGE_ROWS);
static NAMES: Packed<{ packed_len(&NAME_ROWS) }, { ALL.len() }> = Packed::new(NAME_ROWS);
static FIELDS: Packed<{ packed_len(&FIELD_ROWS) }, { ALL.len() }> = Packed::new(FIELD_ROWS);

/// Where `code` is in the tables, or `None` for a code that is no status.
fn index(code: i32) -> Option<usize> {
    let code = u8::try_from(code).ok()?;
    CODES.iter().position(|&c| c == code)
}

/// The core's snake_case name for the give-up reason or error `code` stands for, else NULL.
pub(crate) fn core_name(code: i32) -> *const c_char {
    index(code).map_or(core::ptr::null(), |i| NAMES.get(i))
}

/// The policy option an `SB_ERR_POLICY_*` code is about, else NULL.
pub(crate) fn policy_field(code: i32) -> *const c_char {
    index(code).map_or(core::ptr::null(), |i| FIELDS.get(i))
}

#[cfg(test)]
mod tests;

/// A refused value's status is its rule's: C reports the field and its range by status (and
/// `sb_strerror`), and the value is the caller's own, at hand.
impl<E> From<Invalid<E>> for sb_status
where
    sb_status: From<E>,
{
    fn from(e: Invalid<E>) -> Self {
        sb_status::from(e.error)
    }
}
