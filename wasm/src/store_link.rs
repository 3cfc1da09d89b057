//! A shared part's link to its key (SPEC.md §19.3 to §19.6) for the npm package: the core's
//! `StoreLink` and one decision's `Exchange`, whose fields the JS layer keeps as two records of
//! bytes between calls. Before a call JS writes the records to [`LINK_AT`] and [`EXCHANGE_AT`] in
//! `Io::bytes`, and a part of the link's configuration to the kind's words (its cold start; for
//! [`op::DECIDED`], the state it decided); [`store_link`] runs one step of the core's machine and
//! writes the records back, the step to `Io::action` and, for a decision, the state to decide on
//! to the kind's words. So the JS layer only performs the I/O and the part's own method: every
//! rule (when to read, compare-and-set, retry, fall back, rejoin, the fleet's clock) is the core's.

use seeded_backoff::shared::{
    Exchange, FleetClock, LinkState, Phase, RawExchange, RawLink, Reply, SharedPart, Step,
    StoreLink, BUDGET_VALUE_SIZE, PACER_VALUE_SIZE, SEND_RATE_VALUE_SIZE,
};

use crate::rt::{io as shared, Io};
use crate::store::VALUE_AT;
pub use crate::store_any::{AnyPart, AnyValue, Area};

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The room for one stored value in a record: the longest kind's, rounded up to a word.
pub const ROOM: usize = max(
    max(BUDGET_VALUE_SIZE, PACER_VALUE_SIZE),
    SEND_RATE_VALUE_SIZE,
)
.div_ceil(4)
    * 4;
/// The link record's words before its values: `state`, `clock`, `late`, `error` (0, or 1 + the
/// error's index in [`crate::errors::STORE`]), the length of the value seen (0: none), then
/// `rejoin_at`, `fleet_base` and `caller_base` as (low, high) halves, then the length of the
/// value of the state decisions made alone are counted from (0: none).
const LINK_HEAD: usize = 4 * 12;
/// The link record's bytes: its words, then the cold start's value, the process's own state's
/// value, the value last seen, and the state decisions made alone are counted from, [`ROOM`]
/// bytes each.
pub const LINK_SIZE: usize = LINK_HEAD + 4 * ROOM;
/// The exchange record's words before its values: `phase`, `tries`, `replied` (0 or 1), the
/// length of the base value (0: absent), 1 if a decided state follows, then `caller_ms` as
/// (low, high) halves.
const EXCHANGE_HEAD: usize = 4 * 7;
/// The exchange record's bytes: its words, then the base value and the decided state's value.
pub const EXCHANGE_SIZE: usize = EXCHANGE_HEAD + 2 * ROOM;
/// Where the link record sits in `Io::bytes`: past the room of two stored values, a
/// compare-and-set's expected and new values.
pub const LINK_AT: usize = VALUE_AT + 2 * ROOM;
/// Where the exchange record sits in `Io::bytes`.
pub const EXCHANGE_AT: usize = LINK_AT + LINK_SIZE;

const _: () =
    assert!(EXCHANGE_AT + EXCHANGE_SIZE <= crate::rt::HEADER_VALUES * crate::rt::MAX_HEADER_VALUE);

/// [`store_link`]'s operations.
pub mod op {
    /// A new link record whose cold start is the kind's words; `arg` 1: decisions read the
    /// caller's clock as given, 0: the store's.
    pub const INIT: u32 = 0;
    /// Begins a decision at the caller's reading (`lo`, `hi`).
    pub const BEGIN: u32 = 1;
    /// Begins a decision made alone at once, the link as it stands.
    pub const BEGIN_ALONE: u32 = 2;
    /// The kind's words hold the decided state.
    pub const DECIDED: u32 = 3;
    /// The script's reply: `arg` the reply's code ([`super::reply`]), `len` the length of the
    /// value at `VALUE_AT` (`u32::MAX`: none), at the store's time (`lo`, `hi`).
    pub const REPLIED: u32 = 4;
    /// The store failed.
    pub const FAILED: u32 = 5;
    /// The store did not answer within the bound.
    pub const TIMED_OUT: u32 = 6;
    /// The link at the caller's reading (`lo`, `hi`): `Io::action` gets its state's code, 1 if
    /// a decision then needs the store, and the reading on the fleet's clock (low, high).
    pub const AT: u32 = 7;
    /// The process's own state to the kind's words; `Io::action[0]` gets why the last value read
    /// could not be used: 0, or 1 + the error's index in [`crate::errors::STORE`].
    pub const LOCAL: u32 = 8;
}

