//! The C ABI called with arbitrary arguments: NULL for any pointer (an error, never a crash), garbage structs (arbitrary
//! policies, states and budgets, or valid ones with one field overwritten), arbitrary snapshot and
//! header bytes. Every call must return a status `sb_strerror` knows, an error must leave every
//! caller-owned struct and out-parameter unchanged, a retry's delay
//! stays ≤ max(cap, max_hint) ≤ 2^31 − 1, and parsing agrees with the core.
#![no_main]

use std::ffi::CStr;
use std::ptr;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::http::parse_grpc_pushback;
use seeded_backoff::policy::MAX_DELAY_MS;
use seeded_backoff::parse_retry_after;
use seeded_backoff_ffi::*;

#[derive(Arbitrary, Debug)]
enum PolicyInput {
    Preset(u8),
    /// A preset with one field overwritten.
    Tweaked(u8, u8, u32),
    /// Every field arbitrary.
    Raw([u32; 11]),
}

#[derive(Arbitrary, Debug)]
enum Call {
    Init {
        null_b: bool,
        null_p: bool,
        seed: u64,
    },
    Next {
        null_b: bool,
        null_out: bool,
    },
    NextWithHint {
        hint: u32,
        null_b: bool,
        null_out: bool,
    },
    DoNotRetry {
        null_b: bool,
    },
    NextAt {
        elapsed: u64,
        null_b: bool,
        null_out: bool,
    },
    NextWithBudget {
        kind: u32,
        null_b: bool,
        null_budget: bool,
        null_out: bool,
    },
    Reset {
        null_b: bool,
    },
    Retries {
        null_b: bool,
        null_out: bool,
    },
    BudgetGrpc {
        a: u32,
        b: u32,
        null: bool,
    },
    BudgetAws {
        a: u32,
        b: u32,
        c: u32,
        d: u32,
        null: bool,
    },
    BudgetAwsDefault {
        null: bool,
    },
    BudgetFailure {
        kind: u32,
        null: bool,
    },
    BudgetAcquire {
        kind: u32,
        null: bool,
        null_out: bool,
    },
    BudgetSuccess {
        retried: bool,
        kind: u32,
        null: bool,
    },
    BudgetTokens {
        null: bool,
        null_out: bool,
    },
    Snapshot {
        null_b: bool,
        null_out: bool,
    },
    /// Restore from the current state's snapshot (optionally damaged) or from arbitrary bytes.
    Restore {
        bytes: Option<Vec<u8>>,
        flip: Option<u16>,
        null_b: bool,
        null_p: bool,
        null_bytes: bool,
    },
    CorruptBackoff {
        field: u8,
        value: u32,
    },
    CorruptBudget {
        field: u8,
        value: u32,
    },
    ParseRetryAfter {
        bytes: Vec<u8>,
        now: u64,
        null_s: bool,
        null_out: bool,
    },
    ParsePushback {
        bytes: Vec<u8>,
        null_s: bool,
        null_out: bool,
    },
    Classify {
        status: u32,
    },
    Strerror {
        code: i32,
    },
    Validate {
        null: bool,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: PolicyInput,
    calls: Vec<Call>,
}

fn preset(n: u8) -> sb_policy {
    match n % 5 {
        0 => sb_policy_google(),
        1 => sb_policy_google_64s(),
        2 => sb_policy_aws(),
        3 => sb_policy_mobile(),
        _ => sb_policy_grpc(),
    }
}

fn set_policy_field(p: &mut sb_policy, field: u8, v: u32) {
    match field % 11 {
        0 => p.initial_ms = v,
        1 => p.multiplier_num = v,
        2 => p.multiplier_den = v,
        3 => p.max_backoff_ms = v,
        4 => p.max_retries = v,
        5 => p.jitter = v,
        6 => p.jitter_ms = v,
        7 => p.spread_per_mille = v,
        8 => p.max_hint_ms = v,
        9 => p.max_elapsed_ms = v,
        _ => p.deadline = v,
    }
}

fn policy_of(input: &PolicyInput) -> sb_policy {
    match *input {
        PolicyInput::Preset(n) => preset(n),
        PolicyInput::Tweaked(n, field, v) => {
            let mut p = preset(n);
            set_policy_field(&mut p, field, v);
            p
        }
        PolicyInput::Raw(f) => {
            let mut p = preset(0);
            for (i, v) in f.into_iter().enumerate() {
                set_policy_field(&mut p, i as u8, v);
            }
            p
        }
    }
}

fn nullable<T>(r: &mut T, null: bool) -> *mut T {
    if null {
        ptr::null_mut()
    } else {
        r
    }
}

/// The status is one the header defines: `sb_strerror` has a message for it.
/// `sb_backoff_next_with` with the one input `flags` names (the C ABI's only step with inputs).
///
/// # Safety
/// As `sb_backoff_next_with`.
unsafe fn next_with(
    b: *mut sb_backoff,
    flags: u32,
    ms: u32,
    elapsed_ms: u64,
    budget: *mut sb_budget,
    kind: u32,
    out: *mut u32,
) -> sb_status {
    let input = sb_step_input {
        flags,
        retry_after_ms: ms,
        elapsed_ms,
        failure_kind: kind,
        rate_limit_ms: ms,
    };
    unsafe { sb_backoff_next_with(b, &input, budget, out) }
}

fn check_known(s: sb_status) -> i32 {
    let code = s as i32;
    let msg = sb_strerror(code);
    assert!(!msg.is_null());
    // SAFETY: sb_strerror returns a static NUL-terminated string.
    let text = unsafe { CStr::from_ptr(msg) }.to_str().unwrap();
    assert!(
        !text.is_empty() && text != "unknown status code",
        "status {code} unknown"
    );
    code
}

fn is_error(code: i32) -> bool {
    code >= sb_status::SB_ERR_NULL as i32
}

const SENTINEL: u32 = 0xDEAD_BEEF;

fuzz_target!(|input: Input| {
    let mut policy = policy_of(&input.policy);
    let mut b = sb_backoff {
        rng: [1, 2, 3, 4],
        retries: 0,
        level: 0,
        elapsed_ms: 0,
        gave_up: 0,
        policy,
    };
    let mut budget = sb_budget {
        mode: 0,
        params: [0; 4],
        tokens_milli: 0,
    };
    let mut inited = false;
    for call in input.calls.iter().take(512) {
        let (b0, budget0, policy0) = (b, budget, policy);
        let mut out = SENTINEL;
        let mut allowed = false;
        let any_null;
        // SAFETY: every pointer is NULL or points at a live local of the right type and size.
        let status = unsafe {
            match *call {
                Call::Init {
                    null_b,
                    null_p,
                    seed,
                } => {
                    any_null = null_b || null_p;
                    let s = sb_backoff_init(
                        nullable(&mut b, null_b),
                        nullable(&mut policy, null_p),
                        seed,
                    );
                    inited |= s == sb_status::SB_OK;
                    s
                }
                Call::Next { null_b, null_out } => {
                    any_null = null_b || null_out;
                    sb_backoff_next(nullable(&mut b, null_b), nullable(&mut out, null_out))
                }
                Call::NextWithHint {
                    hint,
                    null_b,
                    null_out,
                } => {
                    any_null = null_b || null_out;
                    next_with(
                        nullable(&mut b, null_b),
                        SB_INPUT_RETRY_AFTER,
                        hint,
                        0,
                        ptr::null_mut(),
                        0,
                        nullable(&mut out, null_out),
                    )
                }
                Call::DoNotRetry { null_b } => {
                    any_null = null_b;
                    let mut unused = 0;
                    next_with(
                        nullable(&mut b, null_b),
                        SB_INPUT_DO_NOT_RETRY,
                        0,
                        0,
                        ptr::null_mut(),
                        0,
                        &mut unused,
                    )
                }
                Call::NextAt {
                    elapsed,
                    null_b,
                    null_out,
                } => {
                    any_null = null_b || null_out;
                    next_with(
                        nullable(&mut b, null_b),
                        SB_INPUT_ELAPSED,
                        0,
                        elapsed,
                        ptr::null_mut(),
                        0,
                        nullable(&mut out, null_out),
                    )
                }
                Call::NextWithBudget {
                    kind,
                    null_b,
                    null_budget,
                    null_out,
                } => {
                    any_null = null_b || null_budget || null_out;
                    next_with(
                        nullable(&mut b, null_b),
                        SB_INPUT_BUDGET,
                        0,
                        0,
                        nullable(&mut budget, null_budget),
                        kind,
                        nullable(&mut out, null_out),
                    )
                }
                Call::Reset { null_b } => {
                    any_null = null_b;
                    sb_backoff_reset(nullable(&mut b, null_b))
                }
                Call::Retries { null_b, null_out } => {
                    any_null = null_b || null_out;
                    sb_backoff_retries(nullable(&mut b, null_b), nullable(&mut out, null_out))
                }
                Call::BudgetGrpc { a, b: r, null } => {
                    any_null = null;
                    sb_budget_init_grpc(nullable(&mut budget, null), a, r)
                }
                Call::BudgetAws {
                    a,
                    b: r,
                    c,
                    d,
                    null,
                } => {
                    any_null = null;
                    sb_budget_init_aws_quota(nullable(&mut budget, null), a, r, c, d)
                }
                Call::BudgetAwsDefault { null } => {
                    any_null = null;
                    sb_budget_init_aws_default(nullable(&mut budget, null))
                }
                Call::BudgetFailure { kind, null } => {
                    any_null = null;
                    sb_budget_record_failure(nullable(&mut budget, null), kind)
                }
                Call::BudgetAcquire {
                    kind,
                    null,
                    null_out,
                } => {
                    any_null = null || null_out;
                    sb_budget_try_acquire(
                        nullable(&mut budget, null),
                        kind,
                        nullable(&mut allowed, null_out),
                    )
                }
                Call::BudgetSuccess {
                    retried,
                    kind,
                    null,
                } => {
                    any_null = null;
                    sb_budget_record_success(nullable(&mut budget, null), retried, kind)
                }
                Call::BudgetTokens { null, null_out } => {
                    any_null = null || null_out;
                    sb_budget_tokens_milli(
                        nullable(&mut budget, null),
                        nullable(&mut out, null_out),
                    )
                }
                Call::Snapshot { null_b, null_out } => {
                    any_null = null_b || null_out;
                    let mut snap = [0xA5u8; 40];
                    let s = sb_backoff_snapshot(
                        nullable(&mut b, null_b),
                        if null_out {
                            ptr::null_mut()
                        } else {
                            snap.as_mut_ptr()
                        },
                    );
                    if s != sb_status::SB_OK {
                        assert_eq!(snap, [0xA5u8; 40], "a failed snapshot wrote its output");
                    }
                    s
                }
                Call::Restore {
                    ref bytes,
                    flip,
                    null_b,
                    null_p,
                    null_bytes,
                } => {
                    any_null = null_b || null_p || null_bytes;
                    let mut data = match bytes {
                        Some(v) => v.clone(),
                        None => {
                            let mut snap = [0u8; 40];
                            let _ = sb_backoff_snapshot(&b, snap.as_mut_ptr());
                            snap.to_vec()
                        }
                    };
                    if let (Some(bit), false) = (flip, data.is_empty()) {
                        let bit = bit as usize % (data.len() * 8);
                        data[bit / 8] ^= 1 << (bit % 8);
                    }
                    let s = sb_backoff_restore(
                        nullable(&mut b, null_b),
                        nullable(&mut policy, null_p),
                        if null_bytes {
                            ptr::null()
                        } else {
                            data.as_ptr()
                        },
                        data.len(),
                    );
                    if s == sb_status::SB_OK {
                        inited = true;
                        let mut again = [0u8; 40];
                        assert_eq!(
                            sb_backoff_snapshot(&b, again.as_mut_ptr()),
                            sb_status::SB_OK
                        );
                        assert_eq!(&again[..], &data[..], "a restored snapshot must round-trip");
                    }
                    s
                }
                Call::CorruptBackoff { field, value } => {
                    match field % 6 {
                        0..=3 => b.rng[field as usize % 4] = value,
                        4 => b.retries = value,
                        _ => set_policy_field(&mut b.policy, field / 6, value),
                    }
                    continue;
                }
                Call::CorruptBudget { field, value } => {
                    match field % 6 {
                        0 => budget.mode = value,
                        1..=4 => budget.params[(field % 6 - 1) as usize] = value,
                        _ => budget.tokens_milli = value,
                    }
                    continue;
                }
                Call::ParseRetryAfter {
                    ref bytes,
                    now,
                    null_s,
                    null_out,
                } => {
                    any_null = null_s || null_out;
                    let s = sb_parse_retry_after(
                        if null_s {
                            ptr::null()
                        } else {
                            bytes.as_ptr().cast()
                        },
                        bytes.len(),
                        now,
                        nullable(&mut out, null_out),
                    );
                    if !any_null {
                        match parse_retry_after(bytes, now) {
                            Ok(ms) => assert_eq!((s, out), (sb_status::SB_OK, ms)),
                            Err(_) => assert!((130..140).contains(&(s as i32)), "{s:?}"),
                        }
                    }
                    s
                }
                Call::ParsePushback {
                    ref bytes,
                    null_s,
                    null_out,
                } => {
                    any_null = null_s || null_out;
                    let s = sb_parse_grpc_pushback(
                        if null_s {
                            ptr::null()
                        } else {
                            bytes.as_ptr().cast()
                        },
                        bytes.len(),
                        nullable(&mut out, null_out),
                    );
                    if !any_null {
                        match parse_grpc_pushback(bytes) {
                            Ok(ms) => assert_eq!((s, out), (sb_status::SB_OK, ms)),
                            Err(_) => assert!((130..140).contains(&(s as i32)), "{s:?}"),
                        }
                    }
                    s
                }
                Call::Classify { status } => {
                    let http = sb_classify_http(status) as i32;
                    let grpc = sb_classify_grpc(status) as i32;
                    assert!((0..=3).contains(&http) && (0..=3).contains(&grpc));
                    assert_eq!(sb_is_retryable_http(status), http == 1);
                    continue;
                }
                Call::Strerror { code } => {
                    let msg = sb_strerror(code);
                    assert!(!msg.is_null());
                    assert!(CStr::from_ptr(msg).to_str().is_ok());
                    continue;
                }
                Call::Validate { null } => {
                    any_null = null;
                    sb_policy_validate(nullable(&mut policy, null))
                }
            }
        };
        let code = check_known(status);
        if any_null
            && !matches!(
                call,
                Call::ParseRetryAfter { .. } | Call::ParsePushback { .. }
            )
        {
            // A NULL the call needs is an error (SB_ERR_NULL, or another fault found first, e.g.
            // a garbage budget next to a NULL backoff). NULL with a zero length may be empty input.
            assert!(is_error(code), "{call:?} with NULL gave {status:?}");
        }
        if is_error(code) {
            assert_eq!(
                b, b0,
                "{call:?} failed with {status:?} but changed the backoff"
            );
            assert_eq!(
                budget, budget0,
                "{call:?} failed with {status:?} but changed the budget"
            );
            assert_eq!(
                out, SENTINEL,
                "{call:?} failed with {status:?} but wrote its output"
            );
            assert!(!allowed);
        }
        assert_eq!(policy, policy0, "the caller's policy is read-only");
        if status == sb_status::SB_RETRY {
            let ceiling = b.policy.max_backoff_ms.max(b.policy.max_hint_ms);
            assert!(ceiling <= MAX_DELAY_MS);
            assert!(out <= ceiling, "delay {out} above {ceiling}");
            assert!(b.retries <= b.policy.max_retries && b.retries > 0);
            assert!(inited);
        }
    }
});
