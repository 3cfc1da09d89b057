//! `sb_run`: one call's whole retry run (SPEC.md section 15) in caller-owned memory, so a firmware
//! gets its retry loop from the library: it performs each `sb_action` and reports what happened.

use core::cell::Cell;
use seeded_backoff::bindings::{
    outcome_code, outcome_from_codes, pause_reason_from_code, RawRun, RunCodeError,
};

use seeded_backoff::{
    budget::RetryGate,
    send_rate::{Answer, SendRate},
    Outcome, Run, ServerHint,
};

use crate::budget::sb_budget;
use crate::input::{SB_INPUT_DO_NOT_RETRY, SB_INPUT_RATE_LIMIT, SB_INPUT_RETRY_AFTER};
use crate::policy::sb_policy;
use crate::ptr;
use crate::run_apply::{apply, apply_paced, Event, PacedEvent};
use crate::run_types::SB_RUN_COUNT_PAUSED;
use crate::run_types::{sb_action, sb_outcome, sb_run};
use crate::run_types::{
    SB_OUTCOME_OFFLINE, SB_OUTCOME_PERMANENT, SB_OUTCOME_RETRYABLE, SB_OUTCOME_SUCCESS,
};
use crate::status::{require_feature, sb_status};

/// Starts a run under `policy`, seeded from `seed` (use a different seed per call: mix a device id
/// with a counter). `flags`: 0, or `SB_RUN_COUNT_PAUSED`. Returns `SB_OK`, `SB_ERR_NULL`, an
/// `SB_ERR_POLICY_*` code, `SB_ERR_RUN_FLAGS` for an unknown flag, or `SB_ERR_UNSUPPORTED` in a
/// build without the `run` feature; `*r` is written only on `SB_OK`.
///
/// ```c
/// sb_policy policy = sb_policy_google();
/// sb_run run;
/// sb_action act;
/// sb_run_init(&run, &policy, seed, 0);
/// for (sb_run_start(&run, now_ms(), &act); ; ) {
///     if (act.kind == SB_ACTION_ATTEMPT) {
///         sb_outcome o = {send_request() == 200 ? SB_OUTCOME_SUCCESS : SB_OUTCOME_RETRYABLE, 0, 0, 0};
///         sb_run_outcome(&run, &o, now_ms(), NULL, &act);
///     } else if (act.kind == SB_ACTION_RETRY || act.kind == SB_ACTION_WAIT) {
///         sleep_ms(act.delay_ms);
///         sb_run_wake(&run, now_ms(), &act);
///     } else break; // SB_ACTION_DONE or SB_ACTION_GIVE_UP
/// }
/// ```
///
/// # Safety
/// `r` is NULL or writable; `policy` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_init(
    r: *mut sb_run,
    policy: *const sb_policy,
    seed: u64,
    flags: u32,
) -> sb_status {
    require_feature!("run");
    ptr::status((|| {
        if r.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract. A copy, not a borrow: `policy` may
        // point into `*r`, and storing a borrowed policy there would link a `memmove`.
        let c_policy = unsafe { ptr::read(policy) }?;
        let core_policy = c_policy.to_core()?;
        if flags & !SB_RUN_COUNT_PAUSED != 0 {
            return Err(sb_status::SB_ERR_RUN_FLAGS);
        }
        let run = Run::new(&core_policy, seed).count_paused_time(flags & SB_RUN_COUNT_PAUSED != 0);
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(&raw mut (*r).policy, c_policy) }?;
        // SAFETY: as above; `sb_run` begins with a `RawRun`'s bytes.
        unsafe { ptr::write_prefix(r, run.to_raw()) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Begins the run: `*out` is `SB_ACTION_ATTEMPT` for attempt 1, or `SB_ACTION_WAIT` for a run
/// given a startup window (`sb_run_startup_window`). `now_ms` points to a monotonic clock reading
/// (any value, `UINT64_MAX` included), or is NULL for none: a run whose first event has none
/// never reads a clock, and in a run with one, NULL counts as no time passing. Every event of a
/// run takes its `now_ms` so.
///
/// # Safety
/// `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_start(
    r: *mut sb_run,
    now_ms: *const u64,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { apply(r, out, now_ms, Event::Start) }
}

/// Reports how the attempt in flight ended (`*o`); `budget` (may be NULL) is charged and refunded
/// by the run's rules. `*out` is `SB_ACTION_RETRY`, `SB_ACTION_PAUSED`, `SB_ACTION_DONE` or
/// `SB_ACTION_GIVE_UP`. Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, `SB_ERR_FAILURE_KIND`,
/// `SB_ERR_RUN_OUTCOME_KIND`, `SB_ERR_TWO_HINTS` for an unknown hint flag, `SB_ERR_RUN_*` for an
/// event out of its phase; nothing is written then.
///
/// # Safety
/// `r`, `o` and `out` are NULL or valid; `budget` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_run_outcome(
    r: *mut sb_run,
    o: *const sb_outcome,
    now_ms: *const u64,
    budget: *mut sb_budget,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { outcome_event(r, o, now_ms, budget, out, None) }
}

/// `sb_run_outcome`'s work, paced by `paced` (the answer the caller gives, and the send rate)
/// when `sb_run_outcome_paced` calls it. Inlined into both, so each links only its own `apply`.
///
/// # Safety
/// As `sb_run_outcome`.
#[inline(always)]
pub(crate) unsafe fn outcome_event(
    r: *mut sb_run,
    o: *const sb_outcome,
    now_ms: *const u64,
    budget: *mut sb_budget,
    out: *mut sb_action,
    paced: Option<(Option<Answer>, &Cell<SendRate>)>,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    let o = match unsafe { ptr::read(o) } {
        Ok(o) => o,
        Err(status) => return status,
    };
    let outcome = match outcome_of(o) {
        Ok(outcome) => outcome,
        Err(status) => return status,
    };
    // A hint or a budget that this build leaves out is refused after the checks above, next to
    // the step, so the optimiser drops what the build cannot reach.
    let hinted = matches!(outcome, Outcome::Retryable { hint: Some(_), .. });
    if (hinted && !cfg!(feature = "hints")) || (!budget.is_null() && !cfg!(feature = "budget")) {
        return sb_status::SB_ERR_UNSUPPORTED;
    }
    // The budget is checked where it lies and only its tokens are written back: a copy of the
    // caller's `sb_budget` beside the core's would deepen every outcome's stack.
    let core_budget = if budget.is_null() {
        None
    } else {
        // SAFETY: forwarded from this function's contract; nothing writes to `*budget` while
        // the reference lives (the core's copy holds the tokens until the write below).
        Some(unsafe { ptr::borrow(budget) }.and_then(sb_budget::to_core))
    };
    let gate = match &core_budget {
        None => None,
        Some(Ok(core)) => Some(core as &dyn RetryGate),
        Some(Err(status)) => return *status,
    };
    let status = match paced {
        // SAFETY: forwarded from this function's contract.
        None => unsafe { apply(r, out, now_ms, Event::Outcome(outcome, gate)) },
        // SAFETY: forwarded from this function's contract.
        Some((answer, rate)) => unsafe {
            apply_paced(
                r,
                out,
                now_ms,
                PacedEvent::Outcome(outcome, answer, gate, rate),
            )
        },
    };
    if let (sb_status::SB_OK, Some(Ok(core))) = (status, &core_budget) {
        // SAFETY: `budget` is non-NULL (it was read above) and valid by this function's contract.
        let _written = unsafe { ptr::write(&raw mut (*budget).tokens_milli, core.tokens_milli()) };
    }
    status
}

// The header's outcome codes are literals (cbindgen cannot evaluate paths); these pin them to
// the core's.
const _: () = {
    assert!(SB_OUTCOME_SUCCESS == outcome_code::SUCCESS);
    assert!(SB_OUTCOME_RETRYABLE == outcome_code::RETRYABLE);
    assert!(SB_OUTCOME_PERMANENT == outcome_code::PERMANENT);
    assert!(SB_OUTCOME_OFFLINE == outcome_code::OFFLINE);
};

/// The status of the core's refusal of a code that names nothing.
pub(crate) fn code_status(e: RunCodeError) -> sb_status {
    match e {
        RunCodeError::Outcome => sb_status::SB_ERR_RUN_OUTCOME_KIND,
        RunCodeError::FailureKind => sb_status::SB_ERR_FAILURE_KIND,
        RunCodeError::PauseReason => sb_status::SB_ERR_RUN_PAUSE_REASON,
        RunCodeError::Hint => sb_status::SB_ERR_TWO_HINTS,
        RunCodeError::Answer => sb_status::SB_ERR_SEND_RATE_ANSWER_KIND,
        // One function per event: the C ABI has no event codes.
        _ => sb_status::SB_ERR_BAD_STATE,
    }
}

/// The outcome `*o` gives, read by the core; its hint flag is the C ABI's own code.
fn outcome_of(o: sb_outcome) -> Result<Outcome, sb_status> {
    let hint = match o.hint_flag {
        0 => Ok(None),
        SB_INPUT_RETRY_AFTER => Ok(Some(ServerHint::RetryAfterMs(o.hint_ms))),
        SB_INPUT_RATE_LIMIT => Ok(Some(ServerHint::RateLimitResetMs(o.hint_ms))),
        SB_INPUT_DO_NOT_RETRY => Ok(Some(ServerHint::DoNotRetry)),
        _ => Err(RunCodeError::Hint),
    };
    outcome_from_codes(o.kind, o.failure_kind, hint).map_err(code_status)
}

/// Reports that the sleep of `SB_ACTION_RETRY` or `SB_ACTION_WAIT` has ended: `*out` is the next
/// `SB_ACTION_ATTEMPT`.
///
/// # Safety
/// `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_wake(
    r: *mut sb_run,
    now_ms: *const u64,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { apply(r, out, now_ms, Event::Wake) }
}

/// Reports that the device went offline (`SB_PAUSE_OFFLINE`) or the application to the
/// background (`SB_PAUSE_HIDDEN`), before the start or during a sleep: `*out` is
/// `SB_ACTION_PAUSED`. Errors as `sb_run_wake`, and `SB_ERR_RUN_PAUSE_REASON`.
///
/// # Safety
/// `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_pause(
    r: *mut sb_run,
    reason: u32,
    now_ms: *const u64,
    out: *mut sb_action,
) -> sb_status {
    let reason = match pause_reason_from_code(reason) {
        Ok(reason) => reason,
        Err(e) => return code_status(e),
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { apply(r, out, now_ms, Event::Pause(reason)) }
}

/// Reports that the pause has ended (or that the application was resumed during a sleep): `*out`
/// is `SB_ACTION_WAIT` with the re-drawn wait (SPEC.md section 13).
///
/// # Safety
/// `r` and `out` are NULL or valid for reads and writes; `now_ms` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_resume(
    r: *mut sb_run,
    now_ms: *const u64,
    out: *mut sb_action,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { apply(r, out, now_ms, Event::Resume) }
}

