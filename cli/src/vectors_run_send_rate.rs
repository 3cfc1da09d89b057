//! The paced run vectors (SPEC.md §15.2): runs behind a shared send rate, whose waits spend no
//! retry, whose fail-fast refusals give up `throttled`, and which hears every answer. The
//! independent model (tests/model/run_send_rate_model.py) recomputes them.

use std::cell::Cell;

use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget},
    send_rate::{SendRate, SendRateConfig},
    Jitter, Policy, Run,
};
use seeded_backoff_test_support::run_event_paced;
use serde_json::{json, Value};

use crate::ops::{budget_config_json, policy_json};
use crate::vectors_run::event_json;
use crate::vectors_send_rate::config_json;

/// One case: a policy, a seed, a budget, the send rate's configuration and events written as in
/// `vectors_run` (`rate_answer@0:answer=throttled,hint_ms=2000`).
struct Spec {
    name: &'static str,
    policy: Policy,
    seed: u64,
    budget: Option<BudgetConfig>,
    rate: SendRateConfig,
    events: &'static str,
}

fn specs() -> Result<Vec<Spec>, String> {
    let plain = |b: seeded_backoff::PolicyBuilder| b.build().map_err(|e| e.to_string());
    let none = plain(Policy::google().to_builder().jitter(Jitter::None))?;
    let timed = plain(Policy::builder().max_elapsed_ms(10_000))?;
    let google = Policy::google();
    let once = plain(Policy::google().to_builder().max_retries(1))?;
    let grpc = BudgetConfig::grpc(4, 500).map_err(|e| e.to_string())?;
    // 10 requests per second at the least, so a throttle before any traffic spaces by 100 ms.
    let ten = SendRateConfig {
        min_rate_milli: 10_000,
        ..SendRateConfig::DEFAULT
    };
    let fast = SendRateConfig {
        fail_fast: true,
        ..ten
    };
    let s = |name, policy, seed, rate, events| Spec {
        name,
        policy,
        seed,
        budget: None,
        rate,
        events,
    };
    Ok(vec![
        s("a rate that is off lets every attempt go", none, 1,
          SendRateConfig::DEFAULT, "start@0 fail@10:kind=timeout wake@1010 success@1020"),
        s("a held rate makes the first attempt wait", none, 2, ten,
          "rate_answer@0:answer=throttled,hint_ms=2000 start@100 wake@1000 wake@2000 success@2010 rate_ask@2010"),
        s("a retry_after hint is heard as a throttle", none, 3, ten,
          "start@0 fail@50:hint=retry_after,hint_ms=3000 rate_ask@60 wake@3050 success@3060"),
        s("an explicit answer: a 429 without a hint", none, 4, ten,
          "start@0 fail@10:answer=throttled rate_ask@10 wake@1010 success@1020:answer=accepted"),
        s("two runs' attempts are spaced by the rate's interval", none, 5, ten,
          "rate_answer@0:answer=throttled rate_ask@0 start@0 wake@100 fail@150 wake@1150 success@1160"),
        s("fail-fast refuses the first attempt: give up throttled after 0 attempts", none, 6, fast,
          "rate_answer@0:answer=throttled,hint_ms=1000 start@10 wake@20"),
        s("fail-fast refuses after a retry: give up throttled with the attempts made", none, 7, fast,
          "start@0 fail@10:answer=throttled,hint_ms=5000 wake@1010"),
        s("a wait past the deadline, before any attempt", timed, 8, ten,
          "rate_answer@0:answer=throttled,hint_ms=60000 start@0"),
        s("a wait past the deadline after retries", timed, 9, ten,
          "start@0 fail@100 wake@1200 fail@1300:answer=throttled,hint_ms=30000 wake@4000"),
        s("a paced event needs a clock; phase errors come first", none, 10, ten,
          "wake start start@0 success@5 wake"),
        s("a pause during the send rate's wait re-draws in initial_ms", google, 11, ten,
          "rate_answer@0:answer=throttled,hint_ms=5000 start@0 pause@100:reason=hidden resume@200 wake@900 wake@5000 success@5010"),
        s("a run snapshot taken during the send rate's wait continues it", none, 12, ten,
          "rate_answer@0:answer=throttled,hint_ms=3000 start@0 snapshot wake@3000 fail@3010:hint=rate_limit,hint_ms=2000 wake@6000 success@6100"),
        s("a permanent error is an answer; offline is none", none, 13, ten,
          "rate_answer@0:answer=throttled start@0 offline@10 resume@20 wake@2000 permanent@2010 rate_ask@2010"),
        s("a throttled retry waits only its hint: the rate paces it, not its backoff", google, 15, ten,
          "start@0 fail@10:hint=retry_after,hint_ms=300 wake@310 fail@320:answer=throttled wake@320 wake@420 success@430"),
        s("a retry after an error that is no answer keeps its backoff", none, 16, ten,
          "start@0 fail@10:answer=no_answer wake@1010 success@1020"),
        s("a throttled retry past max_retries still gives up", once, 17, ten,
          "start@0 fail@10:answer=throttled wake@10 fail@120:answer=throttled"),
        // Sent at 0, before another run's throttle cut the rate at 5: no second cut (4.9/s stays).
        s("a throttle of an attempt sent before the last cut does not cut again", none, 18,
          SendRateConfig::DEFAULT,
          "start@0 rate_answer@5:answer=throttled fail@20:answer=throttled wake@20"),
        // The wake at 10 goes at the rate the throttle at 10 set: its throttle cuts it again.
        s("a throttle of an attempt sent at the last cut or after cuts again", none, 19,
          SendRateConfig::DEFAULT,
          "start@0 fail@10:answer=throttled wake@10 fail@40:answer=throttled"),
        // Neither give-up of the gate sets the backoff's own give-up code: the snapshot's word of
        // it stays 0 (SPEC.md §15.2).
        s("a fail-fast give-up leaves the backoff's give-up code unset", none, 20, fast,
          "start@0 fail@10:answer=throttled,hint_ms=5000 wake@1010 snapshot"),
        s("a deadline give-up of the gate leaves the backoff's give-up code unset", timed, 21, ten,
          "start@0 fail@100 wake@1200 fail@1300:answer=throttled,hint_ms=30000 wake@4000 snapshot"),
        // The send rate's wait after a retry leaves the window at the retry's 1000 ms (§13).
        s("a pause during the send rate's wait after a retry re-draws in the retry's delay", none, 22, ten,
          "start@0 fail@10 rate_answer@20:answer=throttled,hint_ms=3000 wake@1010 pause@1100:reason=hidden \
           resume@1200 wake@3100 success@3110"),
        Spec {
            budget: Some(grpc),
            ..s("the send rate's waits spend no budget", none, 14, ten,
                "rate_answer@0:answer=throttled,hint_ms=1000 start@0 wake@1000 fail@1010 wake@2010 success@2110")
        },
    ])
}

