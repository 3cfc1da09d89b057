//! A retry loop's send rate (SPEC.md §15.2): none by default, or a shared [`SendGate`] given with
//! [`Retry::send_rate`](crate::Retry::send_rate), which then gates every attempt of the loop, the
//! first included, and hears every answer.

use core::fmt;

use crate::backoff::GiveUpReason;
use crate::run::SendGate;

/// Why a loop behind a send rate stopped before its first attempt, so with no error of its own:
/// the error a [`RetryError`](crate::RetryError)'s `cause` is made from (`E: From<NotSent>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotSent {
    /// The send rate refused the attempt (fail-fast), or its wait would pass `max_elapsed_ms`.
    GaveUp(GiveUpReason),
    /// The loop has no clock ([`Retry::clock`](crate::Retry::clock)), which a send rate needs.
    NoClock,
}

impl fmt::Display for NotSent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotSent::GaveUp(reason) => write!(f, "not sent: {reason}"),
            NotSent::NoClock => f.write_str("not sent: a send rate needs the loop's clock"),
        }
    }
}

impl core::error::Error for NotSent {}

/// The send rate of a loop without one: every attempt goes at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoSendRate;

/// What a [`Retry`](crate::Retry) holds as its send rate: [`NoSendRate`], or a reference to a
/// [`SendGate`] (an [`AtomicSendRate`](crate::send_rate::AtomicSendRate), a `Cell<SendRate>`), whose loop
/// then needs an error type made from [`NotSent`].
pub trait LoopSendRate<E> {
    /// The gate to pace the run with, if any.
    fn gate(&self) -> Option<&dyn SendGate>;
    /// The error of a loop that stopped before its first attempt; `None` where that cannot
    /// happen (no gate).
    fn not_sent(&self, why: NotSent) -> Option<E>;
}

impl<E> LoopSendRate<E> for NoSendRate {
    fn gate(&self) -> Option<&dyn SendGate> {
        None
    }
    fn not_sent(&self, _why: NotSent) -> Option<E> {
        None
    }
}

impl<E: From<NotSent>, S: SendGate> LoopSendRate<E> for &S {
    fn gate(&self) -> Option<&dyn SendGate> {
        Some(*self)
    }
    fn not_sent(&self, why: NotSent) -> Option<E> {
        Some(E::from(why))
    }
}
