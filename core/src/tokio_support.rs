//! What the `tokio` feature adds: the async retry loop on Tokio's timer and clock.

extern crate std;

use core::future::Future;

use crate::budget::RetryGate;
use crate::retry::OnRetry;
use crate::send_rate::LoopSendRate;
use crate::{Policy, Retry, RetryError, Verdict};

/// [`Retry::run`] on Tokio: sleeps with `tokio::time::sleep` and counts time spent in attempts
/// against the policy's `max_elapsed_ms` with `tokio::time::Instant` (so a paused test runtime
/// runs it on virtual time). Each call draws a fresh seed from the operating system, so calls
/// made together retry apart (SPEC.md §14: a loop given no seed). To replay a schedule, give the
/// seed: `Retry::new(&policy, seed).run_tokio(op, classify)`, which also takes a budget, a
/// callback or a shared send rate.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use seeded_backoff::{retry_tokio, Jitter, Policy};
/// let policy = Policy::google().to_builder().initial_ms(10).jitter(Jitter::None).build().unwrap();
/// let out = retry_tokio(&policy, |attempt| async move {
///     if attempt < 3 { Err("503") } else { Ok("200") } // attempts 1 and 2 fail
/// }, |_e| true).await;
/// assert_eq!(out, Ok("200"));
/// # }
/// ```
pub async fn retry_tokio<T, E, F, Fut, K, V>(
    policy: &Policy,
    op: F,
    classify: K,
) -> Result<T, RetryError<E>>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, E>>,
    K: FnMut(&E) -> V,
    V: Into<Verdict>,
{
    let origin = tokio::time::Instant::now();
    Retry::new(policy, crate::std_support::fresh_seed())
        .clock(move || u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX))
        .run(tokio::time::sleep, op, classify)
        .await
}

/// Milliseconds on Tokio's clock since the first reading in this process: one scale for every
/// loop, as a send rate shared by many loops needs (a per-call origin would put each call's
/// readings on its own scale).
pub(crate) fn tokio_now_ms() -> u64 {
    static ORIGIN: std::sync::OnceLock<tokio::time::Instant> = std::sync::OnceLock::new();
    let origin = *ORIGIN.get_or_init(tokio::time::Instant::now);
    u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl<'a, G: RetryGate, C: FnMut() -> u64, H, R> Retry<'a, G, C, H, R> {
    /// [`Retry::run`] on Tokio, as [`retry_tokio`] runs it (Tokio's sleep, Tokio's clock in place of
    /// any [`Retry::clock`]), keeping the loop's budget, callback and send rate: so
    /// `Retry::new(&policy, seed).send_rate(&rate).run_tokio(op, classify)` paces every attempt,
    /// the first included, through one [`AtomicSendRate`](crate::send_rate::AtomicSendRate) shared by any
    /// number of tasks (SPEC.md §15.2). The clock reads one process-wide origin, so every loop
    /// sharing the rate reads the same scale.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// use std::sync::Arc;
    /// use seeded_backoff::send_rate::{Answer, AtomicSendRate, NotSent, SendRateConfig};
    /// use seeded_backoff::{Policy, Retry};
    ///
    /// #[derive(Debug)]
    /// enum Error { Busy, NotSent(NotSent) }
    /// impl From<NotSent> for Error { fn from(n: NotSent) -> Self { Error::NotSent(n) } }
    ///
    /// // 10 requests/s at most: a throttle turns the rate on, min = max holds it there.
    /// let config = SendRateConfig { min_rate_milli: 10_000, max_rate_milli: 10_000, ..SendRateConfig::DEFAULT };
    /// let rate = Arc::new(AtomicSendRate::new(config).unwrap());
    /// rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
    /// let policy = Policy::google();
    /// let start = tokio::time::Instant::now();
    /// let tasks: Vec<_> = (0..5).map(|i| {
    ///     let (rate, policy) = (Arc::clone(&rate), policy);
    ///     tokio::spawn(async move {
    ///         Retry::new(&policy, i).send_rate(&*rate)
    ///             .run_tokio(|_| async { Ok::<_, Error>(()) }, |_| true).await.unwrap()
    ///     })
    /// }).collect();
    /// for t in tasks { t.await.unwrap(); }
    /// // Two attempts at once (the default burst of 2), then 100 ms apart: the last went 300 ms
    /// // after the first.
    /// assert!(start.elapsed() >= std::time::Duration::from_millis(300));
    /// # }
    /// ```
    pub async fn run_tokio<T, E, F, Fut, K, V>(self, op: F, classify: K) -> Result<T, RetryError<E>>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, E>>,
        K: FnMut(&E) -> V,
        V: Into<Verdict>,
        H: OnRetry<E>,
        R: LoopSendRate<E>,
    {
        self.clock(tokio_now_ms as fn() -> u64)
            .run(tokio::time::sleep, op, classify)
            .await
    }
}
