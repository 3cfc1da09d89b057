//! One decision's exchange with the store (SPEC.md §19.4 to §19.6): what the binding does next
//! ([`Step`]), what the store answered ([`Reply`]), and the machine between them ([`Exchange`]).

use super::encode::SharedPart;
#[cfg(doc)]
use super::link::STORE_BOUND_MS;
use super::link::{LinkState, StoreLink, LATE_LIMIT, MAX_TRIES, REJOIN_MS};

/// What the binding does next for one decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<P: SharedPart> {
    /// Read the key: its value (or none) and the store's time; then [`Exchange::replied`] with
    /// [`Reply::Value`].
    Read,
    /// Apply the operation (the part's own method) to `state` at `now_ms`, keep its answer, and
    /// give the state back with [`Exchange::decided`]. A later `Decide` of the same exchange
    /// replaces the answer.
    Decide {
        /// The state to decide on.
        state: P,
        /// The fleet clock's reading to decide at.
        now_ms: u64,
    },
    /// Set the key to `new` if it still holds `expected` (`None`: if it is absent); then
    /// [`Exchange::replied`] with [`Reply::Set`] or [`Reply::Conflict`].
    CompareAndSet {
        /// The value the decision was made on.
        expected: Option<P::Value>,
        /// The value after the decision.
        new: P::Value,
    },
    /// The last decision's answer stands. `stored`: the store holds it; else it was made from the
    /// process's own state alone.
    Done {
        /// Whether the decision is in the store.
        stored: bool,
    },
}

/// What the store answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply<'a> {
    /// A read: the value (`None`: the key is absent) and the store's time in ms.
    Value {
        /// The stored bytes.
        value: Option<&'a [u8]>,
        /// `TIME` as ms.
        time_ms: u64,
    },
    /// The compare-and-set set the value, at the store's time in ms.
    Set {
        /// `TIME` as ms.
        time_ms: u64,
    },
    /// The key held another value: it, and the store's time in ms.
    Conflict {
        /// The stored bytes (`None`: absent).
        value: Option<&'a [u8]>,
        /// `TIME` as ms.
        time_ms: u64,
    },
}

/// Where an [`Exchange`] stands: what it waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Not begun.
    Start,
    /// Waits for the reply to a read.
    Reading,
    /// Waits for a decision to store.
    DecideStored,
    /// Waits for the reply to a compare-and-set.
    Writing,
    /// Waits for a decision made alone.
    DecideAlone,
    /// Done.
    Done,
}

impl Phase {
    /// Every phase, in order: a binding that keeps an exchange as numbers keeps a phase as its
    /// index here.
    pub const ALL: [Phase; 6] = [
        Phase::Start,
        Phase::Reading,
        Phase::DecideStored,
        Phase::Writing,
        Phase::DecideAlone,
        Phase::Done,
    ];
}

/// An [`Exchange`]'s fields, for a binding that keeps the exchange in memory of its own (the C
/// ABI's caller-owned `sb_store_exchange`) and gives it back to the core at each step.
#[derive(Clone, Debug, PartialEq)]
pub struct RawExchange<P: SharedPart> {
    /// What the exchange waits for.
    pub phase: Phase,
    /// The caller's reading the decision began at.
    pub caller_ms: u64,
    /// The conflicts met.
    pub tries: u32,
    /// The value the decision is made on (`None`: absent).
    pub base: Option<P::Value>,
    /// `base` came with a reply of this exchange (a read or a conflict).
    pub base_replied: bool,
    /// The state decided, until its compare-and-set is answered.
    pub decided: Option<P>,
}

