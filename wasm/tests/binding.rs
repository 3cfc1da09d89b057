//! The binding layer in a real JS engine (Node, via wasm-bindgen-test-runner): option fields to
//! policies, seed halves, the i32 step encoding, snapshots and budgets, and the JS error objects.
#![cfg(target_arch = "wasm32")]

use js_sys::RangeError;
use seeded_backoff::{Backoff, Policy, ServerHint, Step};
use seeded_backoff_wasm::backoff::{
    backoff_reset, backoff_restore, backoff_snapshot, snapshot_error,
};
use seeded_backoff_wasm::budget::{
    budget_aws_quota, budget_free, budget_grpc, budget_tokens_milli, budget_try_acquire,
};
use seeded_backoff_wasm::options::field;
use seeded_backoff_wasm::{headers, BackoffState};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const GOOGLE: u32 = 1;
const GRPC: u32 = 4;

fn state(preset: u32, present: u32, values: [u32; 10], seed: u64) -> Result<BackoffState, JsValue> {
    let [a, b, c, d, e, f, g, h, i, j] = values;
    BackoffState::new(
        preset,
        present,
        a,
        b,
        c,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        seed as u32,
        (seed >> 32) as u32,
    )
}

fn preset(preset: u32, seed: u64) -> BackoffState {
    state(preset, 0, [0; 10], seed).unwrap()
}

fn message(err: &JsValue) -> String {
    err.dyn_ref::<js_sys::Error>().unwrap().message().into()
}

#[wasm_bindgen_test]
fn seed_halves_make_the_cores_u64_seed() {
    for seed in [0, 1, 42, 1 << 32, (1 << 32) + 7, u64::MAX] {
        let policy = Policy::google();
        let mut core = Backoff::new(&policy, seed);
        let mut bound = preset(GOOGLE, seed);
        for _ in 0..12 {
            let expect = match core.next_delay(&policy) {
                Step::Retry { delay_ms, .. } => delay_ms as i32,
                Step::GiveUp(reason) => -(reason.code() as i32),
            };
            assert_eq!(bound.next_delay(), expect, "seed {seed}");
        }
    }
}

#[wasm_bindgen_test]
fn give_up_is_minus_its_code() {
    let mut b = state(0, field::MAX_RETRIES, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0], 3).unwrap();
    assert!(b.next_delay() >= 1000);
    assert_eq!(b.next_delay(), -1);
    assert_eq!(b.give_up_code(), 1);
    backoff_reset(&mut b);
    assert_eq!(b.give_up_code(), 0);
    assert_eq!(b.step(2, 0, false, 0, 0, 0, false), -4);
    assert_eq!(b.give_up_code(), 4);
}

#[wasm_bindgen_test]
fn hints_and_elapsed_reach_the_core() {
    let policy = Policy::google();
    let mut core = Backoff::new(&policy, 5);
    let mut bound = preset(GOOGLE, 5);
    let core_step = core.next_delay_with_hint(&policy, ServerHint::RetryAfterMs(20_000));
    assert_eq!(core_step.delay_ms(), Some(20_000));
    assert_eq!(bound.step(1, 20_000, false, 0, 0, 0, false), 20_000);
    // elapsed u64::MAX as halves saturates in the core, as the vectors' t18446744073709551615.
    let mut deadline = state(
        0,
        field::MAX_ELAPSED_MS,
        [0, 0, 0, 0, 0, 0, 0, 0, 20_000, 0],
        1,
    )
    .unwrap();
    assert_eq!(deadline.step(0, 0, true, u32::MAX, u32::MAX, 0, false), -2);
}

#[wasm_bindgen_test]
fn policy_errors_are_range_errors_with_js_names() {
    let cases = [
        (
            field::INITIAL_MS,
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            "initialMs",
        ),
        (
            field::MAX_BACKOFF_MS,
            [0, 0, 10, 0, 0, 0, 0, 0, 0, 0],
            "maxBackoffMs",
        ),
        (
            field::MULTIPLIER,
            [0, 500, 0, 0, 0, 0, 0, 0, 0, 0],
            "multiplier",
        ),
        (
            field::JITTER_MS,
            [0, 0, 0, 0, 0, 99_999, 0, 0, 0, 0],
            "jitterMs",
        ),
        (
            field::MAX_HINT_MS,
            [0, 0, 0, 0, 0, 0, 0, u32::MAX, 0, 0],
            "maxHintMs",
        ),
    ];
    for (present, values, name) in cases {
        let err = state(0, present, values, 0).err().expect(name);
        assert!(err.is_instance_of::<RangeError>(), "{name}");
        assert!(message(&err).starts_with(name), "{}", message(&err));
    }
}

