//! The send-rate part: an adaptive send rate (SPEC.md §17) whose words live in the JS `SendRate`.
//! Its own small wasm file, so that a program that paces nothing carries none of it.
//!
//! The send rate's [`SEND_RATE_AREA`] words sit at the start of the shared bytes, as little-endian
//! u32 (the run words are too few): the configuration's fields in the order the core checks them
//! ([`SendRateError::ALL`]), `fail_fast` (0 or 1), then the state's [`SEND_RATE_WORDS`] u64
//! words as (low, high) halves ([`SendRate::to_words`]). Every call reads them, checks them, and
//! writes them back: a state the core never reaches is refused, unchanged.

use seeded_backoff::bindings::SEND_RATE_WORDS;
use seeded_backoff::send_rate::{Answer, Pace, SendRate, SendRateConfig, SendRateError};
#[cfg(feature = "store")]
use seeded_backoff::shared::StoreError;

use crate::rt::{io as shared, Io};

/// The configuration's words: one per field of [`SendRateError::ALL`], then `fail_fast`.
pub const CONFIG_WORDS: usize = SendRateError::ALL.len() + 1;

/// The words of a send rate in the shared bytes: configuration, then state.
pub const SEND_RATE_AREA: usize = CONFIG_WORDS + 2 * SEND_RATE_WORDS;

/// What `sendRateAsk` returns (its ms in the first action word).
pub mod pace {
    /// Send the attempt now.
    pub const SEND: u32 = 0;
    /// Wait the ms, then ask again.
    pub const WAIT: u32 = 1;
    /// Fail fast: do not send; the ms sending would have waited.
    pub const REFUSE: u32 = 2;
    /// The words are no send rate's (unchanged).
    pub const BAD_STATE: u32 = 3;
}

/// The kinds `sendRateAnswer` takes (SPEC.md §17.3).
pub mod answer {
    /// Any response but a throttle.
    pub const ACCEPTED: u32 = 0;
    /// A 429, or a 503 with a hint.
    pub const THROTTLED: u32 = 1;
    /// A connection error or a timeout.
    pub const NO_ANSWER: u32 = 2;
}

fn u64_of(lo: u32, hi: u32) -> u64 {
    u64::from(hi) << 32 | u64::from(lo)
}

