//! The budget of a step or a run, as the core's [`RetryGate`]: each question goes to the JS object
//! the caller passed (`retry()`'s `budget`, `nextDelay({ budget })`) through the part's imported
//! function `gate`; likewise a paced run event's send rate, as the core's [`SendGate`], through
//! `pace`. Any object with a `RetryBudget`'s three methods is a budget, so the main
//! part steps with a budget without the budget part's code, and a budget shared between tabs is
//! asked as it is.

use seeded_backoff::{Answer, FailureKind, Pace, RetryGate, SendGate};

/// The `op` of `env.gate(op, kind)`: `kind` is the core's `FailureKind` code, or for
/// [`op::RECORD_SUCCESS`] 0 for no retry and 1 + the retried failure's code.
pub mod op {
    /// `recordFailure(kind)`.
    pub const RECORD_FAILURE: u32 = 0;
    /// `tryAcquire(kind)`: 1 for yes.
    pub const TRY_ACQUIRE: u32 = 1;
    /// `recordSuccess(retriedKind)`.
    pub const RECORD_SUCCESS: u32 = 2;
}

/// The JS budget.
pub struct JsGate;

impl RetryGate for JsGate {
    fn record_failure(&self, kind: FailureKind) {
        crate::rt::gate(op::RECORD_FAILURE, u32::from(kind.code()));
    }

    fn try_acquire(&self, kind: FailureKind) -> bool {
        crate::rt::gate(op::TRY_ACQUIRE, u32::from(kind.code())) == 1
    }

    fn record_success(&self, retried: Option<FailureKind>) {
        let kind = retried.map_or(0, |k| 1 + u32::from(k.code()));
        crate::rt::gate(op::RECORD_SUCCESS, kind);
    }
}

/// The `op` of `env.pace(op, now_lo, now_hi, kind, hint_ms)`.
pub mod pace_op {
    /// `ask(now)`: 0 to send, `u32::MAX` for a fail-fast refusal, else the ms to wait (a wait is
    /// at least 1 ms and at most `interval · burst` < `u32::MAX`, SPEC.md §17.4).
    pub const ASK: u32 = 0;
    /// `answer(now, kind, hint_ms)`: `kind` is a `crate::send_rate::answer` code.
    pub const ANSWER: u32 = 1;
}

/// What `env.pace` answers for a fail-fast refusal.
pub const PACE_REFUSE: u32 = u32::MAX;

/// The JS send rate of a paced run event.
pub struct JsSendRate;

impl SendGate for JsSendRate {
    fn before_attempt(&self, now_ms: u64) -> Pace {
        match crate::rt::pace(pace_op::ASK, now_ms as u32, (now_ms >> 32) as u32, 0, 0) {
            0 => Pace::Send,
            // The run gives up on a refusal whatever its ms: the JS does not pass them.
            PACE_REFUSE => Pace::Refuse { ms: 0 },
            ms => Pace::Wait { ms },
        }
    }

    fn on_answer(&self, now_ms: u64, answer: Answer) {
        let (kind, hint_ms) = answer_code(answer);
        crate::rt::pace(pace_op::ANSWER, now_ms as u32, (now_ms >> 32) as u32, kind, hint_ms);
    }
}

/// An answer as `env.pace`'s kind (the send-rate part's `sendRateAnswer` codes) and hint.
pub const fn answer_code(answer: Answer) -> (u32, u32) {
    match answer {
        Answer::Accepted => (0, 0),
        Answer::Throttled { hint_ms } => (1, hint_ms),
        Answer::NoAnswer => (2, 0),
    }
}
