//! The reconnect vectors of SPEC.md §12.3: a device's loop under `RETRY_FOREVER` and under a
//! finite count, at the start and at the last count, with resets, and a refused time budget.

use seeded_backoff::{
    fleet::seed_from_device,
    reconnect::{Reconnect, RETRY_FOREVER},
    Jitter, Policy, PolicyBuilder, Step,
};
use serde_json::{json, Value};

use crate::ops::policy_json;

fn build(b: PolicyBuilder) -> Policy {
    b.build().expect("a vector's policy is valid")
}

/// (name, policy, seed, ops): the reconnect archive's own policy (1 s, x2, 64 s, full jitter,
/// forever) from a device's seed, its last counts, and a jitter-free policy whose delays and
/// counts are written out by hand in core/tests/reconnect.rs.
fn cases() -> Vec<(&'static str, Policy, u64, &'static str)> {
    let device = seed_from_device(&[0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6], 1);
    let full_64s = build(
        Policy::builder()
            .max_backoff_ms(64_000)
            .jitter(Jitter::Full)
            .max_retries(RETRY_FOREVER),
    );
    let none_8s = |retries| {
        build(
            Policy::builder()
                .max_backoff_ms(8_000)
                .jitter(Jitter::None)
                .max_retries(retries),
        )
    };
    let forever = |p: Policy| build(p.to_builder().max_retries(RETRY_FOREVER));
    vec![
        (
            "full-64s-device",
            full_64s,
            device,
            "n n n n n n n n n n n n n n r n n",
        ),
        (
            "full-64s-last-counts",
            full_64s,
            42,
            "f4294967293 n n n n r n",
        ),
        (
            "none-forever",
            none_8s(RETRY_FOREVER),
            0,
            "f4294967293 n n n n r n n",
        ),
        ("none-finite", none_8s(3), 0, "n n n n n r n"),
        ("none-zero-retries", none_8s(0), 0, "n n r n"),
        (
            "google-forever",
            forever(Policy::google()),
            1,
            "n n n n n n n n f4294967294 n n",
        ),
        (
            "grpc-forever",
            forever(Policy::grpc()),
            u64::MAX,
            "n n n n n n f4294967295 n n",
        ),
        (
            "decorrelated-forever",
            forever(build(Policy::builder().jitter(Jitter::Decorrelated))),
            3,
            "n n n n f4294967294 n n n",
        ),
        ("mobile-finite", Policy::mobile(), 1 << 32, "f15 n n n r n"),
    ]
}

fn step(r: &mut Reconnect, policy: &Policy, op: &str) -> Value {
    match op {
        "n" => match r.next_delay(policy) {
            Step::Retry { delay_ms, .. } => json!(delay_ms),
            Step::GiveUp(reason) => json!(reason.name()),
        },
        "r" => {
            r.reset(policy);
            Value::Null
        }
        _ => {
            let n = op[1..].parse().expect("f<n>");
            r.fast_forward(policy, n);
            Value::Null
        }
    }
}

/// The `reconnect` vector file.
pub fn file() -> Value {
    let mut out = Vec::new();
    for (name, policy, seed, ops) in cases() {
        let mut r = Reconnect::new(&policy, seed).expect("no time budget");
        let ops: Vec<&str> = ops.split(' ').collect();
        let mut expect = Vec::new();
        let mut retries = Vec::new();
        for op in &ops {
            expect.push(step(&mut r, &policy, op));
            retries.push(r.retries());
        }
        out.push(
            json!({ "name": name, "policy": policy_json(&policy), "seed": seed.to_string(),
            "ops": ops, "expect": expect, "expect_retries": retries }),
        );
    }
    let timed = build(
        Policy::builder()
            .max_elapsed_ms(60_000)
            .max_retries(RETRY_FOREVER),
    );
    let error = Reconnect::new(&timed, 1).expect_err("a time budget is refused");
    out.push(
        json!({ "name": "time-budget", "policy": policy_json(&timed), "seed": "1",
        "error": error.error.name() }),
    );
    json!({
        "kind": "reconnect",
        "description": "a device's reconnect loop (SPEC.md §12.3): retry forever, a finite count, resets",
        "cases": out,
    })
}
