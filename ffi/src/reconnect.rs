//! `sb_reconnect`: a device's reconnect loop, in the style of FreeRTOS backoffAlgorithm (a
//! caller-owned context, an init and a step). The policy stays where the caller keeps it (a
//! `static const` in flash) and is read at every step, so the state is 28 bytes on a 32-bit core.
//! The step is SPEC.md section 12.3's, the core's `Reconnect`: this file only translates.

use seeded_backoff::bindings::RawReconnect;
use seeded_backoff::reconnect::Reconnect;
use seeded_backoff::{Jitter, Policy, Step};

use crate::policy::{jitter_compiled_in, sb_policy, SB_JITTER_GOOGLE, SB_JITTER_PROPORTIONAL};
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// A reconnect loop's state: the generator, the retry count and the level, plus a pointer to the
/// policy it follows, which must stay valid and unchanged as long as the state is used (make it
/// `static const`). Set it up with `sb_reconnect_init` and treat the fields as private: every
/// call validates them and the policy's fields it reads, and returns `SB_ERR_BAD_STATE` if either
/// was corrupted.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_reconnect {
    /// Random generator state (xoshiro128++ words s0..s3).
    pub rng: [u32; 4],
    /// Retries issued since init or the last reset; under `SB_RETRY_FOREVER` it stops at
    /// 4294967295 and the retries go on.
    pub retries: u32,
    /// The un-jittered base of the next retry (the previous delay for decorrelated jitter).
    pub level: u32,
    /// The policy, read where it lies at every step rather than copied.
    pub policy: *const sb_policy,
}

/// The core policy of what a step reads from `*policy`: the growth, the cap, the count, the
/// strategy and the time budget, checked by the core's rules and within this build; `None` for
/// anything else. The fields a step never reads (`max_hint_ms`, `deadline`, `paced`) were
/// checked by `sb_reconnect_init` and are not read again, so the step validates less than init
/// does and its checks fold into one `SB_ERR_BAD_STATE`.
#[inline(always)]
fn step_policy(policy: &sb_policy) -> Option<Policy> {
    if !jitter_compiled_in(policy.jitter) {
        return None;
    }
    let param = match policy.jitter {
        SB_JITTER_GOOGLE => policy.jitter_ms,
        SB_JITTER_PROPORTIONAL => policy.spread_per_mille,
        _ => 0,
    };
    // `jitter_compiled_in` admits only the codes 0..=5, so the cast keeps the code as it is.
    let jitter = Jitter::from_code(policy.jitter as u8, param)?;
    Policy::builder()
        .initial_ms(policy.initial_ms)
        .multiplier(policy.multiplier_num, policy.multiplier_den)
        .max_backoff_ms(policy.max_backoff_ms)
        .max_retries(policy.max_retries)
        .jitter(jitter)
        .max_elapsed_ms(policy.max_elapsed_ms)
        .build()
        .ok()
}

/// The state in `*r` and what the step reads of its policy, both validated by the core
/// (`SB_ERR_NULL`, `SB_ERR_BAD_STATE`).
///
/// # Safety
/// `r` is NULL or readable; its policy is as `sb_reconnect_init` requires.
#[inline(always)]
unsafe fn load(r: *const sb_reconnect) -> Result<(sb_reconnect, Policy, Reconnect), sb_status> {
    // SAFETY: forwarded from this function's contract.
    let state = unsafe { ptr::read(r) }?;
    // SAFETY: as above.
    let policy = match unsafe { ptr::borrow(state.policy) }.map(step_policy) {
        Ok(Some(policy)) => policy,
        _ => return Err(sb_status::SB_ERR_BAD_STATE),
    };
    let raw = RawReconnect {
        rng: state.rng,
        retries: state.retries,
        level: state.level,
    };
    let reconnect = Reconnect::from_raw(&policy, raw).map_err(|_| sb_status::SB_ERR_BAD_STATE)?;
    Ok((state, policy, reconnect))
}

