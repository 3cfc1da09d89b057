//! The retry loop's callback: one payload per retry, with the names every binding uses (SPEC.md
//! §14): `attempt` (the number of the attempt that just failed, the first attempt being 1),
//! `delay_ms` (the wait before the next one) and `error` (what the failed attempt returned).
//!
//! A loop without a callback carries the zero-sized [`NoCallback`], so the hook costs nothing
//! where it is not used; any `FnMut(RetryEvent<'_, E>)` is a callback.

/// What [`Retry::on_retry`](crate::Retry::on_retry) is told before each sleep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryEvent<'e, E> {
    /// The number of the attempt that just failed: 1 for the first attempt.
    pub attempt: u32,
    /// The delay before the next attempt, in ms.
    pub delay_ms: u32,
    /// The failed attempt's error.
    pub error: &'e E,
}

/// A callback told of each retry. Implemented by every `FnMut(RetryEvent<'_, E>)` and by
/// [`NoCallback`].
pub trait OnRetry<E> {
    /// Called once per retry, after the delay is decided and before the sleep.
    fn on_retry(&mut self, event: RetryEvent<'_, E>);
}

/// The callback of a loop without one: does nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoCallback;

impl<E> OnRetry<E> for NoCallback {
    fn on_retry(&mut self, _event: RetryEvent<'_, E>) {}
}

impl<E, F: FnMut(RetryEvent<'_, E>)> OnRetry<E> for F {
    fn on_retry(&mut self, event: RetryEvent<'_, E>) {
        self(event)
    }
}
