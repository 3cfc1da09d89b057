//! The rate-limit vectors of SPEC.md §8.3 and §5 step 6: parse cases for every header of the core's
//! table, and schedules stepped with rate-limit hints (`l<ms>` ops).

use crate::vectors_retry_after::at_bound;
use seeded_backoff::{
    http::{parse_rate_limit, RateLimitHeader, MAX_HEADER_VALUE_LEN, RATE_LIMIT_HEADERS},
    policy::{DeadlineMode, MAX_DELAY_MS},
    Jitter, Policy,
};
use serde_json::{json, Value};

/// Schedules with rate-limit hints: (file stem, description, policy, ops).
pub fn schedule_specs() -> Vec<(&'static str, &'static str, Policy, Vec<String>)> {
    let ops = |list: &str| list.split_whitespace().map(String::from).collect();
    let build = |b: seeded_backoff::PolicyBuilder| b.build().expect("vector policies are valid");
    vec![
        (
            "schedule-rate-limit",
            "rate-limit hints: reset + U[0, 1000 + h/10], one extra draw; beyond max_hint_ms 60 s gives up",
            build(Policy::builder().max_retries(12).max_hint_ms(60_000)),
            ops("l30000 n l0 l1500 h2000 s l60000 l60001 n x r l4294967295 r n l5000 s n n n n n n n n n"),
        ),
        (
            "schedule-rate-limit-none",
            "rate-limit hints with strategy none: the hint's draw is the only one",
            build(
                Policy::builder()
                    .jitter(Jitter::None)
                    .max_retries(6)
                    .max_backoff_ms(MAX_DELAY_MS)
                    .max_hint_ms(MAX_DELAY_MS),
            ),
            ops("l10000 l0 n l4294967295 r l2147483647 s l1 n n"),
        ),
        (
            "schedule-rate-limit-deadline",
            "rate-limit hints against a 40 s time budget: a give-up takes no draw; clamp mode",
            build(
                Policy::builder()
                    .jitter(Jitter::Full)
                    .max_retries(10)
                    .max_elapsed_ms(40_000)
                    .max_hint_ms(40_000)
                    .deadline(DeadlineMode::Clamp),
            ),
            ops("l20000 l15000 l9000 r t0 l39000 t39990 l5000 r l50000 n"),
        ),
    ]
}

/// Parse cases: (header name, value bytes, now_unix_s).
fn cases() -> Vec<(&'static str, Vec<u8>, u64)> {
    let mut cases: Vec<(&'static str, Vec<u8>, u64)> = Vec::new();
    let resets: [(&str, u64); 22] = [
        ("30", 0),
        (" \t7\t ", 0),
        ("0", 0),
        ("1.234", 0),
        ("1.2341", 0),
        ("0.0001", 0),
        ("0.9999", 0),
        ("4294967.295", 0),
        ("4294967.296", 0),
        ("1000000000", 1_000_000_000),
        ("1000000001", 1_000_000_000),
        ("1000000001", 1_000_000_002),
        ("1700000060", 1_700_000_000),
        ("1700000000.25", 1_700_000_000),
        ("99999999999999999999999999", 9_007_199_254_740),
        ("", 0),
        ("-1", 0),
        ("1.", 0),
        (".5", 0),
        ("+1", 0),
        ("1e3", 0),
        ("Sun, 06 Nov 1994 08:49:37 GMT", 0),
    ];
    for h in RATE_LIMIT_HEADERS {
        if h == RateLimitHeader::RateLimit {
            continue;
        }
        for (v, now) in resets {
            cases.push((h.name(), v.as_bytes().to_vec(), now));
        }
    }
    let structured = [
        r#""default";r=0;t=30"#,
        "default;r=0;t=30",
        r#""a";r=5;t=10, "b";r=0;t=3"#,
        r#""a";r=5;t=10, "b";r=6;t=3"#,
        r#""a";r=0;t=10, "b";r=0;t=40"#,
        r#""a";t=10, "b";r=0"#,
        "limit=100, remaining=0, reset=7",
        "limit=100, remaining=50, reset=7",
        "default;remaining=0;reset=9",
        r#" "x,y;z" ; r = 0 ; t = 12 "#,
        r#""a\";t=1";t=2"#,
        r#""a";t=abc;t=4"#,
        r#""a";t=4;t=6"#,
        r#""a";t=99999999999"#,
        "",
        " \t",
        r#""a";r=0"#,
        "limit=100",
        r#""a";t=-1"#,
        ",,;;",
        "\"unterminated;t=5",
    ];
    for v in structured {
        cases.push(("ratelimit", v.as_bytes().to_vec(), 0));
    }
    cases.push(("ratelimit", b"\"q\";r=0;t=5\xff".to_vec(), 0));
    cases.push(("x-ratelimit-reset", b"5\xff".to_vec(), 0));
    // A byte outside ASCII (SPEC.md §8) anywhere, a quoted quota name or an ignored key included.
    cases.push((
        "ratelimit",
        "\"d\u{e9}faut\";r=0;t=30".as_bytes().to_vec(),
        0,
    ));
    cases.push(("ratelimit", b"\"d\xe9faut\";r=0;t=30".to_vec(), 0));
    cases.push((
        "ratelimit",
        "\"q\";r=0;t=30;note=\u{1f600}".as_bytes().to_vec(),
        0,
    ));
    cases.push(("ratelimit-reset", "30\u{a0}".as_bytes().to_vec(), 0));
    // The length bound (SPEC.md §8): 8192 bytes are read, 8193 are `too_long` whatever they hold.
    for len in [MAX_HEADER_VALUE_LEN, MAX_HEADER_VALUE_LEN + 1] {
        cases.push(("x-ratelimit-reset", at_bound(b"5", b'0', len), 0));
        cases.push(("ratelimit", at_bound(br#""q";r=0;t=5"#, b' ', len), 0));
    }
    cases
}

/// The `rate_limit` vector file (SPEC.md §11).
pub fn file() -> Value {
    let cases: Vec<Value> = cases()
        .into_iter()
        .map(|(name, value, now)| {
            let header = RateLimitHeader::from_name(name).expect("a name of the core's table");
            let mut case = match std::str::from_utf8(&value) {
                Ok(text) => json!({ "header": name, "value": text, "now": now }),
                Err(_) => json!({
                    "header": name,
                    "value_hex": value.iter().map(|b| format!("{b:02x}")).collect::<String>(),
                    "now": now,
                }),
            };
            match parse_rate_limit(header, &value, now) {
                Ok(ms) => case["expect_ms"] = json!(ms),
                Err(e) => case["error"] = json!(e.name()),
            }
            case
        })
        .collect();
    json!({
        "kind": "rate_limit",
        "description": "rate-limit headers of a 429: RateLimit structured field and reset values (seconds, fractions, Unix times)",
        "headers": RATE_LIMIT_HEADERS.map(|h| h.name()),
        "cases": cases,
    })
}
