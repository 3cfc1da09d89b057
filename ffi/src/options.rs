//! `sb_policy_from_options` and `sb_policy_with_options`: a preset, or a given policy, with some
//! fields overridden, resolved by the core's `PolicyOptions` (SPEC.md section 2.1), so that every
//! binding over this library accepts and refuses the same option combinations as the npm package
//! and the CLI.

use seeded_backoff::bindings::PolicyOptions;
use seeded_backoff::policy::{DeadlineMode, Preset};

use crate::policy::{compiled_in, sb_policy};
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// `sb_policy_from_options` preset: Google Cloud's reference (`sb_policy_google`).
pub const SB_PRESET_GOOGLE: u32 = 0;
/// `sb_policy_from_options` preset: Google's reference with the 64 s cap.
pub const SB_PRESET_GOOGLE_64S: u32 = 1;
/// `sb_policy_from_options` preset: the AWS SDKs' standard mode.
pub const SB_PRESET_AWS: u32 = 2;
/// `sb_policy_from_options` preset: gRPC connection backoff.
pub const SB_PRESET_GRPC: u32 = 3;
/// `sb_policy_from_options` preset: Google's advice for mobile clients (`sb_policy_mobile`).
pub const SB_PRESET_MOBILE: u32 = 4;

/// `given` bit: `values->initial_ms` overrides the preset.
pub const SB_OPTION_INITIAL_MS: u32 = 1;
/// `given` bit: `values->multiplier_num` / `multiplier_den` (reduced) override the preset.
pub const SB_OPTION_MULTIPLIER: u32 = 2;
/// `given` bit: `values->max_backoff_ms` (the hint limit follows it unless also given).
pub const SB_OPTION_MAX_BACKOFF_MS: u32 = 4;
/// `given` bit: `values->max_retries`.
pub const SB_OPTION_MAX_RETRIES: u32 = 8;
/// `given` bit: `values->jitter` (its parameter defaults to the reference value).
pub const SB_OPTION_JITTER: u32 = 16;
/// `given` bit: `values->jitter_ms` (Google jitter only).
pub const SB_OPTION_JITTER_MS: u32 = 32;
/// `given` bit: `values->spread_per_mille` (proportional jitter only).
pub const SB_OPTION_SPREAD_PER_MILLE: u32 = 64;
/// `given` bit: `values->max_hint_ms`.
pub const SB_OPTION_MAX_HINT_MS: u32 = 128;
/// `given` bit: `values->max_elapsed_ms`.
pub const SB_OPTION_MAX_ELAPSED_MS: u32 = 256;
/// `given` bit: `values->deadline`.
pub const SB_OPTION_DEADLINE: u32 = 512;
/// `given` bit: `values->paced` (nonzero: a `Retry-After` is the wait itself).
pub const SB_OPTION_PACED: u32 = 1024;

// The header's option bits are literals too; these pin each to the core's option index (the
// preset is the function's own argument, so bit i is option i + 1).
const _: () = {
    use seeded_backoff::bindings::PolicyOption as O;
    let bits = [
        (SB_OPTION_INITIAL_MS, O::InitialMs),
        (SB_OPTION_MULTIPLIER, O::Multiplier),
        (SB_OPTION_MAX_BACKOFF_MS, O::MaxBackoffMs),
        (SB_OPTION_MAX_RETRIES, O::MaxRetries),
        (SB_OPTION_JITTER, O::Jitter),
        (SB_OPTION_JITTER_MS, O::JitterMs),
        (SB_OPTION_SPREAD_PER_MILLE, O::SpreadPerMille),
        (SB_OPTION_MAX_HINT_MS, O::MaxHintMs),
        (SB_OPTION_MAX_ELAPSED_MS, O::MaxElapsedMs),
        (SB_OPTION_DEADLINE, O::Deadline),
        (SB_OPTION_PACED, O::Paced),
    ];
    assert!(bits.len() + 1 == O::NAMES.len());
    let mut i = 0;
    while i < bits.len() {
        assert!(bits[i].0 == 1 << (bits[i].1.code() - 1));
        i += 1;
    }
};

