//! The C types of `sb_run`: the run's memory, the outcome a caller reports and the action it
//! performs, as plain integers and `SB_*` constants, so that C reads them without the core's enums.

use seeded_backoff::bindings::RawRun;
use seeded_backoff::Action;

use crate::policy::sb_policy;
use crate::status::sb_status;

/// `sb_run_init` flag: time spent paused counts against `max_elapsed_ms`.
pub const SB_RUN_COUNT_PAUSED: u32 = 1;

/// Make attempt `attempt` (from 1), then report its outcome with `sb_run_outcome`.
pub const SB_ACTION_ATTEMPT: u32 = 0;
/// Attempt `attempt` failed: sleep `delay_ms`, then call `sb_run_wake`.
pub const SB_ACTION_RETRY: u32 = 1;
/// Sleep `delay_ms` (a wait re-drawn after a pause), then call `sb_run_wake`.
pub const SB_ACTION_WAIT: u32 = 2;
/// Wait for the pause to end, at most `delay_ms` (`UINT32_MAX`: no limit), then `sb_run_resume`.
pub const SB_ACTION_PAUSED: u32 = 3;
/// Done after `attempt` attempts.
pub const SB_ACTION_DONE: u32 = 4;
/// Give up after `attempt` attempts; `reason` is an `SB_GIVE_UP_*` status, or 0 for a permanent
/// error.
pub const SB_ACTION_GIVE_UP: u32 = 5;

/// The attempt succeeded.
pub const SB_OUTCOME_SUCCESS: u32 = 0;
/// The attempt failed with an error worth a retry (`failure_kind`, `hint_flag`, `hint_ms`).
pub const SB_OUTCOME_RETRYABLE: u32 = 1;
/// The attempt failed with an error not worth a retry.
pub const SB_OUTCOME_PERMANENT: u32 = 2;
/// A retryable failure while the device is offline: it spends no retry; the run pauses.
pub const SB_OUTCOME_OFFLINE: u32 = 3;

/// `sb_run_pause` reason: the device is offline (the pause ends after `max_backoff_ms` at most).
pub const SB_PAUSE_OFFLINE: u32 = 1;
/// `sb_run_pause` reason: the application is in the background.
pub const SB_PAUSE_HIDDEN: u32 = 0;

/// One call's retry run: the core's run as integers plus a copy of its policy. Place it anywhere,
/// set it up with `sb_run_init`, and treat the fields as private: every call validates them
/// (`SB_ERR_BAD_STATE`) and writes them back only on success.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_run {
    /// The run's state, SPEC.md section 15's raw form, as 11 words.
    pub state: [u64; 11],
    /// The policy, validated at init.
    pub policy: sb_policy,
}

const _: () = assert!(core::mem::size_of::<RawRun>() == 88);

/// How an attempt ended, for `sb_run_outcome`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_outcome {
    /// An `SB_OUTCOME_*` code.
    pub kind: u32,
    /// With `SB_OUTCOME_RETRYABLE`: `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
    pub failure_kind: u32,
    /// With `SB_OUTCOME_RETRYABLE`: 0, `SB_INPUT_RETRY_AFTER`, `SB_INPUT_RATE_LIMIT` or
    /// `SB_INPUT_DO_NOT_RETRY`, as `sb_hint_from_headers` gives it.
    pub hint_flag: u32,
    /// The hint's milliseconds.
    pub hint_ms: u32,
}

/// What to do next: an `SB_ACTION_*` code and its numbers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_action {
    /// An `SB_ACTION_*` code.
    pub kind: u32,
    /// The attempt to make, the attempt that failed, or the attempts made.
    pub attempt: u32,
    /// The sleep, or the longest pause (`UINT32_MAX`: none).
    pub delay_ms: u32,
    /// With `SB_ACTION_GIVE_UP`: an `SB_GIVE_UP_*` status, or 0 for a permanent error.
    pub reason: u32,
}

pub(crate) fn action(a: Action) -> sb_action {
    let (kind, attempt, delay_ms, reason) = match a {
        Action::Attempt { attempt } => (SB_ACTION_ATTEMPT, attempt, 0, 0),
        Action::Retry { attempt, delay_ms } => (SB_ACTION_RETRY, attempt, delay_ms, 0),
        Action::Wait { delay_ms } => (SB_ACTION_WAIT, 0, delay_ms, 0),
        Action::Paused { max_ms } => (SB_ACTION_PAUSED, 0, max_ms.unwrap_or(u32::MAX), 0),
        Action::Done { attempts } => (SB_ACTION_DONE, attempts, 0, 0),
        Action::GiveUp { attempts, reason } => (
            SB_ACTION_GIVE_UP,
            attempts,
            0,
            reason.map_or(0, |r| sb_status::from(r) as u32),
        ),
    };
    sb_action {
        kind,
        attempt,
        delay_ms,
        reason,
    }
}

/// The clock reading behind `now_ms`, or none for NULL: a pointer, not a reserved value, so
/// that every u64 reading SPEC.md section 15 allows, `UINT64_MAX` included, can be given.
///
/// # Safety
/// `now_ms` is NULL or valid for reads.
pub(crate) unsafe fn clock(now_ms: *const u64) -> Result<Option<u64>, sb_status> {
    if now_ms.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL, and readable by this function's contract.
    unsafe { crate::ptr::read(now_ms) }.map(Some)
}

// `sb_run` begins with the core's `RawRun`, as plain integers: the state words hold its 88 bytes,
// read and written in place (the words are opaque to C, so their order is the machine's).
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(offset_of!(sb_run, state) == 0);
    assert!(size_of::<[u64; 11]>() == size_of::<RawRun>());
    assert!(align_of::<sb_run>() >= align_of::<RawRun>());
};