/// The reply codes of [`op::REPLIED`].
pub mod reply {
    /// The answer to a read.
    pub const VALUE: u32 = 0;
    /// The compare-and-set set the value.
    pub const SET: u32 = 1;
    /// The compare-and-set met another value.
    pub const CONFLICT: u32 = 2;
}

/// The step codes in `Io::action[0]` (then `stored`, and the fleet reading to decide at).
pub mod step {
    /// Read the key.
    pub const READ: u32 = 0;
    /// Decide on the kind's words at the reading, then [`super::op::DECIDED`].
    pub const DECIDE: u32 = 1;
    /// Compare-and-set: the expected value at `VALUE_AT`, `Io::action[1]` bytes (0: absent),
    /// the new value at `VALUE_AT + ROOM`, `Io::action[2]` bytes.
    pub const COMPARE_AND_SET: u32 = 2;
    /// Done; `Io::action[1]` 1 if the store holds the decision, `Io::action[2]` the conflicts
    /// the decision met.
    pub const DONE: u32 = 3;
}

/// The link states by their code.
pub const STATES: [LinkState; 3] = LinkState::ALL;
const PHASES: [Phase; 6] = Phase::ALL;

fn word(io: &Io, at: usize) -> u32 {
    let mut b = [0u8; 4];
    for (i, to) in b.iter_mut().enumerate() {
        *to = io.bytes.get(at + i).copied().unwrap_or(0);
    }
    u32::from_le_bytes(b)
}

fn set_word(io: &mut Io, at: usize, v: u32) {
    for (i, from) in v.to_le_bytes().into_iter().enumerate() {
        if let Some(to) = io.bytes.get_mut(at + i) {
            *to = from;
        }
    }
}

fn wide(io: &Io, at: usize) -> u64 {
    u64::from(word(io, at)) | u64::from(word(io, at + 4)) << 32
}

fn set_wide(io: &mut Io, at: usize, v: u64) {
    set_word(io, at, v as u32);
    set_word(io, at + 4, (v >> 32) as u32);
}

/// The state of the value of `len` bytes at `at` under `config`'s configuration.
fn state_at(io: &Io, config: &AnyPart, at: usize, len: usize) -> Option<AnyPart> {
    config.decode(io.bytes.get(at..at.checked_add(len)?)?).ok()
}

/// The value of `len` bytes at `at` (none for 0), as `config`'s kind's array.
fn value_at(io: &Io, config: &AnyPart, at: usize, len: u32) -> Option<Option<AnyValue>> {
    if len == 0 {
        return Some(None);
    }
    let mut out = config.encode();
    let from = io.bytes.get(at..at.checked_add(len as usize)?)?;
    if from.len() != out.as_ref().len() {
        return None;
    }
    for (to, b) in out.as_mut().iter_mut().zip(from) {
        *to = *b;
    }
    Some(Some(out))
}

/// Writes `value` at `at` and answers its length (0 for none).
fn put_value(io: &mut Io, at: usize, value: Option<&[u8]>) -> u32 {
    let Some(value) = value else { return 0 };
    for (i, b) in value.iter().enumerate() {
        if let Some(to) = io.bytes.get_mut(at + i) {
            *to = *b;
        }
    }
    value.len() as u32
}