/// The `run-send-rate.json` vector file.
pub fn file() -> Result<Value, String> {
    let mut cases = Vec::new();
    for spec in specs()? {
        let budget = spec.budget.map(RetryBudget::new);
        let rate = Cell::new(SendRate::new(spec.rate).map_err(|e| e.to_string())?);
        let mut run = Run::new(&spec.policy, spec.seed);
        let mut events = Vec::new();
        let mut expect = Vec::new();
        for word in spec.events.split_whitespace() {
            let e = event_json(word);
            expect.push(run_event_paced(
                &spec.policy,
                &mut run,
                budget.as_ref(),
                Some(&rate),
                &e,
            )?);
            events.push(e);
        }
        let mut case = json!({
            "name": spec.name,
            "policy": policy_json(&spec.policy),
            "seed": spec.seed.to_string(),
            "count_paused": false,
            "send_rate": config_json(&spec.rate),
            "events": events,
            "expect": expect,
            "expect_rate_milli": rate.get().rate_milli(),
        });
        if let (Some(config), Some(b)) = (spec.budget, &budget) {
            case["budget"] = budget_config_json(config);
            case["expect_tokens_milli"] = json!(b.tokens_milli());
        }
        cases.push(case);
    }
    Ok(json!({
        "kind": "run_send_rate",
        "description": "runs behind a shared send rate (SPEC.md §15.2): events in, actions out",
        "cases": cases,
    }))
}