// The header's preset codes are literals (cbindgen cannot evaluate paths); these pin them to the
// core's preset table.
const _: () = {
    assert!(matches!(
        Preset::from_code(SB_PRESET_GOOGLE as u8),
        Some(Preset::Google)
    ));
    assert!(matches!(
        Preset::from_code(SB_PRESET_GOOGLE_64S as u8),
        Some(Preset::Google64s)
    ));
    assert!(matches!(
        Preset::from_code(SB_PRESET_AWS as u8),
        Some(Preset::AwsStandard)
    ));
    assert!(matches!(
        Preset::from_code(SB_PRESET_GRPC as u8),
        Some(Preset::Grpc)
    ));
    assert!(matches!(
        Preset::from_code(SB_PRESET_MOBILE as u8),
        Some(Preset::Mobile)
    ));
};

/// Writes to `*out` the preset `preset` (an `SB_PRESET_*` code) with the fields of `*values` whose
/// `SB_OPTION_*` bit is set in `given` overriding it, by the rules every binding shares: an option
/// the chosen strategy has no use for is refused (`jitter_ms` with full jitter:
/// `SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE`); a newly chosen strategy's parameter defaults to the
/// reference value (Google's 1000 ms, gRPC's 200 per mille); the hint limit follows an overridden
/// cap unless given; the multiplier is reduced (1600/1000 becomes 8/5). Fields without their bit
/// are not read for their value; other bits of `given` are ignored.
///
/// Returns `SB_OK`, `SB_ERR_NULL`, `SB_ERR_POLICY_PRESET`, an `SB_ERR_POLICY_*` code naming the
/// field at fault, or `SB_ERR_UNSUPPORTED` (a build without `bindings` or `runtime-policy`, or a
/// strategy or time budget left out of this build). `*out` is written only on `SB_OK`.
///
/// ```c
/// sb_policy values = {0}, p;
/// values.max_retries = 5;
/// values.jitter = SB_JITTER_FULL;
/// if (sb_policy_from_options(&p, SB_PRESET_GOOGLE, &values, SB_OPTION_MAX_RETRIES | SB_OPTION_JITTER) != SB_OK)
///     return; // e.g. SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE
/// ```
///
/// # Safety
/// `out` is NULL or valid for writes of an `sb_policy`; `values` is NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_policy_from_options(
    out: *mut sb_policy,
    preset: u32,
    values: *const sb_policy,
    given: u32,
) -> sb_status {
    require_feature!("bindings");
    require_feature!("runtime-policy");
    // SAFETY: forwarded from this function's contract.
    let values = match unsafe { ptr::read(values) } {
        Ok(v) => v,
        Err(e) => return e,
    };
    if out.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    let policy = match resolve(preset, &values, given) {
        Ok(p) => p,
        Err(e) => return e,
    };
    // SAFETY: `out` is valid for writes (this function's contract).
    ptr::status(unsafe { ptr::write(out, policy) }.map(|()| sb_status::SB_OK))
}

/// `Some(value)` when `bit` is set in `given`.
fn opt<T>(given: u32, bit: u32, value: T) -> Option<T> {
    (given & bit != 0).then_some(value)
}

fn resolve(preset: u32, v: &sb_policy, given: u32) -> Result<sb_policy, sb_status> {
    let preset = u8::try_from(preset)
        .ok()
        .and_then(Preset::from_code)
        .ok_or(sb_status::SB_ERR_POLICY_PRESET)?;
    let options = PolicyOptions {
        preset: Some(preset),
        ..decode(v, given)?
    };
    let policy = options.build().map_err(sb_status::from)?;
    if !compiled_in(&policy) {
        return Err(sb_status::SB_ERR_UNSUPPORTED);
    }
    Ok(sb_policy::from_core(&policy))
}

