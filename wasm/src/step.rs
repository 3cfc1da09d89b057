//! The main part: what `Policy`, `Backoff`, `retry()` and `fetchWithBackoff()` need.
//!
//! Each call reads the policy's option words and the state from the shared area and writes the
//! state back: a JS `Backoff` owns its 8 words, and nothing is kept here between calls.

use seeded_backoff::{
    budget::RetryGate, policy::PolicyError, Backoff, Classification, FailureKind, Policy, StepInput,
};

use crate::gate::JsGate;

use crate::io::{self, encode, step_input};
use crate::rt::{io as shared, Io};

fn policy(io: &Io) -> Result<Policy, PolicyError> {
    io::policy(&io.options)
}

/// Checks the options in the shared words (the core's preset + overrides + rules). Returns 0, or
/// 1 + the index of the core's `PolicyError`.
#[export_name = "policyResolve"]
pub extern "C" fn policy_resolve() -> u32 {
    io::policy_status(shared(|io| policy(io)))
}

/// The shared policy's `max_backoff_ms` (0 for options that do not check).
#[export_name = "policyCapMs"]
pub extern "C" fn policy_cap_ms() -> u32 {
    shared(|io| policy(io).map_or(0, |p| p.max_backoff_ms()))
}

/// A fresh state under the shared policy, seeded from the u64 `hi:lo`, written to the shared
/// state. Returns a status as [`policy_resolve`] does.
#[export_name = "backoffInit"]
pub extern "C" fn backoff_init(lo: u32, hi: u32) -> u32 {
    io::policy_status(shared(|io| {
        let p = policy(io)?;
        io.state = Backoff::new(&p, u64::from(hi) << 32 | u64::from(lo)).to_raw();
        Ok(())
    }))
}

/// A step of the shared state (SPEC.md §5) under the shared policy; see [`io::step_input`]. With
/// `with_budget`, the JS budget of [`crate::gate`] is consulted for a failure of kind `timeout`
/// (1: a timeout, else an error). Answers a delay, or minus the give-up code; `i32::MIN` for a
/// policy or state that does not check (the state is then unchanged).
#[export_name = "backoffStep"]
pub extern "C" fn backoff_step(
    hint_kind: u32,
    hint_ms: u32,
    has_elapsed: bool,
    lo: u32,
    hi: u32,
    timeout: u32,
    with_budget: bool,
) -> i32 {
    let kind = if timeout == 1 {
        FailureKind::Timeout
    } else {
        FailureKind::Error
    };
    let input = StepInput {
        budget: with_budget.then_some((&JsGate as &dyn RetryGate, kind)),
        ..step_input(hint_kind, hint_ms, has_elapsed, lo, hi)
    };
    shared(|io| {
        let Ok(p) = policy(io) else { return i32::MIN };
        let Ok(mut state) = io::state(io, &p) else {
            return i32::MIN;
        };
        let step = encode(state.next_delay_with(&p, input));
        io.state = state.to_raw();
        step
    })
}

/// Starts the shared state over after a success (the random stream continues). Returns 0, or 1
/// for a policy or state that does not check (the state is then unchanged).
#[export_name = "backoffReset"]
pub extern "C" fn backoff_reset() -> u32 {
    shared(|io| {
        let Ok(p) = policy(io) else { return 1 };
        let Ok(mut state) = io::state(io, &p) else {
            return 1;
        };
        state.reset(&p);
        io.state = state.to_raw();
        0
    })
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
    class(seeded_backoff::http::classify_grpc(code))
}

/// Whether a response with this HTTP status is read for rate-limit headers (SPEC.md §8.3: a 429);
/// the date part parses them.
#[export_name = "rateLimitApplies"]
pub extern "C" fn rate_limit_applies(status: u32) -> bool {
    u16::try_from(status).is_ok_and(seeded_backoff::http::rate_limit_applies)
}

/// The hint a response with HTTP status `status` gives, by the core's rule
/// (`ServerHint::from_http_headers`), from the header values at `lens`/`bytes`, where that rule
/// needs no HTTP-date or rate-limit parser (`ServerHint::without_dates`); else [`io::hint::ASK_DATE_PART`], and the date part
/// answers. See [`io::encode_hint`].
#[export_name = "hint"]
pub extern "C" fn hint(status: u32) -> f64 {
    shared(|io| {
        let [retry_after, rate_limits @ ..] = io::header_values(io);
        let any_rate_limit = rate_limits.iter().any(Option::is_some);
        match seeded_backoff::ServerHint::without_dates(status, retry_after, any_rate_limit) {
            Some(h) => io::encode_hint(h),
            None => f64::from(io::hint::ASK_DATE_PART) * 4_294_967_296.0,
        }
    })
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

/// The seed of call `index` of a loop seeded `seed` (SPEC.md §14's `call_seed`), both u64 halves,
/// written as halves (low, high) to the first two option words.
#[export_name = "callSeed"]
pub extern "C" fn call_seed(lo: u32, hi: u32, index_lo: u32, index_hi: u32) {
    let seed = u64::from(hi) << 32 | u64::from(lo);
    let index = u64::from(index_hi) << 32 | u64::from(index_lo);
    let out = seeded_backoff::call_seed(seed, index);
    shared(|io| {
        io.options[0] = out as u32;
        io.options[1] = (out >> 32) as u32;
    });
}
