//! The pacer vectors of SPEC.md §16.5: every configuration error, and schedules that cover a shed
//! burst, the reserve kept in a schedule's first second and lent after it, a refusal joining a
//! running schedule and one restarting a drained one, the spread inside a second, a clock going
//! backwards, a full schedule, rates above 1000 a second and the clock's upper clamp, each
//! computed by the core.

use seeded_backoff::pacer::Pacer;
use serde_json::{json, Value};

/// One op of §16.5 on `pacer`: `a<now_ms>` assigns, `p<now_ms>` counts what is pending.
pub fn run_op(pacer: &mut Pacer, op: &str) -> Result<Value, String> {
    let now = |rest: &str| {
        rest.parse::<u64>()
            .map_err(|e| format!("bad pacer op {op}: {e}"))
    };
    match op.split_at(1) {
        ("a", rest) => {
            let slot = pacer.assign(now(rest)?);
            Ok(json!([
                slot.retry_after_s,
                slot.reset_ms,
                u8::from(slot.full)
            ]))
        }
        ("p", rest) => Ok(json!(pacer.pending(now(rest)?))),
        _ => Err(format!("unknown pacer op {op}")),
    }
}

fn repeat(op: &str, n: usize) -> Vec<String> {
    vec![op.to_string(); n]
}

fn ops(list: &str) -> Vec<String> {
    list.split_whitespace().map(String::from).collect()
}

/// Every case: (capacity_per_s, reserve_per_mille, max_wait_s, seed, ops).
fn cases() -> Vec<(u32, u32, u32, u64, Vec<String>)> {
    let mut shed = repeat("a0", 905);
    shed.extend(ops("p0 p999 p1000 p4500 p9000 p9999 p10000"));
    let mut reserve = repeat("a250", 95);
    reserve.extend(ops("p250 a1100 a1999 a2000 p2000"));
    // 45 at once at 10/s with 20 % kept: 8 in second 1, 10 in seconds 2..=4, 7 in second 5; a
    // refusal at 2.5 s joins second 5, and those at 5.5 s (nothing pending) open a new reserve
    // second 6 (8), then second 7.
    let mut lent = repeat("a0", 45);
    lent.extend(ops("p0 p1000 p2000 p4000 p5000 a2500 p2500"));
    lent.extend(repeat("a5500", 10));
    lent.extend(ops("p5500 p6000"));
    // Second 1 filled by 1000 returns, then full calls: the one at 999 moves `latest_ms` (step 1)
    // though the schedule is full, so the one at 500 reads as 999: `reset_ms` 1000, not 1499.
    let mut full_latest = repeat("a0", 1000);
    full_latest.extend(ops("a999 a500 p0"));
    let mut fast = repeat("a999", 6);
    fast.extend(ops("a1000 a1001 p0"));
    vec![
        (100, 0, 60, 42, shed),
        (100, 100, 60, 7, reserve),
        (10, 200, 60, 31, lent),
        (4, 500, 3, 2, ops("a0 a0 a0 a0 a0 a0 a0 a0 a0 a0 p0 a1000 a1999 p1999 a4000 p4000")),
        (
            3,
            0,
            5,
            1,
            ops("a0 a0 a0 a0 a250 a999 a1000 a1700 a1700 a5000 p5000 a9999 p0"),
        ),
        (2, 0, 60, u64::MAX, ops("a10500 a2000 a2000 a11999 a12000 p0 p13000")),
        (1, 0, 2, 0, ops("a0 a0 a0 a0 a0 p0 a1000 a1000 a2500 p2500")),
        (5000, 200, 60, 1 << 32, fast),
        (1_000_000, 999, 86_400, 3, ops("a0 a0 a1 p1")),
        (
            10,
            500,
            86_400,
            9,
            ops("a18446744073709551615 a9223372036854775808 a9223372036854775807 p18446744073709551615"),
        ),
        (1, 999, 1, 5, ops("a0 a0 a0 a999 a1000 a1000 p0")),
        (1000, 0, 1, 6, full_latest),
    ]
}

/// The `pacer` vector file.
pub fn file() -> Result<Value, String> {
    let mut out = Vec::new();
    for (capacity, reserve, max_wait, seed) in [
        (0, 0, 60, 1),
        (1_000_001, 0, 60, 1),
        (u32::MAX, 0, 60, 1),
        (100, 1000, 60, 1),
        (100, u32::MAX, 60, 1),
        (100, 0, 0, 1),
        (100, 0, 86_401, 1),
        (0, 1000, 0, 1),
        (100, 1000, 0, 1),
    ] {
        let config = json!({ "capacity_per_s": capacity, "reserve_per_mille": reserve,
                             "max_wait_s": max_wait, "seed": seed.to_string() });
        match Pacer::new(capacity, reserve, max_wait, seed) {
            Err(e) => out.push(json!({ "config": config, "error": e.error.name() })),
            Ok(_) => return Err(format!("pacer config {config} should be refused")),
        }
    }
    for (capacity, reserve, max_wait, seed, list) in cases() {
        let mut pacer = Pacer::new(capacity, reserve, max_wait, seed).map_err(|e| e.to_string())?;
        let expect = list
            .iter()
            .map(|op| run_op(&mut pacer, op))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(json!({
            "config": { "capacity_per_s": capacity, "reserve_per_mille": reserve,
                        "max_wait_s": max_wait, "seed": seed.to_string() },
            "ops": list, "expect": expect,
        }));
    }
    Ok(json!({ "kind": "pacer", "description": "server pacing (SPEC.md §16)", "cases": out }))
}