/// The options of `*v` whose `SB_OPTION_*` bit is set in `given` (no preset), or the status naming
/// a jitter or deadline code that is none.
pub(crate) fn decode(v: &sb_policy, given: u32) -> Result<PolicyOptions, sb_status> {
    let jitter = match opt(given, SB_OPTION_JITTER, v.jitter) {
        Some(code) => Some(u8::try_from(code).map_err(|_| sb_status::SB_ERR_POLICY_JITTER)?),
        None => None,
    };
    let deadline = match opt(given, SB_OPTION_DEADLINE, v.deadline) {
        Some(code) => Some(
            u8::try_from(code)
                .ok()
                .and_then(DeadlineMode::from_code)
                .ok_or(sb_status::SB_ERR_POLICY_DEADLINE)?,
        ),
        None => None,
    };
    Ok(PolicyOptions {
        preset: None,
        initial_ms: opt(given, SB_OPTION_INITIAL_MS, v.initial_ms),
        multiplier: opt(
            given,
            SB_OPTION_MULTIPLIER,
            (v.multiplier_num, v.multiplier_den),
        ),
        max_backoff_ms: opt(given, SB_OPTION_MAX_BACKOFF_MS, v.max_backoff_ms),
        max_retries: opt(given, SB_OPTION_MAX_RETRIES, v.max_retries),
        jitter,
        jitter_ms: opt(given, SB_OPTION_JITTER_MS, v.jitter_ms),
        spread_per_mille: opt(given, SB_OPTION_SPREAD_PER_MILLE, v.spread_per_mille),
        max_hint_ms: opt(given, SB_OPTION_MAX_HINT_MS, v.max_hint_ms),
        max_elapsed_ms: opt(given, SB_OPTION_MAX_ELAPSED_MS, v.max_elapsed_ms),
        deadline,
        paced: opt(given, SB_OPTION_PACED, v.paced).map(|p| p != 0),
    })
}

