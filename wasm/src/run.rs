//! The run (SPEC.md §15) for `retry()`: one export for every event, on a run whose 22 words the
//! JS loop owns and passes in the shared area with each event; a budget is the JS object the loop
//! was given, asked through [`crate::gate`]. The main part exports the plain events; the
//! send-rate part exports the same events paced by the send rate whose words sit in its shared
//! bytes (SPEC.md §15.2, [`crate::send_rate::run_event_paced`]), so that a run without a send
//! rate carries none of the paced code.
//!
//! ```
//! use seeded_backoff_wasm::run::{action, event, run_event, run_new};
//! seeded_backoff_wasm::rt::io(|io| io.options[0] = 0); // Google's preset
//! assert_eq!(run_new(7, 0, false), 0);
//! assert_eq!(run_event(event::START, 0, 0, 0, 0, false, 0, 0, false), 0);
//! let answer = seeded_backoff_wasm::rt::io(|io| io.action);
//! assert_eq!(answer[..2], [action::ATTEMPT, 1]);
//! ```

use seeded_backoff::bindings::RawRun;
use seeded_backoff::{
    Action, Answer, FailureKind, Outcome, PauseReason, RetryGate, Run, RunError, SendGate,
};

use crate::gate::JsGate;
use crate::io::{self, step_input};
#[cfg(feature = "main")]
use crate::rt::io as shared;

/// The events, as `run_event`'s `event`.
pub mod event {
    /// `start`.
    pub const START: u32 = 0;
    /// `outcome`: `kind` is an [`super::outcome`] code.
    pub const OUTCOME: u32 = 1;
    /// `wake`.
    pub const WAKE: u32 = 2;
    /// `pause`: `kind` is the core's `PauseReason` code.
    pub const PAUSE: u32 = 3;
    /// `resume`.
    pub const RESUME: u32 = 4;
}

/// The outcomes, as `run_event`'s `kind` with [`event::OUTCOME`] (the C ABI's `SB_OUTCOME_*`).
pub mod outcome {
    /// The attempt succeeded.
    pub const SUCCESS: u32 = 0;
    /// A failure worth a retry (its failure kind and hint in the other arguments).
    pub const RETRYABLE: u32 = 1;
    /// A failure not worth a retry.
    pub const PERMANENT: u32 = 2;
    /// A failure while the device is offline.
    pub const OFFLINE: u32 = 3;
}

/// The actions, as the first word of `Io::action` (the C ABI's `SB_ACTION_*`).
pub mod action {
    /// Make attempt `action[1]`.
    pub const ATTEMPT: u32 = 0;
    /// Attempt `action[1]` failed: sleep `action[2]` ms.
    pub const RETRY: u32 = 1;
    /// Sleep `action[2]` ms (re-drawn after a pause).
    pub const WAIT: u32 = 2;
    /// Wait for the pause to end, at most `action[3]` ms (`u32::MAX`: no limit).
    pub const PAUSED: u32 = 3;
    /// Done after `action[1]` attempts.
    pub const DONE: u32 = 4;
    /// Gave up after `action[1]` attempts; `action[3]` is the give-up reason code, 0 for a
    /// permanent error.
    pub const GIVE_UP: u32 = 5;
}

/// The answers an outcome tells the send rate, as `runEventPaced`'s `answer`.
pub mod answer {
    /// None given: the outcome's own (SPEC.md §15.2, [`seeded_backoff::answer_of`]).
    pub const OF_OUTCOME: u32 = 0;
    /// Accepted.
    pub const ACCEPTED: u32 = 1;
    /// Throttled, with `answer_arg` ms of hint.
    pub const THROTTLED: u32 = 2;
    /// No answer.
    pub const NO_ANSWER: u32 = 3;
    /// The response's HTTP status is `answer_arg` ([`seeded_backoff::Answer::from_http`], with
    /// the outcome's hint).
    pub const HTTP: u32 = 4;
}

/// What `run_event` answers for words that do not check (a policy or run JS did not get from
/// here): the run is unchanged.
pub const BAD_WORDS: u32 = u32::MAX;

/// A fresh run under the shared policy, seeded from `hi:lo`, in the shared run words. Returns 0,
/// or 1 + the index of the core's `PolicyError`.
#[cfg(feature = "main")]
#[export_name = "runNew"]
pub extern "C" fn run_new(lo: u32, hi: u32, count_paused: bool) -> u32 {
    io::policy_status(shared(|io| {
        let policy = io::policy(&io.options)?;
        let seed = u64::from(hi) << 32 | u64::from(lo);
        let run = Run::new(&policy, seed).count_paused_time(count_paused);
        io.run = run.to_raw().to_words();
        Ok(())
    }))
}

fn encode(a: Action) -> [u32; 4] {
    match a {
        Action::Attempt { attempt } => [action::ATTEMPT, attempt, 0, 0],
        Action::Retry { attempt, delay_ms } => [action::RETRY, attempt, delay_ms, 0],
        Action::Wait { delay_ms } => [action::WAIT, 0, delay_ms, 0],
        Action::Paused { max_ms } => [action::PAUSED, 0, 0, max_ms.unwrap_or(u32::MAX)],
        Action::Done { attempts } => [action::DONE, attempts, 0, 0],
        Action::GiveUp { attempts, reason } => [
            action::GIVE_UP,
            attempts,
            0,
            reason.map_or(0, |r| u32::from(r.code())),
        ],
    }
}

