//! What the `retry-policies` feature adds: a `retry_policies::RetryPolicy` (retry-policies 0.5,
//! the trait `reqwest-retry` takes) backed by a [`Policy`] and a seed.
//!
//! The trait's `should_retry(&self, request_start_time, n_past_retries)` sees neither the response
//! nor any state of the request: the policy is shared by every request and is asked about retry
//! `n` of a request by number alone. So retry `n`'s delay is the `n`-th step of a [`Backoff`]
//! seeded with `seed`, replayed from the start on each call (a step costs tens of nanoseconds,
//! and retries are bounded by `max_retries`), and every request of a client follows the same
//! seeded schedule: seed each client differently (e.g. with
//! [`random_seed`](crate::random_seed)) so that a fleet does not retry in step. For the same
//! reason no `Retry-After` can reach it; `reqwest-retry` sees the response only in its
//! `RetryableStrategy`, which has no way to hand anything to the policy.

extern crate std;

use core::time::Duration;
use std::time::SystemTime;

use retry_policies::{RetryDecision, RetryPolicy};

use crate::{Backoff, Policy, Step, StepInput};

/// A `retry_policies::RetryPolicy` that answers with the core's delays for a seed, and gives up
/// when the core does (`max_retries`, or `max_elapsed_ms` counted from the request's start).
///
/// ```
/// use seeded_backoff::{Policy, SeededRetryPolicy};
/// use retry_policies::{RetryDecision, RetryPolicy};
/// use std::time::SystemTime;
///
/// let policy = Policy::google().to_builder().max_retries(2).build().unwrap();
/// let retry = SeededRetryPolicy::new(policy, 42);
/// let start = SystemTime::now();
/// assert!(matches!(retry.should_retry(start, 0), RetryDecision::Retry { .. }));
/// assert!(matches!(retry.should_retry(start, 2), RetryDecision::DoNotRetry));
/// assert_eq!(retry.delay_ms(start, 0), Some(1616)); // the Google schedule for seed 42
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeededRetryPolicy {
    policy: Policy,
    seed: u64,
}

impl SeededRetryPolicy {
    /// Every request retries after the delays of `Backoff::new(&policy, seed)`.
    pub const fn new(policy: Policy, seed: u64) -> Self {
        SeededRetryPolicy { policy, seed }
    }

    /// The policy.
    pub const fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The delay in ms before retry `n_past_retries` (0-based) of a request that started at
    /// `request_start_time`, or `None` when the core gives up: what `should_retry` waits.
    pub fn delay_ms(&self, request_start_time: SystemTime, n_past_retries: u32) -> Option<u32> {
        let elapsed = SystemTime::now()
            .duration_since(request_start_time)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let mut backoff = Backoff::new(&self.policy, self.seed);
        // The earlier retries, without a clock: their delays sum to no more than the time that
        // really passed, so a replayed step never gives up where the request's own did not.
        for _ in 0..n_past_retries {
            backoff.next_delay(&self.policy).delay_ms()?;
        }
        let input = StepInput {
            elapsed_ms: Some(elapsed),
            ..StepInput::default()
        };
        match backoff.next_delay_with(&self.policy, input) {
            Step::Retry { delay_ms, .. } => Some(delay_ms),
            Step::GiveUp(_) => None,
        }
    }
}

impl RetryPolicy for SeededRetryPolicy {
    fn should_retry(&self, request_start_time: SystemTime, n_past_retries: u32) -> RetryDecision {
        match self.delay_ms(request_start_time, n_past_retries) {
            Some(ms) => RetryDecision::Retry {
                execute_after: SystemTime::now() + Duration::from_millis(ms.into()),
            },
            None => RetryDecision::DoNotRetry,
        }
    }
}
