//! `sb_run_*_paced`: a run behind the caller's send rate (SPEC.md section 15.2). The send rate is
//! shared by many runs, so the run never holds it: each paced event is given the caller's
//! `sb_send_rate` (under the caller's lock when runs of several threads share it), which is
//! written back only when the event is taken.

use core::cell::Cell;

use seeded_backoff::send_rate::{Answer, SendRate};

use crate::budget::sb_budget;
use crate::ptr;
use crate::run::outcome_event;
use crate::run_apply::{apply_paced, PacedEvent};
use crate::run_types::{sb_action, sb_outcome, sb_run};
use crate::send_rate::{
    sb_send_rate, SB_ANSWER_ACCEPTED, SB_ANSWER_NO_ANSWER, SB_ANSWER_THROTTLED,
};
use crate::status::{require_feature, sb_status};

/// `sb_run_outcome_paced`'s answer kind meaning "the answer of the outcome" (SPEC.md section
/// 15.2): a success or permanent error is accepted, a retryable error with a Retry-After or
/// rate-limit hint a throttle, anything else no answer.
pub const SB_ANSWER_FROM_OUTCOME: u32 = 255;

/// Runs `event` with the send rate `*s` in a cell, and writes the rate back if it was taken.
///
/// # Safety
/// `s` is NULL or valid for reads and writes; the rest as `f` requires.
unsafe fn with_rate(
    s: *mut sb_send_rate,
    f: impl FnOnce(&Cell<SendRate>) -> sb_status,
) -> sb_status {
    require_feature!("send-rate");
    // The send rate is checked where it lies, the core's rate lent to the event in place and
    // only its state written back: each copy of either would deepen every paced event's stack.
    // SAFETY: forwarded from this function's contract; nothing writes to `*s` while the
    // reference lives (the core's rate holds the state until the write below).
    let c_rate = match unsafe { ptr::borrow(s) } {
        Ok(c) => c,
        Err(status) => return status,
    };
    let mut rate = c_rate.to_core();
    let rate = match &mut rate {
        Ok(rate) => rate,
        Err(status) => return *status,
    };
    let status = f(Cell::from_mut(&mut *rate));
    if status == sb_status::SB_OK {
        // SAFETY: `s` is non-NULL (it was read above) and writable by this function's contract.
        let _written = unsafe { ptr::write(&raw mut (*s).state, rate.to_words()) };
    }
    status
}

/// `sb_run_start` behind the send rate `*s`: `*out` is `SB_ACTION_ATTEMPT`, `SB_ACTION_WAIT`
/// (the send rate's wait: no retry, no attempt; sleep it, then `sb_run_wake_paced`) or
/// `SB_ACTION_GIVE_UP` (reason `SB_GIVE_UP_THROTTLED` for a fail-fast refusal, `SB_GIVE_UP_DEADLINE`
/// for a wait past `max_elapsed_ms`). Errors: those of `sb_run_start` and `sb_send_rate_ask`,
/// `SB_ERR_RUN_NO_CLOCK` for a NULL `now_ms` in a run without a clock; nothing is written then.
///
/// # Safety
/// `r`, `s` and `out` are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn sb_run_start_paced(
    r: *mut sb_run,
    now_ms: *const u64,
    s: *mut sb_send_rate,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with_rate(s, |rate| {
            apply_paced(r, out, now_ms, PacedEvent::Start(rate))
        })
    }
}

/// `sb_run_wake` behind the send rate `*s`, answering as `sb_run_start_paced`.
///
/// # Safety
/// `r`, `s` and `out` are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn sb_run_wake_paced(
    r: *mut sb_run,
    now_ms: *const u64,
    s: *mut sb_send_rate,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with_rate(s, |rate| {
            apply_paced(r, out, now_ms, PacedEvent::Wake(rate))
        })
    }
}

/// `sb_run_outcome`, then the attempt's answer told to the send rate `*s`: `answer_kind` an
/// `SB_ANSWER_*` code (`hint_ms` for `SB_ANSWER_THROTTLED`) when the caller knows the response,
/// or `SB_ANSWER_FROM_OUTCOME`. Errors: those of `sb_run_outcome`, `SB_ERR_SEND_RATE_ANSWER_KIND`,
/// `SB_ERR_RUN_NO_CLOCK`; nothing is written then.
///
/// # Safety
/// As `sb_run_outcome`; `s` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_run_outcome_paced(
    r: *mut sb_run,
    o: *const sb_outcome,
    answer_kind: u32,
    hint_ms: u32,
    now_ms: *const u64,
    budget: *mut sb_budget,
    s: *mut sb_send_rate,
    out: *mut sb_action,
) -> sb_status {
    let answer = match answer_kind {
        SB_ANSWER_FROM_OUTCOME => None,
        SB_ANSWER_ACCEPTED => Some(Answer::Accepted),
        SB_ANSWER_THROTTLED => Some(Answer::Throttled { hint_ms }),
        SB_ANSWER_NO_ANSWER => Some(Answer::NoAnswer),
        _ => return sb_status::SB_ERR_SEND_RATE_ANSWER_KIND,
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        with_rate(s, |rate| {
            outcome_event(r, o, now_ms, budget, out, Some((answer, rate)))
        })
    }
}
