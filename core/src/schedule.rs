//! An ergonomic pairing of a policy reference and a [`Backoff`], with `Duration`s.

use core::time::Duration;

use crate::backoff::{Backoff, Step};
use crate::hint::ServerHint;
use crate::policy::Policy;

/// A [`Backoff`] bound to its [`Policy`]: `next_delay()` needs no arguments and the schedule is an
/// `Iterator` of [`Duration`]s that ends when it gives up.
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

    /// See [`Backoff::next_delay`].
    pub fn next_delay(&mut self) -> Step {
        self.backoff.next_delay(self.policy)
    }

    /// See [`Backoff::next_delay_with_hint`].
    pub fn next_delay_with_hint(&mut self, hint: ServerHint) -> Step {
        self.backoff.next_delay_with_hint(self.policy, hint)
    }

    /// See [`Backoff::reset`].
    pub fn reset(&mut self) {
        self.backoff.reset(self.policy)
    }

    /// Retries issued so far.
    pub fn retries(&self) -> u32 {
        self.backoff.retries()
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
        self.next_delay()
            .delay_ms()
            .map(|ms| Duration::from_millis(ms as u64))
    }
}

impl core::iter::FusedIterator for Schedule<'_> {}
