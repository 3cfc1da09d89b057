//! `seeded-backoff vectors`: the cross-language test vectors of SPEC.md §11, computed by the core.
//!
//! The Rust, JS, C and firmware tests replay these files, and the independent Python model of
//! SPEC.md recomputes every value, so a change to the algorithm shows up as a diff here.

use std::path::Path;

use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget},
    classify_http,
    http::{classify_grpc, normalize_method, request_may_retry},
    policy::{DeadlineMode, MAX_DELAY_MS},
    Backoff, Classification, Jitter, Policy, PolicyBuilder,
};
use serde_json::{json, Value};

use crate::ops::{budget_config_json, policy_json, run_budget_op, run_op};

/// The seeds every schedule vector covers: the edges of u64 and of its low word.
pub const SEEDS: [u64; 5] = [0, 1, 42, 1 << 32, u64::MAX];

/// Steps per schedule case: more than any policy's retries, so the give-up is recorded too.
const STEPS: usize = 45;

fn build(b: PolicyBuilder) -> Policy {
    b.build().expect("vector policies are valid")
}

fn long_google(jitter: Jitter) -> Policy {
    build(Policy::builder().max_retries(50).jitter(jitter))
}

/// Every schedule vector: (file stem, description, policy, ops).
fn schedule_specs() -> Vec<(&'static str, &'static str, Policy, Vec<String>)> {
    let plain = || vec!["n".to_string(); STEPS];
    let ops = |list: &str| {
        list.split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let mut specs = vec![
        (
            "schedule-preset-google",
            "Google Cloud reference: 1 s, x2, +U[0,1000] ms, cap 32 s, 10 retries",
            Policy::google(),
            plain(),
        ),
        (
            "schedule-preset-google-64s",
            "Google Cloud with a 64 s cap",
            Policy::google_64s(),
            plain(),
        ),
        (
            "schedule-preset-aws",
            "AWS standard: full jitter, 100 ms, cap 20 s, 2 retries",
            Policy::aws_standard(),
            plain(),
        ),
        (
            "schedule-preset-grpc",
            "gRPC: 1 s, x8/5, +-20 %, cap 120 s, 10 retries",
            Policy::grpc(),
            plain(),
        ),
        (
            "schedule-preset-mobile",
            "mobile: equal jitter, 2 s, x2, cap 64 s, 16 retries",
            Policy::mobile(),
            plain(),
        ),
    ];
    for (stem, desc, jitter) in [
        (
            "schedule-strategy-none",
            "no jitter, 50 retries",
            Jitter::None,
        ),
        (
            "schedule-strategy-google",
            "Google additive jitter, 50 retries",
            Jitter::Google { jitter_ms: 1000 },
        ),
        (
            "schedule-strategy-full",
            "full jitter, 50 retries",
            Jitter::Full,
        ),
        (
            "schedule-strategy-equal",
            "equal jitter, 50 retries",
            Jitter::Equal,
        ),
        (
            "schedule-strategy-decorrelated",
            "decorrelated jitter, 50 retries",
            Jitter::Decorrelated,
        ),
        (
            "schedule-strategy-proportional",
            "proportional +-20 %, 50 retries",
            Jitter::Proportional {
                spread_per_mille: 200,
            },
        ),
    ] {
        specs.push((stem, desc, long_google(jitter), plain()));
    }
    specs.extend([
        (
            "schedule-edge-jitter-zero",
            "Google with jitter 0: hand-derivable 1000, 2000, ..., 32000, 32000",
            build(
                Policy::builder()
                    .max_retries(40)
                    .jitter(Jitter::Google { jitter_ms: 0 }),
            ),
            plain(),
        ),
        (
            "schedule-edge-cap-equals-initial",
            "cap = initial = 5000 ms, equal jitter",
            build(
                Policy::builder()
                    .initial_ms(5000)
                    .max_backoff_ms(5000)
                    .max_retries(40)
                    .jitter(Jitter::Equal),
            ),
            plain(),
        ),
        (
            "schedule-edge-zero-retries",
            "max_retries 0: give up at once",
            build(Policy::builder().max_retries(0)),
            plain(),
        ),
        (
            "schedule-edge-multiplier-one",
            "multiplier 1: constant base, full jitter",
            build(
                Policy::builder()
                    .initial_ms(700)
                    .multiplier(1, 1)
                    .max_retries(40)
                    .jitter(Jitter::Full),
            ),
            plain(),
        ),
        (
            "schedule-edge-multiplier-3-2-decorrelated",
            "multiplier 3/2 with decorrelated jitter, cap 10 s",
            build(
                Policy::builder()
                    .initial_ms(250)
                    .multiplier(3, 2)
                    .max_backoff_ms(10_000)
                    .max_retries(40)
                    .jitter(Jitter::Decorrelated),
            ),
            plain(),
        ),
        (
            "schedule-edge-extreme-range",
            "initial 1 ms, x1000, cap 2^31-1, proportional 100 %: every sum at its widest",
            build(
                Policy::builder()
                    .initial_ms(1)
                    .multiplier(1000, 1)
                    .max_backoff_ms(MAX_DELAY_MS)
                    .max_retries(40)
                    .jitter(Jitter::Proportional {
                        spread_per_mille: 1000,
                    }),
            ),
            plain(),
        ),
        (
            "schedule-edge-decorrelated-saturating",
            "decorrelated with cap 2^31-1: 3*prev saturates",
            build(
                Policy::builder()
                    .initial_ms(1_000_000_000)
                    .max_backoff_ms(MAX_DELAY_MS)
                    .max_retries(40)
                    .jitter(Jitter::Decorrelated),
            ),
            plain(),
        ),
        (
            "schedule-edge-rounding-fixpoint",
            "initial 3 ms, x1001/1000: the base rounds to no growth",
            build(
                Policy::builder()
                    .initial_ms(3)
                    .multiplier(1001, 1000)
                    .max_backoff_ms(100)
                    .max_retries(40)
                    .jitter(Jitter::Google { jitter_ms: 100 }),
            ),
            plain(),
        ),
        (
            "schedule-hints",
            "Retry-After hints (lower bound; beyond max_hint_ms 20 s gives up), a server stop, resets",
            build(Policy::builder().max_hint_ms(20_000)),
            ops("n h5000 h0 h120000 n r n h1500 x n r h3000 n n n n n n n n n n n r n"),
        ),
        (
            "schedule-paced",
            "paced: a Retry-After is the wait itself (0, below and above the backoff; beyond max_hint_ms 20 s gives up), snapshots, resets",
            build(Policy::builder().max_hint_ms(20_000).paced(true)),
            ops("h0 h0 n h1500 h120000 s h3000 l2000 n r h0 x n r h250 n h0 h0 h0 h0 h0 h0 h0 h0 n"),
        ),
        (
            "schedule-paced-deadline",
            "paced with a 10 s time budget (give up): the hints still count against it",
            build(
                Policy::builder()
                    .paced(true)
                    .max_retries(20)
                    .max_elapsed_ms(10_000),
            ),
            ops("h4000 h4000 s h1999 h3 h0 t9999 h1 t10000 h0 r h10000 r h10001"),
        ),
        (
            "schedule-deadline-give-up",
            "time budget 20 s, give up before crossing it; caller clocks and issued sums",
            build(
                Policy::builder()
                    .max_retries(20)
                    .max_elapsed_ms(20_000)
                    .jitter(Jitter::Full),
            ),
            ops("n n n n n n n r t0 t5000 t15000 t19990 r t25000 r n t18446744073709551615 r n n n n n"),
        ),
        (
            "schedule-deadline-clamp",
            "time budget 20 s, the last delay clamped to what is left",
            build(
                Policy::builder()
                    .max_retries(20)
                    .max_elapsed_ms(20_000)
                    .deadline(DeadlineMode::Clamp),
            ),
            ops("n n n n n n n r t19000 t19999 t20000 r n t4294967296 r n n n"),
        ),
        (
            "schedule-snapshot",
            "snapshot and restore between steps, after a give-up and after a reset",
            build(
                Policy::builder()
                    .max_retries(6)
                    .jitter(Jitter::Decorrelated)
                    .max_elapsed_ms(100_000),
            ),
            ops("s n s n n s h9000 s n n n n s n r s n s n"),
        ),
    ]);
    specs
}

fn schedule_file(
    name: &str,
    description: &str,
    policy: &Policy,
    ops: &[String],
) -> Result<Value, String> {
    let mut cases = Vec::new();
    for seed in SEEDS {
        let mut backoff = Backoff::new(policy, seed);
        let expect = ops
            .iter()
            .map(|op| run_op(policy, &mut backoff, op))
            .collect::<Result<Vec<_>, _>>()?;
        cases.push(json!({ "seed": seed.to_string(), "ops": ops, "expect": expect }));
    }
    Ok(json!({
        "kind": "schedule",
        "name": name,
        "description": description,
        "policy": policy_json(policy),
        "cases": cases,
    }))
}

fn budget_file() -> Result<Value, String> {
    let failures = |n: usize| {
        std::iter::repeat_n(["fe", "ae"], n)
            .flatten()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let mut specs: Vec<(BudgetConfig, Vec<String>)> = vec![
        (
            BudgetConfig::grpc(10, 500).map_err(|e| e.to_string())?,
            failures(8),
        ),
        (
            BudgetConfig::grpc(1000, 100).map_err(|e| e.to_string())?,
            failures(510),
        ),
        (
            BudgetConfig::AWS_DEFAULT,
            std::iter::repeat_n("ae".to_string(), 105).collect(),
        ),
        (
            BudgetConfig::AWS_DEFAULT,
            std::iter::repeat_n("at".to_string(), 55).collect(),
        ),
    ];
    let mixed: Vec<String> = [
        "fe", "ae", "fe", "ae", "s", "fe", "ft", "ae", "se", "st", "s", "fe", "fe", "fe", "ae",
        "ae", "s", "s", "s", "ae",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    specs.push((
        BudgetConfig::grpc(3, 1500).map_err(|e| e.to_string())?,
        mixed.clone(),
    ));
    specs.push((
        BudgetConfig::aws_quota(12, 5, 10, 1).map_err(|e| e.to_string())?,
        mixed,
    ));
    let mut cases = Vec::new();
    for (config, ops) in specs {
        let budget = RetryBudget::new(config);
        let expect = ops
            .iter()
            .map(|op| run_budget_op(&budget, op))
            .collect::<Result<Vec<_>, _>>()?;
        cases.push(json!({ "budget": budget_config_json(config), "ops": ops, "expect": expect }));
    }
    Ok(
        json!({ "kind": "budget", "description": "gRFC A6 throttling and AWS retry quota token buckets", "cases": cases }),
    )
}

fn classify_file() -> Value {
    let http: Vec<Value> = [
        0u32,
        99,
        100,
        101,
        199,
        200,
        201,
        204,
        299,
        300,
        304,
        399,
        400,
        401,
        404,
        408,
        428,
        429,
        430,
        499,
        500,
        501,
        502,
        503,
        504,
        599,
        600,
        999,
        65_535,
        u32::MAX,
    ]
    .into_iter()
    .map(|s| {
        json!([
            s,
            u16::try_from(s)
                .map_or(Classification::Invalid, classify_http)
                .name()
        ])
    })
    .collect();
    let grpc: Vec<Value> = (0u32..=17)
        .chain([100, u32::MAX])
        .map(|c| json!([c, classify_grpc(c).name()]))
        .collect();
    // SPEC.md §7.1: [method as given, as a Fetch client sends it, whether the rule lets that be
    // retried without an Idempotency-Key].
    let methods: Vec<Value> = [
        "GET", "get", "Get", "HEAD", "head", "OPTIONS", "oPtIoNs", "PUT", "put", "DELETE",
        "delete", "POST", "post", "TRACE", "trace", "PATCH", "patch", "CONNECT", "connect", "GETS",
        "",
    ]
    .into_iter()
    .map(|m| {
        let sent = core::str::from_utf8(normalize_method(m.as_bytes())).unwrap_or(m);
        json!([m, sent, request_may_retry(sent.as_bytes(), false)])
    })
    .collect();
    json!({ "kind": "classify", "description": "HTTP status and gRPC code classification, and which methods may be retried", "http": http, "grpc": grpc, "methods": methods })
}

/// Writes every vector file into `dir`, replacing what is there.
pub fn write_all(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let mut files: Vec<(String, Value)> = Vec::new();
    for (stem, description, policy, ops) in schedule_specs() {
        files.push((
            stem.to_string(),
            schedule_file(stem, description, &policy, &ops)?,
        ));
    }
    for (stem, description, policy, ops) in crate::vectors_rate_limit::schedule_specs()
        .into_iter()
        .chain(crate::vectors_hint_limit::schedule_specs())
    {
        files.push((
            stem.to_string(),
            schedule_file(stem, description, &policy, &ops)?,
        ));
    }
    files.push((
        "retry-after".to_string(),
        crate::vectors_retry_after::file(),
    ));
    files.push(("rate-limit".to_string(), crate::vectors_rate_limit::file()));
    files.push(("budget".to_string(), budget_file()?));
    files.push(("classify".to_string(), classify_file()));
    files.push(("run-loop".to_string(), crate::vectors_run::file()?));
    files.push(("send-rate".to_string(), crate::vectors_send_rate::file()));
    files.push((
        "run-send-rate".to_string(),
        crate::vectors_run_send_rate::file()?,
    ));
    files.push(("pacer".to_string(), crate::vectors_pacer::file()?));
    files.push(("call-seeds".to_string(), crate::vectors_call_seed::file()));
    // The firmware's loop, apart from the files every binding replays: only the core and the C
    // library have it.
    files.push((
        "reconnect/reconnect".to_string(),
        crate::vectors_reconnect::file(),
    ));
    // The startup delay's runs (SPEC.md §15.3), in their own directory beside run-loop.json.
    files.push((
        "startup/run-startup".to_string(),
        crate::vectors_run_startup::file()?,
    ));
    for (stem, value) in &files {
        let path = dir.join(format!("{stem}.json"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("error: cannot create {}: {e}", parent.display()))?;
        }
        let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())? + "\n";
        std::fs::write(&path, text)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
    }
    println!("wrote {} vector files to {}", files.len(), dir.display());
    Ok(())
}