fn load_link(io: &Io, config: &AnyPart) -> Option<StoreLink<AnyPart>> {
    let size = config.encode().as_ref().len();
    let h = |i: usize| word(io, LINK_AT + 4 * i);
    let error = match h(3) {
        0 => None,
        code => Some(*crate::errors::STORE.get(code as usize - 1)?),
    };
    Some(StoreLink::from_raw(RawLink {
        fresh: state_at(io, config, LINK_AT + LINK_HEAD, size)?,
        local: state_at(io, config, LINK_AT + LINK_HEAD + ROOM, size)?,
        seen: value_at(io, config, LINK_AT + LINK_HEAD + 2 * ROOM, h(4))?,
        since: match h(11) {
            0 => None,
            len => Some(state_at(
                io,
                config,
                LINK_AT + LINK_HEAD + 3 * ROOM,
                len as usize,
            )?),
        },
        state: *STATES.get(h(0) as usize)?,
        clock: [FleetClock::Store, FleetClock::Caller]
            .get(h(1) as usize)
            .copied()?,
        late: h(2),
        error,
        rejoin_at: wide(io, LINK_AT + 20),
        fleet_base: wide(io, LINK_AT + 28),
        caller_base: wide(io, LINK_AT + 36),
    }))
}

fn save_link(io: &mut Io, link: StoreLink<AnyPart>) {
    let raw = link.into_raw();
    let state = STATES.iter().position(|s| *s == raw.state).unwrap_or(0);
    set_word(io, LINK_AT, state as u32);
    set_word(io, LINK_AT + 4, u32::from(raw.clock == FleetClock::Caller));
    set_word(io, LINK_AT + 8, raw.late);
    let error = raw
        .error
        .map_or(0, |e| 1 + crate::errors::index(&crate::errors::STORE, &e));
    set_word(io, LINK_AT + 12, error);
    let seen = put_value(
        io,
        LINK_AT + LINK_HEAD + 2 * ROOM,
        raw.seen.as_ref().map(AsRef::as_ref),
    );
    set_word(io, LINK_AT + 16, seen);
    set_wide(io, LINK_AT + 20, raw.rejoin_at);
    set_wide(io, LINK_AT + 28, raw.fleet_base);
    set_wide(io, LINK_AT + 36, raw.caller_base);
    let local = raw.local.encode();
    put_value(io, LINK_AT + LINK_HEAD + ROOM, Some(local.as_ref()));
    let since = raw.since.as_ref().map(SharedPart::encode);
    let since = put_value(
        io,
        LINK_AT + LINK_HEAD + 3 * ROOM,
        since.as_ref().map(AsRef::as_ref),
    );
    set_word(io, LINK_AT + 44, since);
}

fn load_exchange(io: &Io, config: &AnyPart) -> Option<Exchange<AnyPart>> {
    let h = |i: usize| word(io, EXCHANGE_AT + 4 * i);
    let size = config.encode().as_ref().len();
    let decided = match h(4) {
        0 => None,
        _ => Some(state_at(
            io,
            config,
            EXCHANGE_AT + EXCHANGE_HEAD + ROOM,
            size,
        )?),
    };
    Some(Exchange::from_raw(RawExchange {
        phase: *PHASES.get(h(0) as usize)?,
        tries: h(1),
        base_replied: h(2) != 0,
        base: value_at(io, config, EXCHANGE_AT + EXCHANGE_HEAD, h(3))?,
        decided,
        caller_ms: wide(io, EXCHANGE_AT + 20),
    }))
}

fn save_exchange(io: &mut Io, ex: Exchange<AnyPart>) {
    let raw = ex.into_raw();
    let phase = PHASES.iter().position(|p| *p == raw.phase).unwrap_or(0);
    set_word(io, EXCHANGE_AT, phase as u32);
    set_word(io, EXCHANGE_AT + 4, raw.tries);
    set_word(io, EXCHANGE_AT + 8, u32::from(raw.base_replied));
    let base = put_value(
        io,
        EXCHANGE_AT + EXCHANGE_HEAD,
        raw.base.as_ref().map(AsRef::as_ref),
    );
    set_word(io, EXCHANGE_AT + 12, base);
    let decided = raw.decided.as_ref().map(SharedPart::encode);
    put_value(
        io,
        EXCHANGE_AT + EXCHANGE_HEAD + ROOM,
        decided.as_ref().map(AsRef::as_ref),
    );
    set_word(io, EXCHANGE_AT + 16, u32::from(decided.is_some()));
    set_wide(io, EXCHANGE_AT + 20, raw.caller_ms);
}

