//! The three shared parts: each is the core's part behind a [`Shared`] link, answering what the
//! local part answers.

extern crate std;

use std::string::String;

use super::{Shared, Store, StoreStats};

/// What every shared part tells of its link: where it stands, what its decisions cost, and why a
/// stored value was refused.
macro_rules! link_figures {
    ($($part:ty),*) => {$(
        impl $part {
            /// Where the link to the store stands.
            pub fn link_state(&self) -> LinkState {
                self.shared.lock().state()
            }

            /// What this part's decisions cost so far.
            pub fn stats(&self) -> StoreStats {
                self.shared.stats()
            }

            /// Why the last stored value read could not be used (a fleet of another
            /// configuration, say), if it could not: the process then decides alone and never
            /// overwrites it.
            pub fn link_error(&self) -> Option<StoreError> {
                self.shared.lock().error()
            }
        }
    )*};
}

link_figures!(SharedSendRate, SharedBudget, SharedPacer);
use crate::shared::{LinkState, StoreError};
use crate::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    pacer::{Pacer, PacerSlot},
    run::SendGate,
    send_rate::{Answer, Pace, SendRate, SendRateConfig, SendRateError},
    FailureKind, Invalid,
};

/// A send rate (SPEC.md §17) shared by every process of a fleet through one key of a [`Store`]
/// (SPEC.md §19): each ask and answer is [`SendRate`]'s, decided on the stored state at the store's
/// time and written back by compare-and-set; when the store is down or slower than its bound,
/// decided at once from this process's own copy. A [`SendGate`], so a retry loop
/// ([`Retry::send_rate`](crate::Retry::send_rate)) and the tower `SendRateLayer` take it as they
/// take an [`AtomicSendRate`](crate::send_rate::AtomicSendRate). Each call waits for the store, blocking its
/// thread for one or two round trips (a few tens of µs on a local network) and never longer than
/// the store's bound ([`Store::bound`]).
#[derive(Debug)]
pub struct SharedSendRate {
    shared: Shared<SendRate>,
}

impl SharedSendRate {
    /// A send rate kept under `key`, off until the first throttle if the key is absent; the
    /// configuration's error if it is out of range.
    pub fn new(
        store: &Store,
        key: impl Into<String>,
        config: SendRateConfig,
    ) -> Result<Self, Invalid<SendRateError>> {
        let fresh = SendRate::new(config)?;
        Ok(SharedSendRate {
            shared: Shared::new(store, key.into(), fresh),
        })
    }

    /// [`SendRate::before_attempt`], on the fleet's state.
    pub fn before_attempt(&self, now_ms: u64) -> Pace {
        self.shared
            .decide(now_ms, |rate, now| rate.before_attempt(now))
    }

    /// [`SendRate::on_answer`], on the fleet's state.
    pub fn on_answer(&self, now_ms: u64, answer: Answer) {
        self.shared
            .decide(now_ms, |rate, now| rate.on_answer(now, answer))
    }

    /// [`SendRate::on_answer_sent`], on the fleet's state; `sent_ms` is on the caller's clock, as
    /// `now_ms` is, and moved onto the fleet's with it.
    pub fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer) {
        let sent = self.shared.lock().fleet_ms(sent_ms);
        self.shared
            .decide(now_ms, |rate, now| rate.on_answer_sent(now, sent, answer))
    }

    /// This process's copy of the state: the fleet's as last seen, with any decision made alone
    /// since.
    pub fn load(&self) -> SendRate {
        *self.shared.lock().local()
    }
}

impl SendGate for SharedSendRate {
    fn before_attempt(&self, now_ms: u64) -> Pace {
        SharedSendRate::before_attempt(self, now_ms)
    }

    fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer) {
        SharedSendRate::on_answer_sent(self, now_ms, sent_ms, answer)
    }
}

/// A retry budget (SPEC.md §10) shared by every process of a fleet through one key of a
/// [`Store`] (SPEC.md §19), so a token is spent once across the fleet. A [`RetryGate`], taken as a
/// local budget is ([`Retry::budget`](crate::Retry::budget)).
#[derive(Debug)]
pub struct SharedBudget {
    shared: Shared<RetryBudget>,
}

impl SharedBudget {
    /// A budget kept under `key`, full if the key is absent.
    pub fn new(store: &Store, key: impl Into<String>, config: BudgetConfig) -> Self {
        SharedBudget {
            shared: Shared::new(store, key.into(), RetryBudget::new(config)),
        }
    }

    /// Tokens left, in thousandths, as this process last saw them.
    pub fn tokens_milli(&self) -> u32 {
        self.shared.lock().local().tokens_milli()
    }

    fn now_ms(&self) -> u64 {
        self.shared.store.now_ms()
    }
}

impl RetryGate for SharedBudget {
    fn record_failure(&self, kind: FailureKind) {
        self.shared
            .decide(self.now_ms(), |b, _| b.record_failure(kind))
    }

    fn try_acquire(&self, kind: FailureKind) -> bool {
        self.shared
            .decide(self.now_ms(), |b, _| b.try_acquire(kind))
    }

    fn record_success(&self, retried: Option<FailureKind>) {
        self.shared
            .decide(self.now_ms(), |b, _| b.record_success(retried))
    }
}

/// A server pacer (SPEC.md §16) shared by every replica of a service through one key of a
/// [`Store`] (SPEC.md §19): one schedule of returns, so replicas hand out distinct slots.
#[derive(Debug)]
pub struct SharedPacer {
    shared: Shared<Pacer>,
}

impl SharedPacer {
    /// A pacer kept under `key`, starting as `pacer` if the key is absent (replicas give the same
    /// configuration; the seed of whichever publishes first is the schedule's).
    pub fn new(store: &Store, key: impl Into<String>, pacer: Pacer) -> Self {
        SharedPacer {
            shared: Shared::new(store, key.into(), pacer),
        }
    }

    /// [`Pacer::assign`], on the fleet's schedule.
    pub fn assign(&self, now_ms: u64) -> PacerSlot {
        self.shared.decide(now_ms, |pacer, now| pacer.assign(now))
    }

    /// [`Pacer::pending`], on the fleet's schedule (a read: it writes only if the store's clock
    /// moved the pacer's latest time).
    pub fn pending(&self, now_ms: u64) -> u64 {
        self.shared.decide(now_ms, |pacer, now| pacer.pending(now))
    }
}
