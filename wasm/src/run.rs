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
//! assert_eq!(run_new(7, 0, false, 0), 0);
//! assert_eq!(run_event(event::START, 0, 0, 0, 0, false, 0, 0, false), 0);
//! let answer = seeded_backoff_wasm::rt::io(|io| io.action);
//! assert_eq!(answer[..2], [action::ATTEMPT, 1]);
//! ```

use seeded_backoff::bindings::{
    answer_from_status, outcome_from_codes, pause_reason_from_code, RawRun, RunCodeError,
};
use seeded_backoff::{
    budget::RetryGate,
    run::{RunError, SendGate},
    send_rate::Answer,
    Action, Outcome, Run, ServerHint,
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

/// The outcomes, as `run_event`'s `kind` with [`event::OUTCOME`]: the core's codes (the C ABI's
/// `SB_OUTCOME_*`).
pub use seeded_backoff::bindings::outcome_code as outcome;

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
    /// None given: the outcome's own (SPEC.md §15.2, [`seeded_backoff::run::answer_of`]).
    pub const OF_OUTCOME: u32 = 0;
    /// Accepted.
    pub const ACCEPTED: u32 = 1;
    /// Throttled, with `answer_arg` ms of hint.
    pub const THROTTLED: u32 = 2;
    /// No answer.
    pub const NO_ANSWER: u32 = 3;
    /// The response's HTTP status is `answer_arg` ([`seeded_backoff::send_rate::Answer::from_http`], with
    /// the outcome's hint).
    pub const HTTP: u32 = 4;
}

/// What `run_event` answers for words that do not check (a policy or run JS did not get from
/// here): the run is unchanged.
pub const BAD_WORDS: u32 = u32::MAX;

/// What `runNew` answers for a startup window the core refuses (`FleetError::WindowMs`).
pub const WINDOW_REFUSED: u32 = u32::MAX;

/// A fresh run under the shared policy, seeded from `hi:lo`, with the startup window `window_ms`
/// (SPEC.md §15.3; 0 for none), in the shared run words. Returns 0, 1 + the index of the core's
/// `PolicyError`, or [`WINDOW_REFUSED`].
#[cfg(feature = "main")]
#[export_name = "runNew"]
pub extern "C" fn run_new(lo: u32, hi: u32, count_paused: bool, window_ms: u32) -> u32 {
    shared(|io| {
        let policy = match io::policy(&io.options) {
            Ok(p) => p,
            Err(e) => return io::policy_status::<()>(Err(e)),
        };
        let seed = u64::from(hi) << 32 | u64::from(lo);
        let Ok(run) = Run::new(&policy, seed)
            .count_paused_time(count_paused)
            .startup_window_ms(window_ms)
        else {
            return WINDOW_REFUSED;
        };
        io.run = run.to_raw().to_words();
        0
    })
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

/// The answer `runEventPaced`'s `answer` and `answer_arg` give, `None` for the outcome's own; an
/// unknown code, or a status outside 100..=599, is the core's refusal.
fn told(answer: u32, arg: u32, outcome: Outcome) -> Result<Option<Answer>, RunCodeError> {
    Ok(match answer {
        answer::OF_OUTCOME => None,
        answer::ACCEPTED => Some(Answer::Accepted),
        answer::THROTTLED => Some(Answer::Throttled { hint_ms: arg }),
        answer::NO_ANSWER => Some(Answer::NoAnswer),
        answer::HTTP => {
            let hint = match outcome {
                Outcome::Retryable { hint, .. } => hint,
                _ => None,
            };
            Some(answer_from_status(arg, hint)?)
        }
        _ => return Err(RunCodeError::Answer),
    })
}

/// A retryable outcome's hint from its kind ([`io::hint`]) and ms; a kind that is no step's is the
/// core's refusal.
fn hint_of(kind: u32, ms: u32) -> Result<Option<ServerHint>, RunCodeError> {
    match kind {
        io::hint::NONE | io::hint::RETRY_AFTER | io::hint::DO_NOT_RETRY | io::hint::RATE_LIMIT => {
            Ok(step_input(kind, ms, false, 0, 0).hint)
        }
        _ => Err(RunCodeError::Hint),
    }
}

/// What an event with a code that names nothing returns: 1 + the number of [`RunError`]s + the
/// index of the core's [`RunCodeError`] (the JS table lists the two in that order).
fn refused_code(e: RunCodeError) -> u32 {
    1 + RunError::ALL.len() as u32 + crate::errors::index(&RunCodeError::ALL, &e)
}

/// One event of the run in the shared run words under the shared policy (with `with_budget`, the
/// JS budget of [`crate::gate`] is charged and refunded); the action in
/// `Io::action`. `kind` is the outcome code ([`outcome`]) or the pause reason; with a retryable
/// outcome, `timeout` says its failure kind and `hint_kind`/`hint_ms` its hint ([`io::hint`]).
/// With `has_now`, `now_hi:now_lo` is the monotonic clock in ms (u64 halves: the JS build of the
/// engine has no float-to-u64 conversion). Returns 0, 1 + the index of the refusing
/// [`RunError`] (then of a [`RunCodeError`] for a code that names nothing), or [`BAD_WORDS`]; a
/// refused event changes nothing.
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
            let outcome = match outcome_from_codes(kind, timeout, hint_of(hint_kind, hint_ms)) {
                Ok(outcome) => outcome,
                Err(e) => return refused_code(e),
            };
            let gate = with_budget.then_some(&JsGate as &dyn RetryGate);
            match paced {
                Some((rate, answer, arg)) => match told(answer, arg, outcome) {
                    Ok(told) => run.outcome_paced(&policy, outcome, told, now, gate, rate),
                    Err(e) => return refused_code(e),
                },
                None => run.outcome(&policy, outcome, now, gate),
            }
        }
        (event::WAKE, Some((rate, ..))) => run.wake_paced(&policy, now, rate),
        (event::WAKE, None) => run.wake(now),
        (event::PAUSE, _) => match pause_reason_from_code(kind) {
            Ok(reason) => run.pause(&policy, reason, now),
            Err(e) => return refused_code(e),
        },
        (event::RESUME, _) => run.resume(now),
        _ => return refused_code(RunCodeError::Event),
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
