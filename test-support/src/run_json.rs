//! The run vectors' event and action language (SPEC.md §15, §11): one event object in, the
//! action (or the error) the run answers out, as the `run-*.json` files hold them.

use std::cell::Cell;

use seeded_backoff::{
    budget::{RetryBudget, RetryGate},
    run::PauseReason,
    send_rate::{Answer, Pace, SendRate, SendRateConfig},
    Action, FailureKind, Outcome, Policy, Run, ServerHint,
};
use serde_json::{json, Value};

/// The event's hint: `hint` is `retry_after`, `rate_limit` (with `hint_ms`) or `do_not_retry`.
fn hint_of(event: &Value) -> Result<Option<ServerHint>, String> {
    let ms = || {
        event["hint_ms"]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("hint_ms missing or above u32 in {event}"))
    };
    Ok(match event["hint"].as_str() {
        None => None,
        Some("retry_after") => Some(ServerHint::RetryAfterMs(ms()?)),
        Some("rate_limit") => Some(ServerHint::RateLimitResetMs(ms()?)),
        Some("do_not_retry") => Some(ServerHint::DoNotRetry),
        Some(other) => return Err(format!("unknown hint {other:?}")),
    })
}

/// An action as the JSON object the vectors expect.
pub fn action_json(action: Action) -> Value {
    match action {
        Action::Attempt { attempt } => json!({ "a": "attempt", "attempt": attempt }),
        Action::Retry { attempt, delay_ms } => {
            json!({ "a": "retry", "attempt": attempt, "delay_ms": delay_ms })
        }
        Action::Wait { delay_ms } => json!({ "a": "wait", "delay_ms": delay_ms }),
        Action::Paused { max_ms } => json!({ "a": "paused", "max_ms": max_ms }),
        Action::Done { attempts } => json!({ "a": "done", "attempts": attempts }),
        Action::GiveUp { attempts, reason } => {
            json!({ "a": "give_up", "attempts": attempts, "reason": reason.map(|r| r.name()) })
        }
    }
}

/// Decodes lower-case or upper-case hex.
pub fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd-length hex {text:?}"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            core::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| format!("bad hex {text:?}"))
        })
        .collect()
}

/// Feeds one event object (`{"e": "start" | "success" | "fail" | "permanent" | "offline" |
/// "wake" | "pause" | "resume", "now"?, ...}`, or `snapshot` / `restore` with `bytes`) to `run`
/// and returns what it answers. `snapshot` goes on with the run restored from its bytes, so that
/// a replay checks the restored run too.
pub fn run_event(
    policy: &Policy,
    run: &mut Run,
    budget: Option<&RetryBudget>,
    event: &Value,
) -> Result<Value, String> {
    run_event_paced(policy, run, budget, None, event)
}

/// A send rate's configuration from its vector object (SPEC.md §17.7), checked by the core.
pub fn send_rate_config_from_json(c: &Value) -> Result<SendRateConfig, String> {
    let u = |k: &str| {
        c[k].as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("send rate field {k} missing in {c}"))
    };
    let config = SendRateConfig {
        min_rate_milli: u("min_rate_milli")?,
        max_rate_milli: u("max_rate_milli")?,
        margin_permille: u("margin_permille")?,
        probe_ms: u("probe_ms")?,
        probe_first_permille: u("probe_first_permille")?,
        probe_max_permille: u("probe_max_permille")?,
        guard_ms: u("guard_ms")?,
        burst: u("burst")?,
        max_hold_ms: u("max_hold_ms")?,
        fail_fast: c["fail_fast"]
            .as_bool()
            .ok_or("send rate fail_fast missing")?,
    };
    config.check().map_err(|e| e.to_string())
}

/// The answer an event names (`"answer"`: `accepted`, `throttled` with `hint_ms`, `no_answer`).
fn answer_of_event(event: &Value) -> Result<Option<Answer>, String> {
    Ok(match event["answer"].as_str() {
        None => None,
        Some("accepted") => Some(Answer::Accepted),
        Some("no_answer") => Some(Answer::NoAnswer),
        Some("throttled") => Some(Answer::Throttled {
            hint_ms: event["hint_ms"]
                .as_u64()
                .map_or(Ok(0), u32::try_from)
                .map_err(|e| e.to_string())?,
        }),
        Some(other) => return Err(format!("unknown answer {other:?}")),
    })
}

