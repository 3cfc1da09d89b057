//! What the `std` feature adds: `Error` impls, an OS-seeded constructor and a blocking retry loop.

extern crate std;

use core::fmt;
use std::time::Duration;

use crate::{Backoff, BudgetError, GiveUpReason, ParseError, Policy, SnapshotError, Step};

impl std::error::Error for crate::PolicyError {}
impl std::error::Error for ParseError {}
impl std::error::Error for SnapshotError {}
impl std::error::Error for BudgetError {}

impl Backoff {
    /// A fresh state seeded from the operating system's random source, so every client jitters
    /// differently. Fails only if the OS has no randomness to give.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy};
    /// let p = Policy::google();
    /// let b = Backoff::from_entropy(&p).unwrap();
    /// assert_eq!(b.retries(), 0);
    /// ```
    pub fn from_entropy(policy: &Policy) -> Result<Backoff, getrandom::Error> {
        Ok(Backoff::new(policy, random_seed()?))
    }
}

/// A seed from the operating system's random source.
pub fn random_seed() -> Result<u64, getrandom::Error> {
    getrandom::u64()
}

/// Why [`retry_blocking`] stopped without a success: the last error, how many attempts were made,
/// and the give-up reason (`None` when the error was not retryable).
#[derive(Debug, PartialEq, Eq)]
pub struct RetryError<E> {
    /// The error of the last attempt.
    pub error: E,
    /// Attempts made, the first one included.
    pub attempts: u32,
    /// Why the backoff gave up; `None` if `is_retryable` said the error is permanent.
    pub gave_up: Option<GiveUpReason>,
}

impl<E: fmt::Display> fmt::Display for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.gave_up {
            Some(reason) => write!(
                f,
                "gave up after {} attempts ({reason}): {}",
                self.attempts, self.error
            ),
            None => write!(
                f,
                "permanent error after {} attempts: {}",
                self.attempts, self.error
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for RetryError<E> {}

/// Calls `op(attempt)` until it succeeds, sleeping the thread between attempts as `backoff`
/// says. `is_retryable` decides which errors are worth another try.
///
/// ```
/// use seeded_backoff::{retry_blocking, Backoff, Policy};
/// let policy = Policy::builder().initial_ms(1).max_backoff_ms(2).jitter(seeded_backoff::Jitter::None)
///     .build().unwrap();
/// let result = retry_blocking(&policy, Backoff::new(&policy, 1), |attempt| {
///     if attempt < 2 { Err("busy") } else { Ok(attempt) }
/// }, |_e| true);
/// assert_eq!(result, Ok(2));
/// ```
pub fn retry_blocking<T, E>(
    policy: &Policy,
    mut backoff: Backoff,
    mut op: impl FnMut(u32) -> Result<T, E>,
    mut is_retryable: impl FnMut(&E) -> bool,
) -> Result<T, RetryError<E>> {
    let mut attempt: u32 = 0;
    loop {
        let error = match op(attempt) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let attempts = attempt.saturating_add(1);
        if !is_retryable(&error) {
            return Err(RetryError {
                error,
                attempts,
                gave_up: None,
            });
        }
        match backoff.next_delay(policy) {
            Step::Retry { delay_ms, .. } => {
                std::thread::sleep(Duration::from_millis(delay_ms.into()))
            }
            Step::GiveUp(reason) => {
                return Err(RetryError {
                    error,
                    attempts,
                    gave_up: Some(reason),
                })
            }
        }
        attempt = attempts;
    }
}