/// One decision's exchange with the store: begin it, then feed back what each [`Step`] asks until
/// [`Step::Done`]. Exchanges of one process may run at once over one link, as those of several
/// processes do over one key: a conflict makes the later one decide again.
///
/// ```
/// use seeded_backoff::shared::{Exchange, FleetClock, Reply, Step, StoreLink};
/// use seeded_backoff::budget::{RetryBudget, RetryGate};
/// use seeded_backoff::FailureKind;
/// let mut link = StoreLink::new(RetryBudget::aws_default(), FleetClock::Caller);
/// let mut ex = Exchange::default();
/// assert_eq!(ex.begin(&mut link, 0), Step::Read);
/// let Step::Decide { state, .. } = ex.replied(&mut link, Reply::Value { value: None, time_ms: 7 }) else { panic!() };
/// assert!(state.try_acquire(FailureKind::Error)); // the decision: the core's own method
/// let Step::CompareAndSet { expected: None, new } = ex.decided(&mut link, state) else { panic!() };
/// assert_eq!(ex.replied(&mut link, Reply::Set { time_ms: 7 }), Step::Done { stored: true });
/// assert_eq!(link.local().tokens_milli(), 495_000);
/// # let _ = new;
/// ```
#[derive(Clone, Debug)]
pub struct Exchange<P: SharedPart> {
    phase: Phase,
    caller_ms: u64,
    tries: u32,
    base: Option<P::Value>,
    /// `base` came with a reply of this exchange (a read or a conflict), so it is the store's.
    base_replied: bool,
    decided: Option<P>,
}

impl<P: SharedPart> Default for Exchange<P> {
    fn default() -> Self {
        Exchange {
            phase: Phase::Start,
            caller_ms: 0,
            tries: 0,
            base: None,
            base_replied: false,
            decided: None,
        }
    }
}

impl<P: SharedPart> Exchange<P> {
    /// The exchange's fields, as [`Exchange::from_raw`] takes them back.
    pub fn into_raw(self) -> RawExchange<P> {
        RawExchange {
            phase: self.phase,
            caller_ms: self.caller_ms,
            tries: self.tries,
            base: self.base,
            base_replied: self.base_replied,
            decided: self.decided,
        }
    }

    /// The exchange whose fields `raw` holds (as [`Exchange::into_raw`] gave them).
    pub fn from_raw(raw: RawExchange<P>) -> Self {
        Exchange {
            phase: raw.phase,
            caller_ms: raw.caller_ms,
            tries: raw.tries,
            base: raw.base,
            base_replied: raw.base_replied,
            decided: raw.decided,
        }
    }

    /// Starts a decision at the caller's clock reading `caller_ms`.
    pub fn begin(&mut self, link: &mut StoreLink<P>, caller_ms: u64) -> Step<P> {
        *self = Exchange {
            caller_ms,
            ..Exchange::default()
        };
        match link.state {
            LinkState::Local if caller_ms < link.rejoin_at => self.alone(link),
            LinkState::Local => {
                // This exchange asks; the others keep deciding alone until it rejoins.
                link.rejoin_at = caller_ms.saturating_add(u64::from(REJOIN_MS));
                self.phase = Phase::Reading;
                Step::Read
            }
            LinkState::Joining => {
                self.phase = Phase::Reading;
                Step::Read
            }
            // Joined: decide on the state last seen at once, so an uncontended decision is one
            // round trip; a conflict brings the current value and time.
            LinkState::Joined => {
                self.base = link.seen;
                self.stored(link)
            }
        }
    }

    /// Starts a decision made from the process's own state at once, the link left as it stands:
    /// for a decision that did not get its turn at the store within the bound (a binding lets
    /// one decision per part and process at the store at a time, so they do not conflict with
    /// each other).
    pub fn begin_alone(&mut self, link: &mut StoreLink<P>, caller_ms: u64) -> Step<P> {
        *self = Exchange {
            caller_ms,
            ..Exchange::default()
        };
        self.alone(link)
    }

    /// Whether this decision needs the store: `false` when its link decides alone for now
    /// (so a binding need not wait for a turn at the store).
    pub fn needs_store(link: &StoreLink<P>, caller_ms: u64) -> bool {
        link.state != LinkState::Local || caller_ms >= link.rejoin_at
    }

    /// The conflicts this exchange met so far.
    pub fn conflicts(&self) -> u32 {
        self.tries
    }