/// The pace as the vectors write it (SPEC.md §17.7).
fn pace_json(pace: Pace) -> Value {
    match pace {
        Pace::Send => json!({ "a": "pace", "pace": "send" }),
        Pace::Wait { ms } => json!({ "a": "pace", "pace": "wait", "ms": ms }),
        Pace::Refuse { ms } => json!({ "a": "pace", "pace": "refuse", "ms": ms }),
    }
}

/// [`run_event`] with the run paced by `rate` (SPEC.md §15.2): `start`, `wake` and the outcomes
/// go through the gate, and `rate_ask` / `rate_answer` act on the shared send rate as another
/// run would.
pub fn run_event_paced(
    policy: &Policy,
    run: &mut Run,
    budget: Option<&RetryBudget>,
    rate: Option<&Cell<SendRate>>,
    event: &Value,
) -> Result<Value, String> {
    let now = event["now"].as_u64();
    if let Some(rate) = rate {
        match event["e"].as_str() {
            Some("rate_ask") => {
                let mut r = rate.get();
                let pace = r.before_attempt(now.ok_or("rate_ask needs now")?);
                rate.set(r);
                return Ok(pace_json(pace));
            }
            Some("rate_answer") => {
                let answer = answer_of_event(event)?.ok_or("rate_answer needs an answer")?;
                let mut r = rate.get();
                r.on_answer(now.ok_or("rate_answer needs now")?, answer);
                rate.set(r);
                return Ok(json!({ "a": "rate", "rate_milli": r.rate_milli() }));
            }
            _ => {}
        }
    }
    let budget = budget.map(|b| b as &dyn RetryGate);
    let answer = match event["e"].as_str() {
        Some("snapshot") => {
            let bytes = run.snapshot(policy);
            *run =
                Run::restore(policy, &bytes).map_err(|e| format!("own snapshot refused: {e}"))?;
            return Ok(json!({ "a": "snapshot", "bytes": crate::hex(&bytes) }));
        }
        Some("restore") => {
            let bytes = unhex(event["bytes"].as_str().ok_or("restore needs bytes")?)?;
            return Ok(match Run::restore(policy, &bytes) {
                Ok(restored) => {
                    *run = restored;
                    json!({ "a": "restored" })
                }
                Err(e) => json!({ "a": "error", "error": e.name() }),
            });
        }
        Some("start") => match rate {
            Some(rate) => run.start_paced(policy, now, rate),
            None => run.start(now),
        },
        Some("wake") => match rate {
            Some(rate) => run.wake_paced(policy, now, rate),
            None => run.wake(now),
        },
        Some("resume") => run.resume(now),
        Some("pause") => {
            let reason = event["reason"]
                .as_str()
                .and_then(PauseReason::from_name)
                .ok_or_else(|| format!("pause needs a reason in {event}"))?;
            run.pause(policy, reason, now)
        }
        Some(e @ ("success" | "fail" | "permanent" | "offline")) => {
            let o = match e {
                "success" => Outcome::Success,
                "permanent" => Outcome::Permanent,
                "offline" => Outcome::Offline,
                _ => Outcome::Retryable {
                    hint: hint_of(event)?,
                    failure_kind: match event["kind"].as_str() {
                        None | Some("error") => FailureKind::Error,
                        Some("timeout") => FailureKind::Timeout,
                        Some(k) => return Err(format!("unknown failure kind {k:?}")),
                    },
                },
            };
            match rate {
                Some(rate) => {
                    let answer = answer_of_event(event)?;
                    run.outcome_paced(policy, o, answer, now, budget, rate)
                }
                None => run.outcome(policy, o, now, budget),
            }
        }
        other => return Err(format!("unknown run event {other:?}")),
    };
    Ok(match answer {
        Ok(action) => action_json(action),
        Err(error) => json!({ "a": "error", "error": error.name() }),
    })
}
