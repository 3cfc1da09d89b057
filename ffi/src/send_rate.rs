//! `sb_send_rate`: the adaptive send rate (SPEC.md section 17) in caller-owned memory.

use seeded_backoff::bindings::SEND_RATE_WORDS;
use seeded_backoff::{
    send_rate::{Answer, Pace, SendRate, SendRateConfig},
    ServerHint,
};

use crate::input::{SB_INPUT_DO_NOT_RETRY, SB_INPUT_RATE_LIMIT, SB_INPUT_RETRY_AFTER};
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// `sb_send_rate_answer` kind: the server took the request (any answer but a throttle).
pub const SB_ANSWER_ACCEPTED: u32 = 0;
/// `sb_send_rate_answer` kind: a 429, or a 503 with a hint; `hint_ms` is the hint (0 for none).
pub const SB_ANSWER_THROTTLED: u32 = 1;
/// `sb_send_rate_answer` kind: no answer (a connection error or a timeout).
pub const SB_ANSWER_NO_ANSWER: u32 = 2;

/// A send rate's parameters (SPEC.md section 17.1). Start from `sb_send_rate_config_default()`
/// and change fields; `sb_send_rate_init` checks them in this order and names the first out of
/// range (`SB_ERR_SEND_RATE_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_send_rate_config {
    /// Thousandths of a request per second, 1..=1000000000 (default 1000000000).
    pub max_rate_milli: u32,
    /// 1..=max_rate_milli (default 1: one request every 1000 s).
    pub min_rate_milli: u32,
    /// How far under the measured accepted rate a throttle sets the rate, 1..=500 (default 20).
    pub margin_permille: u32,
    /// How often the rate grows without a throttle, 10..=60000 ms (default 500).
    pub probe_ms: u32,
    /// The first growth after a throttle, 1..=probe_max_permille (default 10).
    pub probe_first_permille: u32,
    /// The largest growth per probe, 1..=1000 (default 250).
    pub probe_max_permille: u32,
    /// Throttles within this many ms of a decrease do not decrease again, 0..=60000 (default 0).
    pub guard_ms: u32,
    /// Attempts that may go at once after an idle spell, 1..=1000 (default 2).
    pub burst: u32,
    /// The longest a server's hint holds every attempt, 0..=3600000 ms (default 60000).
    pub max_hold_ms: u32,
    /// Nonzero: `sb_send_rate_ask` refuses an attempt that would have to wait (default 0).
    pub fail_fast: u32,
}

impl sb_send_rate_config {
    fn to_core(self) -> SendRateConfig {
        SendRateConfig {
            min_rate_milli: self.min_rate_milli,
            max_rate_milli: self.max_rate_milli,
            margin_permille: self.margin_permille,
            probe_ms: self.probe_ms,
            probe_first_permille: self.probe_first_permille,
            probe_max_permille: self.probe_max_permille,
            guard_ms: self.guard_ms,
            burst: self.burst,
            max_hold_ms: self.max_hold_ms,
            fail_fast: self.fail_fast != 0,
        }
    }
}

/// A send rate shared by every request of a process to one server. Allocate it anywhere, set it
/// up with `sb_send_rate_init`, and treat the fields as private: every call validates them and
/// returns `SB_ERR_BAD_STATE` if they were corrupted. Not thread-safe: when several threads share
/// one, the caller holds its own lock around each `sb_send_rate_*` call (each call is one O(1)
/// transition, SPEC.md section 17.6).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_send_rate {
    /// The parameters, as given to `sb_send_rate_init` (`fail_fast` as 0 or 1).
    pub config: sb_send_rate_config,
    /// The state's words (SPEC.md section 17.1).
    pub state: [u64; 22],
}

const _: () = assert!(SEND_RATE_WORDS == 22);

impl sb_send_rate {
    // By reference, against the convention for `Copy` types: a paced run checks the send rate
    // where it lies in the caller's memory, not in a copy on its own stack.
    #[allow(clippy::wrong_self_convention)]
    pub(crate) fn to_core(&self) -> Result<SendRate, sb_status> {
        if self.config.fail_fast > 1 {
            return Err(sb_status::SB_ERR_BAD_STATE);
        }
        SendRate::from_words(self.config.to_core(), &self.state).ok_or(sb_status::SB_ERR_BAD_STATE)
    }

    pub(crate) fn with_state(self, rate: &SendRate) -> sb_send_rate {
        sb_send_rate {
            state: rate.to_words(),
            ..self
        }
    }
}

