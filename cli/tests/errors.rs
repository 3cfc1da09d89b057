//! Every usage error is one line (cli/README.md's exit-code rule): a value echoed back is escaped, so
//! a newline or an escape sequence inside it cannot split the message or reach the terminal raw; a
//! missing value or argument is named.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seeded-backoff"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// One line, no control character but its final newline, naming `flag`, with exit status `code`.
fn assert_one_line(args: &[&str], code: i32, flag: &str) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
    assert!(
        !line.chars().any(char::is_control),
        "{args:?}: a control character in {stderr:?}"
    );
    assert!(line.starts_with("error: "), "{args:?}: {stderr:?}");
    assert!(
        line.contains(flag),
        "{args:?}: {flag} not named in {stderr:?}"
    );
    line.to_string()
}

#[test]
fn a_value_with_control_characters_is_echoed_escaped_in_one_line() {
    for bad in ["1\nerror: forged", "7\r\u{1b}[2K", "x\ty\u{7f}"] {
        for (args, code, flag) in [
            (vec!["schedule", "--multiplier", bad], 2, "--multiplier"),
            (vec!["schedule", "--initial-ms", bad], 2, "--initial-ms"),
            (vec!["schedule", "--seed", bad], 2, "--seed"),
            (vec!["schedule", "--preset", bad], 2, "--preset"),
            (vec!["schedule", "--jitter", bad], 2, "--jitter"),
            (vec!["schedule", "--deadline", bad], 2, "--deadline"),
            (vec!["schedule", "--limit", bad], 2, "--limit"),
            (
                vec!["schedule", "--retry-after-at", bad],
                2,
                "--retry-after-at",
            ),
            (vec!["schedule", "--budget", bad], 2, "--budget"),
            (vec!["schedule", "--now-s", bad], 2, "--now-s"),
            // Checked after parsing, by the core.
            (
                vec!["schedule", "--seed", "1", "--retry-after", bad],
                2,
                "--retry-after",
            ),
            (
                vec![
                    "schedule",
                    "--seed",
                    "1",
                    "--retry-after-at",
                    &format!("0={bad}"),
                ],
                2,
                "--retry-after-at",
            ),
            (
                vec![
                    "schedule",
                    "--seed",
                    "1",
                    "--rate-limit",
                    &format!("ratelimit-reset={bad}"),
                ],
                2,
                "--rate-limit",
            ),
            (vec!["schedule", "--rate-limit", bad], 2, "--rate-limit"),
            (vec!["schedule", "--resume", bad], 2, "--resume"),
            (vec!["simulate", "--strategies", bad], 2, "--strategies"),
            (vec!["simulate", "--clients", bad], 2, "--clients"),
            (
                vec!["parse-retry-after", bad, "--now-s", "0"],
                1,
                "retry-after",
            ),
            (
                vec!["parse-retry-after", "--header", bad, "5"],
                2,
                "--header",
            ),
            (vec!["schedule", &format!("--{bad}")], 2, "--"),
            (vec![bad], 2, "error"),
        ] {
            let line = assert_one_line(&args, code, flag);
            // The value is shown, escaped: its first printable part is there.
            let shown = bad.split(char::is_control).next().unwrap();
            assert!(line.contains(shown), "{args:?}: {line}");
        }
    }
}

#[test]
fn an_escaped_value_reads_as_rust_escapes() {
    let line = assert_one_line(
        &["schedule", "--retry-after", "4\n2", "--seed", "1"],
        2,
        "--retry-after",
    );
    assert!(line.contains(r"'4\n2'"), "{line}");
}

#[test]
fn a_missing_subcommand_is_one_line_listing_them() {
    let line = assert_one_line(&[], 2, "schedule");
    assert!(
        line.contains("parse-retry-after") && line.contains("simulate"),
        "{line}"
    );
}

#[test]
fn a_missing_value_or_argument_is_named() {
    assert_one_line(&["parse-retry-after"], 2, "<VALUE>");
    assert_one_line(&["parse-retry-after", "--now-s", "0"], 2, "<VALUE>");
    assert_one_line(&["schedule", "--seed"], 2, "--seed");
    assert_one_line(&["schedule", "--preset"], 2, "--preset");
    assert_one_line(&["simulate", "--strategies"], 2, "--strategies");
}
