//! `parse-retry-after --header` and `schedule --rate-limit` (SPEC.md §8.3, §5 step 6), with expected
//! values derived by hand from the SPEC.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seeded-backoff"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn every_header_form_parses() {
    let cases: [(&str, &str, &str, &str); 8] = [
        ("ratelimit", r#""default";r=0;t=30"#, "0", "30000"),
        ("RateLimit", "limit=100, remaining=0, reset=7", "0", "7000"),
        ("ratelimit-reset", "12", "0", "12000"),
        ("x-ratelimit-retry-after", "2.5", "0", "2500"),
        ("X-RateLimit-Reset", "1.2341", "0", "1235"),
        ("x-ratelimit-reset", "1000000001", "1000000000", "1000"),
        (
            "x-ratelimit-reset",
            "1000000000",
            "1000000000",
            "4294967295",
        ),
        ("retry-after", "120", "0", "120000"),
    ];
    for (header, value, now, want) in cases {
        let out = run(&[
            "parse-retry-after",
            "--header",
            header,
            value,
            "--now-s",
            now,
        ]);
        assert!(out.status.success(), "{header} {value}: {}", stderr(&out));
        assert_eq!(stdout(&out), want, "{header} {value}");
    }
    // Without --header the value is a Retry-After: a fraction is not one.
    let out = run(&["parse-retry-after", "1.5"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_bad_value_is_one_line_naming_the_header_and_the_error() {
    for (header, value, error) in [
        ("x-ratelimit-reset", "-1", "negative"),
        ("ratelimit-reset", "", "empty"),
        ("ratelimit", r#""a";r=0"#, "invalid_format"),
        ("x-ratelimit-retry-after", "1.", "invalid_format"),
    ] {
        let out = run(&["parse-retry-after", "--header", header, value]);
        assert_eq!(out.status.code(), Some(1), "{header} {value}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {header}:")), "{err}");
        assert!(err.contains(&format!("({error})")), "{err}");
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn an_unknown_header_is_bad_usage_listing_the_cores_names() {
    let out = run(&["parse-retry-after", "--header", "x-rate-limit", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(
        "retry-after, ratelimit, ratelimit-reset, x-ratelimit-retry-after, x-ratelimit-reset"
    ));
}

#[test]
fn schedule_steps_with_a_rate_limit_hint() {
    // Seed 0, strategy none: the hint's draw is the first, 0x4653DAA3; uniform(1000 + 10000 / 10)
    // = 0x4653DAA3 * 2001 >> 32 = 549, so the first delay is 10000 + 549.
    // Seed 0, strategy none, one retry: its delay.
    let first_delay = |extra: &[&str]| {
        let mut args = vec![
            "schedule", "--seed", "0", "--jitter", "none", "--limit", "1",
        ];
        args.extend_from_slice(&["--format", "json"]);
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["delays_ms"][0].clone()
    };
    assert_eq!(
        first_delay(&["--rate-limit", "x-ratelimit-reset=10"]),
        10_549
    );
    // A Retry-After hint wins where both are given.
    let both = ["--rate-limit", "x-ratelimit-reset=10", "--retry-after", "4"];
    assert_eq!(first_delay(&both), 4_000);
    for (arg, needle) in [
        ("nope=1", "NAME one of ratelimit"),
        ("ratelimit-reset", "NAME=VALUE"),
        (
            "ratelimit-reset=-1",
            "--rate-limit ratelimit-reset: retry hint is negative",
        ),
    ] {
        let out = run(&["schedule", "--seed", "0", "--rate-limit", arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        assert!(stderr(&out).contains(needle), "{arg}: {}", stderr(&out));
    }
}