/// Starts a reconnect loop under `*policy`, its jitter seeded from `seed` (from
/// `sb_seed_from_device`, so that each device of a fleet draws its own delays). `*r` keeps
/// `policy`, which must outlive it. Returns `SB_OK`, `SB_ERR_NULL`, the policy's
/// `SB_ERR_POLICY_*` code, or `SB_ERR_UNSUPPORTED` for a valid policy this build cannot run (a
/// time budget, a strategy left out); `*r` is written only on `SB_OK`.
///
/// ```c
/// static const sb_policy RECONNECT = {.initial_ms = 1000, .multiplier_num = 2,
///     .multiplier_den = 1, .max_backoff_ms = 64000, .max_retries = SB_RETRY_FOREVER,
///     .jitter = SB_JITTER_FULL, .max_hint_ms = SB_DEFAULT_MAX_HINT_MS};
/// sb_reconnect r;
/// if (sb_reconnect_init(&r, &RECONNECT, seed) != SB_OK)
///     return; // invalid policy
/// ```
///
/// # Safety
/// `r` is NULL or writable; `policy` is NULL or readable, and stays so, unchanged, while `*r` is
/// used.
#[no_mangle]
pub unsafe extern "C" fn sb_reconnect_init(
    r: *mut sb_reconnect,
    policy: *const sb_policy,
    seed: u64,
) -> sb_status {
    require_feature!("reconnect");
    ptr::status((|| {
        if r.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract; the borrow ends here.
        let c_policy = unsafe { ptr::borrow(policy) }?;
        // Without `runtime-policy` an invalid policy is still named by its field.
        let core = match c_policy.to_core_inline() {
            Ok(core) => core,
            Err(sb_status::SB_ERR_UNSUPPORTED) if !cfg!(feature = "runtime-policy") => {
                return Err(c_policy.refusal())
            }
            Err(e) => return Err(e),
        };
        // A time budget: SPEC.md section 12.3 refuses it (`ReconnectError::TimeBudget`).
        let raw = Reconnect::new(&core, seed)
            .map_err(|_| sb_status::SB_ERR_UNSUPPORTED)?
            .to_raw();
        let state = sb_reconnect {
            rng: raw.rng,
            retries: raw.retries,
            level: raw.level,
            policy,
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(r, state) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// The step: `SB_RETRY` with the delay before the next connection attempt in `*delay_ms`. Under
/// `max_retries = SB_RETRY_FOREVER` it never gives up; under a finite count it answers
/// `SB_GIVE_UP_MAX_RETRIES` once that many retries were issued (then `*delay_ms` is not written).
/// Errors: `SB_ERR_NULL`, `SB_ERR_BAD_STATE` (`*r` or its policy corrupted), with `*r` unchanged.
///
/// ```c
/// uint32_t delay_ms;
/// while (mqtt_connect() != 0) {
///     sb_reconnect_next(&r, &delay_ms);
///     sleep_ms(delay_ms);
/// }
/// sb_reconnect_reset(&r); // connected: the next outage starts from initial_ms
/// ```
///
/// # Safety
/// `r` and `delay_ms` are NULL or valid for reads and writes; `r`'s policy is as
/// `sb_reconnect_init` requires.
#[no_mangle]
pub unsafe extern "C" fn sb_reconnect_next(r: *mut sb_reconnect, delay_ms: *mut u32) -> sb_status {
    require_feature!("reconnect");
    if r.is_null() || delay_ms.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    ptr::status((|| {
        // SAFETY: `r` is non-NULL and valid by this function's contract.
        let (_, policy, mut reconnect) = unsafe { load(r) }?;
        match reconnect.next_delay(&policy) {
            Step::Retry { delay_ms: d, .. } => {
                // The policy pointer is left as it is, so the step keeps no copy.
                let raw = reconnect.to_raw();
                // SAFETY: `r` and `delay_ms` are non-NULL and valid by this function's contract;
                // the field pointers are within `*r`.
                unsafe {
                    ptr::write(&raw mut (*r).rng, raw.rng)?;
                    ptr::write(&raw mut (*r).retries, raw.retries)?;
                    ptr::write(&raw mut (*r).level, raw.level)?;
                    ptr::write(delay_ms, d)?;
                }
                Ok(sb_status::SB_RETRY)
            }
            Step::GiveUp(reason) => Ok(reason.into()),
        }
    })())
}

/// Starts over after a successful connection: the retry count and level return to their initial
/// values; the random stream continues, so the next outage draws new delays. Returns `SB_OK`,
/// `SB_ERR_NULL` or `SB_ERR_BAD_STATE` (`*r` unchanged).
///
/// # Safety
/// As `sb_reconnect_next`.
#[no_mangle]
pub unsafe extern "C" fn sb_reconnect_reset(r: *mut sb_reconnect) -> sb_status {
    require_feature!("reconnect");
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let (mut state, policy, mut reconnect) = unsafe { load(r) }?;
        reconnect.reset(&policy);
        let raw = reconnect.to_raw();
        state.retries = raw.retries;
        state.level = raw.level;
        // SAFETY: as above.
        unsafe { ptr::write(r, state) }?;
        Ok(sb_status::SB_OK)
    })())
}

#[cfg(test)]
mod tests;
