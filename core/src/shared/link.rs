//! The sans-I/O link between a process's part and its stored value (SPEC.md §19.3 to §19.6): the
//! process's own state, the value last seen, where it stands with the store and the clock; each
//! decision's [`Exchange`](super::Exchange) reads and updates it.

use super::encode::{SharedPart, StoreError};

/// The longest a decision may wait for the store, all round trips included, before the process
/// decides from its own state (SPEC.md §19.5).
pub const STORE_BOUND_MS: u32 = 50;
/// How long a process that fell back decides alone before it asks the store again (§19.6): a
/// store that is down answers an ask at once (a refused connection), so asking every 200 ms costs
/// little, and a process that fell through a moment's storm is back in step soon.
pub const REJOIN_MS: u32 = 200;
/// Decisions in a row that pass the bound before the process decides alone for [`REJOIN_MS`]:
/// one or two late replies (a store or a machine busy for a moment, 50 processes starting
/// together) cost those decisions only; a third in a row says the store is not answering (§19.5).
pub const LATE_LIMIT: u32 = 3;
/// Compare-and-set attempts per decision; after as many conflicts the decision is made from the
/// process's own state (§19.4). Each conflict brings the current value, so a try fails only if
/// another process wrote within its one round trip: 32 covers dozens of processes on one key,
/// and the time bound stops a decision first when a store is slow.
pub const MAX_TRIES: u32 = 32;

/// The one script a shared part runs (SPEC.md §19.4), the same bytes in every binding (the C ABI's
/// `sb_store_script`, the npm package's tables), on one key and with two arguments, the value
/// expected (empty for "absent") and the new value, or with none to read: it compares and sets,
/// and decides nothing. It answers `{1, nil, ms}` when it set the value and
/// `{0, value or nil, ms}` otherwise, `ms` being the store's `TIME` in milliseconds.
pub const CAS_SCRIPT: &str = r"local v = redis.call('GET', KEYS[1])
local t = redis.call('TIME')
local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if #ARGV == 2 and (v or '') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return {1, false, ms}
end
return {0, v or false, ms}
";

/// Which clock a decision reads (SPEC.md §19.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FleetClock {
    /// The store's `TIME`, as milliseconds: one clock for the whole fleet. Between replies, the
    /// caller's readings are moved onto it by the offset seen at the last reply.
    Store,
    /// The caller's own readings, as given (a test's virtual clock, or a clock every process of
    /// the fleet already shares).
    Caller,
}

/// Where a link stands with the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkState {
    /// Not yet in step with the store: the next decision reads it (at the start, and to rejoin).
    Joining,
    /// Deciding through the store.
    Joined,
    /// Deciding alone: the store failed, was slower than the bound, or holds a value this
    /// process cannot use; it is asked again after [`REJOIN_MS`].
    Local,
}

impl LinkState {
    /// Every state, in order: a binding that keeps a link as numbers keeps its state as its
    /// index here.
    pub const ALL: [LinkState; 3] = [LinkState::Joining, LinkState::Joined, LinkState::Local];
}

/// One part's link to its key: the process's own state (the fleet's state last seen, with the
/// decisions made alone since), the value last seen, and where it stands (SPEC.md §19).
#[derive(Clone, Debug)]
pub struct StoreLink<P: SharedPart> {
    pub(super) fresh: P,
    pub(super) local: P,
    pub(super) seen: Option<P::Value>,
    /// The fleet's state the decisions made alone since are counted from (none: no decision
    /// made alone is missing from the store), so they are carried into the fleet's state when
    /// the process is back in step (SPEC.md §19.6).
    pub(super) since: Option<P>,
    pub(super) state: LinkState,
    pub(super) rejoin_at: u64,
    /// Decisions in a row that passed the bound.
    pub(super) late: u32,
    clock: FleetClock,
    fleet_base: u64,
    caller_base: u64,
    pub(super) error: Option<StoreError>,
}

/// A [`StoreLink`]'s fields, for a binding that keeps the link in memory of its own (the C ABI's
/// caller-owned `sb_store_link`) and gives it back to the core at each step.
#[derive(Clone, Debug, PartialEq)]
pub struct RawLink<P: SharedPart> {
    /// The cold start: a full budget, an empty pacer, a send rate that is off.
    pub fresh: P,
    /// The process's own state.
    pub local: P,
    /// The value last seen in the store.
    pub seen: Option<P::Value>,
    /// The fleet's state the decisions made alone since are counted from; none when every
    /// decision is in the store.
    pub since: Option<P>,
    /// Where the link stands.
    pub state: LinkState,
    /// The caller's reading at which a local link asks the store again.
    pub rejoin_at: u64,
    /// Decisions in a row that passed the bound.
    pub late: u32,
    /// The clock decisions read.
    pub clock: FleetClock,
    /// The store's time at the latest reply.
    pub fleet_base: u64,
    /// The caller's reading at the latest reply.
    pub caller_base: u64,
    /// Why the last value read could not be used, if it could not.
    pub error: Option<StoreError>,
}

