//! What the `retry-policies` feature adds: a `retry_policies::RetryPolicy` (retry-policies 0.5,
//! the trait `reqwest-retry` takes) backed by a [`Policy`] and a seed.
//!
//! The trait's `should_retry(&self, request_start_time, n_past_retries)` sees neither the response
//! nor the request: the policy is shared by every request of a client and is asked about retry
//! `n` of a request by its start time and number alone. So the policy numbers the requests as
//! their first retry is asked for (`n_past_retries == 0`), gives request `i` the seed
//! [`call_seed`](crate::call_seed)`(seed, i)` (SPEC.md §14), and keeps it under the request's
//! start time for its later retries; retry `n`'s delay is the `n`-th step of a [`Backoff`] seeded
//! with it, replayed from the start on each call (a step costs tens of nanoseconds, and retries
//! are bounded by `max_retries`).
//!
//! It does not honour `Retry-After`, and cannot: the trait's `should_retry` is given no response,
//! and `reqwest-retry` (0.9) reads the response only in its `RetryableStrategy`, which can say
//! "transient" or "fatal" and nothing more, while its middleware sleeps only what the policy
//! says. A server that asks for 2 s gets the backoff's delay instead (0.44 s, say). Where the
//! server's hint matters, send with [`retry_reqwest`](crate::retry_reqwest) (feature
//! `reqwest`), which waits at least what the server asks.
//!
//! When the retries run out, `reqwest-retry` returns the last response as `Ok`: a response that
//! [`Verdict::from_http`](crate::Verdict) (feature `http`) or
//! [`classify_http`](crate::classify_http) still calls retryable is one the retries ran out on,
//! and [`SeededRetryPolicy::gave_up`] counts them.

extern crate std;

use core::time::Duration;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use retry_policies::{RetryDecision, RetryPolicy};

use crate::{Backoff, CallSeeds, Policy, Step, StepInput};

/// Requests whose seed is kept for their later retries: the oldest is dropped past this many
/// (a request still retrying after 1024 newer ones started falls back to a fresh call seed).
const OPEN_CALLS: usize = 1024;

#[derive(Debug)]
struct Calls {
    seeds: CallSeeds,
    open: VecDeque<(SystemTime, u64)>,
    gave_up: u64,
}

/// A `retry_policies::RetryPolicy` that answers with the core's delays for a seed, and gives up
/// when the core does (`max_retries`, or `max_elapsed_ms` counted from the request's start).
/// Clones share the request counter (they are one loop).
///
/// ```
/// use seeded_backoff::retry_policies::SeededRetryPolicy;
/// use seeded_backoff::{call_seed, Policy};
/// use retry_policies::{RetryDecision, RetryPolicy};
/// use std::time::{Duration, SystemTime};
///
/// let policy = Policy::google().to_builder().max_retries(2).build().unwrap();
/// let retry = SeededRetryPolicy::new(policy).seed(42);
/// let (first, second) = (SystemTime::now(), SystemTime::now() + Duration::from_millis(1));
/// // The first request follows seed 42's Google schedule, the second call_seed(42, 1)'s.
/// assert!(matches!(retry.should_retry(first, 0), RetryDecision::Retry { .. }));
/// assert_eq!(retry.delay_ms(second, 0), Some(1074));
/// assert_eq!(call_seed(42, 0), 42); // Backoff::new(&policy, 42) waits 1616 ms first
/// assert!(matches!(retry.should_retry(first, 2), RetryDecision::DoNotRetry));
/// assert_eq!(retry.gave_up(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct SeededRetryPolicy {
    policy: Policy,
    calls: Arc<Mutex<Calls>>,
}

impl SeededRetryPolicy {
    /// Request `i` (in the order their first retry is asked for) retries after the delays of
    /// `Backoff::new(&policy, call_seed(seed, i))`, the loop's `seed` drawn from the operating
    /// system once, so clients started together retry apart; [`SeededRetryPolicy::seed`] gives it.
    pub fn new(policy: Policy) -> Self {
        let calls = Calls {
            seeds: CallSeeds::new(crate::std_support::fresh_seed()),
            open: VecDeque::new(),
            gave_up: 0,
        };
        SeededRetryPolicy {
            policy,
            calls: Arc::new(Mutex::new(calls)),
        }
    }

    /// Seeds the loop with `seed`: request `i` then follows
    /// `Backoff::new(&policy, call_seed(seed, i))`, so a test replays every request's schedule.
    pub fn seed(self, seed: u64) -> Self {
        let calls = Calls {
            seeds: CallSeeds::new(seed),
            open: VecDeque::new(),
            gave_up: 0,
        };
        SeededRetryPolicy {
            policy: self.policy,
            calls: Arc::new(Mutex::new(calls)),
        }
    }

    /// The policy.
    pub const fn policy(&self) -> &Policy {
        &self.policy
    }

    /// How many requests this policy (and its clones) gave up on: each was returned with its
    /// last response or error after its retries ran out.
    pub fn gave_up(&self) -> u64 {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .gave_up
    }

    /// The seed of the request that started at `start`: a new call's for its first retry, else
    /// the one kept for it.
    fn seed_of(&self, start: SystemTime, n_past_retries: u32) -> u64 {
        // The table holds plain values, so a panic elsewhere cannot leave it inconsistent.
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        if n_past_retries > 0 {
            if let Some(&(_, seed)) = calls.open.iter().rev().find(|(at, _)| *at == start) {
                return seed;
            }
        }
        let seed = calls.seeds.next_seed();
        if calls.open.len() == OPEN_CALLS {
            calls.open.pop_front();
        }
        calls.open.push_back((start, seed));
        seed
    }

    fn close(&self, start: SystemTime) {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.open.retain(|(at, _)| *at != start);
        calls.gave_up = calls.gave_up.saturating_add(1);
    }

    /// The delay in ms before retry `n_past_retries` (0-based) of the request that started at
    /// `request_start_time`, or `None` when the core gives up: what `should_retry` waits. The
    /// first call for a request (`n_past_retries` 0) numbers it.
    pub fn delay_ms(&self, request_start_time: SystemTime, n_past_retries: u32) -> Option<u32> {
        let elapsed = SystemTime::now()
            .duration_since(request_start_time)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let seed = self.seed_of(request_start_time, n_past_retries);
        let mut backoff = Backoff::new(&self.policy, seed);
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
            None => {
                self.close(request_start_time);
                RetryDecision::DoNotRetry
            }
        }
    }
}
