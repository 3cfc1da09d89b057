//! `sb_policy`: the policy as a C struct of plain integers, converted to the core's validated
//! `Policy` through its builder on every use.

use seeded_backoff::{
    policy::{DeadlineMode, MAX_DELAY_MS},
    Jitter, Policy,
};

use crate::ptr;
use crate::status::sb_status;

/// No jitter: the un-jittered exponential base.
pub const SB_JITTER_NONE: u32 = 0;
/// Google Cloud's additive jitter: `min(base + U[0, jitter_ms], cap)`.
pub const SB_JITTER_GOOGLE: u32 = 1;
/// AWS "full jitter": `U[0, base]`.
pub const SB_JITTER_FULL: u32 = 2;
/// "Equal jitter": `base/2 + U[0, base - base/2]`.
pub const SB_JITTER_EQUAL: u32 = 3;
/// "Decorrelated jitter": `min(cap, U[initial, 3 * previous])`.
pub const SB_JITTER_DECORRELATED: u32 = 4;
/// gRPC proportional jitter: `min(cap, base +- base * spread_per_mille / 1000)`.
pub const SB_JITTER_PROPORTIONAL: u32 = 5;

/// A delay that would cross the time budget gives up (`SB_GIVE_UP_DEADLINE`).
pub const SB_DEADLINE_GIVE_UP: u32 = 0;
/// A delay that would cross the time budget is shortened to what is left of it.
pub const SB_DEADLINE_CLAMP: u32 = 1;

/// The largest delay any policy can produce, in ms (2^31 - 1).
pub const SB_MAX_DELAY_MS: u32 = 2_147_483_647;

/// Every preset's `max_hint_ms`, in ms (5 minutes; SPEC.md section 2): the longest wait a server
/// may ask before a step gives up with `SB_GIVE_UP_HINT_EXCEEDS_MAX`. It does not follow the cap.
pub const SB_DEFAULT_MAX_HINT_MS: u32 = 300_000;

/// `max_retries` for a device that never stops trying: `sb_reconnect_next` never gives up under
/// it (SPEC.md section 12.3); `sb_backoff` and `sb_run` read it as the count it is, 4294967295
/// retries, more than 4000 years of retries at a 32 s cap. With a jitter that stays at the cap
/// (`SB_JITTER_FULL`), a fleet that retries forever does not retry in step.
///
/// ```c
/// sb_policy p = sb_policy_google();
/// p.jitter = SB_JITTER_FULL;
/// p.max_retries = SB_RETRY_FOREVER;
/// assert(sb_policy_validate(&p) == SB_OK);
/// ```
pub const SB_RETRY_FOREVER: u32 = 4_294_967_295;

// The header's numbers are literals (cbindgen cannot evaluate paths); these pin them to the core.
const _: () = {
    assert!(SB_RETRY_FOREVER == seeded_backoff::reconnect::RETRY_FOREVER);
    assert!(SB_JITTER_NONE == Jitter::None.code() as u32);
    assert!(SB_JITTER_GOOGLE == Jitter::Google { jitter_ms: 0 }.code() as u32);
    assert!(SB_JITTER_FULL == Jitter::Full.code() as u32);
    assert!(SB_JITTER_EQUAL == Jitter::Equal.code() as u32);
    assert!(SB_JITTER_DECORRELATED == Jitter::Decorrelated.code() as u32);
    assert!(
        SB_JITTER_PROPORTIONAL
            == Jitter::Proportional {
                spread_per_mille: 0
            }
            .code() as u32
    );
    assert!(SB_DEADLINE_GIVE_UP == DeadlineMode::GiveUp.code() as u32);
    assert!(SB_DEADLINE_CLAMP == DeadlineMode::Clamp.code() as u32);
    assert!(SB_MAX_DELAY_MS == MAX_DELAY_MS);
    assert!(SB_DEFAULT_MAX_HINT_MS == seeded_backoff::policy::DEFAULT_MAX_HINT_MS);
};