fn put_step(io: &mut Io, step: Step<AnyPart>, tries: u32) {
    io.action = match step {
        Step::Read => [step::READ, 0, 0, 0],
        Step::Decide { state, now_ms } => {
            state.save(io);
            [step::DECIDE, 0, now_ms as u32, (now_ms >> 32) as u32]
        }
        Step::CompareAndSet { expected, new } => {
            let expected = put_value(io, VALUE_AT, expected.as_ref().map(AsRef::as_ref));
            let new = put_value(io, VALUE_AT + ROOM, Some(new.as_ref()));
            [step::COMPARE_AND_SET, expected, new, 0]
        }
        Step::Done { stored } => [step::DONE, u32::from(stored), tries, 0],
    };
}

fn run(io: &mut Io, kind: u32, op: u32, at: u64, arg: u32, len: u32) -> Option<()> {
    let config = AnyPart::load(io, kind)?;
    if op == op::INIT {
        let clock = [FleetClock::Store, FleetClock::Caller]
            .get(arg as usize)
            .copied()?;
        put_value(io, LINK_AT + LINK_HEAD, Some(config.encode().as_ref()));
        save_link(io, StoreLink::new(config, clock));
        return Some(());
    }
    let mut link = load_link(io, &config)?;
    if op == op::AT {
        let state = STATES.iter().position(|s| *s == link.state()).unwrap_or(0);
        let fleet = link.fleet_ms(at);
        let needs = Exchange::needs_store(&link, at);
        io.action = [
            state as u32,
            u32::from(needs),
            fleet as u32,
            (fleet >> 32) as u32,
        ];
        return Some(());
    }
    if op == op::LOCAL {
        link.local().clone().save(io);
        let error = link.error();
        io.action[0] = error.map_or(0, |e| 1 + crate::errors::index(&crate::errors::STORE, &e));
        return Some(());
    }
    let mut ex = match op {
        op::BEGIN | op::BEGIN_ALONE => Exchange::default(),
        _ => load_exchange(io, &config)?,
    };
    let step = match op {
        op::BEGIN => ex.begin(&mut link, at),
        op::BEGIN_ALONE => ex.begin_alone(&mut link, at),
        op::DECIDED => ex.decided(&mut link, config),
        op::REPLIED => {
            // A value longer than the bytes hold is no value of this part: an empty one is
            // refused by its length alike.
            let value = (len != u32::MAX).then(|| {
                let end = VALUE_AT.saturating_add(len as usize);
                io.bytes.get(VALUE_AT..end).unwrap_or(&[])
            });
            let reply = match arg {
                reply::VALUE => Reply::Value { value, time_ms: at },
                reply::SET => Reply::Set { time_ms: at },
                reply::CONFLICT => Reply::Conflict { value, time_ms: at },
                _ => return None,
            };
            ex.replied(&mut link, reply)
        }
        op::FAILED => ex.failed(&mut link),
        op::TIMED_OUT => ex.timed_out(&mut link),
        _ => return None,
    };
    let tries = ex.conflicts();
    save_link(io, link);
    save_exchange(io, ex);
    put_step(io, step, tries);
    Some(())
}

/// One step of the link of `kind` (1 budget, 2 pacer, 3 send rate: SPEC.md §19.2's kinds):
/// `op` ([`op`]) with the reading or time (`lo`, `hi`), `arg` and `len`. Returns 0, or 1 when
/// the records or the kind's words are no link's (the JS layer's own bug: it wrote them).
#[export_name = "storeLink"]
pub extern "C" fn store_link(kind: u32, op: u32, lo: u32, hi: u32, arg: u32, len: u32) -> u32 {
    let at = u64::from(lo) | u64::from(hi) << 32;
    shared(|io| {
        let done = run(io, kind, op, at, arg, len);
        u32::from(done.is_none())
    })
}
