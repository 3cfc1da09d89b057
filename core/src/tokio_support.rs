//! What the `tokio` feature adds: the async retry loop on Tokio's timer and clock.

use core::future::Future;

use crate::{Policy, Retry, RetryError, Verdict};

/// [`Retry::run`] on Tokio: sleeps with `tokio::time::sleep` and counts time spent in attempts
/// against the policy's `max_elapsed_ms` with `tokio::time::Instant` (so a paused test runtime
/// runs it on virtual time). `seed` is this call's: for many calls from one seed, take each from
/// a shared [`CallSeeds`](crate::CallSeeds) (SPEC.md §14).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use seeded_backoff::{retry_tokio, Jitter, Policy};
/// let policy = Policy::google().to_builder().initial_ms(10).jitter(Jitter::None).build().unwrap();
/// let out = retry_tokio(&policy, 1, |attempt| async move {
///     if attempt < 3 { Err("503") } else { Ok("200") } // attempts 1 and 2 fail
/// }, |_e| true).await;
/// assert_eq!(out, Ok("200"));
/// # }
/// ```
pub async fn retry_tokio<T, E, F, Fut, K, V>(
    policy: &Policy,
    seed: u64,
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
    Retry::new(policy, seed)
        .clock(move || u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX))
        .run(tokio::time::sleep, op, classify)
        .await
}
