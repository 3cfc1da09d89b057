//! Every constructor that checks its arguments refuses with a message naming the field, its
//! allowed range and the value given ("..., got 0"), as Python's and the CLI's messages do. The
//! expected texts are written out here from SPEC.md's ranges, not read from the code.

use seeded_backoff::budget::{AtomicRetryBudget, BudgetConfig, RetryBudget};
use seeded_backoff::fleet::startup_delay_ms;
use seeded_backoff::pacer::Pacer;
use seeded_backoff::reconnect::Reconnect;
use seeded_backoff::send_rate::{AtomicSendRate, SendRate, SendRateConfig};
use seeded_backoff::{Policy, Run};

#[test]
fn a_send_rates_refusal_names_the_value_given() {
    let d = SendRateConfig::DEFAULT;
    let cases = [
        (
            SendRateConfig {
                max_rate_milli: 1_000_000_001,
                ..d
            },
            "max_rate_milli must be in 1..=1000000000, got 1000000001",
        ),
        (
            SendRateConfig {
                min_rate_milli: 0,
                ..d
            },
            "min_rate_milli must be in 1..=max_rate_milli, got 0",
        ),
        (
            SendRateConfig {
                margin_permille: 501,
                ..d
            },
            "margin_permille must be in 1..=500, got 501",
        ),
        (
            SendRateConfig { probe_ms: 9, ..d },
            "probe_ms must be in 10..=60000, got 9",
        ),
        (
            SendRateConfig {
                probe_first_permille: 0,
                ..d
            },
            "probe_first_permille must be in 1..=probe_max_permille, got 0",
        ),
        (
            SendRateConfig {
                probe_first_permille: 1,
                probe_max_permille: 1001,
                ..d
            },
            "probe_max_permille must be in 1..=1000, got 1001",
        ),
        (
            SendRateConfig {
                guard_ms: 60_001,
                ..d
            },
            "guard_ms must be in 0..=60000, got 60001",
        ),
        (
            SendRateConfig { burst: 0, ..d },
            "burst must be in 1..=1000, got 0",
        ),
        (
            SendRateConfig {
                max_hold_ms: 3_600_001,
                ..d
            },
            "max_hold_ms must be in 0..=3600000, got 3600001",
        ),
    ];
    for (config, want) in cases {
        assert_eq!(config.check().unwrap_err().to_string(), want);
        assert_eq!(SendRate::new(config).unwrap_err().to_string(), want);
        assert_eq!(AtomicSendRate::new(config).unwrap_err().to_string(), want);
    }
}

#[test]
fn a_budgets_refusal_names_the_value_given() {
    let cases = [
        (
            BudgetConfig::grpc(1001, 1),
            "max_tokens must be in 1..=1000, got 1001",
        ),
        (
            BudgetConfig::grpc(2, 2001),
            "token_ratio_milli must be in 1..=1000*max_tokens, got 2001",
        ),
        (
            BudgetConfig::aws_quota(0, 5, 10, 1),
            "capacity must be in 1..=1000000, got 0",
        ),
        (
            BudgetConfig::aws_quota(100, 101, 10, 1),
            "retry_cost and timeout_cost must be in 1..=capacity, got 101",
        ),
        (
            BudgetConfig::aws_quota(100, 5, 0, 1),
            "retry_cost and timeout_cost must be in 1..=capacity, got 0",
        ),
        (
            BudgetConfig::aws_quota(100, 5, 10, 150),
            "no_retry_increment must be in 0..=capacity, got 150",
        ),
        (
            BudgetConfig::aws_quota_or_default(Some(3), None, None, None),
            // The default retry cost, 5, is beyond a capacity of 3.
            "retry_cost and timeout_cost must be in 1..=capacity, got 5",
        ),
    ];
    for (config, want) in cases {
        assert_eq!(config.unwrap_err().to_string(), want);
    }
    let want = "max_tokens must be in 1..=1000, got 0";
    assert_eq!(RetryBudget::grpc(0, 1).unwrap_err().to_string(), want);
    assert_eq!(AtomicRetryBudget::grpc(0, 1).unwrap_err().to_string(), want);
}

#[test]
fn a_pacers_refusal_names_the_value_given() {
    let cases = [
        (
            (1_000_001, 0, 60),
            "capacity_per_s must be in 1..=1000000, got 1000001",
        ),
        (
            (100, 1000, 60),
            "reserve_per_mille must be in 0..=999, got 1000",
        ),
        (
            (100, 0, 86_401),
            "max_wait_s must be in 1..=86400, got 86401",
        ),
    ];
    for ((capacity, reserve, wait), want) in cases {
        let err = Pacer::new(capacity, reserve, wait, 1).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
}

#[test]
fn a_startup_windows_refusal_names_the_value_given() {
    let want = "window_ms must be in 0..=2147483647, got 4294967295";
    assert_eq!(startup_delay_ms(1, u32::MAX).unwrap_err().to_string(), want);
    let p = Policy::google();
    let err = Run::new(&p, 1).startup_window_ms(u32::MAX).unwrap_err();
    assert_eq!(err.to_string(), want);
    let mut run = Run::new(&p, 1);
    assert_eq!(
        run.set_startup_window_ms(u32::MAX).unwrap_err().to_string(),
        want
    );
}

#[test]
fn a_reconnect_loops_refusal_names_the_time_budget_given() {
    let timed = Policy::builder().max_elapsed_ms(30_000).build().unwrap();
    let err = Reconnect::new(&timed, 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "max_elapsed_ms must be 0 for a reconnect loop, which keeps no time budget, got 30000"
    );
}

#[test]
fn the_rule_broken_is_the_source_of_the_refusal() {
    use std::error::Error;
    let err = Pacer::new(0, 0, 60, 1).unwrap_err();
    let source = err.source().expect("the rule");
    assert_eq!(source.to_string(), "capacity_per_s must be in 1..=1000000");
}
