//! The CLI's smaller promises as a user meets them: negative numbers name the flag, exit codes,
//! capped values, reproducible CSV, resumed schedules, the npm package's names, and simulate runs
//! refused when a flag does not apply or the run would not finish in about a minute.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seeded-backoff"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn negative_numbers_name_the_flag_and_its_range() {
    for (args, flag, range) in [
        (&["schedule", "--limit", "-1"][..], "--limit", "1..=1000000"),
        (
            &["schedule", "--snapshot-after", "-1"][..],
            "--snapshot-after",
            "0..=4294967295",
        ),
        (
            &["schedule", "--retry-after-at", "-1=5"][..],
            "--retry-after-at",
            "0..=4294967295",
        ),
        (
            &["simulate", "--clients", "-1"][..],
            "--clients",
            "1..=10000000",
        ),
        (&["simulate", "--runs", "-1"][..], "--runs", "1..=10000"),
        (
            &["simulate", "--outage-s", "-1"][..],
            "--outage-s",
            "1..=86400",
        ),
        (
            &["simulate", "--capacity", "-1"][..],
            "--capacity",
            "1..=10000000",
        ),
        (
            &["simulate", "--clients", "0"][..],
            "--clients",
            "1..=10000000",
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
    }
}

#[test]
fn exit_codes_are_the_documented_ones() {
    // A bad value to parse-retry-after is a parse error (1), a negative one included.
    let out = run(&["parse-retry-after", "-5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("negative"));
    // No subcommand: a usage error (2) in one line that lists the subcommands.
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for name in ["schedule", "vectors", "parse-retry-after", "simulate"] {
        assert!(stderr.contains(name), "{stderr}");
    }
    assert!(out.stdout.is_empty());
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

#[test]
fn a_saturated_delay_says_it_was_capped() {
    let out = run(&["parse-retry-after", "99999999999", "--now-s", "0"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4294967295");
    assert!(String::from_utf8_lossy(&out.stderr).contains("capped"));
    // One below the cap is exact and says nothing.
    let out = run(&["parse-retry-after", "4294967", "--now-s", "0"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "4294967000");
    assert!(out.stderr.is_empty());
}

#[test]
fn csv_with_a_drawn_seed_prints_it_and_it_repeats_the_run() {
    let out = run(&["schedule", "--format", "csv"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let seed = stderr
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no seed in {stderr:?}"));
    let again = run(&["schedule", "--format", "csv", "--seed", &seed.to_string()]);
    assert_eq!(out.stdout, again.stdout);
    assert!(again.stderr.is_empty(), "a given seed is not repeated");
}

#[test]
fn a_resumed_schedule_keeps_counting_elapsed_time() {
    let csv = |args: &[&str]| -> Vec<String> {
        String::from_utf8_lossy(&run(args).stdout)
            .lines()
            .skip(1)
            .map(str::to_string)
            .collect()
    };
    let json: serde_json::Value = serde_json::from_slice(
        &run(&[
            "schedule",
            "--seed",
            "42",
            "--preset",
            "grpc",
            "--snapshot-after",
            "4",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let hex = json["snapshot_hex"].as_str().unwrap();
    let full = csv(&[
        "schedule", "--seed", "42", "--preset", "grpc", "--format", "csv",
    ]);
    let resumed = csv(&[
        "schedule", "--preset", "grpc", "--resume", hex, "--format", "csv",
    ]);
    // Same retry numbers, delays and elapsed times as the uninterrupted schedule from retry 4 on.
    assert_eq!(resumed[..], full[4..]);
}

#[test]
fn preset_names_are_the_cores_and_nothing_else() {
    let policy = |preset: &str| -> serde_json::Value {
        let out = run(&[
            "schedule", "--seed", "1", "--preset", preset, "--format", "json",
        ]);
        assert!(out.status.success(), "{preset}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["policy"].clone()
    };
    assert_eq!(policy("google_64s")["max_backoff_ms"], 64_000);
    assert_eq!(policy("aws_standard")["jitter"], "full");
    // Spellings the core does not know are refused, with the core's list.
    for (flag, name) in [
        ("--preset", "google-64s"),
        ("--preset", "aws"),
        ("--deadline", "give-up"),
        ("--preset", "bogus"),
    ] {
        let out = run(&["schedule", "--seed", "1", flag, name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {name}: {stderr}");
        assert!(stderr.contains(flag), "{stderr}");
    }
    let out = run(&["schedule", "--preset", "bogus"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("google_64s") && stderr.contains("aws_standard"),
        "{stderr}"
    );
    assert_eq!(
        run(&["parse-retry-after", "5", "--now", "0"]).status.code(),
        Some(2)
    );
}

#[test]
fn simulate_refuses_what_does_not_apply_or_would_not_finish() {
    let out = run(&["simulate", "--scenario", "contention", "--capacity", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--capacity applies to the outage"));
    // Both documented maxima together: refused up front, before any work.
    let started = std::time::Instant::now();
    let out = run(&["simulate", "--clients", "10000000", "--runs", "10000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("requests") && stderr.contains("limit"),
        "{stderr}"
    );
}
