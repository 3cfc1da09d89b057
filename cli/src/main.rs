//! `seeded-backoff`: print schedules, regenerate the cross-language test vectors, parse
//! `Retry-After` values, simulate retrying clients.

mod echo;
mod ops;
mod policy_args;
mod schedule_cmd;
mod simulate;
mod vectors;
mod vectors_call_seed;
mod vectors_hint_limit;
mod vectors_pacer;
mod vectors_rate_limit;
mod vectors_reconnect;
mod vectors_retry_after;
mod vectors_run;
mod vectors_run_send_rate;
mod vectors_run_startup;
mod vectors_send_rate;
mod vectors_send_rate_errors;

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};

use echo::escape;

#[derive(Parser, Debug)]
#[command(
    name = "seeded-backoff",
    version,
    about = "Deterministic, seeded exponential backoff (Google-exact)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the delays a policy gives for one seed.
    Schedule(Box<schedule_cmd::ScheduleArgs>),
    /// Regenerate the cross-language test vectors (tests/vectors/*.json).
    Vectors {
        /// Directory to write into.
        #[arg(long, default_value = "tests/vectors")]
        out: std::path::PathBuf,
    },
    /// Parse a Retry-After (or rate-limit header) value and print the delay in ms.
    ParseRetryAfter {
        /// The header value, e.g. "120" or "Sun, 06 Nov 1994 08:49:37 GMT" (a bad value, "-5"
        /// included, is a parse error: exit 1).
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// Which header the value is from: retry-after, or a rate-limit header of a 429 (the
        /// core's list, SPEC.md §8.3). Any case.
        #[arg(long, default_value = "retry-after", ignore_case = true, value_parser = header_names())]
        header: String,
        /// The current time as Unix seconds (default: the system clock).
        #[arg(long = "now-s", value_parser = policy_args::parse_seed, allow_hyphen_values = true)]
        now: Option<u64>,
    },
    /// Simulate many clients retrying against one server, per jitter strategy.
    Simulate(simulate::SimulateArgs),
}

/// `retry-after` and the core's rate-limit header names, for `--header`.
fn header_names() -> clap::builder::PossibleValuesParser {
    let rate_limit = seeded_backoff::http::RATE_LIMIT_HEADERS.map(|h| h.name());
    clap::builder::PossibleValuesParser::new(std::iter::once("retry-after").chain(rate_limit))
}

/// The one line a usage error prints: clap's first line, with the values it echoes escaped (a value
/// holding a newline would otherwise split it), the required arguments that are missing named, and
/// the allowed values of a closed list appended.
fn usage_error(e: &clap::Error) -> String {
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        return format!(
            "error: a subcommand is required: one of {} (see --help)",
            names.join(", ")
        );
    }
    let mut text = e.to_string();
    for (_, value) in e.context() {
        let raw: Vec<&str> = match value {
            ContextValue::String(s) => vec![s.as_str()],
            ContextValue::Strings(v) => v.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        for s in raw.into_iter().filter(|s| escape(s) != *s) {
            text = text.replace(s, &escape(s));
        }
    }
    let first = text.lines().next().unwrap_or("error: invalid arguments");
    if e.kind() == ErrorKind::MissingRequiredArgument {
        let missing = match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::Strings(args)) => args.join(", "),
            _ => String::new(),
        };
        let usage = e
            .get(ContextKind::Usage)
            .map(|u| {
                u.to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        return escape(&format!(
            "error: missing required argument {missing} ({usage})"
        ));
    }
    let line = match text
        .lines()
        .find_map(|l| l.trim().strip_prefix("[possible values: "))
    {
        Some(values) => format!("{first} (allowed: {}", values.replace(']', ")")),
        None => first.to_string(),
    };
    escape(&line)
}

/// Exit status 2 for bad usage (a missing subcommand included), 1 for a failed operation (a bad
/// `parse-retry-after` value, an unwritable file), 0 otherwise. Every error is one line on stderr.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", usage_error(&e));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Schedule(args) => schedule_cmd::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Vectors { out } => vectors::write_all(&out).map_err(|e| (1, e)),
        Command::ParseRetryAfter { value, now, header } => {
            let now = now.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs())
            });
            let parsed =
                match seeded_backoff::http::RateLimitHeader::from_header_name(header.as_bytes()) {
                    Some(h) => seeded_backoff::http::parse_rate_limit(h, value.as_bytes(), now),
                    None => seeded_backoff::parse_retry_after(value.as_bytes(), now),
                };
            match parsed {
                Ok(ms) => {
                    println!("{ms}");
                    if ms == u32::MAX {
                        eprintln!(
                            "note: capped: the delay is {ms} ms or more, the most a delay holds"
                        );
                    }
                    Ok(())
                }
                Err(e) => Err((
                    1,
                    format!(
                        "error: {}: {} ({}): {value:?}",
                        header.to_ascii_lowercase(),
                        e.message(),
                        e.name()
                    ),
                )),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("{}", escape(&message));
            ExitCode::from(code)
        }
    }
}