/// SPEC.md section 17.1's defaults: 0.001..1000000 requests/s, margin 2 %, probe every 500 ms
/// growing 1 % doubling to 25 %, no guard, burst 2, hints held up to 60 s, blocking.
#[no_mangle]
pub extern "C" fn sb_send_rate_config_default() -> sb_send_rate_config {
    let d = SendRateConfig::DEFAULT;
    sb_send_rate_config {
        max_rate_milli: d.max_rate_milli,
        min_rate_milli: d.min_rate_milli,
        margin_permille: d.margin_permille,
        probe_ms: d.probe_ms,
        probe_first_permille: d.probe_first_permille,
        probe_max_permille: d.probe_max_permille,
        guard_ms: d.guard_ms,
        burst: d.burst,
        max_hold_ms: d.max_hold_ms,
        fail_fast: u32::from(d.fail_fast),
    }
}

/// Checks `*config` and writes a send rate, off until the first throttle, to `*s`. Returns
/// `SB_OK`, `SB_ERR_NULL`, or the `SB_ERR_SEND_RATE_*` of the first field out of range (then `*s`
/// is unchanged).
///
/// ```c
/// static sb_send_rate rate; // shared by every request to one server, under the caller's lock
/// sb_send_rate_config config = sb_send_rate_config_default();
/// config.fail_fast = 1;
/// if (sb_send_rate_init(&rate, &config) != SB_OK) abort();
/// ```
///
/// # Safety
/// `s` is NULL or valid for writes of an `sb_send_rate`; `config` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_init(
    s: *mut sb_send_rate,
    config: *const sb_send_rate_config,
) -> sb_status {
    require_feature!("send-rate");
    ptr::status((|| {
        if s.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let mut config = unsafe { ptr::read(config) }?;
        config.fail_fast = u32::from(config.fail_fast != 0);
        let rate = SendRate::new(config.to_core()).map_err(sb_status::from)?;
        let c_rate = sb_send_rate {
            config,
            state: rate.to_words(),
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(s, c_rate) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Loads `*s`, applies `f` to the core send rate, stores the state back.
///
/// # Safety
/// `s` is NULL or valid for reads and writes of an `sb_send_rate`.
unsafe fn update(
    s: *mut sb_send_rate,
    f: impl FnOnce(&mut SendRate) -> Result<sb_status, sb_status>,
) -> sb_status {
    require_feature!("send-rate");
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let c_rate = unsafe { ptr::read(s) }?;
        let mut rate = c_rate.to_core()?;
        let status = f(&mut rate)?;
        // SAFETY: as above.
        unsafe { ptr::write(s, c_rate.with_state(&rate)) }?;
        Ok(status)
    })())
}

/// Before every attempt, first attempts included (SPEC.md section 17.4): `SB_OK` to send now
/// (`*out_ms` = 0), `SB_SEND_RATE_WAIT` to ask again after `*out_ms` ms, or with `fail_fast`
/// `SB_SEND_RATE_REFUSE` (do not send; `*out_ms` is the wait sending would take, for a
/// `Retry-After` upstream). Nothing is reserved by a wait or a refusal. `now_ms` is any monotonic
/// clock in ms; a reading earlier than a previous one counts as that one.
///
/// # Safety
/// `s` is NULL or valid for reads and writes of an `sb_send_rate`; `out_ms` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_ask(
    s: *mut sb_send_rate,
    now_ms: u64,
    out_ms: *mut u32,
) -> sb_status {
    if out_ms.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    // SAFETY: forwarded from this function's contract.
    unsafe {
        update(s, |rate| {
            let (status, ms) = match rate.before_attempt(now_ms) {
                Pace::Send => (sb_status::SB_OK, 0),
                Pace::Wait { ms } => (sb_status::SB_SEND_RATE_WAIT, ms),
                Pace::Refuse { ms } => (sb_status::SB_SEND_RATE_REFUSE, ms),
            };
            // SAFETY: checked non-NULL above; writable by this function's contract.
            ptr::write(out_ms, ms)?;
            Ok(status)
        })
    }
}

/// Reports the server's answer to an attempt at `now_ms` (SPEC.md section 17.5): `kind` is
/// `SB_ANSWER_ACCEPTED`, `SB_ANSWER_THROTTLED` (with the server's `hint_ms`, 0 for none) or
/// `SB_ANSWER_NO_ANSWER`; any other kind is `SB_ERR_SEND_RATE_ANSWER_KIND`. `sent_ms` points to
/// the reading at which the attempt was sent (its `sb_send_rate_ask` said `SB_OK`), or is NULL
/// for "sent at `now_ms`": a throttle of an attempt sent before the rate's last cut answers the
/// old rate and cuts nothing (one cut per flight of attempts).
///
/// ```c
/// uint64_t sent = clock_ms();
/// uint32_t wait_ms, kind, hint_ms;
/// if (sb_send_rate_ask(&rate, sent, &wait_ms) == SB_OK) {
///     sb_answer_from_http(http_call(), 0u, 0u, &kind, &hint_ms);
///     sb_send_rate_answer(&rate, clock_ms(), &sent, kind, hint_ms);
/// }
/// ```
///
/// # Safety
/// `s` is NULL or valid for reads and writes of an `sb_send_rate`; `sent_ms` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_answer(
    s: *mut sb_send_rate,
    now_ms: u64,
    sent_ms: *const u64,
    kind: u32,
    hint_ms: u32,
) -> sb_status {
    let answer = match kind {
        SB_ANSWER_ACCEPTED => Answer::Accepted,
        SB_ANSWER_THROTTLED => Answer::Throttled { hint_ms },
        SB_ANSWER_NO_ANSWER => Answer::NoAnswer,
        _ => return sb_status::SB_ERR_SEND_RATE_ANSWER_KIND,
    };
    let sent = if sent_ms.is_null() {
        None
    } else {
        // SAFETY: non-NULL, and readable by this function's contract.
        match unsafe { ptr::read(sent_ms) } {
            Ok(sent) => Some(sent),
            Err(status) => return status,
        }
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        update(s, |rate| {
            match sent {
                Some(sent) => rate.on_answer_sent(now_ms, sent, answer),
                None => rate.on_answer(now_ms, answer),
            }
            Ok(sb_status::SB_OK)
        })
    }
}

