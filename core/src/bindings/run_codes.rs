//! A run's events as the numbers that cross the C ABI (`sb_run_*`) and the wasm exports: one
//! reading of each code for every binding, and one refusal for a code that names nothing, so that
//! no binding maps an unknown code to a default (an unknown outcome read as `offline` would spend
//! no retry and pause a run that failed).

use crate::budget::FailureKind;
use crate::error_enum::error_enum;
use crate::hint::ServerHint;
use crate::run::{Outcome, PauseReason};
use crate::send_rate::Answer;

error_enum! {
    /// A run event given as numbers with a code that names nothing: refused, and the run is left
    /// unchanged. A binding's typed API cannot make one; a caller of the C ABI or the wasm
    /// exports can.
    pub enum RunCodeError {
        /// An outcome code other than [`outcome_code`]'s.
        Outcome => "unknown_outcome", "outcome: expected a code in 0..=3";
        /// A failure kind code other than [`FailureKind`]'s.
        FailureKind => "unknown_failure_kind", "failure kind: expected a code in 0..=1";
        /// A pause reason code other than [`PauseReason`]'s.
        PauseReason => "unknown_pause_reason", "pause reason: expected a code in 0..=1";
        /// A hint code the binding does not define.
        Hint => "unknown_hint", "hint: expected one of the binding's hint codes";
        /// An event code the binding does not define.
        Event => "unknown_event", "event: expected one of the binding's event codes";
        /// An answer code the binding does not define, or an HTTP status outside 100..=599.
        Answer => "unknown_answer", "answer: expected an answer code, or a status in 100..=599";
    }
}

/// The codes of an outcome's kind (the C ABI's `SB_OUTCOME_*`, the wasm exports' `kind`).
pub mod outcome_code {
    /// The attempt succeeded.
    pub const SUCCESS: u32 = 0;
    /// A failure worth a retry (its failure kind and hint given beside).
    pub const RETRYABLE: u32 = 1;
    /// A failure the caller's classifier says is not worth a retry.
    pub const PERMANENT: u32 = 2;
    /// A failure while the device is offline.
    pub const OFFLINE: u32 = 3;
}

/// The outcome of code `kind` (an [`outcome_code`]); for a retryable one, its failure kind (a
/// [`FailureKind`] code) and its hint (read by the binding from its own codes), which the other
/// kinds do not read.
///
/// ```
/// use seeded_backoff::bindings::{outcome_code, outcome_from_codes, RunCodeError};
/// use seeded_backoff::{FailureKind, Outcome};
/// assert_eq!(outcome_from_codes(outcome_code::SUCCESS, 0, Ok(None)), Ok(Outcome::Success));
/// let retryable = outcome_from_codes(outcome_code::RETRYABLE, 1, Ok(None));
/// assert_eq!(retryable, Ok(Outcome::Retryable { hint: None, failure_kind: FailureKind::Timeout }));
/// assert_eq!(outcome_from_codes(4, 0, Ok(None)), Err(RunCodeError::Outcome));
/// assert_eq!(outcome_from_codes(outcome_code::RETRYABLE, 2, Ok(None)), Err(RunCodeError::FailureKind));
/// ```
pub fn outcome_from_codes(
    kind: u32,
    failure_kind: u32,
    hint: Result<Option<ServerHint>, RunCodeError>,
) -> Result<Outcome, RunCodeError> {
    Ok(match kind {
        outcome_code::SUCCESS => Outcome::Success,
        outcome_code::PERMANENT => Outcome::Permanent,
        outcome_code::OFFLINE => Outcome::Offline,
        outcome_code::RETRYABLE => Outcome::Retryable {
            failure_kind: failure_kind_from_code(failure_kind)?,
            hint: hint?,
        },
        _ => return Err(RunCodeError::Outcome),
    })
}

/// The failure kind of `code` ([`FailureKind::code`]).
///
/// ```
/// use seeded_backoff::bindings::{failure_kind_from_code, RunCodeError};
/// use seeded_backoff::FailureKind;
/// assert_eq!(failure_kind_from_code(0), Ok(FailureKind::Error));
/// assert_eq!(failure_kind_from_code(256), Err(RunCodeError::FailureKind));
/// ```
pub fn failure_kind_from_code(code: u32) -> Result<FailureKind, RunCodeError> {
    u8::try_from(code)
        .ok()
        .and_then(FailureKind::from_code)
        .ok_or(RunCodeError::FailureKind)
}

/// The pause reason of `code` ([`PauseReason::code`]).
///
/// ```
/// use seeded_backoff::bindings::{pause_reason_from_code, RunCodeError};
/// use seeded_backoff::run::PauseReason;
/// assert_eq!(pause_reason_from_code(1), Ok(PauseReason::Offline));
/// assert_eq!(pause_reason_from_code(2), Err(RunCodeError::PauseReason));
/// ```
pub fn pause_reason_from_code(code: u32) -> Result<PauseReason, RunCodeError> {
    u8::try_from(code)
        .ok()
        .and_then(PauseReason::from_code)
        .ok_or(RunCodeError::PauseReason)
}

/// The send rate's answer to a response of HTTP status `status` with the outcome's hint
/// ([`Answer::from_http`]); a number that is no status (outside 100..=599) is refused.
///
/// ```
/// use seeded_backoff::bindings::{answer_from_status, RunCodeError};
/// use seeded_backoff::send_rate::Answer;
/// assert_eq!(answer_from_status(429, None), Ok(Answer::Throttled { hint_ms: 0 }));
/// assert_eq!(answer_from_status(200, None), Ok(Answer::Accepted));
/// assert_eq!(answer_from_status(0, None), Err(RunCodeError::Answer));
/// ```
pub fn answer_from_status(status: u32, hint: Option<ServerHint>) -> Result<Answer, RunCodeError> {
    match u16::try_from(status) {
        Ok(s @ 100..=599) => Ok(Answer::from_http(s, hint)),
        _ => Err(RunCodeError::Answer),
    }
}
