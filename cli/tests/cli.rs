//! The binary as a user meets it: exit codes, one-line errors naming the flag, and the outputs.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seeded-backoff"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn bad_flags_exit_2_with_one_line_naming_the_flag_and_range() {
    for (args, flag, range) in [
        (
            &["schedule", "--max-backoff-ms", "0"][..],
            "--max-backoff-ms",
            "initial_ms..=2147483647",
        ),
        (
            &["schedule", "--initial-ms", "50000"][..],
            "--max-backoff-ms",
            "initial_ms..=2147483647",
        ),
        (
            &["schedule", "--initial-ms", "0"][..],
            "--initial-ms",
            "1..=2147483647",
        ),
        (
            &["schedule", "--jitter", "bogus"][..],
            "--jitter",
            "decorrelated",
        ),
        (
            &["schedule", "--seed", "-1"][..],
            "--seed",
            "0..=18446744073709551615",
        ),
        (
            &["schedule", "--seed", "18446744073709551616"][..],
            "--seed",
            "0..=18446744073709551615",
        ),
        (
            &["schedule", "--multiplier", "0.5"][..],
            "--multiplier",
            ">= 1",
        ),
        (
            &["schedule", "--multiplier", "NaN"][..],
            "--multiplier",
            "N, N.DDD or N/D",
        ),
        (
            &["schedule", "--max-retries", "4294967296"][..],
            "--max-retries",
            "0..=4294967295",
        ),
        (
            &[
                "schedule",
                "--jitter",
                "proportional",
                "--spread-per-mille",
                "1001",
            ][..],
            "--spread-per-mille",
            "0..=1000",
        ),
        (
            &["schedule", "--jitter-ms", "40000"][..],
            "--jitter-ms",
            "0..=max_backoff_ms",
        ),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains(range),
            "{args:?}: {stderr}"
        );
        assert!(
            !stderr.contains("panicked") && !stderr.contains("backtrace"),
            "{stderr}"
        );
    }
}

#[test]
fn schedule_json_has_the_documented_shape() {
    let out = run(&["schedule", "--seed", "42", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["seed"], 42);
    assert_eq!(v["gave_up"], "max_retries");
    assert_eq!(v["policy"]["max_backoff_ms"], 32_000);
    let delays = v["delays_ms"].as_array().unwrap();
    assert_eq!(delays.len(), 10);
    assert!(delays[9] == 32_000);
}

#[test]
fn a_random_seed_is_printed_and_differs_between_runs() {
    let seed = |out: Output| -> u64 {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["seed"].as_u64().unwrap()
    };
    let a = seed(run(&["schedule", "--format", "json"]));
    let b = seed(run(&["schedule", "--format", "json"]));
    assert_ne!(a, b, "two OS-random seeds collided");
}

#[test]
fn hints_and_budgets_reach_the_schedule() {
    let out = run(&[
        "schedule",
        "--seed",
        "1",
        "--format",
        "json",
        "--retry-after",
        "20",
        "--max-hint-ms",
        "25000",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let delays: Vec<u64> = v["delays_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .collect();
    assert!(delays[..5].iter().all(|d| *d == 20_000), "{delays:?}");
    assert_eq!(delays[5], 32_000);

    let out = run(&[
        "schedule",
        "--seed",
        "1",
        "--format",
        "json",
        "--max-elapsed-ms",
        "5000",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["gave_up"], "deadline");

    let out = run(&[
        "schedule",
        "--seed",
        "1",
        "--format",
        "json",
        "--retry-after-at",
        "2=Sun, 06 Nov 1994 08:49:47 GMT",
        "--now-s",
        "784111777",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["delays_ms"][2], 10_000);
}

#[test]
fn parse_retry_after_prints_ms_or_exits_1() {
    let out = run(&[
        "parse-retry-after",
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "--now-s",
        "784111677",
    ]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "100000");
    let out = run(&["parse-retry-after", "Sun, 30 Feb 2025 00:00:00 GMT"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad_day"));
}

#[test]
fn csv_and_table_formats_list_every_retry() {
    let out = run(&[
        "schedule", "--seed", "7", "--preset", "grpc", "--format", "csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("retry,delay_ms,elapsed_ms"));
    assert_eq!(text.lines().count(), 11);
    let out = run(&["schedule", "--seed", "7"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("then give up: max_retries"));
}

#[test]
fn a_snapshot_resumes_the_same_schedule() {
    let json = |out: Output| -> serde_json::Value { serde_json::from_slice(&out.stdout).unwrap() };
    let full = json(run(&[
        "schedule",
        "--seed",
        "42",
        "--preset",
        "grpc",
        "--snapshot-after",
        "4",
        "--format",
        "json",
    ]));
    let hex = full["snapshot_hex"].as_str().unwrap();
    assert_eq!(hex.len(), 80);
    let resumed = json(run(&[
        "schedule", "--preset", "grpc", "--resume", hex, "--format", "json",
    ]));
    assert_eq!(
        resumed["delays_ms"].as_array().unwrap()[..],
        full["delays_ms"].as_array().unwrap()[4..]
    );
    // A snapshot taken under another policy is refused, naming why.
    let out = run(&["schedule", "--preset", "google", "--resume", hex]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("policy_mismatch"));
}

#[test]
fn a_retry_budget_stops_the_schedule() {
    let out = run(&[
        "schedule",
        "--seed",
        "1",
        "--budget",
        "grpc:10:0.5",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // 10 tokens, one per failure, retries while more than 5 remain: 4 retries, then the budget.
    assert_eq!(v["delays_ms"].as_array().unwrap().len(), 4);
    assert_eq!(v["gave_up"], "budget");
    let out = run(&["schedule", "--budget", "grpc:0:1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_tokens must be in 1..=1000"));
}