/// Whether this build has the strategy an `SB_JITTER_*` code names (false for any other code).
// A match, not `matches!` or a table: the default build's arms are all `true`, which clippy
// reads as a `matches!`, and a table lookup hides the code from the optimiser, which then keeps
// every strategy in a one-strategy step (the reconnect step: 424 to 918 B on thumbv7m).
#[allow(clippy::match_like_matches_macro)]
#[inline(always)]
pub(crate) fn jitter_compiled_in(code: u32) -> bool {
    match code {
        SB_JITTER_NONE => cfg!(feature = "jitter-none"),
        SB_JITTER_GOOGLE => cfg!(feature = "jitter-google"),
        SB_JITTER_FULL => cfg!(feature = "jitter-full"),
        SB_JITTER_EQUAL => cfg!(feature = "jitter-equal"),
        SB_JITTER_DECORRELATED => cfg!(feature = "jitter-decorrelated"),
        SB_JITTER_PROPORTIONAL => cfg!(feature = "jitter-proportional"),
        _ => false,
    }
}

/// Whether this build supports everything a validated policy uses (its strategy, a time budget).
#[inline(always)]
pub(crate) fn compiled_in(policy: &Policy) -> bool {
    let jitter = match policy.jitter() {
        Jitter::None => cfg!(feature = "jitter-none"),
        Jitter::Google { .. } => cfg!(feature = "jitter-google"),
        Jitter::Full => cfg!(feature = "jitter-full"),
        Jitter::Equal => cfg!(feature = "jitter-equal"),
        Jitter::Decorrelated => cfg!(feature = "jitter-decorrelated"),
        Jitter::Proportional { .. } => cfg!(feature = "jitter-proportional"),
    };
    jitter && (cfg!(feature = "time-budget") || policy.max_elapsed_ms() == 0)
}

/// A retry policy as plain integers (SPEC.md section 2). Start from a preset such as
/// `sb_policy_google()` and change fields; every function that takes one validates it and returns
/// the `SB_ERR_POLICY_*` code of the first invalid field.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_policy {
    /// The first delay's base, ms (1..=2147483647).
    pub initial_ms: u32,
    /// Multiplier numerator: the base grows by `multiplier_num / multiplier_den` per retry.
    pub multiplier_num: u32,
    /// Multiplier denominator (1..=1000).
    pub multiplier_den: u32,
    /// The cap on computed delays, ms (initial_ms..=2147483647).
    pub max_backoff_ms: u32,
    /// Retries before giving up (0 = never retry).
    pub max_retries: u32,
    /// Jitter strategy, an `SB_JITTER_*` code.
    pub jitter: u32,
    /// Google jitter only: upper bound of the added random ms (0..=max_backoff_ms).
    pub jitter_ms: u32,
    /// Proportional jitter only: half-width of the band in thousandths of the base (0..=1000).
    pub spread_per_mille: u32,
    /// The largest server hint honoured, ms (0..=2147483647); a longer one gives up with
    /// `SB_GIVE_UP_HINT_EXCEEDS_MAX`. Every preset sets `SB_DEFAULT_MAX_HINT_MS` (300000),
    /// whatever its cap.
    pub max_hint_ms: u32,
    /// Time budget since the first attempt, ms; 0 means none.
    pub max_elapsed_ms: u32,
    /// What a delay crossing the time budget does, an `SB_DEADLINE_*` code.
    pub deadline: u32,
    /// Nonzero: follow a pacing server, a `Retry-After` is the wait itself (SPEC.md section 16).
    pub paced: u32,
}

impl sb_policy {
    /// The core policy, or the status naming the first invalid field.
    // Inlined without `runtime-policy`, so each caller sees the preset's constants.
    // By reference, against the convention for `Copy` types: the step validates the policy where
    // it lies in the caller's `sb_backoff`, not in a 48-byte copy on its own stack (24 B of
    // `sb_backoff_next`'s worst case on thumbv7m).
    #[allow(clippy::wrong_self_convention)]
    #[cfg_attr(not(feature = "runtime-policy"), inline(always))]
    pub(crate) fn to_core(&self) -> Result<Policy, sb_status> {
        self.to_core_inline()
    }

