//! `seeded-backoff`: print schedules, regenerate the cross-language test vectors, parse
//! `Retry-After` values, simulate retrying clients.

mod ops;
mod policy_args;
mod schedule_cmd;
mod simulate;
mod vectors;
mod vectors_rate_limit;
mod vectors_retry_after;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    Schedule(schedule_cmd::ScheduleArgs),
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
        #[arg(long = "now-s", alias = "now", value_parser = policy_args::parse_seed, allow_hyphen_values = true)]
        now: Option<u64>,
    },
    /// Simulate many clients retrying against one server, per jitter strategy.
    Simulate(simulate::SimulateArgs),
}

/// `retry-after` and the core's rate-limit header names, for `--header`.
fn header_names() -> clap::builder::PossibleValuesParser {
    let rate_limit = seeded_backoff::RATE_LIMIT_HEADERS.map(|h| h.name());
    clap::builder::PossibleValuesParser::new(std::iter::once("retry-after").chain(rate_limit))
}

/// Exit status 2 for bad usage (as clap, a missing subcommand included), 1 for a failed
/// operation (a bad `parse-retry-after` value, an unwritable file), 0 otherwise.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // No subcommand: the help, on stderr, and clap's usage status.
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprint!("{}", e.render());
                return ExitCode::from(2);
            }
            // One line naming the flag and what it accepts; no usage dump.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            match text
                .lines()
                .find_map(|l| l.trim().strip_prefix("[possible values: "))
            {
                Some(values) => eprintln!("{first} (allowed: {}", values.replace(']', ")")),
                None => eprintln!("{first}"),
            }
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
            let parsed = match seeded_backoff::RateLimitHeader::from_header_name(header.as_bytes())
            {
                Some(h) => seeded_backoff::parse_rate_limit(h, value.as_bytes(), now),
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
            eprintln!("{message}");
            ExitCode::from(code)
        }
    }
}