impl<P: SharedPart> StoreLink<P> {
    /// A link for a part that starts as `fresh` (its cold start: a full budget, an empty pacer,
    /// a send rate that is off), reading `clock`.
    pub fn new(fresh: P, clock: FleetClock) -> Self {
        StoreLink {
            local: fresh.clone(),
            fresh,
            seen: None,
            since: None,
            state: LinkState::Joining,
            rejoin_at: 0,
            late: 0,
            clock,
            fleet_base: 0,
            caller_base: 0,
            error: None,
        }
    }

    /// The link's fields, as [`StoreLink::from_raw`] takes them back.
    pub fn into_raw(self) -> RawLink<P> {
        RawLink {
            fresh: self.fresh,
            local: self.local,
            seen: self.seen,
            since: self.since,
            state: self.state,
            rejoin_at: self.rejoin_at,
            late: self.late,
            clock: self.clock,
            fleet_base: self.fleet_base,
            caller_base: self.caller_base,
            error: self.error,
        }
    }

    /// The link whose fields `raw` holds (as [`StoreLink::into_raw`] gave them).
    pub fn from_raw(raw: RawLink<P>) -> Self {
        StoreLink {
            fresh: raw.fresh,
            local: raw.local,
            seen: raw.seen,
            since: raw.since,
            state: raw.state,
            rejoin_at: raw.rejoin_at,
            late: raw.late,
            clock: raw.clock,
            fleet_base: raw.fleet_base,
            caller_base: raw.caller_base,
            error: raw.error,
        }
    }

    /// The process's own state: the fleet's as last seen, with any decision made alone since.
    pub fn local(&self) -> &P {
        &self.local
    }

    /// Where the link stands.
    pub fn state(&self) -> LinkState {
        self.state
    }

    /// Why the last value read could not be used, if it could not.
    pub fn error(&self) -> Option<StoreError> {
        self.error
    }

    /// A caller's clock reading on the fleet clock.
    pub fn fleet_ms(&self, caller_ms: u64) -> u64 {
        match self.clock {
            FleetClock::Caller => caller_ms,
            FleetClock::Store if caller_ms >= self.caller_base => {
                self.fleet_base.saturating_add(caller_ms - self.caller_base)
            }
            FleetClock::Store => self.fleet_base.saturating_sub(self.caller_base - caller_ms),
        }
    }

    pub(super) fn note_time(&mut self, caller_ms: u64, time_ms: u64) {
        self.late = 0;
        self.fleet_base = time_ms;
        self.caller_base = caller_ms;
    }

    pub(super) fn fall_back(&mut self, caller_ms: u64) {
        self.state = LinkState::Local;
        self.rejoin_at = caller_ms.saturating_add(u64::from(REJOIN_MS));
    }

    /// Takes a stored value as the fleet's state, with what this process decided alone since
    /// it was last in step carried in (SPEC.md §19.6); `false` (and the link falls back) if this
    /// process cannot use it.
    pub(super) fn adopt(&mut self, value: Option<&[u8]>, caller_ms: u64) -> bool {
        let fleet = match value {
            // A key that vanished under a joined process (a failover, a flush) is a cold start; a
            // process that joins or rejoins finds none and publishes its own state.
            None if self.state == LinkState::Joined => self.fresh.clone(),
            None => {
                self.error = None;
                return true;
            }
            Some(bytes) => match self.local.decode(bytes) {
                Ok(state) => state,
                Err(e) => {
                    self.error = Some(e);
                    self.fall_back(caller_ms);
                    return false;
                }
            },
        };
        self.local = match &self.since {
            Some(since) => fleet.with_alone(since, &self.local),
            None => fleet.clone(),
        };
        // What was decided alone is now counted from this state.
        if self.since.is_some() {
            self.since = Some(fleet);
        }
        self.error = None;
        true
    }

    /// Notes a decision about to be made alone on the process's own state: the state the
    /// decisions made alone are counted from, unless one already is.
    pub(super) fn going_alone(&mut self) {
        // Before its first reply a process on the store's clock decides at its own readings
        // (SPEC.md §19.3), which are no times of the fleet's: those decisions are not carried.
        let on_fleet_clock = self.clock == FleetClock::Caller || self.fleet_base != 0;
        if self.since.is_none() && on_fleet_clock {
            self.since = Some(self.local.clone());
        }
    }
}
