//! Unit tests of `reconnect.rs`.

use super::*;
use crate::policy::{sb_policy_google, SB_JITTER_FULL, SB_RETRY_FOREVER};
use seeded_backoff::Backoff;

fn reconnect_policy_64s() -> sb_policy {
    let mut p = sb_policy_google();
    p.max_backoff_ms = 64_000;
    p.jitter = SB_JITTER_FULL;
    p.jitter_ms = 0;
    p.max_retries = SB_RETRY_FOREVER;
    p
}

fn init(policy: &sb_policy, seed: u64) -> Result<sb_reconnect, sb_status> {
    let mut r = sb_reconnect {
        rng: [0; 4],
        retries: 0,
        level: 0,
        policy: core::ptr::null(),
    };
    // SAFETY: pointers to live locals.
    match unsafe { sb_reconnect_init(&mut r, policy, seed) } {
        sb_status::SB_OK => Ok(r),
        e => Err(e),
    }
}

fn next(r: &mut sb_reconnect) -> (sb_status, u32) {
    let mut d = u32::MAX;
    // SAFETY: pointers to live locals; `r`'s policy outlives the call.
    let s = unsafe { sb_reconnect_next(r, &mut d) };
    (s, d)
}

#[test]
fn delays_are_the_cores_and_never_end_under_retry_forever() {
    if !cfg!(all(
        feature = "reconnect",
        feature = "runtime-policy",
        feature = "jitter-full"
    )) {
        return;
    }
    let c = reconnect_policy_64s();
    let core = c.to_core().unwrap();
    let mut r = init(&c, 42).unwrap();
    let mut reference = Backoff::new(&core, 42);
    for _ in 0..100 {
        let want = reference.next_delay(&core).delay_ms().unwrap();
        assert_eq!(next(&mut r), (sb_status::SB_RETRY, want));
    }
    // At the last count the step goes on, the count stays and the level stays at the cap.
    r.retries = u32::MAX - 1;
    for retries in [u32::MAX, u32::MAX] {
        let (s, d) = next(&mut r);
        assert_eq!(s, sb_status::SB_RETRY);
        assert!(d <= 64_000);
        assert_eq!((r.retries, r.level), (retries, 64_000));
    }
}

#[test]
fn a_finite_count_gives_up_and_reset_starts_over() {
    if !cfg!(all(
        feature = "reconnect",
        feature = "runtime-policy",
        feature = "jitter-full"
    )) {
        return;
    }
    let mut c = reconnect_policy_64s();
    c.max_retries = 2;
    let mut r = init(&c, 7).unwrap();
    assert_eq!(next(&mut r).0, sb_status::SB_RETRY);
    assert_eq!(next(&mut r).0, sb_status::SB_RETRY);
    let before = r;
    assert_eq!(next(&mut r), (sb_status::SB_GIVE_UP_MAX_RETRIES, u32::MAX));
    assert_eq!(r, before);
    // SAFETY: a pointer to a live local.
    assert_eq!(unsafe { sb_reconnect_reset(&mut r) }, sb_status::SB_OK);
    assert_eq!((r.retries, r.level, r.rng), (0, 1000, before.rng));
    assert_eq!(next(&mut r).0, sb_status::SB_RETRY);
}

#[test]
fn bad_input_is_named_and_changes_nothing() {
    let c = reconnect_policy_64s();
    let mut low_cap = c;
    low_cap.max_backoff_ms = 10;
    let expected = |e| {
        if cfg!(feature = "reconnect") {
            Err(e)
        } else {
            Err(sb_status::SB_ERR_UNSUPPORTED)
        }
    };
    assert_eq!(
        init(&low_cap, 1),
        expected(sb_status::SB_ERR_POLICY_MAX_BACKOFF_MS)
    );
    let mut bad_jitter = c;
    bad_jitter.jitter = 9;
    assert_eq!(
        init(&bad_jitter, 1),
        expected(sb_status::SB_ERR_POLICY_JITTER)
    );
    let mut timed = c;
    timed.max_elapsed_ms = 60_000;
    assert_eq!(init(&timed, 1), expected(sb_status::SB_ERR_UNSUPPORTED));
    // SAFETY: NULL pointers are the case under test.
    let null = unsafe { sb_reconnect_init(core::ptr::null_mut(), &c, 1) };
    assert_eq!(null, expected(sb_status::SB_ERR_NULL).unwrap_err());
    if !cfg!(all(
        feature = "reconnect",
        feature = "runtime-policy",
        feature = "jitter-full"
    )) {
        return;
    }
    let good = init(&c, 1).unwrap();
    let mut d = 0;
    // SAFETY: as above.
    assert_eq!(
        unsafe { sb_reconnect_next(core::ptr::null_mut(), &mut d) },
        sb_status::SB_ERR_NULL
    );
    let mut r = good;
    // SAFETY: as above.
    assert_eq!(
        unsafe { sb_reconnect_next(&mut r, core::ptr::null_mut()) },
        sb_status::SB_ERR_NULL
    );
    let corruptions: [fn(&mut sb_reconnect); 4] = [
        |r| r.rng = [0; 4],
        |r| r.level = 64_001,
        |r| r.level = 999,
        |r| r.policy = core::ptr::null(),
    ];
    for corrupt in corruptions {
        let mut r = good;
        corrupt(&mut r);
        let before = r;
        assert_eq!(next(&mut r), (sb_status::SB_ERR_BAD_STATE, u32::MAX));
        // SAFETY: a pointer to a live local.
        assert_eq!(
            unsafe { sb_reconnect_reset(&mut r) },
            sb_status::SB_ERR_BAD_STATE
        );
        assert_eq!(r, before);
    }
    // The policy behind the pointer changed into an invalid one.
    let mut r = good;
    r.policy = &low_cap;
    assert_eq!(next(&mut r), (sb_status::SB_ERR_BAD_STATE, u32::MAX));
}
