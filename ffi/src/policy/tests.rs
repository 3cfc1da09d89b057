//! Unit tests of `policy.rs`.

use super::*;

#[test]
fn presets_round_trip_through_the_c_struct() {
    let runtime = cfg!(feature = "runtime-policy");
    for (p, in_build) in [
        (
            Policy::google(),
            cfg!(feature = "preset-google") || runtime && cfg!(feature = "jitter-google"),
        ),
        (
            Policy::google_64s(),
            cfg!(feature = "preset-google-64s") || runtime && cfg!(feature = "jitter-google"),
        ),
        (
            Policy::aws_standard(),
            cfg!(feature = "preset-aws") || runtime && cfg!(feature = "jitter-full"),
        ),
        (
            Policy::grpc(),
            cfg!(feature = "preset-grpc") || runtime && cfg!(feature = "jitter-proportional"),
        ),
        (
            Policy::mobile(),
            cfg!(feature = "preset-mobile") || runtime && cfg!(feature = "jitter-equal"),
        ),
    ] {
        let expected = if in_build {
            Ok(p)
        } else {
            Err(sb_status::SB_ERR_UNSUPPORTED)
        };
        assert_eq!(sb_policy::from_core(&p).to_core(), expected, "{p:?}");
    }
}

/// An invalid policy is named by its field in every build, before any part the build leaves
/// out: SPEC.md section 2 requires max_backoff_ms >= initial_ms, and full jitter takes no
/// jitter_ms.
#[test]
fn validation_comes_before_unsupported() {
    let mut low_cap = sb_policy_google();
    low_cap.max_backoff_ms = 10;
    // SAFETY: a pointer to a live local.
    let status = unsafe { sb_policy_validate(&low_cap) };
    assert_eq!(status, sb_status::SB_ERR_POLICY_MAX_BACKOFF_MS);
    let mut full = sb_policy_aws();
    full.initial_ms = 0;
    // SAFETY: as above.
    let status = unsafe { sb_policy_validate(&full) };
    assert_eq!(status, sb_status::SB_ERR_POLICY_INITIAL_MS);
    // A valid policy the build cannot run is what SB_ERR_UNSUPPORTED is left for.
    let mut three = sb_policy_google();
    three.max_retries = 3;
    // SAFETY: as above.
    let status = unsafe { sb_policy_validate(&three) };
    let runs = cfg!(feature = "runtime-policy") && cfg!(feature = "jitter-google");
    let want = if runs {
        sb_status::SB_OK
    } else {
        sb_status::SB_ERR_UNSUPPORTED
    };
    assert_eq!(status, want);
}

/// What a build leaves out is refused, never run: expected results from the feature list in
/// ffi/Cargo.toml, so each feature set the tests build checks its own contract.
#[test]
fn parts_left_out_are_unsupported() {
    let unsupported = Err(sb_status::SB_ERR_UNSUPPORTED);
    let aws = sb_policy_aws().to_core();
    if cfg!(feature = "jitter-full") && cfg!(feature = "runtime-policy") {
        assert_eq!(aws, Ok(Policy::aws_standard()));
    } else if !cfg!(feature = "preset-aws") {
        assert_eq!(aws, unsupported);
    }
    let mut tweaked = sb_policy_google();
    tweaked.max_retries = 3;
    if cfg!(feature = "runtime-policy") && cfg!(feature = "jitter-google") {
        assert!(tweaked.to_core().is_ok());
    } else {
        assert_eq!(tweaked.to_core(), unsupported);
    }
    let mut timed = sb_policy_google();
    timed.max_elapsed_ms = 60_000;
    if !cfg!(feature = "time-budget") {
        assert_eq!(timed.to_core(), unsupported);
    } else if cfg!(feature = "runtime-policy") && cfg!(feature = "jitter-google") {
        let expected = Policy::google().to_builder().max_elapsed_ms(60_000).build();
        assert_eq!(timed.to_core(), Ok(expected.unwrap()));
    }
    if cfg!(feature = "preset-google") {
        assert_eq!(sb_policy_google().to_core(), Ok(Policy::google()));
    }
}

// Without runtime-policy every non-preset policy is SB_ERR_UNSUPPORTED before any check.
#[cfg(feature = "runtime-policy")]
#[test]
fn unknown_codes_are_rejected() {
    let mut p = sb_policy_google();
    p.jitter = 6;
    assert_eq!(p.to_core(), Err(sb_status::SB_ERR_POLICY_JITTER));
    p.jitter = 256 + SB_JITTER_GOOGLE;
    assert_eq!(p.to_core(), Err(sb_status::SB_ERR_POLICY_JITTER));
    let mut p = sb_policy_google();
    p.deadline = 2;
    assert_eq!(p.to_core(), Err(sb_status::SB_ERR_POLICY_DEADLINE));
}
