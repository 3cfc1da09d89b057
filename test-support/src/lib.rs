//! The vector op language of SPEC.md §11, implemented once: the CLI's `vectors` command records
//! results with it, and the core's tests replay `tests/vectors` with it.
//!
//! Policies and budgets go to and from the JSON objects the vector files hold; a schedule op
//! (`n`, `h<ms>`, `x`, `t<ms>`, `r`, `s`) or a budget op (`fe`, `ft`, `ae`, `at`, `s`, `se`,
//! `st`) runs against the core and returns the value the vector expects.

mod run_json;

use std::path::{Path, PathBuf};

pub use run_json::{action_json, run_event, run_event_paced, send_rate_config_from_json};

use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    policy::DeadlineMode,
    Backoff, FailureKind, Jitter, Policy, ServerHint, Step, StepInput,
};
use serde_json::{json, Value};

/// The policy as the JSON object that vectors and `schedule --format json` print.
pub fn policy_json(p: &Policy) -> Value {
    let (num, den) = p.multiplier();
    let mut policy = json!({
        "initial_ms": p.initial_ms(),
        "multiplier_num": num,
        "multiplier_den": den,
        "max_backoff_ms": p.max_backoff_ms(),
        "max_retries": p.max_retries(),
        "jitter": p.jitter().name(),
        "jitter_ms": if p.jitter().name() == "google" { p.jitter().param() } else { 0 },
        "spread_per_mille": if p.jitter().name() == "proportional" { p.jitter().param() } else { 0 },
        "max_hint_ms": p.max_hint_ms(),
        "max_elapsed_ms": p.max_elapsed_ms(),
        "deadline": p.deadline().name(),
    });
    // Present only when set, so that the files of policies without it read as before.
    if p.paced() {
        policy["paced"] = json!(true);
    }
    policy
}

fn u32_of(v: &Value, key: &str) -> Result<u32, String> {
    v[key]
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("{key} is not a u32 in {v}"))
}

/// The policy a vector file's `policy` object describes (the inverse of [`policy_json`]).
pub fn policy_from_json(v: &Value) -> Result<Policy, String> {
    let name = v["jitter"].as_str().ok_or("jitter is not a string")?;
    let param = match name {
        "google" => u32_of(v, "jitter_ms")?,
        "proportional" => u32_of(v, "spread_per_mille")?,
        _ => 0,
    };
    let deadline = match v["deadline"].as_str() {
        Some("clamp") => DeadlineMode::Clamp,
        Some("give_up") => DeadlineMode::GiveUp,
        other => return Err(format!("unknown deadline {other:?}")),
    };
    Policy::builder()
        .initial_ms(u32_of(v, "initial_ms")?)
        .multiplier(u32_of(v, "multiplier_num")?, u32_of(v, "multiplier_den")?)
        .max_backoff_ms(u32_of(v, "max_backoff_ms")?)
        .max_retries(u32_of(v, "max_retries")?)
        .jitter(Jitter::from_name(name, param).ok_or_else(|| format!("unknown jitter {name}"))?)
        .max_hint_ms(u32_of(v, "max_hint_ms")?)
        .max_elapsed_ms(u32_of(v, "max_elapsed_ms")?)
        .deadline(deadline)
        .paced(v["paced"].as_bool().unwrap_or(false))
        .build()
        .map_err(|e| e.to_string())
}

/// A step's result as a vector value: the delay, or the give-up reason's name.
pub fn step_json(step: Step) -> Value {
    match step {
        Step::Retry { delay_ms, .. } => json!(delay_ms),
        Step::GiveUp(reason) => json!(reason.name()),
    }
}

/// Bytes as lower-case hex, as vectors write snapshots.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs one schedule op (`n`, `h<ms>`, `l<ms>`, `x`, `t<ms>`, `r`, `s`) and returns its expected value.
/// `n` is the plain `next_delay`, which has a fast path of its own to keep honest.
pub fn run_op(policy: &Policy, backoff: &mut Backoff, op: &str) -> Result<Value, String> {
    let arg = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| format!("bad op argument in '{op}'"))
    };
    let input = match op.split_at(op.len().min(1)) {
        ("n", "") => return Ok(step_json(backoff.next_delay(policy))),
        ("x", "") => StepInput {
            hint: Some(ServerHint::DoNotRetry),
            ..StepInput::default()
        },
        ("h", ms) => StepInput {
            hint: Some(ServerHint::RetryAfterMs(
                u32::try_from(arg(ms)?).map_err(|_| format!("hint too large in '{op}'"))?,
            )),
            ..StepInput::default()
        },
        ("l", ms) => StepInput {
            hint: Some(ServerHint::RateLimitResetMs(
                u32::try_from(arg(ms)?).map_err(|_| format!("hint too large in '{op}'"))?,
            )),
            ..StepInput::default()
        },
        ("t", ms) => StepInput {
            elapsed_ms: Some(arg(ms)?),
            ..StepInput::default()
        },
        ("r", "") => {
            backoff.reset(policy);
            return Ok(Value::Null);
        }
        ("s", "") => {
            let bytes = backoff.snapshot(policy);
            *backoff = Backoff::restore(policy, &bytes).map_err(|e| e.to_string())?;
            return Ok(json!(hex(&bytes)));
        }
        _ => return Err(format!("unknown op '{op}'")),
    };
    Ok(step_json(backoff.next_delay_with(policy, input)))
}