/// Writes to `*out` the policy `*base` with the fields of `*values` whose `SB_OPTION_*` bit is set
/// in `given` overriding it, by `sb_policy_from_options`'s rules with `*base` in the preset's
/// place: a strategy's parameter carries over while the strategy is kept, the hint limit follows
/// an overridden cap unless given, an option the strategy has no use for is refused. A binding
/// derives a policy from a user's one this way (a deadline lowering `max_elapsed_ms`).
///
/// Returns `SB_OK`, `SB_ERR_NULL`, the `SB_ERR_POLICY_*` code of `*base`'s first invalid field
/// or of the override at fault, or `SB_ERR_UNSUPPORTED` (as `sb_policy_from_options`). `*out` is
/// written only on `SB_OK`.
///
/// ```c
/// sb_policy base = sb_policy_grpc(), values = {0}, p;
/// values.max_elapsed_ms = 60000;
/// if (sb_policy_with_options(&p, &base, &values, SB_OPTION_MAX_ELAPSED_MS) != SB_OK)
///     return;
/// // p is gRPC's policy, its +-20 % jitter kept, with a 60 s time budget.
/// ```
///
/// # Safety
/// `out` is NULL or valid for writes of an `sb_policy`; `base` and `values` are NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn sb_policy_with_options(
    out: *mut sb_policy,
    base: *const sb_policy,
    values: *const sb_policy,
    given: u32,
) -> sb_status {
    require_feature!("bindings");
    require_feature!("runtime-policy");
    // SAFETY: forwarded from this function's contract.
    let (base, values) = match unsafe { (ptr::read(base), ptr::read(values)) } {
        (Ok(b), Ok(v)) => (b, v),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if out.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    let policy = base.to_core().and_then(|base| {
        let options = decode(&values, given)?;
        let p = options.apply_to(&base).map_err(sb_status::from)?;
        if compiled_in(&p) {
            Ok(sb_policy::from_core(&p))
        } else {
            Err(sb_status::SB_ERR_UNSUPPORTED)
        }
    });
    match policy {
        // SAFETY: `out` is valid for writes (this function's contract).
        Ok(p) => ptr::status(unsafe { ptr::write(out, p) }.map(|()| sb_status::SB_OK)),
        Err(e) => e,
    }
}

#[cfg(all(test, feature = "runtime-policy", feature = "bindings"))]
mod tests {
    use super::*;
    use crate::policy::{sb_policy_google, sb_policy_grpc, SB_JITTER_FULL, SB_JITTER_GOOGLE};
    #[test]
    fn options_override_a_given_policy() {
        use crate::options::{SB_OPTION_JITTER_MS, SB_OPTION_MAX_ELAPSED_MS};
        let base = sb_policy_grpc();
        let mut values = sb_policy_google();
        values.max_elapsed_ms = 60_000;
        let mut out = sb_policy_google();
        // SAFETY: every pointer is to a live local.
        let rc =
            unsafe { sb_policy_with_options(&mut out, &base, &values, SB_OPTION_MAX_ELAPSED_MS) };
        assert_eq!(rc, sb_status::SB_OK);
        assert_eq!(
            out,
            sb_policy {
                max_elapsed_ms: 60_000,
                ..base
            }
        );
        let before = out;
        // SAFETY: as above.
        let rc = unsafe { sb_policy_with_options(&mut out, &base, &values, SB_OPTION_JITTER_MS) };
        assert_eq!(rc, sb_status::SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE);
        let mut bad = base;
        bad.initial_ms = 0;
        // SAFETY: as above.
        let rc = unsafe { sb_policy_with_options(&mut out, &bad, &values, 0) };
        assert_eq!(rc, sb_status::SB_ERR_POLICY_INITIAL_MS);
        // SAFETY: NULL is allowed by the contract.
        let rc = unsafe { sb_policy_with_options(&mut out, core::ptr::null(), &values, 0) };
        assert_eq!((rc, out), (sb_status::SB_ERR_NULL, before));
    }

    fn from(
        preset: u32,
        given: u32,
        f: impl FnOnce(&mut sb_policy),
    ) -> Result<sb_policy, sb_status> {
        let mut v = sb_policy_google();
        f(&mut v);
        let mut out = sb_policy_google();
        out.max_retries = 12345;
        let before = out;
        // SAFETY: both pointers are to live locals.
        let rc = unsafe { sb_policy_from_options(&mut out, preset, &v, given) };
        if rc == sb_status::SB_OK {
            Ok(out)
        } else {
            assert_eq!(out, before, "an error must leave *out unchanged");
            Err(rc)
        }
    }

    #[test]
    fn a_preset_alone_is_the_preset() {
        assert_eq!(from(SB_PRESET_GOOGLE, 0, |_| {}), Ok(sb_policy_google()));
        let grpc = from(SB_PRESET_GRPC, 0, |_| {}).unwrap();
        assert_eq!((grpc.multiplier_num, grpc.multiplier_den), (8, 5));
        assert_eq!(from(5, 0, |_| {}), Err(sb_status::SB_ERR_POLICY_PRESET));
    }

    #[test]
    fn the_cores_rules_apply() {
        let full = from(
            SB_PRESET_GOOGLE,
            SB_OPTION_JITTER | SB_OPTION_JITTER_MS,
            |v| {
                v.jitter = SB_JITTER_FULL;
            },
        );
        assert_eq!(full, Err(sb_status::SB_ERR_POLICY_JITTER_MS_NOT_APPLICABLE));
        let p = from(SB_PRESET_AWS, SB_OPTION_JITTER, |v| {
            v.jitter = SB_JITTER_GOOGLE
        })
        .unwrap();
        assert_eq!(p.jitter_ms, 1000);
        let p = from(SB_PRESET_GOOGLE, SB_OPTION_MAX_BACKOFF_MS, |v| {
            v.max_backoff_ms = 60_000
        });
        assert_eq!(p.unwrap().max_hint_ms, crate::SB_DEFAULT_MAX_HINT_MS);
        let p = from(SB_PRESET_GOOGLE, SB_OPTION_MULTIPLIER, |v| {
            (v.multiplier_num, v.multiplier_den) = (1600, 1000);
        });
        assert_eq!(p.map(|p| (p.multiplier_num, p.multiplier_den)), Ok((8, 5)));
        let bad = from(SB_PRESET_GOOGLE, SB_OPTION_INITIAL_MS, |v| v.initial_ms = 0);
        assert_eq!(bad, Err(sb_status::SB_ERR_POLICY_INITIAL_MS));
        let bad = from(SB_PRESET_GOOGLE, SB_OPTION_JITTER, |v| v.jitter = 6);
        assert_eq!(bad, Err(sb_status::SB_ERR_POLICY_JITTER));
        let bad = from(SB_PRESET_GOOGLE, SB_OPTION_DEADLINE, |v| v.deadline = 2);
        assert_eq!(bad, Err(sb_status::SB_ERR_POLICY_DEADLINE));
        // A field without its bit is not read.
        assert_eq!(
            from(SB_PRESET_GOOGLE, 0, |v| v.initial_ms = 0),
            Ok(sb_policy_google())
        );
    }

    #[test]
    fn null_pointers_are_refused() {
        let v = sb_policy_google();
        // SAFETY: NULL is allowed by the contract.
        let rc = unsafe { sb_policy_from_options(core::ptr::null_mut(), 0, &v, 0) };
        assert_eq!(rc, sb_status::SB_ERR_NULL);
        let mut out = v;
        // SAFETY: as above.
        let rc = unsafe { sb_policy_from_options(&mut out, 0, core::ptr::null(), 0) };
        assert_eq!(rc, sb_status::SB_ERR_NULL);
    }
}