    /// [`sb_policy::to_core`] inlined into its caller, for a step that validates the policy where
    /// it lies in flash at every call: the error codes fold into the one the step returns, and
    /// the core policy's fields stay in registers instead of a 40-byte copy on the stack.
    #[allow(clippy::wrong_self_convention)]
    #[inline(always)]
    pub(crate) fn to_core_inline(&self) -> Result<Policy, sb_status> {
        if !cfg!(feature = "runtime-policy") {
            return (*self).to_preset();
        }
        let policy = self.validated_inline()?;
        // A valid policy that needs a part this build leaves out: said after any invalid field.
        if !compiled_in(&policy) {
            return Err(sb_status::SB_ERR_UNSUPPORTED);
        }
        Ok(policy)
    }

    /// The core policy these fields make by the core's rules, whatever this build contains, or
    /// the status naming the first invalid field.
    fn validated(&self) -> Result<Policy, sb_status> {
        self.validated_inline()
    }

    /// [`sb_policy::validated`], inlined (see [`sb_policy::to_core_inline`]).
    #[inline(always)]
    fn validated_inline(&self) -> Result<Policy, sb_status> {
        let param = match self.jitter {
            SB_JITTER_GOOGLE => self.jitter_ms,
            SB_JITTER_PROPORTIONAL => self.spread_per_mille,
            _ => 0,
        };
        let jitter = u8::try_from(self.jitter)
            .ok()
            .and_then(|code| Jitter::from_code(code, param))
            .ok_or(sb_status::SB_ERR_POLICY_JITTER)?;
        let deadline = u8::try_from(self.deadline)
            .ok()
            .and_then(DeadlineMode::from_code)
            .ok_or(sb_status::SB_ERR_POLICY_DEADLINE)?;
        Policy::builder()
            .initial_ms(self.initial_ms)
            .multiplier(self.multiplier_num, self.multiplier_den)
            .max_backoff_ms(self.max_backoff_ms)
            .max_retries(self.max_retries)
            .jitter(jitter)
            .max_hint_ms(self.max_hint_ms)
            .max_elapsed_ms(self.max_elapsed_ms)
            .deadline(deadline)
            .paced(self.paced != 0)
            .build()
            .map_err(|e| sb_status::from(e.error))
    }

    /// A build without `runtime-policy`: the compiled-in preset (a `preset-*` feature) that this
    /// struct equals, field for field; any other policy is `SB_ERR_UNSUPPORTED`. The
    /// core then works on a constant policy, as a Rust firmware's `const` one does, and the
    /// validation is a comparison.
    #[inline(always)]
    fn to_preset(self) -> Result<Policy, sb_status> {
        let is = |on: bool, preset: &Policy| on && sb_policy::from_core(preset) == self;
        if is(cfg!(feature = "preset-google"), &Policy::google()) {
            Ok(Policy::google())
        } else if is(cfg!(feature = "preset-google-64s"), &Policy::google_64s()) {
            Ok(Policy::google_64s())
        } else if is(cfg!(feature = "preset-aws"), &Policy::aws_standard()) {
            Ok(Policy::aws_standard())
        } else if is(cfg!(feature = "preset-grpc"), &Policy::grpc()) {
            Ok(Policy::grpc())
        } else if is(cfg!(feature = "preset-mobile"), &Policy::mobile()) {
            Ok(Policy::mobile())
        } else {
            Err(sb_status::SB_ERR_UNSUPPORTED)
        }
    }

    /// Why a build without `runtime-policy` refuses a policy that is none of its presets: the
    /// first invalid field, as every build names it, else `SB_ERR_UNSUPPORTED` (a valid policy
    /// this build cannot run). Only `sb_policy_validate` asks: in the step's path it would cost a
    /// preset firmware the core's validation (190 B on thumbv7m).
    #[cold]
    #[inline(never)]
    pub(crate) fn refusal(&self) -> sb_status {
        self.validated()
            .err()
            .unwrap_or(sb_status::SB_ERR_UNSUPPORTED)
    }

