//! An ergonomic pairing of a policy reference and a [`Backoff`], with `Duration`s.

use core::time::Duration;

use crate::backoff::Backoff;
use crate::policy::Policy;

/// The delays of a [`Backoff`] under its [`Policy`], as an `Iterator` of [`Duration`]s that ends
/// when it gives up: the crate's one iterator. A step with a hint, a clock or a budget is
/// [`Backoff::next_delay_with`]; reach the state with [`Schedule::backoff`].
///
/// ```
/// use std::time::Duration;
/// use seeded_backoff::{Jitter, Policy, Schedule};
///
/// let policy = Policy::google().to_builder().jitter(Jitter::None).build().unwrap();
/// let delays: Vec<Duration> = Schedule::new(&policy, 42).collect();
/// assert_eq!(delays.len(), 10);
/// assert_eq!(delays[0], Duration::from_secs(1));
/// assert_eq!(delays[9], Duration::from_secs(32));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule<'p> {
    policy: &'p Policy,
    backoff: Backoff,
}

impl<'p> Schedule<'p> {
    /// A fresh schedule for one request.
    pub fn new(policy: &'p Policy, seed: u64) -> Self {
        Schedule {
            policy,
            backoff: Backoff::new(policy, seed),
        }
    }

    /// Resumes from an existing state, e.g. one restored from a snapshot.
    pub fn from_backoff(policy: &'p Policy, backoff: Backoff) -> Self {
        Schedule { policy, backoff }
    }

    /// The policy this schedule follows.
    pub fn policy(&self) -> &'p Policy {
        self.policy
    }

    /// The per-request state, e.g. to snapshot it.
    pub fn backoff(&self) -> &Backoff {
        &self.backoff
    }
}

impl Iterator for Schedule<'_> {
    type Item = Duration;
    fn next(&mut self) -> Option<Duration> {
        self.backoff
            .next_delay(self.policy)
            .delay_ms()
            .map(|ms| Duration::from_millis(ms as u64))
    }
}

impl core::iter::FusedIterator for Schedule<'_> {}
