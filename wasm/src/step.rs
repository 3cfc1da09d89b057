//! The main part: what `Policy`, `Backoff`, `retry()` and `fetchWithBackoff()` need.
//!
//! One policy and one state are active at a time ([`crate::rt::Slot`]); JS loads another only
//! when it steps another, so the common case (one `Backoff` stepped until it succeeds or gives up)
//! is one call per delay with nothing copied.

use seeded_backoff::{Backoff, Classification};

use crate::io::{self, encode, step_input};
use crate::rt::{io as shared, slot};

/// Resolves the options in the shared words (the core's preset + overrides + rules) and makes the
/// policy active. Returns 0, or 1 + the index of the core's `PolicyError`.
#[export_name = "policyResolve"]
pub extern "C" fn policy_resolve() -> u32 {
    let policy = shared(|io| io::policy(&io.options));
    io::policy_status(policy.map(|p| slot(|s| s.policy = p)))
}

/// The active policy's `max_backoff_ms`: how long `retry()` waits, at most, for an `online` event
/// before trying anyway (SPEC.md §13).
#[export_name = "policyCapMs"]
pub extern "C" fn policy_cap_ms() -> u32 {
    slot(|s| s.policy.max_backoff_ms())
}

/// A fresh state under the active policy, seeded from the u64 `hi:lo`.
#[export_name = "backoffInit"]
pub extern "C" fn backoff_init(lo: u32, hi: u32) {
    slot(|s| s.state = Some(Backoff::new(&s.policy, u64::from(hi) << 32 | u64::from(lo))));
}

/// Writes the active state to the shared words.
#[export_name = "backoffSave"]
pub extern "C" fn backoff_save() {
    slot(|s| {
        if let Some(state) = &s.state {
            shared(|io| io.state = state.to_raw());
        }
    });
}

/// Makes the shared state active, checked against the active policy. Returns 0, or 1 + the
/// index of the core's `SnapshotError` (`InvalidState` for a state the policy cannot reach).
#[export_name = "backoffLoad"]
pub extern "C" fn backoff_load() -> u32 {
    slot(|s| {
        let state = shared(|io| io::state(io, &s.policy));
        io::snapshot_status(state.map(|b| s.state = Some(b)))
    })
}

/// A step of the active state (SPEC.md §5) without a budget; see [`io::step_input`]. Answers a
/// delay, or minus the give-up code.
#[export_name = "backoffStep"]
pub extern "C" fn backoff_step(
    hint_kind: u32,
    hint_ms: u32,
    has_elapsed: bool,
    lo: u32,
    hi: u32,
) -> i32 {
    let input = step_input(hint_kind, hint_ms, has_elapsed, lo, hi);
    slot(|s| match &mut s.state {
        Some(state) => encode(state.next_delay_with(&s.policy, input)),
        None => i32::MIN,
    })
}

/// Starts the active state over after a success (the random stream continues).
#[export_name = "backoffReset"]
pub extern "C" fn backoff_reset() {
    slot(|s| {
        if let Some(state) = &mut s.state {
            state.reset(&s.policy);
        }
    });
}

/// The core's code of a class (SPEC.md §7), the index in the generated `CLASSES`.
fn class(c: Classification) -> u32 {
    u32::from(c.code())
}

/// The class of an HTTP status (SPEC.md §7): 0 success, 1 retry, 2 do not retry, 3 invalid (the
/// order of the generated `CLASSES`).
#[export_name = "classifyHttp"]
pub extern "C" fn classify_http(status: u32) -> u32 {
    // The core takes HTTP's u16; a wider value is no status at all.
    class(u16::try_from(status).map_or(Classification::Invalid, seeded_backoff::classify_http))
}

/// The class of a gRPC status code, coded as for [`classify_http`].
#[export_name = "classifyGrpc"]
pub extern "C" fn classify_grpc(code: u32) -> u32 {
    class(seeded_backoff::classify_grpc(code))
}

/// Whether a response with this HTTP status is read for rate-limit headers (SPEC.md §8.3: a 429);
/// the date part parses them.
#[export_name = "rateLimitApplies"]
pub extern "C" fn rate_limit_applies(status: u32) -> bool {
    u16::try_from(status).is_ok_and(seeded_backoff::rate_limit_applies)
}

/// The hint a response with HTTP status `status` gives, by the core's rule
/// (`ServerHint::from_http_headers`), from the header values at `lens`/`bytes`, where that rule
/// needs no HTTP-date or rate-limit parser; else [`io::hint::ASK_DATE_PART`], and the date part
/// answers. See [`io::encode_hint`].
#[export_name = "hint"]
pub extern "C" fn hint(status: u32) -> f64 {
    shared(|io| {
        let [retry_after, rate_limits @ ..] = io::header_values(io);
        match hint_without_dates(status, retry_after, rate_limits.iter().any(Option::is_some)) {
            Some(h) => io::encode_hint(h),
            None => f64::from(io::hint::ASK_DATE_PART) * 4_294_967_296.0,
        }
    })
}

/// `ServerHint::from_http_headers` where it needs neither the HTTP-date nor the rate-limit parser
/// (`None` where it does): a delta-seconds `Retry-After` gives its hint; a response with no
/// `Retry-After`, or one that is refused for a reason other than its format, gives none unless the
/// rate-limit headers apply and one is present. A test checks it against the core's function.
pub fn hint_without_dates(
    status: u32,
    retry_after: Option<&[u8]>,
    any_rate_limit_header: bool,
) -> Option<Option<seeded_backoff::ServerHint>> {
    use seeded_backoff::{ParseError, ServerHint};
    match retry_after.map(seeded_backoff::bindings::parse_retry_after_seconds) {
        Some(Ok(ms)) => return Some(Some(ServerHint::RetryAfterMs(ms))),
        Some(Err(ParseError::InvalidFormat)) => return None,
        _ => {}
    }
    let applies = u16::try_from(status).is_ok_and(seeded_backoff::rate_limit_applies);
    (!applies || !any_rate_limit_header).then_some(None)
}

/// `Retry-After` in delta-seconds from the first `len` shared bytes; an HTTP-date answers
/// `InvalidFormat` (the date part parses it). See [`io::encode_parse`].
#[export_name = "retryAfterSeconds"]
pub extern "C" fn retry_after_seconds(len: u32) -> f64 {
    shared(|io| {
        let bytes = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        io::encode_parse(seeded_backoff::bindings::parse_retry_after_seconds(bytes))
    })
}
