//! The vector op language of SPEC.md §11, run against the core: shared by `vectors` (which
//! records results) and the integration tests (which replay them).

use seeded_backoff::{Backoff, Policy, ServerHint, Step, StepInput};
use serde_json::{json, Value};

/// The policy as the JSON object that vectors and `schedule --format json` print.
pub fn policy_json(p: &Policy) -> Value {
    let (num, den) = p.multiplier();
    json!({
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
    })
}

/// A step's result as a vector value: the delay, or the give-up reason's name.
pub fn step_json(step: Step) -> Value {
    match step {
        Step::Retry { delay_ms, .. } => json!(delay_ms),
        Step::GiveUp(reason) => json!(reason.name()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs one op (`n`, `h<ms>`, `x`, `t<ms>`, `r`, `s`) and returns its expected value.
pub fn run_op(policy: &Policy, backoff: &mut Backoff, op: &str) -> Result<Value, String> {
    let arg = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| format!("bad op argument in '{op}'"))
    };
    let input = match op.split_at(op.len().min(1)) {
        ("n", "") => StepInput::default(),
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
