//! `sb_backoff`: one request's retry state in caller-owned memory, stepped by the core.

use seeded_backoff::bindings::RawBackoff;
use seeded_backoff::{Backoff, Policy, Step, StepInput};

use crate::policy::{compiled_in, sb_policy};
use crate::ptr;
use crate::status::sb_status;

/// One request's retry state: the core's 32-byte state as integers plus a copy of its policy, so
/// the step functions need no policy argument. Allocate it anywhere (stack, static, inside your own
/// struct), set it up with `sb_backoff_init` or `sb_backoff_restore`, and treat the fields as
/// private: every call validates them and returns `SB_ERR_BAD_STATE` if they were corrupted.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_backoff {
    /// Random generator state (xoshiro128++ words s0..s3).
    pub rng: [u32; 4],
    /// Retries issued since init or the last reset.
    pub retries: u32,
    /// The un-jittered base of the next retry (the previous delay for decorrelated jitter).
    pub level: u32,
    /// Milliseconds spent so far (issued delays, or the caller's clock plus the last delay).
    pub elapsed_ms: u32,
    /// 0 while retrying, else the give-up reason (1..=4, SPEC.md section 5).
    pub gave_up: u32,
    /// The policy this state follows, validated at init.
    pub policy: sb_policy,
}

// `sb_backoff` begins with the core's `RawBackoff`, field for field, so a step writes back the 32
// bytes of state and not the policy, which it never changes.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(sb_backoff, rng) == offset_of!(RawBackoff, rng));
    assert!(offset_of!(sb_backoff, retries) == offset_of!(RawBackoff, retries));
    assert!(offset_of!(sb_backoff, level) == offset_of!(RawBackoff, level));
    assert!(offset_of!(sb_backoff, elapsed_ms) == offset_of!(RawBackoff, elapsed_ms));
    assert!(offset_of!(sb_backoff, gave_up) == offset_of!(RawBackoff, gave_up));
    assert!(offset_of!(sb_backoff, policy) == size_of::<RawBackoff>());
};

impl sb_backoff {
    pub(crate) fn new(policy: sb_policy, state: &Backoff) -> sb_backoff {
        let raw = state.to_raw();
        sb_backoff {
            rng: raw.rng,
            retries: raw.retries,
            level: raw.level,
            elapsed_ms: raw.elapsed_ms,
            gave_up: raw.gave_up,
            policy,
        }
    }
}

/// The policy in `*b`, borrowed to be validated where it is rather than copied.
///
/// # Safety
/// `b` is NULL or valid for reads of an `sb_backoff` that nothing writes while the borrow lives.
#[inline(always)]
unsafe fn policy_of<'a>(b: *const sb_backoff) -> Result<&'a sb_policy, sb_status> {
    if b.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `b` is non-NULL and valid by this function's contract.
    unsafe { ptr::borrow(&raw const (*b).policy) }
}

/// The state in `*b` under its validated `policy` (`SB_ERR_BAD_STATE`).
///
/// # Safety
/// `b` is NULL or valid for reads of an `sb_backoff`.
#[inline(always)]
unsafe fn load_state(b: *const sb_backoff, policy: &Policy) -> Result<Backoff, sb_status> {
    // SAFETY: forwarded from this function's contract; `sb_backoff` begins with a `RawBackoff`
    // (checked at compile time above), plain integers.
    let raw: RawBackoff = unsafe { ptr::read_prefix(b) }?;
    Backoff::from_raw(policy, raw).map_err(|_| sb_status::SB_ERR_BAD_STATE)
}

/// The policy and the state in `*b`, both validated (`SB_ERR_BAD_STATE`), read field by field
/// rather than as one copy of the struct, so the step's frame holds each once. The policy is
/// validated first, so the state's words are read after that call instead of kept across it.
///
/// # Safety
/// `b` is NULL or valid for reads of an `sb_backoff`.
#[inline(always)]
pub(crate) unsafe fn load(b: *const sb_backoff) -> Result<(Policy, Backoff), sb_status> {
    // SAFETY: forwarded from this function's contract; the borrow ends with the validation.
    let policy = unsafe { policy_of(b) }?
        .to_core()
        .map_err(|_| sb_status::SB_ERR_BAD_STATE)?;
    // SAFETY: as above.
    let state = unsafe { load_state(b, &policy) }?;
    Ok((policy, state))
}