/// A budget's parameters as the JSON object vectors hold.
pub fn budget_config_json(config: BudgetConfig) -> Value {
    match config {
        BudgetConfig::Grpc {
            max_milli,
            ratio_milli,
        } => {
            json!({ "kind": "grpc", "max_tokens": max_milli / 1000, "token_ratio_milli": ratio_milli })
        }
        BudgetConfig::AwsQuota {
            capacity_milli,
            retry_cost_milli,
            timeout_cost_milli,
            no_retry_increment_milli,
        } => json!({
            "kind": "aws_quota",
            "capacity": capacity_milli / 1000,
            "retry_cost": retry_cost_milli / 1000,
            "timeout_cost": timeout_cost_milli / 1000,
            "no_retry_increment": no_retry_increment_milli / 1000,
        }),
    }
}

/// The budget parameters a vector's `budget` object describes (the inverse of
/// [`budget_config_json`]).
pub fn budget_config_from_json(c: &Value) -> Result<BudgetConfig, String> {
    match c["kind"].as_str() {
        Some("grpc") => {
            BudgetConfig::grpc(u32_of(c, "max_tokens")?, u32_of(c, "token_ratio_milli")?)
        }
        Some("aws_quota") => BudgetConfig::aws_quota(
            u32_of(c, "capacity")?,
            u32_of(c, "retry_cost")?,
            u32_of(c, "timeout_cost")?,
            u32_of(c, "no_retry_increment")?,
        ),
        other => return Err(format!("unknown budget kind {other:?}")),
    }
    .map_err(|e| e.to_string())
}

/// Runs one budget op (`f<k>` record a failure, `a<k>` try to acquire, `s` a first-try success,
/// `s<k>` a success after a retry of kind `k`; `k` is `e` error or `t` timeout) and returns
/// `[allowed, tokens_milli]`.
pub fn run_budget_op(budget: &RetryBudget, op: &str) -> Result<Value, String> {
    let kind = |c: &str| match c {
        "e" => Ok(FailureKind::Error),
        "t" => Ok(FailureKind::Timeout),
        _ => Err(format!("unknown budget op '{op}'")),
    };
    let allowed = match op.split_at(op.len().min(1)) {
        ("f", k) => {
            budget.record_failure(kind(k)?);
            true
        }
        ("a", k) => budget.try_acquire(kind(k)?),
        ("s", "") => {
            budget.record_success(None);
            true
        }
        ("s", k) => {
            budget.record_success(Some(kind(k)?));
            true
        }
        _ => return Err(format!("unknown budget op '{op}'")),
    };
    Ok(json!([allowed as u8, budget.tokens_milli()]))
}

/// The repository's `tests/vectors` directory.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// Every vector file as `(file name, parsed JSON)`, sorted by name.
pub fn vector_files() -> Result<Vec<(String, Value)>, String> {
    let dir = vectors_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let json = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            Ok((
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                json,
            ))
        })
        .collect()
}

/// A schedule case's seed (vectors write it as a decimal string, beyond JSON's safe integers).
pub fn seed_of(case: &Value) -> Result<u64, String> {
    case["seed"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad seed in {case}"))
}

/// The names in backquotes of `column` in the table of SPEC.md's section `section` ("14", "18"),
/// one list per row, with the row's concept: what a binding's test compares its names with.
pub fn spec_table_column(section: &str, column: &str) -> Vec<(String, Vec<String>)> {
    let spec = std::fs::read_to_string(vectors_dir().join("../../SPEC.md")).unwrap_or_default();
    let text = spec
        .split(&format!("\n## {section}. "))
        .nth(1)
        .unwrap_or_default()
        .split("\n## ")
        .next()
        .unwrap_or_default();
    let mut rows = text.lines().filter(|l| l.starts_with('|'));
    let header: Vec<&str> = rows
        .next()
        .unwrap_or_default()
        .split('|')
        .map(str::trim)
        .collect();
    let Some(at) = header.iter().position(|h| *h == column) else {
        return Vec::new();
    };
    rows.skip(1) // the |---| line
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let names = cells.get(at).unwrap_or(&"").split('`').skip(1).step_by(2);
            let concept = cells.get(1).unwrap_or(&"").to_string();
            (concept, names.map(str::to_string).collect())
        })
        .collect()
}