/// Attempts made so far by the run, or 0 for a NULL or corrupted `r`.
///
/// # Safety
/// `r` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_run_attempts(r: *const sb_run) -> u32 {
    // SAFETY: forwarded from this function's contract.
    unsafe { ptr::read_prefix::<sb_run, RawRun>(r) }.map_or(0, |raw| raw.attempt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_types::{SB_PAUSE_HIDDEN, SB_PAUSE_OFFLINE};
    use seeded_backoff::run::PauseReason;
    use seeded_backoff::FailureKind;

    #[test]
    fn unknown_codes_are_refused_with_the_cores_error() {
        let o = |kind, failure_kind, hint_flag| sb_outcome {
            kind,
            failure_kind,
            hint_flag,
            hint_ms: 0,
        };
        let bad_outcome = outcome_of(o(4, 0, 0));
        assert_eq!(bad_outcome, Err(code_status(RunCodeError::Outcome)));
        assert_eq!(bad_outcome, Err(sb_status::SB_ERR_RUN_OUTCOME_KIND));
        let bad_kind = outcome_of(o(SB_OUTCOME_RETRYABLE, 2, 0));
        assert_eq!(bad_kind, Err(sb_status::SB_ERR_FAILURE_KIND));
        let bad_hint = outcome_of(o(SB_OUTCOME_RETRYABLE, 0, 32));
        assert_eq!(bad_hint, Err(sb_status::SB_ERR_TWO_HINTS));
        // A permanent outcome reads no failure kind and no hint.
        assert_eq!(
            outcome_of(o(SB_OUTCOME_PERMANENT, 9, 32)),
            Ok(Outcome::Permanent)
        );
        // Each of the core's refusals has a status of its own (the event's aside).
        let mut seen: std::vec::Vec<sb_status> =
            RunCodeError::ALL.iter().map(|e| code_status(*e)).collect();
        seen.sort_by_key(|s| *s as i32);
        seen.dedup();
        assert_eq!(seen.len(), RunCodeError::ALL.len());
    }

    #[test]
    fn kinds_and_reasons_follow_the_core() {
        assert_eq!(u32::from(PauseReason::Offline.code()), SB_PAUSE_OFFLINE);
        assert_eq!(u32::from(PauseReason::Hidden.code()), SB_PAUSE_HIDDEN);
        assert_eq!(
            u32::from(FailureKind::Timeout.code()),
            crate::SB_FAILURE_TIMEOUT
        );
    }
}
