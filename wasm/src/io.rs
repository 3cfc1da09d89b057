//! The numbers of [`Io`](crate::rt::Io) and the conversions between them and the core's types.
//!
//! A JS `Policy` keeps the options it was made from (validated once, by the core); a part that
//! needs the policy resolves those words again, so there is one conversion, not a second encoding
//! of resolved policies.

use seeded_backoff::bindings::{PolicyOption, PolicyOptions};
use seeded_backoff::{
    http::ParseError,
    policy::{DeadlineMode, PolicyError, Preset},
    snapshot::SnapshotError,
    Backoff, Policy, Step,
};

/// Where the option words are: `options[PRESENT]` has bit `i` set when the option whose core
/// [`PolicyOption`] code is `i` was given, its value at `options[FIRST + i]`.
pub mod option {
    /// The word of presence bits.
    pub const PRESENT: usize = 0;
    /// The word of option 0.
    pub const FIRST: usize = 1;
}

/// The policy of the option words (the core's preset + overrides + rules).
///
/// Unknown preset, jitter or deadline codes read as absent or refused: JS only writes codes from
/// the generated name tables.
///
/// The last words resolved and their answer are remembered ([`crate::rt::memo`]): a loop that
/// steps one policy resolves it once, not at every step.
pub fn policy(words: &[u32; crate::rt::OPTION_WORDS]) -> Result<Policy, PolicyError> {
    crate::rt::memo(words, resolve)
}

fn resolve(words: &[u32; crate::rt::OPTION_WORDS]) -> Result<Policy, PolicyError> {
    use PolicyOption as O;
    let [present, w @ ..] = *words;
    let given = |o: O| {
        let i = o.code() as usize;
        (present >> i & 1 == 1).then(|| w.get(i).copied().unwrap_or(0))
    };
    let code = |o: O| given(o).map(|v| u8::try_from(v).unwrap_or(u8::MAX));
    PolicyOptions {
        preset: code(O::Preset).and_then(Preset::from_code),
        initial_ms: given(O::InitialMs),
        // In thousandths: JS passes a decimal with at most three places.
        multiplier: given(O::Multiplier).map(|milli| (milli, 1000)),
        max_backoff_ms: given(O::MaxBackoffMs),
        max_retries: given(O::MaxRetries),
        jitter: code(O::Jitter),
        jitter_ms: given(O::JitterMs),
        spread_per_mille: given(O::SpreadPerMille),
        max_hint_ms: given(O::MaxHintMs),
        max_elapsed_ms: given(O::MaxElapsedMs),
        deadline: code(O::Deadline).and_then(DeadlineMode::from_code),
        paced: given(O::Paced).map(|v| v != 0),
    }
    .build()
}

/// The state JS passed, checked against `policy` as the core checks any raw state.
pub fn state(io: &crate::rt::Io, policy: &Policy) -> Result<Backoff, SnapshotError> {
    Backoff::from_raw(policy, io.state)
}

/// 0 for success, else 1 + the error's index in [`crate::errors::POLICY`].
pub fn policy_status<T>(r: Result<T, PolicyError>) -> u32 {
    r.map_or_else(
        |e| 1 + crate::errors::index(&crate::errors::POLICY, &e),
        |_| 0,
    )
}

/// 0 for success, else 1 + the error's index in [`crate::errors::SNAPSHOT`].
pub fn snapshot_status(r: Result<(), SnapshotError>) -> u32 {
    r.map_or_else(
        |e| 1 + crate::errors::index(&crate::errors::SNAPSHOT, &e),
        |()| 0,
    )
}

/// A step as one number: the delay (≤ 2^31 − 1, so it fits) or minus the give-up code (−1…−4).
pub fn encode(step: Step) -> i32 {
    match step {
        Step::Retry { delay_ms, .. } => i32::try_from(delay_ms).unwrap_or(i32::MAX),
        Step::GiveUp(reason) => -i32::from(reason.code()),
    }
}

/// A parse result as one number: milliseconds (up to 2^32 − 1, exact in an f64) or
/// −(1 + the error's index in [`crate::errors::PARSE`]).
pub fn encode_parse(r: Result<u32, ParseError>) -> f64 {
    match r {
        Ok(ms) => f64::from(ms),
        Err(e) => -1.0 - f64::from(crate::errors::index(&crate::errors::PARSE, &e)),
    }
}

/// The header values JS wrote (`Retry-After`, then the rate-limit headers in the core's order),
/// each `None` where the response lacks it: `lens` gives their lengths, one after another in
/// `bytes`. A value longer than the core's bound takes no room: its length is written as the bound
/// plus one, and it reads as the whole area, which the core refuses as too long unread.
pub fn header_values(io: &crate::rt::Io) -> [Option<&[u8]>; crate::rt::HEADER_VALUES] {
    let mut at = 0usize;
    io.lens.map(|len| {
        (len != u32::MAX).then(|| {
            let len = len as usize;
            match io.bytes.get(at..at.saturating_add(len)) {
                Some(value) if len <= crate::rt::MAX_HEADER_VALUE => {
                    at += len;
                    value
                }
                _ => &io.bytes[..],
            }
        })
    })
}

/// A hint as one number: `kind * 2^32 + ms` ([`hint`] kinds; exact in an f64).
pub fn encode_hint(h: Option<seeded_backoff::ServerHint>) -> f64 {
    use seeded_backoff::ServerHint;
    let (kind, ms) = match h {
        None => (hint::NONE, 0),
        Some(ServerHint::RetryAfterMs(ms)) => (hint::RETRY_AFTER, ms),
        Some(ServerHint::DoNotRetry) => (hint::DO_NOT_RETRY, 0),
        Some(ServerHint::RateLimitResetMs(ms)) => (hint::RATE_LIMIT, ms),
    };
    f64::from(kind) * 4_294_967_296.0 + f64::from(ms)
}

/// The `hint_kind` of a step.
pub mod hint {
    /// No hint.
    pub const NONE: u32 = 0;
    /// `Retry-After`: `hint_ms` milliseconds.
    pub const RETRY_AFTER: u32 = 1;
    /// The server said not to retry.
    pub const DO_NOT_RETRY: u32 = 2;
    /// A rate-limit quota resets in `hint_ms` milliseconds (SPEC.md §8.3).
    pub const RATE_LIMIT: u32 = 3;
    /// Not a step's kind: the main part's answer when only the date part can tell the hint.
    pub const ASK_DATE_PART: u32 = 4;
}

/// The step input of the general step: a hint (a [`hint`] kind, with `hint_ms`) and the caller's
/// elapsed ms, if `has_elapsed`, as u64 halves.
pub fn step_input(
    hint_kind: u32,
    hint_ms: u32,
    has_elapsed: bool,
    elapsed_lo: u32,
    elapsed_hi: u32,
) -> seeded_backoff::StepInput<'static> {
    use seeded_backoff::ServerHint;
    seeded_backoff::StepInput {
        hint: match hint_kind {
            hint::RETRY_AFTER => Some(ServerHint::RetryAfterMs(hint_ms)),
            hint::DO_NOT_RETRY => Some(ServerHint::DoNotRetry),
            hint::RATE_LIMIT => Some(ServerHint::RateLimitResetMs(hint_ms)),
            _ => None,
        },
        elapsed_ms: has_elapsed.then(|| u64::from(elapsed_hi) << 32 | u64::from(elapsed_lo)),
        budget: None,
    }
}
