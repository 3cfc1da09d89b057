//! What the `std` feature adds: an OS-seeded constructor and a blocking retry loop.

extern crate std;

use crate::{Backoff, Policy, Retry, RetryError};

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

/// Calls `op(attempt)` (attempt 1, 2, …) until it succeeds, sleeping the thread between attempts
/// as `backoff` says. `is_retryable` decides which errors are worth another try.
///
/// ```
/// use seeded_backoff::{retry_blocking, Backoff, Policy};
/// let policy = Policy::builder().initial_ms(1).max_backoff_ms(2).jitter(seeded_backoff::Jitter::None)
///     .build().unwrap();
/// let result = retry_blocking(&policy, Backoff::new(&policy, 1), |attempt| {
///     if attempt < 3 { Err("busy") } else { Ok(attempt) }
/// }, |_e| true);
/// assert_eq!(result, Ok(3)); // attempts count from 1
/// ```
pub fn retry_blocking<T, E>(
    policy: &Policy,
    backoff: Backoff,
    op: impl FnMut(u32) -> Result<T, E>,
    is_retryable: impl FnMut(&E) -> bool,
) -> Result<T, RetryError<E>> {
    Retry::from_backoff(policy, backoff).run_blocking(std::thread::sleep, op, is_retryable)
}
