//! The C link's structs to the core's `StoreLink` and `Exchange` and back (SPEC.md sections
//! 19.3 to 19.6): each call reads them, checks them, runs one step of the core's machine and
//! writes them back; the exported functions are in `store_exchange.rs`, the structs in
//! `store_link.rs`.

use seeded_backoff::budget::RetryBudget;
use seeded_backoff::pacer::Pacer;
use seeded_backoff::send_rate::SendRate;
use seeded_backoff::shared::{
    Exchange, FleetClock, LinkState, Phase, RawExchange, RawLink, SharedPart, Step, StoreError,
    StoreLink,
};

use crate::pacer::sb_pacer;
use crate::status::sb_status;
use crate::store_link::{
    sb_store_exchange, sb_store_link, sb_store_part, sb_store_stats, sb_store_step,
    SB_STORE_BUDGET, SB_STORE_CLOCK_CALLER, SB_STORE_CLOCK_STORE, SB_STORE_COMPARE_AND_SET,
    SB_STORE_DECIDE, SB_STORE_DONE, SB_STORE_JOINED, SB_STORE_JOINING, SB_STORE_LOCAL,
    SB_STORE_PACER, SB_STORE_READ, SB_STORE_REPLY_CONFLICT, SB_STORE_REPLY_SET,
    SB_STORE_REPLY_VALUE, SB_STORE_SEND_RATE, SB_STORE_VALUE_MAX,
};

/// A part kind the link holds: its member of `sb_store_part`.
pub(crate) trait LinkPart: SharedPart {
    const CODE: u32;
    fn read(part: &sb_store_part) -> Result<Self, sb_status>;
    /// `part`'s member holding `state`, the rest of it (its configuration) from `fresh`.
    fn write(part: &mut sb_store_part, fresh: &sb_store_part, state: &Self);
}

impl LinkPart for RetryBudget {
    const CODE: u32 = SB_STORE_BUDGET;
    fn read(part: &sb_store_part) -> Result<Self, sb_status> {
        part.budget.to_core()
    }
    fn write(part: &mut sb_store_part, fresh: &sb_store_part, state: &Self) {
        part.budget = fresh.budget.with_tokens(state);
    }
}

impl LinkPart for Pacer {
    const CODE: u32 = SB_STORE_PACER;
    fn read(part: &sb_store_part) -> Result<Self, sb_status> {
        part.pacer.to_core()
    }
    fn write(part: &mut sb_store_part, _: &sb_store_part, state: &Self) {
        part.pacer = sb_pacer::new(state);
    }
}

impl LinkPart for SendRate {
    const CODE: u32 = SB_STORE_SEND_RATE;
    fn read(part: &sb_store_part) -> Result<Self, sb_status> {
        part.send_rate.to_core()
    }
    fn write(part: &mut sb_store_part, fresh: &sb_store_part, state: &Self) {
        part.send_rate = fresh.send_rate.with_state(state);
    }
}

const BAD: sb_status = sb_status::SB_ERR_STORE_LINK;

const PHASES: [Phase; 6] = Phase::ALL;
/// The link states by their `SB_STORE_*` code.
const STATES: [LinkState; 3] = LinkState::ALL;
const _: () = assert!(
    SB_STORE_JOINING == 0 && SB_STORE_JOINED == 1 && SB_STORE_LOCAL == 2 && STATES.len() == 3
);
const ERRORS: [StoreError; 4] = [
    StoreError::Format,
    StoreError::Kind,
    StoreError::Config,
    StoreError::State,
];

/// The stored value `bytes[..len]` of `P`'s size, `None` for a length of 0.
fn value_of<P: SharedPart>(
    fresh: &P,
    bytes: &[u8],
    len: u32,
) -> Result<Option<P::Value>, sb_status> {
    if len == 0 {
        return Ok(None);
    }
    let mut out = fresh.encode();
    let size = out.as_ref().len();
    if len as usize != size || bytes.len() < size {
        return Err(BAD);
    }
    for (to, from) in out.as_mut().iter_mut().zip(bytes) {
        *to = *from;
    }
    Ok(Some(out))
}

/// Writes `value` into `to` and answers its length (0 for none).
fn put_value(to: &mut [u8], value: Option<&[u8]>) -> u32 {
    let Some(value) = value else { return 0 };
    for (t, f) in to.iter_mut().zip(value) {
        *t = *f;
    }
    value.len() as u32
}