fn word(io: &Io, i: usize) -> u32 {
    let at = i.saturating_mul(4);
    match io.bytes.get(at..at.saturating_add(4)) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

fn set_word(io: &mut Io, i: usize, v: u32) {
    let at = i.saturating_mul(4);
    if let Some(to) = io.bytes.get_mut(at..at.saturating_add(4)) {
        for (t, f) in to.iter_mut().zip(v.to_le_bytes()) {
            *t = f;
        }
    }
}

/// The field `e` names (the one mapping between fields and words, so words and errors share an order).
fn field(c: &mut SendRateConfig, e: SendRateError) -> Option<&mut u32> {
    match e {
        SendRateError::MaxRate => Some(&mut c.max_rate_milli),
        SendRateError::MinRate => Some(&mut c.min_rate_milli),
        SendRateError::Margin => Some(&mut c.margin_permille),
        SendRateError::ProbeMs => Some(&mut c.probe_ms),
        SendRateError::ProbeFirst => Some(&mut c.probe_first_permille),
        SendRateError::ProbeMax => Some(&mut c.probe_max_permille),
        SendRateError::GuardMs => Some(&mut c.guard_ms),
        SendRateError::Burst => Some(&mut c.burst),
        SendRateError::MaxHold => Some(&mut c.max_hold_ms),
        _ => None,
    }
}

/// A configuration as its words (the JS defaults are the core's, through this).
pub fn config_words(c: SendRateConfig) -> [u32; CONFIG_WORDS] {
    let mut c = c;
    let mut out = [0u32; CONFIG_WORDS];
    for (w, e) in out.iter_mut().zip(SendRateError::ALL) {
        if let Some(f) = field(&mut c, e) {
            *w = *f;
        }
    }
    if let Some(last) = out.last_mut() {
        *last = u32::from(c.fail_fast);
    }
    out
}

/// The configuration of the shared words, or `None` for a `fail_fast` word other than 0 or 1.
fn config(io: &Io) -> Option<SendRateConfig> {
    let mut c = SendRateConfig::DEFAULT;
    for (i, e) in SendRateError::ALL.into_iter().enumerate() {
        if let Some(f) = field(&mut c, e) {
            *f = word(io, i);
        }
    }
    c.fail_fast = match word(io, CONFIG_WORDS - 1) {
        0 => false,
        1 => true,
        _ => return None,
    };
    Some(c)
}

fn read(io: &Io) -> Option<SendRate> {
    let config = config(io)?;
    let mut words = [0u64; SEND_RATE_WORDS];
    for (i, w) in words.iter_mut().enumerate() {
        let at = CONFIG_WORDS + 2 * i;
        *w = u64_of(word(io, at), word(io, at + 1));
    }
    SendRate::from_words(config, &words)
}

fn write(io: &mut Io, rate: &SendRate) {
    for (i, w) in rate.to_words().into_iter().enumerate() {
        let at = CONFIG_WORDS + 2 * i;
        set_word(io, at, w as u32);
        set_word(io, at + 1, (w >> 32) as u32);
    }
}

/// A new send rate from the configuration words, its state written after them. Returns 0, or
/// 1 + the error's index in [`crate::errors::SEND_RATE`] (the configuration's first field out of
/// range), or 1 + that list's length for a `fail_fast` word other than 0 or 1.
#[export_name = "sendRateNew"]
pub extern "C" fn send_rate_new() -> u32 {
    shared(|io| {
        let Some(config) = config(io) else {
            return 1 + SendRateError::ALL.len() as u32;
        };
        match SendRate::new(config) {
            Ok(rate) => {
                write(io, &rate);
                0
            }
            Err(e) => 1 + crate::errors::index(&crate::errors::SEND_RATE, &e.error),
        }
    })
}

/// Asks before an attempt at `now_ms` (u32 halves), updating the shared words: a [`pace`] code,
/// its ms in the first action word.
#[export_name = "sendRateAsk"]
pub extern "C" fn send_rate_ask(now_lo: u32, now_hi: u32) -> u32 {
    shared(|io| {
        let Some(mut rate) = read(io) else {
            return pace::BAD_STATE;
        };
        let (code, ms) = match rate.before_attempt(u64_of(now_lo, now_hi)) {
            Pace::Send => (pace::SEND, 0),
            Pace::Wait { ms } => (pace::WAIT, ms),
            Pace::Refuse { ms } => (pace::REFUSE, ms),
        };
        write(io, &rate);
        io.action[0] = ms;
        code
    })
}

/// Reports an answer of kind `kind` ([`answer`]) at `now_ms` (u32 halves), `hint_ms` for a
/// throttle, to an attempt sent at `sent_ms` (u32 halves) if `has_sent`, else at `now_ms` (SPEC.md
/// §17.5). Returns 0, or 1 for words no send rate has or an unknown kind (unchanged).
#[export_name = "sendRateAnswer"]
pub extern "C" fn send_rate_answer(
    now_lo: u32,
    now_hi: u32,
    kind: u32,
    hint_ms: u32,
    has_sent: bool,
    sent_lo: u32,
    sent_hi: u32,
) -> u32 {
    shared(|io| {
        let a = match kind {
            answer::ACCEPTED => Answer::Accepted,
            answer::THROTTLED => Answer::Throttled { hint_ms },
            answer::NO_ANSWER => Answer::NoAnswer,
            _ => return 1,
        };
        let Some(mut rate) = read(io) else {
            return 1;
        };
        let now = u64_of(now_lo, now_hi);
        if has_sent {
            rate.on_answer_sent(now, u64_of(sent_lo, sent_hi), a);
        } else {
            rate.on_answer(now, a);
        }
        write(io, &rate);
        0
    })
}

/// The learnt rate of the shared words in thousandths of a request per second (0 while off), or
/// `u32::MAX` for words no send rate has.
#[export_name = "sendRateRate"]
pub extern "C" fn send_rate_rate() -> u32 {
    shared(|io| read(io).map_or(u32::MAX, |r| r.rate_milli()))
}

/// A run event (`crate::run::run_event`'s numbers) paced by the send rate of the shared bytes
/// (SPEC.md §15.2): `start`, `wake` and `outcome` are the core's paced events, an outcome telling
/// the send rate `answer` ([`crate::run::answer`], `answer_arg` the hint or the HTTP status); the
/// run words and the send rate's words are written back. Returns as `runEvent`, or
/// [`crate::run::BAD_WORDS`] for words no send rate has (nothing changes).
#[export_name = "runEventPaced"]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn run_event_paced(
    event: u32,
    kind: u32,
    hint_kind: u32,
    hint_ms: u32,
    timeout: u32,
    has_now: bool,
    now_lo: u32,
    now_hi: u32,
    with_budget: bool,
    answer: u32,
    answer_arg: u32,
) -> u32 {
    use crate::run::{event_in, Event, BAD_WORDS};
    shared(|io| {
        let Some(rate) = read(io) else {
            return BAD_WORDS;
        };
        let cell = core::cell::Cell::new(rate);
        let e = Event {
            event,
            kind,
            hint_kind,
            hint_ms,
            timeout,
            has_now,
            now_lo,
            now_hi,
            with_budget,
        };
        let r = event_in(io, e, Some((&cell, answer, answer_arg)));
        if r == 0 {
            write(io, &cell.get());
        }
        r
    })
}

/// The shared send-rate words' stored value (SPEC.md §19.2) to the shared bytes at
/// [`crate::store::VALUE_AT`]; returns its length, or 0 for words no send rate has.
#[cfg(feature = "store")]
#[export_name = "sendRateEncode"]
pub extern "C" fn send_rate_encode() -> u32 {
    shared(|io| match read(io) {
        Some(rate) => {
            crate::store::put(io, &rate);
            seeded_backoff::shared::SEND_RATE_VALUE_SIZE as u32
        }
        None => 0,
    })
}

/// The state of the `len` bytes at [`crate::store::VALUE_AT`], a stored value of the shared
/// send-rate words' configuration, into those words. Returns 0, or 1 + the error's index in
/// [`crate::errors::STORE`] (the words unchanged; `state` for words no send rate has).
#[cfg(feature = "store")]
#[export_name = "sendRateDecode"]
pub extern "C" fn send_rate_decode(len: u32) -> u32 {
    shared(|io| {
        let Some(rate) = read(io) else {
            return 1 + crate::errors::index(&crate::errors::STORE, &StoreError::State);
        };
        match crate::store::take(io, &rate, len) {
            Ok(stored) => {
                write(io, &stored);
                0
            }
            Err(code) => code,
        }
    })
}

#[cfg(feature = "store")]
impl crate::store_link::Area for SendRate {
    fn load(io: &Io) -> Option<Self> {
        read(io)
    }
    fn save(&self, io: &mut Io) {
        write(io, self);
    }
}
