//! What the `std` feature adds: an OS-seeded constructor and a blocking retry loop.

extern crate std;

use crate::budget::RetryGate;
use crate::retry::OnRetry;
use crate::send_rate::LoopSendRate;
use crate::{Backoff, Policy, Retry, RetryError, Verdict};

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

/// The seed of a loop given none: the operating system's, so that calls made together (eight
/// `retry_tokio` calls with one constant seed retried within 4 ms of each other) retry apart. A
/// platform whose random source fails still gets seeds apart from each other: the wall clock's
/// nanoseconds and a process-wide count, mixed by SplitMix64 (SPEC.md §3.1).
#[cfg(any(feature = "tokio", feature = "retry-policies"))]
pub(crate) fn fresh_seed() -> u64 {
    random_seed().unwrap_or_else(|_| {
        static CALLS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        let count = CALLS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
        crate::rng::splitmix64(nanos ^ crate::call_seed(0, count))
    })
}

/// Calls `op(attempt)` (attempt 1, 2, …) until it succeeds, sleeping the thread between attempts
/// as `backoff` says. `is_retryable` decides which errors are worth another try. For a budget, a
/// callback or a shared send rate, build a [`Retry`] and end it with [`Retry::run_thread`].
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

/// Milliseconds on the OS monotonic clock since the first reading in this process: one scale
/// for every loop, as a send rate shared by many threads needs.
fn std_now_ms() -> u64 {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let origin = *ORIGIN.get_or_init(std::time::Instant::now);
    u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl<'a, G: RetryGate, C: FnMut() -> u64, H, R> Retry<'a, G, C, H, R> {
    /// [`Retry::run_blocking`] on this thread: `std::thread::sleep` between attempts and the OS
    /// monotonic clock (one process-wide origin) in place of any [`Retry::clock`], keeping the
    /// loop's budget, callback and send rate. So threads sharing one
    /// [`AtomicSendRate`](crate::send_rate::AtomicSendRate) through
    /// `Retry::new(&policy, seed).send_rate(&rate).run_thread(op, classify)` are paced together,
    /// every attempt, the first included (SPEC.md §15.2).
    ///
    /// ```
    /// use seeded_backoff::send_rate::{Answer, AtomicSendRate, NotSent, SendRateConfig};
    /// use seeded_backoff::{Policy, Retry};
    /// use std::time::{Duration, Instant};
    ///
    /// #[derive(Debug)]
    /// struct Error(NotSent);
    /// impl From<NotSent> for Error { fn from(n: NotSent) -> Self { Error(n) } }
    ///
    /// // 100 requests/s at most: a throttle turns the rate on, min = max holds it there.
    /// let config = SendRateConfig { min_rate_milli: 100_000, max_rate_milli: 100_000, ..SendRateConfig::DEFAULT };
    /// let rate = AtomicSendRate::new(config).unwrap();
    /// rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
    /// let policy = Policy::google();
    /// let start = Instant::now();
    /// std::thread::scope(|s| {
    ///     for i in 0..4 {
    ///         let (rate, policy) = (&rate, &policy);
    ///         s.spawn(move || {
    ///             Retry::new(policy, i).send_rate(rate)
    ///                 .run_thread(|_| Ok::<_, Error>(()), |_| true).unwrap()
    ///         });
    ///     }
    /// });
    /// // Two attempts at once (the default burst of 2), then 10 ms apart: the last went at least
    /// // 20 ms after the first.
    /// assert!(start.elapsed() >= Duration::from_millis(19));
    /// ```
    pub fn run_thread<T, E, F, K, V>(self, op: F, classify: K) -> Result<T, RetryError<E>>
    where
        F: FnMut(u32) -> Result<T, E>,
        K: FnMut(&E) -> V,
        V: Into<Verdict>,
        H: OnRetry<E>,
        R: LoopSendRate<E>,
    {
        self.clock(std_now_ms as fn() -> u64)
            .run_blocking(std::thread::sleep, op, classify)
    }
}
