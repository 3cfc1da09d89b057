//! The run vectors (SPEC.md §15): event sequences and the actions the core's `Run` answers, with
//! budgets, hints, timeouts, pauses, clocks and deadlines. Every binding replays them; the
//! independent model recomputes them.

use seeded_backoff::bindings::crc32;
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget},
    policy::DeadlineMode,
    Jitter, Policy, Run,
};
use seeded_backoff_test_support::{hex, run_event};
use serde_json::{json, Value};

use crate::ops::{budget_config_json, policy_json};

/// One case: its name, policy, seed, whether paused time counts, budget, startup window (SPEC.md
/// §15.3, 0 for none), and events written as `e[@now][:k=v,...]`
/// (`fail@120:hint=retry_after,hint_ms=3000,kind=timeout`).
pub(crate) struct Spec {
    pub(crate) name: &'static str,
    pub(crate) policy: Policy,
    pub(crate) seed: u64,
    pub(crate) count_paused: bool,
    pub(crate) budget: Option<BudgetConfig>,
    pub(crate) startup_window_ms: u32,
    pub(crate) events: &'static str,
}

pub(crate) fn event_json(word: &str) -> Value {
    let (head, args) = word.split_once(':').unwrap_or((word, ""));
    let (e, now) = head.split_once('@').unwrap_or((head, ""));
    let mut event = json!({ "e": e });
    if let Ok(now) = now.parse::<u64>() {
        event["now"] = json!(now);
    }
    for pair in args.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        event[k] = match v.parse::<u64>() {
            Ok(n) => json!(n),
            Err(_) => json!(v),
        };
    }
    event
}

fn specs() -> Result<Vec<Spec>, String> {
    let plain = |b: seeded_backoff::PolicyBuilder| b.build().map_err(|e| e.to_string());
    let google = Policy::google();
    let timed = plain(Policy::builder().max_elapsed_ms(10_000))?;
    let clamp = plain(
        Policy::builder()
            .max_elapsed_ms(5_000)
            .deadline(DeadlineMode::Clamp),
    )?;
    let none = plain(Policy::google().to_builder().jitter(Jitter::None))?;
    let aws = BudgetConfig::aws_quota(20, 5, 10, 1).map_err(|e| e.to_string())?;
    let grpc = BudgetConfig::grpc(4, 500).map_err(|e| e.to_string())?;
    let s = |name, policy, seed, events| Spec {
        name,
        policy,
        seed,
        count_paused: false,
        budget: None,
        startup_window_ms: 0,
        events,
    };
    Ok(vec![
        s("retries then success, no clock", google, 42, "start fail wake fail wake success"),
        s("attempts count from 1 up to the retry limit", Policy::aws_standard(), 7,
          "start fail wake fail wake fail"),
        s("a permanent error gives up with no reason", google, 1, "start permanent"),
        s("a retry_after hint is a lower bound over the delay", none, 0,
          "start fail:hint=retry_after,hint_ms=3000 wake fail:hint=retry_after,hint_ms=10 wake success"),
        s("a rate_limit hint adds upward jitter", google, 5,
          "start fail:hint=rate_limit,hint_ms=20000 wake success"),
        s("do_not_retry stops", google, 3, "start fail:hint=do_not_retry"),
        s("the clock's elapsed time gives up at the deadline", timed, 11,
          "start@1000 fail@1100 wake@2300 fail@9000"),
        s("time paused is not elapsed", clamp, 12,
          "start@0 fail@100 pause@200:reason=hidden resume@60200 wake@60300 fail@60400 wake@61000 success@61100"),
        Spec {
            count_paused: true,
            ..s("counted paused time reaches the deadline", clamp, 12,
                "start@0 fail@100 pause@200:reason=hidden resume@60200 wake@60300 fail@60400")
        },
        s("a failure while offline spends no retry", google, 9,
          "start@0 offline@50 resume@4000 wake@4100 fail@4200 wake@6000 success@6100"),
        s("a run that begins offline re-draws its first wait in initial_ms", google, 10,
          "pause@0:reason=offline resume@900 wake@1000 success@1200"),
        s("a page resumed during a sleep re-draws the rest, the window the sleep's delay", google, 13,
          "start fail resume wake fail pause:reason=hidden resume resume wake success"),
        // SPEC.md §15.4: an outbox's run, counting paused time, stored, taken over past its due
        // time (a resume during the sleep), offline a while, and given up at its age.
        Spec {
            count_paused: true,
            ..s("an outbox run: taken over past its due, offline time counted, the deadline its age", timed, 22,
                "start@0 fail@100 snapshot resume@3000 wake@3400 fail@3500 pause@3600:reason=offline \
                 resume@8000 wake@8100 fail@8200")
        },
        // The second re-draw is in the retry's 1000 ms, not in the first re-drawn wait (§13).
        s("a pause during a re-drawn wait draws again in the retry's delay", none, 22,
          "start@0 fail@0 pause@500:reason=offline resume@800 pause@900:reason=hidden resume@950 wake@2000 success@2010"),
        s("a clock that goes back counts as no time", timed, 14,
          "start@5000 fail@9000 wake@4000 fail@5100 wake@3000 fail@16000"),
        Spec {
            budget: Some(aws),
            ..s("a timeout is charged and refunded as a timeout", google, 15,
                "start fail:kind=timeout wake success")
        },
        Spec {
            budget: Some(aws),
            ..s("an error after a timeout refunds the error's cost", google, 16,
                "start fail:kind=timeout wake fail wake success")
        },
        Spec {
            budget: Some(grpc),
            ..s("an empty budget gives up", google, 17, "start fail wake fail wake fail")
        },
        s("events out of their phase are refused and change nothing", google, 18,
          "wake resume start start pause:reason=hidden wake fail fail wake pause:reason=offline success wake"),
        s("a finished run refuses every event", google, 19,
          "start success start fail wake pause:reason=hidden resume"),
        Spec {
            budget: Some(aws),
            ..s("a restored run continues its schedule, its clock and its refund kind", timed, 20,
                "snapshot start@500 fail@600:kind=timeout snapshot wake@2000 fail@2100:hint=retry_after,hint_ms=3000 \
                 snapshot pause@2200:reason=hidden snapshot resume@9000 snapshot wake@9100 success@9200 snapshot")
        },
        s("a damaged, foreign or unreachable run snapshot is refused and the run stays", google, 21,
          "start@0 fail@10 restore:damage=length restore:damage=version restore:damage=crc \
           restore:damage=policy restore:damage=rng restore:damage=phase restore:damage=reserved \
           wake@3000 restore:damage=none wake@3100 success@3200"),
    ])
}

