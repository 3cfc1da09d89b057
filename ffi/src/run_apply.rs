//! How an `sb_run_*` call reaches the core's run: the run and its policy checked where they lie in
//! the caller's `sb_run`, one event fed to the core, and the answer written back (plain events, and
//! the paced ones of SPEC.md section 15.2).

use core::cell::Cell;
use seeded_backoff::bindings::RawRun;
use seeded_backoff::{
    budget::RetryGate,
    run::{PauseReason, RunError},
    send_rate::{Answer, SendRate},
    Action, Outcome, Policy, Run,
};

use crate::ptr;
use crate::run_types::{action, clock};
use crate::run_types::{sb_action, sb_run};
use crate::status::{require_feature, sb_status};

/// One event for [`apply`].
pub(crate) enum Event<'a> {
    Start,
    Outcome(Outcome, Option<&'a dyn RetryGate>),
    Wake,
    Pause(PauseReason),
    Resume,
}

/// One paced event (SPEC.md section 15.2) for [`apply_paced`], over the caller's send rate held
/// in a cell.
pub(crate) enum PacedEvent<'a> {
    Start(&'a Cell<SendRate>),
    Wake(&'a Cell<SendRate>),
    Outcome(
        Outcome,
        Option<Answer>,
        Option<&'a dyn RetryGate>,
        &'a Cell<SendRate>,
    ),
}

/// Runs `f` on the run in `*r` and its policy, both checked (`SB_ERR_NULL`, or
/// `SB_ERR_BAD_STATE` for memory no `sb_run_*` function wrote). Each is checked where it is used:
/// the policy read where it lies in `*r`, each check's result borrowed rather than moved out of
/// its `Result` (a move is a copy on the stack), so a firmware holds one core policy and one core
/// run per call, not two or three.
///
/// # Safety
/// `r` is NULL or valid for reads of an `sb_run`, whose policy nothing writes to during the call.
#[inline(always)]
pub(crate) unsafe fn with_run<T>(
    r: *const sb_run,
    f: impl FnOnce(&Policy, &mut Run) -> Result<T, sb_status>,
) -> Result<T, sb_status> {
    // SAFETY: forwarded from this function's contract (NULL is `SB_ERR_NULL`).
    let c_policy = unsafe { ptr::borrow(&raw const (*r).policy) }?;
    let policy = c_policy.to_core();
    let Ok(policy) = &policy else {
        return Err(sb_status::SB_ERR_BAD_STATE);
    };
    // SAFETY: forwarded from this function's contract; `sb_run` begins with a `RawRun`'s bytes
    // (checked in run_types.rs), and every bit pattern of them is a `RawRun`.
    let raw: RawRun = unsafe { ptr::read_prefix(r) }?;
    let mut run = Run::from_raw(policy, raw);
    let Ok(run) = &mut run else {
        return Err(sb_status::SB_ERR_BAD_STATE);
    };
    f(policy, run)
}

/// Checks `*r` (its state and policy: anything inconsistent is `SB_ERR_BAD_STATE`), feeds it the
/// event `feed` makes, and on success stores the state (the policy never changes) and the
/// action. A run error is its `SB_ERR_RUN_*` status; nothing is written unless the event is
/// taken.
///
/// # Safety
/// `r` and `out` are NULL or valid for reads and writes of their types.
#[inline(always)]
unsafe fn feed_run(
    r: *mut sb_run,
    out: *mut sb_action,
    now_ms: *const u64,
    feed: impl FnOnce(&Policy, &mut Run, Option<u64>) -> Result<Action, RunError>,
) -> sb_status {
    require_feature!("run");
    if out.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    let step = |policy: &Policy, run: &mut Run| {
        // SAFETY: forwarded from this function's contract.
        let now = unsafe { clock(now_ms) }?;
        let answer = feed(policy, run, now).map_err(sb_status::from)?;
        // SAFETY: forwarded from this function's contract; `sb_run` begins with a `RawRun`'s
        // bytes.
        unsafe { ptr::write_prefix(r, run.to_raw()) }?;
        // SAFETY: checked non-NULL above; valid by this function's contract.
        unsafe { ptr::write(out, action(answer)) }?;
        Ok(sb_status::SB_OK)
    };
    // SAFETY: forwarded from this function's contract; the event writes the state, never the
    // policy `with_run` reads.
    ptr::status(unsafe { with_run(r, step) })
}

/// [`feed_run`] for the run's own events. One non-generic function for all of them, so a
/// firmware links the load, the checks and the store once, and one frame holds the run; the
/// paced events have their own ([`apply_paced`]), so a firmware that never paces links none of
/// the send rate.
///
/// # Safety
/// As [`feed_run`].
#[inline(never)]
pub(crate) unsafe fn apply(
    r: *mut sb_run,
    out: *mut sb_action,
    now_ms: *const u64,
    event: Event<'_>,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        feed_run(r, out, now_ms, |policy, run, now| match event {
            Event::Start => run.start(now),
            Event::Outcome(outcome, gate) => {
                // What `sb_run_outcome` refuses in a build without hints or budgets, stated
                // here too, where the optimiser sees it and drops those parts of the step.
                let outcome = match outcome {
                    Outcome::Retryable {
                        hint,
                        failure_kind: kind,
                    } => Outcome::Retryable {
                        hint: hint.filter(|_| cfg!(feature = "hints")),
                        failure_kind: kind,
                    },
                    other => other,
                };
                let gate = gate.filter(|_| cfg!(feature = "budget"));
                run.outcome(policy, outcome, now, gate)
            }
            Event::Wake => run.wake(now),
            Event::Pause(reason) => run.pause(policy, reason, now),
            Event::Resume => run.resume(now),
        })
    }
}

/// [`feed_run`] for the paced events, one non-generic function for the three.
///
/// # Safety
/// As [`feed_run`].
#[inline(never)]
pub(crate) unsafe fn apply_paced(
    r: *mut sb_run,
    out: *mut sb_action,
    now_ms: *const u64,
    event: PacedEvent<'_>,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        feed_run(r, out, now_ms, |policy, run, now| match event {
            PacedEvent::Start(rate) => run.start_paced(policy, now, rate),
            PacedEvent::Wake(rate) => run.wake_paced(policy, now, rate),
            PacedEvent::Outcome(outcome, answer, gate, rate) => {
                run.outcome_paced(policy, outcome, answer, now, gate, rate)
            }
        })
    }
}
