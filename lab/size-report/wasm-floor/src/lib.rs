//! The run alone: start, an outcome (success, or retryable with a `Retry-After` in ms) and a wake,
//! each answered with one number. No state crossing the boundary, no marshalling: what a binding
//! could not do with less. Two floors: Google's preset as a constant (the default), and with the
//! feature `options`, any policy from the core's options (every strategy and the core's checks),
//! as `retry()` needs.
#![no_std]

use seeded_backoff::{Action, FailureKind, Outcome, Policy, Run, ServerHint};

static mut RUN: Option<Run> = None;
#[cfg(feature = "options")]
static mut POLICY: Policy = Policy::google();

fn run() -> &'static mut Option<Run> {
    // SAFETY: single-threaded wasm, and no export re-enters: the only reference while it lives.
    unsafe { &mut *(&raw mut RUN) }
}

#[cfg(not(feature = "options"))]
fn policy() -> Policy {
    Policy::google()
}

#[cfg(feature = "options")]
fn policy() -> Policy {
    // SAFETY: as for `run`.
    unsafe { *(&raw const POLICY) }
}

/// The policy of Google's preset with `initial_ms`, the multiplier in thousandths, the cap, the
/// retries and the jitter (code and parameter): 0, or 1 when the core refuses them.
#[cfg(feature = "options")]
#[no_mangle]
pub extern "C" fn options(initial_ms: u32, milli: u32, cap: u32, retries: u32, jitter: u32, param: u32) -> u32 {
    use seeded_backoff::bindings::PolicyOptions;
    let jitter = u8::try_from(jitter).unwrap_or(u8::MAX);
    let built = PolicyOptions {
        preset: Some(seeded_backoff::policy::Preset::Google),
        initial_ms: Some(initial_ms),
        multiplier: Some((milli, 1000)),
        max_backoff_ms: Some(cap),
        max_retries: Some(retries),
        jitter: Some(jitter),
        jitter_ms: (jitter == 0).then_some(param),
        ..PolicyOptions::default()
    }
    .build();
    match built {
        // SAFETY: as for `run`.
        Ok(p) => unsafe {
            *(&raw mut POLICY) = p;
            0
        },
        Err(_) => 1,
    }
}

fn code(a: Result<Action, seeded_backoff::run::RunError>) -> u32 {
    match a {
        Ok(Action::Attempt { attempt }) => attempt,
        Ok(Action::Retry { delay_ms, .. }) => delay_ms,
        _ => u32::MAX,
    }
}

/// A new run seeded with `hi:lo`, started at `now`: its first attempt's number.
#[no_mangle]
pub extern "C" fn start(lo: u32, hi: u32, now: u32) -> u32 {
    let r = run().insert(Run::new(&policy(), u64::from(hi) << 32 | u64::from(lo)));
    code(r.start(Some(u64::from(now))))
}

/// The attempt's outcome at `now`: success (`failed` 0), or a failure with `retry_after_ms`
/// (`u32::MAX` for none). The delay of the retry, or `u32::MAX` when the run ends.
#[no_mangle]
pub extern "C" fn outcome(failed: u32, retry_after_ms: u32, now: u32) -> u32 {
    let Some(r) = run() else { return u32::MAX };
    let o = if failed == 0 {
        Outcome::Success
    } else {
        Outcome::Retryable {
            hint: (retry_after_ms != u32::MAX).then_some(ServerHint::RetryAfterMs(retry_after_ms)),
            failure_kind: FailureKind::Error,
        }
    };
    code(r.outcome(&policy(), o, Some(u64::from(now)), None))
}

/// The sleep ended at `now`: the next attempt's number.
#[no_mangle]
pub extern "C" fn wake(now: u32) -> u32 {
    let Some(r) = run() else { return u32::MAX };
    code(r.wake(Some(u64::from(now))))
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