#[wasm_bindgen_test]
fn multiplier_milli_is_the_cores_fraction() {
    // 1.6 from JS arrives as 1600 and must be the gRPC preset's 8/5, fingerprint included.
    let grpc = preset(GRPC, 9);
    let custom = state(
        0,
        field::INITIAL_MS
            | field::MULTIPLIER
            | field::MAX_BACKOFF_MS
            | field::JITTER
            | field::SPREAD_PER_MILLE,
        [1000, 1600, 120_000, 0, 5, 0, 200, 0, 0, 0],
        9,
    )
    .unwrap();
    assert_eq!(backoff_snapshot(&grpc), backoff_snapshot(&custom));
}

#[wasm_bindgen_test]
fn snapshots_round_trip_and_errors_cross_as_the_cores_kind() {
    let mut live = preset(GOOGLE, 77);
    live.next_delay();
    let bytes = backoff_snapshot(&live);
    assert_eq!(bytes.len(), 40);
    let restore = |bytes: &[u8], p: u32| backoff_restore(p, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, bytes);
    let mut resumed = restore(&bytes, GOOGLE).unwrap();
    assert_eq!(resumed.next_delay(), live.next_delay());
    let name = |err: JsValue| {
        let text = snapshot_error(err.as_f64().unwrap() as u32);
        text.split(' ').next().unwrap().to_string()
    };
    assert_eq!(
        name(restore(&bytes, GRPC).err().unwrap()),
        "policy_mismatch"
    );
    let mut damaged = bytes.clone();
    damaged[25] ^= 0x40;
    assert_eq!(
        name(restore(&damaged, GOOGLE).err().unwrap()),
        "bad_checksum"
    );
    assert_eq!(
        name(restore(&bytes[..39], GOOGLE).err().unwrap()),
        "wrong_length"
    );
    // A bad policy is still a RangeError naming the option, before the bytes are looked at.
    let err = backoff_restore(0, field::INITIAL_MS, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, &bytes)
        .err()
        .unwrap();
    assert!(err.is_instance_of::<RangeError>());
}

#[wasm_bindgen_test]
fn budgets_by_id() {
    let budget = budget_grpc(4, 500).unwrap();
    let mut b = preset(GOOGLE, 1);
    assert!(b.step(0, 0, false, 0, 0, budget, false) > 0);
    assert_eq!(budget_tokens_milli(budget), 3000);
    assert_eq!(b.step(0, 0, false, 0, 0, budget, false), -3);
    let err = budget_grpc(0, 1).err().unwrap();
    assert!(err.is_instance_of::<RangeError>());
    assert!(message(&err).starts_with("maxTokens"));
    // Absent AWS fields are the SDK defaults; a timeout costs 10 tokens.
    let aws = budget_aws_quota(0, 0, 0, 0, 0).unwrap();
    assert!(budget_try_acquire(aws, true));
    assert_eq!(budget_tokens_milli(aws), 490_000);
    assert!(budget_aws_quota(1, 0, 0, 0, 0).is_err());
    // A freed id is no budget: its slot is reused by the next one.
    budget_free(budget);
    assert_eq!(budget_tokens_milli(budget), 0);
    assert!(!budget_try_acquire(budget, false));
    let again = budget_grpc(10, 100).unwrap();
    assert_eq!(again, budget);
    assert_eq!(budget_tokens_milli(again), 10_000);
}

#[wasm_bindgen_test]
fn header_errors_cross_as_the_cores_kind() {
    assert_eq!(headers::parse_retry_after(b"120", 0.0), 120_000.0);
    let code = headers::parse_retry_after(b"Sun, 30 Feb 2025 00:00:00 GMT", 0.0);
    assert!(code < 0.0);
    let text = headers::retry_after_error((-code - 1.0) as u32);
    assert_eq!(text, "bad_day HTTP-date day must be within the month");
    assert_eq!(headers::classify_http(503), 1);
    assert_eq!(headers::classify_grpc(14), 1);
    assert_eq!(headers::classify_http(200), 0);
    assert_eq!(headers::classify_http(404), 2);
    assert_eq!(headers::classify_http(99), 3);
    assert!(headers::memory_bytes() >= 65536.0);
}