/// The answer an HTTP response denotes (SPEC.md section 17.3), for `sb_send_rate_answer` or
/// `sb_run_outcome_paced`: a 429 is `SB_ANSWER_THROTTLED`, a 503 with a Retry-After or rate-limit
/// hint too (`*out_hint_ms` the hint, else 0); anything else is `SB_ANSWER_ACCEPTED`. `hint_flag`
/// and `hint_ms` are the response's hint as `sb_outcome` holds it: 0, `SB_INPUT_RETRY_AFTER`,
/// `SB_INPUT_RATE_LIMIT` or `SB_INPUT_DO_NOT_RETRY`; any other flag is `SB_ERR_TWO_HINTS`.
/// Nothing is written on an error.
///
/// ```c
/// uint32_t kind, hint_ms;
/// sb_answer_from_http(429, 0, 0, &kind, &hint_ms); // SB_ANSWER_THROTTLED, 0
/// ```
///
/// # Safety
/// `kind` and `out_hint_ms` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_answer_from_http(
    status: u16,
    hint_flag: u32,
    hint_ms: u32,
    kind: *mut u32,
    out_hint_ms: *mut u32,
) -> sb_status {
    require_feature!("send-rate");
    ptr::status((|| {
        if kind.is_null() || out_hint_ms.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let hint = match hint_flag {
            0 => None,
            SB_INPUT_RETRY_AFTER => Some(ServerHint::RetryAfterMs(hint_ms)),
            SB_INPUT_RATE_LIMIT => Some(ServerHint::RateLimitResetMs(hint_ms)),
            SB_INPUT_DO_NOT_RETRY => Some(ServerHint::DoNotRetry),
            _ => return Err(sb_status::SB_ERR_TWO_HINTS),
        };
        let (code, ms) = match Answer::from_http(status, hint) {
            Answer::Accepted => (SB_ANSWER_ACCEPTED, 0),
            Answer::Throttled { hint_ms } => (SB_ANSWER_THROTTLED, hint_ms),
            Answer::NoAnswer => (SB_ANSWER_NO_ANSWER, 0),
        };
        // SAFETY: both checked non-NULL above; writable by this function's contract.
        unsafe { ptr::write(kind, code) }?;
        // SAFETY: as above.
        unsafe { ptr::write(out_hint_ms, ms) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Stores the allowed rate, in thousandths of a request per second (0 while off: no throttle
/// yet), in `*out`.
///
/// # Safety
/// `s` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_rate_milli(
    s: *const sb_send_rate,
    out: *mut u32,
) -> sb_status {
    require_feature!("send-rate");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let rate = unsafe { ptr::read(s) }?.to_core()?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(out, rate.rate_milli()) }?;
        Ok(sb_status::SB_OK)
    })())
}