/// The core link `c` holds, checked.
fn link_of<P: LinkPart>(c: &sb_store_link) -> Result<StoreLink<P>, sb_status> {
    let fresh = P::read(&c.fresh).map_err(|_| BAD)?;
    let error = match c.error {
        0 => None,
        code => Some(
            *ERRORS
                .iter()
                .find(|e| sb_status::from(**e) as i32 as u32 == code)
                .ok_or(BAD)?,
        ),
    };
    Ok(StoreLink::from_raw(RawLink {
        local: P::read(&c.local).map_err(|_| BAD)?,
        seen: value_of(&fresh, &c.seen, c.seen_len)?,
        since: match c.has_since {
            0 => None,
            1 => Some(P::read(&c.since).map_err(|_| BAD)?),
            _ => return Err(BAD),
        },
        state: *STATES.get(c.state as usize).ok_or(BAD)?,
        rejoin_at: c.rejoin_at_ms,
        late: c.late,
        clock: match c.clock {
            SB_STORE_CLOCK_STORE => FleetClock::Store,
            SB_STORE_CLOCK_CALLER => FleetClock::Caller,
            _ => return Err(BAD),
        },
        fleet_base: c.fleet_base_ms,
        caller_base: c.caller_base_ms,
        error,
        fresh,
    }))
}

/// `c` holding the core link `link` (its kind, configuration and counts kept).
fn put_link<P: LinkPart>(c: &mut sb_store_link, link: StoreLink<P>) {
    let raw = link.into_raw();
    let fresh = c.fresh;
    P::write(&mut c.local, &fresh, &raw.local);
    c.has_since = u64::from(raw.since.is_some());
    c.since = fresh;
    if let Some(since) = &raw.since {
        P::write(&mut c.since, &fresh, since);
    }
    c.seen_len = put_value(&mut c.seen, raw.seen.as_ref().map(AsRef::as_ref));
    c.state = STATES.iter().position(|s| *s == raw.state).unwrap_or(0) as u32;
    c.rejoin_at_ms = raw.rejoin_at;
    c.late = raw.late;
    c.fleet_base_ms = raw.fleet_base;
    c.caller_base_ms = raw.caller_base;
    c.error = raw.error.map_or(0, |e| sb_status::from(e) as i32 as u32);
}

/// The core exchange `c` holds, checked against its link `link`.
fn exchange_of<P: LinkPart>(
    c: &sb_store_exchange,
    link: &StoreLink<P>,
) -> Result<Exchange<P>, sb_status> {
    if c.kind != P::CODE {
        return Err(BAD);
    }
    let phase = *PHASES.get(c.phase as usize).ok_or(BAD)?;
    Ok(Exchange::from_raw(RawExchange {
        phase,
        caller_ms: c.caller_ms,
        tries: c.tries,
        base: value_of(link.local(), &c.expected, c.expected_len)?,
        base_replied: c.replied != 0,
        // The state a compare-and-set waits on is the one decided in `part`.
        decided: match phase {
            Phase::Writing => Some(P::read(&c.part).map_err(|_| BAD)?),
            _ => None,
        },
    }))
}

/// `c` holding the core exchange `ex` and the step it answered, and the step for the caller.
fn put_exchange<P: LinkPart>(
    c: &mut sb_store_exchange,
    link: &sb_store_link,
    ex: Exchange<P>,
    step: &Step<P>,
) -> sb_store_step {
    let raw = ex.into_raw();
    c.kind = P::CODE;
    c.phase = PHASES.iter().position(|p| *p == raw.phase).unwrap_or(0) as u32;
    c.caller_ms = raw.caller_ms;
    c.tries = raw.tries;
    c.replied = u32::from(raw.base_replied);
    c.expected_len = put_value(&mut c.expected, raw.base.as_ref().map(AsRef::as_ref));
    if let Some(decided) = &raw.decided {
        P::write(&mut c.part, &link.fresh, decided);
    }
    match step {
        Step::Read => sb_store_step {
            action: SB_STORE_READ,
            ..sb_store_step::default()
        },
        Step::Decide { state, now_ms } => {
            P::write(&mut c.part, &link.fresh, state);
            sb_store_step {
                action: SB_STORE_DECIDE,
                stored: 0,
                now_ms: *now_ms,
            }
        }
        Step::CompareAndSet { expected, new } => {
            c.expected_len = put_value(&mut c.expected, expected.as_ref().map(AsRef::as_ref));
            c.value_len = put_value(&mut c.value, Some(new.as_ref()));
            sb_store_step {
                action: SB_STORE_COMPARE_AND_SET,
                ..sb_store_step::default()
            }
        }
        Step::Done { stored } => sb_store_step {
            action: SB_STORE_DONE,
            stored: u32::from(*stored),
            now_ms: 0,
        },
    }
}

/// One call on an exchange: what the caller reports.
#[derive(Clone, Copy)]
pub(crate) enum Op<'a> {
    Begin(u64),
    BeginAlone(u64),
    Decided,
    Replied {
        reply: u32,
        value: Option<&'a [u8]>,
        time_ms: u64,
    },
    Failed,
    TimedOut,
}

