//! The budget of a step or a run, as the core's [`RetryGate`]: each question goes to the JS object
//! the caller passed (`retry()`'s `budget`, `nextDelay({ budget })`) through the part's one
//! imported function. Any object with a `RetryBudget`'s three methods is a budget, so the main
//! part steps with a budget without the budget part's code, and a budget shared between tabs is
//! asked as it is.

use seeded_backoff::budget::RetryGate;
use seeded_backoff::FailureKind;

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