/// Loads `*b`, runs one core step on it (`run`), stores the new state and the delay. Nothing is
/// written unless both pointers are non-NULL and the state is valid.
///
/// # Safety
/// `b` and `delay_ms` are NULL or valid for reads and writes of their types.
#[inline(always)]
unsafe fn step_with(
    b: *mut sb_backoff,
    delay_ms: *mut u32,
    run: impl FnOnce(&mut Backoff, &Policy) -> Step,
) -> sb_status {
    if delay_ms.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract; the borrow ends with the validation,
        // before the state is written.
        let loaded = unsafe { policy_of(b) }?.to_core();
        // Any policy (`runtime-policy`): the step reads it where `to_core` wrote it instead of
        // moving it into a second copy (32 B less stack on thumbv7m, 40 B on thumbv6m). A preset build moves it, so
        // that the preset's constants fold into the step.
        let moved;
        let policy = if cfg!(feature = "runtime-policy") {
            match &loaded {
                Ok(policy) => policy,
                Err(_) => return Err(sb_status::SB_ERR_BAD_STATE),
            }
        } else {
            moved = loaded.map_err(|_| sb_status::SB_ERR_BAD_STATE)?;
            &moved
        };
        // SAFETY: as above.
        let mut state = unsafe { load_state(b, policy) }?;
        // `to_core` already refused what this build leaves out; checked again here, next to the
        // step, so the optimiser sees it and drops the strategies and the time-budget step that
        // this build cannot reach.
        if !compiled_in(policy) {
            return Err(sb_status::SB_ERR_BAD_STATE);
        }
        let step = run(&mut state, policy);
        // SAFETY: as above; `b` was just read, so it is non-NULL; `sb_backoff` begins with a
        // `RawBackoff` (checked at compile time above).
        unsafe { ptr::write_prefix(b, state.to_raw()) }?;
        Ok(match step {
            Step::Retry { delay_ms: d, .. } => {
                // SAFETY: checked non-NULL above; valid by this function's contract.
                unsafe { ptr::write(delay_ms, d) }?;
                sb_status::SB_RETRY
            }
            Step::GiveUp(reason) => reason.into(),
        })
    })())
}

/// [`step_with`] running the core's general step (SPEC.md section 5): `sb_backoff_next_with`, and
/// `sb_backoff_next` in a build that links it anyway, are this one non-generic call, so a
/// firmware that uses both links the step once. The input comes by reference, so
/// `sb_backoff_next` passes a constant one ([`NO_INPUT`]) and tail-calls this with no frame of
/// its own.
///
/// # Safety
/// As [`step_with`].
#[inline(never)]
pub(crate) unsafe fn step(
    b: *mut sb_backoff,
    delay_ms: *mut u32,
    input: &StepInput<'_>,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        step_with(b, delay_ms, |state, policy| {
            state.next_delay_with(policy, *input)
        })
    }
}

/// The bare step's input: no hint, no clock, no budget. A constant, so a reference to it points
/// into read-only data and `sb_backoff_next` builds nothing on its stack.
const NO_INPUT: StepInput<'static> = StepInput {
    hint: None,
    elapsed_ms: None,
    budget: None,
};

/// Starts a request's retry state under `policy`, its jitter seeded from `seed` (use a different
/// seed per client, e.g. a device id mixed with a counter). Returns `SB_OK`, `SB_ERR_NULL` or the
/// policy's `SB_ERR_POLICY_*` code; `*b` is written only on `SB_OK`.
///
/// ```c
/// sb_policy policy = sb_policy_google();
/// sb_backoff b;
/// if (sb_backoff_init(&b, &policy, 42) != SB_OK)
///     return; // invalid policy
/// ```
///
/// # Safety
/// `b` is NULL or valid for writes of an `sb_backoff`; `policy` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_init(
    b: *mut sb_backoff,
    policy: *const sb_policy,
    seed: u64,
) -> sb_status {
    ptr::status((|| {
        if b.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let c_policy = unsafe { ptr::read(policy) }?;
        let core_policy = c_policy.to_core()?;
        let state = Backoff::new(&core_policy, seed);
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(b, sb_backoff::new(c_policy, &state)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// The bare step: the delay before the next retry, `SB_RETRY` with `*delay_ms` set, or an
/// `SB_GIVE_UP_*` reason (then `*delay_ms` is not written, and the state answers the same reason
/// until reset). Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, with `*b` unchanged. A step with a
/// server hint, the caller's clock or a budget is `sb_backoff_next_with`; a whole retry loop,
/// attempts and all, is `sb_run_*`.
///
/// ```c
/// uint32_t delay_ms;
/// while (send_request() >= 500) {
///     if (sb_backoff_next(&b, &delay_ms) != SB_RETRY) break; // give up
///     sleep_ms(delay_ms);
/// }
/// ```
///
/// # Safety
/// `b` and `delay_ms` are NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_next(b: *mut sb_backoff, delay_ms: *mut u32) -> sb_status {
    if cfg!(any(
        feature = "time-budget",
        feature = "hints",
        feature = "budget"
    )) {
        // A policy may have a time budget, which needs the general step, or the build's
        // `sb_backoff_next_with` takes hints or budgets, which link it anyway: share it.
        // SAFETY: forwarded from this function's contract.
        unsafe { step(b, delay_ms, &NO_INPUT) }
    } else {
        // The core's plain step, which equals the general step without hint, clock or budget, and
        // without a time budget links none of it.
        // SAFETY: forwarded from this function's contract.
        unsafe { step_with(b, delay_ms, |state, policy| state.next_delay(policy)) }
    }
}

/// Starts over after a success: retries, level and elapsed time return to their initial values
/// and a give-up is cleared. The random stream continues (no replay of the last jitter).
///
/// # Safety
/// `b` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_reset(b: *mut sb_backoff) -> sb_status {
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let (policy, mut state) = unsafe { load(b) }?;
        state.reset(&policy);
        // SAFETY: as above; `sb_backoff` begins with a `RawBackoff` (checked above).
        unsafe { ptr::write_prefix(b, state.to_raw()) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Stores the number of retries issued since init or the last reset in `*out`.
///
/// # Safety
/// `b` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_retries(b: *const sb_backoff, out: *mut u32) -> sb_status {
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let (_, state) = unsafe { load(b) }?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(out, state.retries()) }?;
        Ok(sb_status::SB_OK)
    })())
}