    /// The C form of a validated core policy.
    #[inline(always)]
    pub(crate) fn from_core(p: &Policy) -> sb_policy {
        let (multiplier_num, multiplier_den) = p.multiplier();
        let jitter = p.jitter();
        sb_policy {
            initial_ms: p.initial_ms(),
            multiplier_num,
            multiplier_den,
            max_backoff_ms: p.max_backoff_ms(),
            max_retries: p.max_retries(),
            jitter: jitter.code() as u32,
            jitter_ms: match jitter {
                Jitter::Google { jitter_ms } => jitter_ms,
                _ => 0,
            },
            spread_per_mille: match jitter {
                Jitter::Proportional { spread_per_mille } => spread_per_mille,
                _ => 0,
            },
            max_hint_ms: p.max_hint_ms(),
            max_elapsed_ms: p.max_elapsed_ms(),
            deadline: p.deadline().code() as u32,
            paced: u32::from(p.paced()),
        }
    }
}

/// Google Cloud's reference: 1 s, x2, jitter 0..1000 ms, cap 32 s, 10 retries.
///
/// ```c
/// sb_policy p = sb_policy_google();
/// p.max_retries = 5; // then pass it to sb_policy_validate or sb_backoff_init
/// ```
#[no_mangle]
pub extern "C" fn sb_policy_google() -> sb_policy {
    sb_policy::from_core(&Policy::google())
}

/// Google's reference with the 64 s cap.
#[no_mangle]
pub extern "C" fn sb_policy_google_64s() -> sb_policy {
    sb_policy::from_core(&Policy::google_64s())
}

/// The AWS SDKs' standard mode: full jitter, 100 ms, x2, cap 20 s, 2 retries.
#[no_mangle]
pub extern "C" fn sb_policy_aws() -> sb_policy {
    sb_policy::from_core(&Policy::aws_standard())
}

/// gRPC connection backoff: 1 s, x1.6, +-20 % proportional jitter, cap 120 s, 10 retries.
#[no_mangle]
pub extern "C" fn sb_policy_grpc() -> sb_policy {
    sb_policy::from_core(&Policy::grpc())
}

/// Google's advice for mobile clients: equal jitter on 2 s, x2, cap 64 s, 16 retries. Retry n
/// waits 2^n to 2^(n+1) s, at the cap 32 to 64 s: the jitter stays at the cap, so a fleet that
/// lost its link together does not come back together.
#[no_mangle]
pub extern "C" fn sb_policy_mobile() -> sb_policy {
    sb_policy::from_core(&Policy::mobile())
}

/// Checks a policy: `SB_OK`, `SB_ERR_NULL`, the `SB_ERR_POLICY_*` code of the first invalid field
/// in the order of SPEC.md section 2 (the jitter and deadline codes are checked first), in every
/// build, or `SB_ERR_UNSUPPORTED` for a valid policy this build cannot run (its jitter strategy or
/// a time budget left out; without `runtime-policy`, any policy but the build's presets, which
/// the other functions refuse with `SB_ERR_UNSUPPORTED` alone).
///
/// ```c
/// sb_policy p = sb_policy_google();
/// p.max_backoff_ms = 10; // below initial_ms
/// assert(sb_policy_validate(&p) == SB_ERR_POLICY_MAX_BACKOFF_MS);
/// ```
///
/// # Safety
/// `policy` is NULL or points to a readable `sb_policy`.
#[no_mangle]
pub unsafe extern "C" fn sb_policy_validate(policy: *const sb_policy) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    let policy = match unsafe { ptr::read(policy) } {
        Ok(p) => p,
        Err(e) => return e,
    };
    match policy.to_core() {
        Ok(_) => sb_status::SB_OK,
        Err(sb_status::SB_ERR_UNSUPPORTED) if !cfg!(feature = "runtime-policy") => policy.refusal(),
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests;