    /// The state after the decision [`Step::Decide`] asked for.
    pub fn decided(&mut self, link: &mut StoreLink<P>, state: P) -> Step<P> {
        match self.phase {
            Phase::DecideStored => {
                let new = state.encode();
                // A decision that changed nothing on a value the store just gave (a `pending`)
                // needs no write.
                if self.base_replied && self.base == Some(new) {
                    link.local = state;
                    link.since = None;
                    link.state = LinkState::Joined;
                    self.phase = Phase::Done;
                    return Step::Done { stored: true };
                }
                self.decided = Some(state);
                self.phase = Phase::Writing;
                Step::CompareAndSet {
                    expected: self.base,
                    new,
                }
            }
            Phase::DecideAlone => {
                link.going_alone();
                link.local = state;
                self.phase = Phase::Done;
                Step::Done { stored: false }
            }
            _ => Step::Done { stored: false },
        }
    }

    /// The store's reply to the last [`Step::Read`] or [`Step::CompareAndSet`].
    pub fn replied(&mut self, link: &mut StoreLink<P>, reply: Reply<'_>) -> Step<P> {
        match (self.phase, reply) {
            (Phase::Reading, Reply::Value { value, time_ms }) => {
                link.note_time(self.caller_ms, time_ms);
                if !link.adopt(value, self.caller_ms) {
                    return self.alone(link);
                }
                link.state = LinkState::Joining;
                self.base = copy_value::<P>(value, &link.local);
                self.base_replied = true;
                link.seen = self.base;
                self.stored(link)
            }
            (Phase::Writing, Reply::Set { time_ms }) => {
                link.note_time(self.caller_ms, time_ms);
                if let Some(state) = self.decided.take() {
                    link.seen = Some(state.encode());
                    link.local = state;
                    // The decisions made alone went to the store with it.
                    link.since = None;
                }
                link.state = LinkState::Joined;
                link.error = None;
                self.phase = Phase::Done;
                Step::Done { stored: true }
            }
            (Phase::Writing, Reply::Conflict { value, time_ms }) => {
                link.note_time(self.caller_ms, time_ms);
                self.tries = self.tries.saturating_add(1);
                if !link.adopt(value, self.caller_ms) {
                    return self.alone(link);
                }
                self.base = copy_value::<P>(value, &link.local);
                self.base_replied = true;
                link.seen = self.base;
                if self.tries >= MAX_TRIES {
                    return self.alone(link);
                }
                self.stored(link)
            }
            // A reply that answers no question of this exchange: decide alone.
            _ => self.failed(link),
        }
    }

    /// The store failed (an error, a lost connection): the decision is made at once from the
    /// process's own state, which decides alone until it rejoins.
    pub fn failed(&mut self, link: &mut StoreLink<P>) -> Step<P> {
        if self.phase == Phase::Done {
            return Step::Done { stored: false };
        }
        link.fall_back(self.caller_ms);
        self.alone(link)
    }

    /// The store did not answer within [`STORE_BOUND_MS`]: the decision is made at once from the
    /// process's own state; after [`LATE_LIMIT`] such decisions in a row the process decides
    /// alone until it rejoins, as after a failure.
    pub fn timed_out(&mut self, link: &mut StoreLink<P>) -> Step<P> {
        if self.phase == Phase::Done {
            return Step::Done { stored: false };
        }
        link.late = link.late.saturating_add(1);
        if link.late >= LATE_LIMIT {
            link.fall_back(self.caller_ms);
        }
        self.alone(link)
    }

    fn stored(&mut self, link: &StoreLink<P>) -> Step<P> {
        self.decide(link, Phase::DecideStored)
    }

    fn alone(&mut self, link: &StoreLink<P>) -> Step<P> {
        self.decide(link, Phase::DecideAlone)
    }

    /// A decision on the process's own state, to be stored or made alone (`phase`).
    fn decide(&mut self, link: &StoreLink<P>, phase: Phase) -> Step<P> {
        self.phase = phase;
        Step::Decide {
            state: link.local.clone(),
            now_ms: link.fleet_ms(self.caller_ms),
        }
    }
}

/// The stored value as this part's fixed-size array: the base a compare-and-set expects, byte
/// for byte what the store holds (the decode checked its length).
fn copy_value<P: SharedPart>(value: Option<&[u8]>, local: &P) -> Option<P::Value> {
    let bytes = value?;
    let mut out = local.encode();
    for (to, from) in out.as_mut().iter_mut().zip(bytes) {
        *to = *from;
    }
    Some(out)
}