/// `run`'s snapshot damaged as `how` names, its CRC made right again where the damage is to be
/// found by a later check (SPEC.md §15's restore order).
fn damaged(policy: &Policy, run: &Run, how: &str) -> Result<Vec<u8>, String> {
    let mut b = run.snapshot(policy).to_vec();
    let refit = |b: &mut Vec<u8>| {
        let crc = crc32(&b[..96]).to_le_bytes();
        b[96..].copy_from_slice(&crc);
    };
    match how {
        "none" => {}
        "length" => b.truncate(99),
        "crc" => b[50] ^= 1,
        "version" => b[0] = 2,
        "policy" => b[92..96].copy_from_slice(&Policy::aws_standard().fingerprint().to_le_bytes()),
        "rng" => b[44..60].fill(0),
        "phase" => b[88] = 9,
        "reserved" => b[1] = 1,
        other => return Err(format!("unknown damage {other:?}")),
    }
    if !matches!(how, "none" | "length" | "crc") {
        refit(&mut b);
    }
    Ok(b)
}

/// The `run-loop.json` vector file.
pub fn file() -> Result<Value, String> {
    Ok(json!({
        "kind": "run",
        "description": "one call's run (SPEC.md §15): events in, actions out",
        "cases": cases_json(specs()?)?,
    }))
}

/// Each case run through the core's `Run`, with the answers it gives.
pub(crate) fn cases_json(specs: Vec<Spec>) -> Result<Vec<Value>, String> {
    let mut cases = Vec::new();
    for spec in specs {
        let budget = spec.budget.map(RetryBudget::new);
        let mut run = Run::new(&spec.policy, spec.seed)
            .count_paused_time(spec.count_paused)
            .startup_window_ms(spec.startup_window_ms)
            .map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        let mut expect = Vec::new();
        for word in spec.events.split_whitespace() {
            let mut e = event_json(word);
            if let Some(how) = e["damage"].as_str() {
                e = json!({ "e": "restore", "bytes": hex(&damaged(&spec.policy, &run, how)?) });
            }
            let answer = run_event(&spec.policy, &mut run, budget.as_ref(), &e)?;
            events.push(e);
            expect.push(answer);
        }
        let mut case = json!({
            "name": spec.name,
            "policy": policy_json(&spec.policy),
            "seed": spec.seed.to_string(),
            "count_paused": spec.count_paused,
            "events": events,
            "expect": expect,
        });
        if let (Some(config), Some(b)) = (spec.budget, &budget) {
            case["budget"] = budget_config_json(config);
            case["expect_tokens_milli"] = json!(b.tokens_milli());
        }
        if spec.startup_window_ms != 0 {
            case["startup_window_ms"] = json!(spec.startup_window_ms);
        }
        cases.push(case);
    }
    Ok(cases)
}
