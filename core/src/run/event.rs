//! What a [`Run`](super::Run) is told and what it answers (SPEC.md §15): the words of every
//! binding's loop, so that a loop only performs the actions and reports the outcomes.

use crate::backoff::GiveUpReason;
use crate::budget::FailureKind;
use crate::coded_enum::coded_enum;
use crate::error_enum::error_enum;
use crate::hint::ServerHint;

/// How one attempt ended, as the loop saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The attempt succeeded: the run is done.
    Success,
    /// The attempt failed with an error worth a retry: its one hint and its kind (an error, or an
    /// attempt that ran out of its own time, which a budget charges as a timeout).
    Retryable {
        /// The server's hint read from the response (`hint_from_headers`), if any.
        hint: Option<ServerHint>,
        /// `Error`, or `Timeout` for an attempt that timed out.
        failure_kind: FailureKind,
    },
    /// The attempt failed with an error the caller's classifier says is not worth a retry.
    Permanent,
    /// A retryable failure (an error, not an answer) while the device says it is offline: it
    /// spends no retry, and the run pauses until the device is back (SPEC.md §13).
    Offline,
}

coded_enum! {
    /// Why a run pauses (SPEC.md §13). The codes cross the C ABI and the wasm exports.
    pub enum PauseReason {
        /// The page is hidden or frozen: the pause lasts until it is visible again.
        Hidden = 0, "hidden";
        /// The device says it is offline: the pause ends when it is online, or after the policy's
        /// `max_backoff_ms`, since an offline report can be wrong.
        Offline = 1, "offline";
    }
}

/// What the loop does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Make attempt number `attempt` (from 1), then report its [`Outcome`].
    Attempt {
        /// The attempt's number: 1 for the first.
        attempt: u32,
    },
    /// Attempt `attempt` failed: tell the retry callback (SPEC.md §14's event), sleep `delay_ms`,
    /// then report `wake`.
    Retry {
        /// The number of the attempt that just failed, from 1.
        attempt: u32,
        /// The wait before the next attempt, in ms.
        delay_ms: u32,
    },
    /// Sleep `delay_ms` (a wait re-drawn after a pause, SPEC.md §13: no retry callback), then
    /// report `wake`.
    Wait {
        /// The wait, in ms.
        delay_ms: u32,
    },
    /// Wait for the pause to end (the page visible, the device online), then report `resume`;
    /// with `max_ms`, report `resume` after that long at the latest.
    Paused {
        /// The longest the pause may last (offline: the policy's `max_backoff_ms`), or `None`.
        max_ms: Option<u32>,
    },
    /// The run succeeded after `attempts` attempts; the budget's success is recorded.
    Done {
        /// Attempts made, the first included.
        attempts: u32,
    },
    /// Stop and report the last error: `attempts` made, and why (`None` for a permanent error).
    GiveUp {
        /// Attempts made, the first included.
        attempts: u32,
        /// The give-up reason of SPEC.md §5, or `None` when the classifier said permanent.
        reason: Option<GiveUpReason>,
    },
}

error_enum! {
    /// An event the run cannot take in its phase. Each is named after the event; the run is
    /// unchanged.
    pub enum RunError {
        /// `start` after the run has started.
        Start => "start", "start: allowed once, before any other event";
        /// `outcome` while no attempt is in flight.
        Outcome => "outcome", "outcome: allowed only while an attempt is in flight";
        /// `wake` while the run is not sleeping.
        Wake => "wake", "wake: allowed only while sleeping (after retry or wait)";
        /// `pause` while an attempt is in flight or the run is already paused.
        Pause => "pause", "pause: allowed only before the start or while sleeping";
        /// `resume` while the run is neither paused nor sleeping.
        Resume => "resume", "resume: allowed only while paused or sleeping";
        /// A paced event (one given a send rate) in a run without a clock: the send rate needs
        /// one.
        NoClock => "no_clock", "no_clock: a paced event needs a clock reading (at the start, or in a run that has one)";
        /// Any event after the run is done or has given up.
        Finished => "finished", "finished: the run is done or has given up";
    }
}