/// The answer `runEventPaced`'s `answer` and `answer_arg` give, `None` for the outcome's own.
fn told(answer: u32, arg: u32, outcome: Outcome) -> Option<Answer> {
    match answer {
        answer::ACCEPTED => Some(Answer::Accepted),
        answer::THROTTLED => Some(Answer::Throttled { hint_ms: arg }),
        answer::NO_ANSWER => Some(Answer::NoAnswer),
        answer::HTTP => {
            let hint = match outcome {
                Outcome::Retryable { hint, .. } => hint,
                _ => None,
            };
            Some(Answer::from_http(u16::try_from(arg).unwrap_or(0), hint))
        }
        _ => None,
    }
}

/// One event of the run in the shared run words under the shared policy (with `with_budget`, the
/// JS budget of [`crate::gate`] is charged and refunded); the action in
/// `Io::action`. `kind` is the outcome code ([`outcome`]) or the pause reason; with a retryable
/// outcome, `timeout` says its failure kind and `hint_kind`/`hint_ms` its hint ([`io::hint`]).
/// With `has_now`, `now_hi:now_lo` is the monotonic clock in ms (u64 halves: the JS build of the
/// engine has no float-to-u64 conversion). Returns 0, 1 + the index of the refusing
/// [`RunError`], or [`BAD_WORDS`]; a refused event changes nothing.
#[cfg(feature = "main")]
#[export_name = "runEvent"]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn run_event(
    event: u32,
    kind: u32,
    hint_kind: u32,
    hint_ms: u32,
    timeout: u32,
    has_now: bool,
    now_lo: u32,
    now_hi: u32,
    with_budget: bool,
) -> u32 {
    let e = Event {
        event,
        kind,
        hint_kind,
        hint_ms,
        timeout,
        has_now,
        now_lo,
        now_hi,
        with_budget,
    };
    shared(|io| event_in(io, e, None))
}

/// An event's numbers, as the exports take them.
#[derive(Clone, Copy)]
pub struct Event {
    /// An [`event`] code.
    pub event: u32,
    /// The outcome code or the pause reason.
    pub kind: u32,
    /// The hint's kind ([`io::hint`]).
    pub hint_kind: u32,
    /// The hint's ms.
    pub hint_ms: u32,
    /// 1 for a timeout.
    pub timeout: u32,
    /// Whether `now` is given.
    pub has_now: bool,
    /// The clock's low half.
    pub now_lo: u32,
    /// The clock's high half.
    pub now_hi: u32,
    /// Whether the JS budget is asked.
    pub with_budget: bool,
}

/// One event on the shared run words; with `paced`, `start`, `wake` and `outcome` are the core's
/// paced events behind that send rate, an outcome telling it the answer `told` gives (SPEC.md
/// §15.2). Always inlined, so that the main part's plain export carries no paced code.
#[inline(always)]
pub fn event_in(io: &mut crate::rt::Io, e: Event, paced: Option<(&dyn SendGate, u32, u32)>) -> u32 {
    let Ok(policy) = io::policy(&io.options) else {
        return BAD_WORDS;
    };
    let Ok(mut run) = Run::from_raw(&policy, RawRun::from_words(io.run)) else {
        return BAD_WORDS;
    };
    let Event {
        event,
        kind,
        hint_kind,
        hint_ms,
        timeout,
        has_now,
        now_lo,
        now_hi,
        with_budget,
    } = e;
    let now = has_now.then_some(u64::from(now_hi) << 32 | u64::from(now_lo));
    let answer = match (event, paced) {
        (event::START, Some((rate, ..))) => run.start_paced(&policy, now, rate),
        (event::START, None) => run.start(now),
        (event::OUTCOME, _) => {
            let outcome = match kind {
                outcome::SUCCESS => Outcome::Success,
                outcome::RETRYABLE => Outcome::Retryable {
                    hint: step_input(hint_kind, hint_ms, false, 0, 0).hint,
                    kind: if timeout == 1 {
                        FailureKind::Timeout
                    } else {
                        FailureKind::Error
                    },
                },
                outcome::PERMANENT => Outcome::Permanent,
                _ => Outcome::Offline,
            };
            let gate = with_budget.then_some(&JsGate as &dyn RetryGate);
            match paced {
                Some((rate, answer, arg)) => {
                    let told = told(answer, arg, outcome);
                    run.outcome_paced(&policy, outcome, told, now, gate, rate)
                }
                None => run.outcome(&policy, outcome, now, gate),
            }
        }
        (event::WAKE, Some((rate, ..))) => run.wake_paced(&policy, now, rate),
        (event::WAKE, None) => run.wake(now),
        (event::PAUSE, _) => {
            let reason = u8::try_from(kind)
                .ok()
                .and_then(PauseReason::from_code)
                .unwrap_or(PauseReason::Hidden);
            run.pause(&policy, reason, now)
        }
        _ => run.resume(now),
    };
    match answer {
        Ok(a) => {
            io.run = run.to_raw().to_words();
            io.action = encode(a);
            0
        }
        Err(e) => 1 + crate::errors::index(&RunError::ALL, &e),
    }
}
