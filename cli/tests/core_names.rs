//! The CLI's closed lists are the core's tables: every name the core knows is accepted and shown in
//! the help, in the core's order, and nothing else is; the help quotes the core's range messages.

use std::process::{Command, Output};

use seeded_backoff::{
    http::RATE_LIMIT_HEADERS,
    policy::{DeadlineMode, PolicyError, Preset},
    Jitter,
};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seeded-backoff"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn help(subcommand: &str) -> String {
    let out = run(&[subcommand, "--help"]);
    assert!(out.status.success());
    // clap wraps long help lines; join them so a list reads as one.
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `[possible values: …]` list shown after `--flag` in `help`.
fn possible_values(help: &str, flag: &str) -> Vec<String> {
    let at = help
        .find(&format!("{flag} <"))
        .unwrap_or_else(|| panic!("{flag} not in help"));
    let list = &help[at..];
    let start = list.find("[possible values: ").expect("a list") + "[possible values: ".len();
    let end = start + list[start..].find(']').unwrap();
    list[start..end].split(", ").map(str::to_string).collect()
}

fn deadline_names() -> Vec<&'static str> {
    DeadlineMode::NAMES.to_vec()
}

#[test]
fn the_help_lists_the_cores_names_in_code_order() {
    let schedule = help("schedule");
    assert_eq!(possible_values(&schedule, "--preset"), Preset::NAMES);
    assert_eq!(possible_values(&schedule, "--jitter"), Jitter::NAMES);
    assert_eq!(possible_values(&schedule, "--deadline"), deadline_names());
    // The simulator compares the core's strategies and the client libraries' default.
    let mut strategies = Jitter::NAMES.to_vec();
    strategies.push("api-core-default");
    assert_eq!(
        possible_values(&help("simulate"), "--strategies"),
        strategies
    );
    let headers: Vec<&str> = std::iter::once("retry-after")
        .chain(RATE_LIMIT_HEADERS.iter().map(|h| h.name()))
        .collect();
    assert_eq!(
        possible_values(&help("parse-retry-after"), "--header"),
        headers
    );
}

#[test]
fn the_help_quotes_the_cores_ranges() {
    let schedule = help("schedule");
    for error in [
        PolicyError::InitialMs,
        PolicyError::MaxBackoffMs,
        PolicyError::MultiplierDen,
        PolicyError::MultiplierBelowOne,
        PolicyError::MultiplierTooLarge,
        PolicyError::JitterMs,
        PolicyError::SpreadPerMille,
        PolicyError::MaxHintMs,
    ] {
        assert!(schedule.contains(error.message()), "{}", error.message());
    }
}

#[test]
fn every_core_name_is_accepted() {
    for preset in Preset::NAMES {
        let out = run(&[
            "schedule", "--seed", "1", "--preset", preset, "--limit", "1",
        ]);
        assert!(out.status.success(), "{preset}");
    }
    for jitter in Jitter::NAMES {
        let out = run(&[
            "schedule", "--seed", "1", "--jitter", jitter, "--limit", "1",
        ]);
        assert!(out.status.success(), "{jitter}");
    }
    for deadline in deadline_names() {
        let out = run(&[
            "schedule",
            "--seed",
            "1",
            "--deadline",
            deadline,
            "--limit",
            "1",
        ]);
        assert!(out.status.success(), "{deadline}");
    }
}

#[test]
fn ranges_are_the_cores_errors_naming_the_flag() {
    for (args, error) in [
        (
            &["--multiplier", "0.5"][..],
            PolicyError::MultiplierBelowOne,
        ),
        (
            &["--multiplier", "1001"][..],
            PolicyError::MultiplierTooLarge,
        ),
        (
            &["--multiplier", "99999999999"][..],
            PolicyError::MultiplierTooLarge,
        ),
        (&["--multiplier", "3/0"][..], PolicyError::MultiplierDen),
        (&["--multiplier", "1.2345"][..], PolicyError::MultiplierDen),
        (&["--initial-ms", "0"][..], PolicyError::InitialMs),
        (&["--initial-ms", "2147483648"][..], PolicyError::InitialMs),
        (
            &["--jitter", "full", "--jitter-ms", "5"][..],
            PolicyError::JitterMsNotApplicable,
        ),
        (
            &["--spread-per-mille", "5"][..],
            PolicyError::SpreadNotApplicable,
        ),
    ] {
        let mut all = vec!["schedule", "--seed", "1"];
        all.extend_from_slice(args);
        let out = run(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(args[args.len() - 2]), "{args:?}: {stderr}");
        assert!(stderr.contains(error.message()), "{args:?}: {stderr}");
    }
    // The multiplier's accepted forms, reduced by the core.
    for (given, reduced) in [
        ("1.6", "8/5"),
        ("1.600", "8/5"),
        ("3/2", "3/2"),
        ("2", "2/1"),
    ] {
        let out = run(&[
            "schedule",
            "--seed",
            "1",
            "--multiplier",
            given,
            "--format",
            "json",
        ]);
        assert!(out.status.success(), "{given}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let m = &v["policy"];
        let shown = format!("{}/{}", m["multiplier_num"], m["multiplier_den"]);
        assert_eq!(shown, reduced, "{given}: {m}");
    }
}