/// Runs `op` on the link and exchange of kind `P`, both updated in place on success.
fn run<P: LinkPart>(
    c_link: &mut sb_store_link,
    c_ex: &mut sb_store_exchange,
    op: Op<'_>,
) -> Result<sb_store_step, sb_status> {
    use seeded_backoff::shared::Reply;
    let mut link = link_of::<P>(c_link)?;
    let (mut ex, was_done) = match op {
        Op::Begin(_) | Op::BeginAlone(_) => (Exchange::default(), false),
        _ => {
            let done = PHASES.get(c_ex.phase as usize) == Some(&Phase::Done);
            (exchange_of(c_ex, &link)?, done)
        }
    };
    let step = match op {
        Op::Begin(now) => ex.begin(&mut link, now),
        Op::BeginAlone(now) => ex.begin_alone(&mut link, now),
        Op::Decided => {
            let state = P::read(&c_ex.part)?;
            ex.decided(&mut link, state)
        }
        Op::Replied {
            reply,
            value,
            time_ms,
        } => {
            let reply = match reply {
                SB_STORE_REPLY_VALUE => Reply::Value { value, time_ms },
                SB_STORE_REPLY_SET => Reply::Set { time_ms },
                SB_STORE_REPLY_CONFLICT => Reply::Conflict { value, time_ms },
                _ => return Err(sb_status::SB_ERR_STORE_REPLY),
            };
            ex.replied(&mut link, reply)
        }
        Op::Failed => ex.failed(&mut link),
        Op::TimedOut => ex.timed_out(&mut link),
    };
    put_link(c_link, link);
    if let (Step::Done { stored }, false) = (&step, was_done) {
        let stats = &mut c_link.stats;
        stats.decisions = stats.decisions.saturating_add(1);
        stats.alone = stats.alone.saturating_add(u64::from(!stored));
        stats.conflicts = stats.conflicts.saturating_add(u64::from(ex.conflicts()));
    }
    Ok(put_exchange(c_ex, c_link, ex, &step))
}

/// Runs `op` on a link and exchange of the link's kind.
pub(crate) fn dispatch(
    link: &mut sb_store_link,
    ex: &mut sb_store_exchange,
    op: Op<'_>,
) -> Result<sb_store_step, sb_status> {
    match link.kind {
        SB_STORE_BUDGET => run::<RetryBudget>(link, ex, op),
        SB_STORE_PACER => run::<Pacer>(link, ex, op),
        SB_STORE_SEND_RATE => run::<SendRate>(link, ex, op),
        _ => Err(BAD),
    }
}

/// A new link of kind `P` with `fresh` as its cold start.
fn new_link<P: LinkPart>(fresh: &sb_store_part, clock: u32) -> Result<sb_store_link, sb_status> {
    P::read(fresh)?;
    let c = sb_store_link {
        fresh: *fresh,
        local: *fresh,
        since: *fresh,
        seen: [0; SB_STORE_VALUE_MAX],
        rejoin_at_ms: 0,
        fleet_base_ms: 0,
        caller_base_ms: 0,
        has_since: 0,
        stats: sb_store_stats::default(),
        kind: P::CODE,
        state: SB_STORE_JOINING,
        clock,
        late: 0,
        error: 0,
        seen_len: 0,
    };
    link_of::<P>(&c)?;
    Ok(c)
}

/// `sb_store_link_init`'s link: `kind`'s member of `fresh` as its cold start, reading `clock`.
pub(crate) fn init(
    kind: u32,
    fresh: &sb_store_part,
    clock: u32,
) -> Result<sb_store_link, sb_status> {
    if clock > SB_STORE_CLOCK_CALLER {
        return Err(sb_status::SB_ERR_STORE_CLOCK);
    }
    match kind {
        SB_STORE_BUDGET => new_link::<RetryBudget>(fresh, clock),
        SB_STORE_PACER => new_link::<Pacer>(fresh, clock),
        SB_STORE_SEND_RATE => new_link::<SendRate>(fresh, clock),
        _ => Err(sb_status::SB_ERR_STORE_PART_KIND),
    }
}

/// Where a link stands at a caller's reading (`sb_store_link_state`).
pub(crate) struct At {
    pub(crate) state: u32,
    pub(crate) needs_store: bool,
    pub(crate) fleet_ms: u64,
}

/// The link `c`, checked, at the caller's reading `caller_ms`.
pub(crate) fn check(c: &sb_store_link, caller_ms: u64) -> Result<At, sb_status> {
    fn of<P: LinkPart>(c: &sb_store_link, caller_ms: u64) -> Result<At, sb_status> {
        let link = link_of::<P>(c)?;
        Ok(At {
            state: c.state,
            needs_store: Exchange::needs_store(&link, caller_ms),
            fleet_ms: link.fleet_ms(caller_ms),
        })
    }
    match c.kind {
        SB_STORE_BUDGET => of::<RetryBudget>(c, caller_ms),
        SB_STORE_PACER => of::<Pacer>(c, caller_ms),
        SB_STORE_SEND_RATE => of::<SendRate>(c, caller_ms),
        _ => Err(BAD),
    }
}
