//! `seeded-backoff schedule`: one seed's delays under one policy.

use clap::{Args, ValueEnum};
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    http::{parse_rate_limit, RateLimitHeader, RATE_LIMIT_HEADERS},
    parse_retry_after, Backoff, FailureKind, ServerHint, Step, StepInput,
};
use serde_json::json;

use crate::echo::escape;
use crate::ops::policy_json;
use crate::policy_args::{parse_seed, u32_in, PolicyArgs};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

#[derive(Args, Debug)]
pub struct ScheduleArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Jitter seed (0..=18446744073709551615); default: drawn from the OS and printed.
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// A Retry-After value (delta-seconds or HTTP-date) the server sends with every failure.
    #[arg(long)]
    retry_after: Option<String>,
    /// A Retry-After value for retry N only (0-based), as N=VALUE; repeatable.
    #[arg(long, value_parser = parse_at, allow_hyphen_values = true)]
    retry_after_at: Vec<(u32, String)>,
    /// A rate-limit header every failure carries, as NAME=VALUE (NAME one of the core's rate-limit
    /// headers, e.g. x-ratelimit-reset=30): the failures are 429s, and the hint applies to those
    /// without a Retry-After hint (SPEC.md §8.3).
    #[arg(long, value_parser = parse_rate_limit_arg, allow_hyphen_values = true)]
    rate_limit: Option<(RateLimitHeader, String)>,
    /// The current time in Unix seconds, for HTTP-date hints (default: the system clock).
    #[arg(long = "now-s", value_parser = parse_seed, allow_hyphen_values = true)]
    now: Option<u64>,
    /// A shared retry budget every failure goes through: `grpc:MAX_TOKENS:RATIO` (RATIO with up to 3
    /// decimals, e.g. grpc:10:0.5) or `aws` (500 / 5 / 10 / 1).
    #[arg(long, value_parser = parse_budget)]
    budget: Option<BudgetConfig>,
    /// Print the 40-byte snapshot (hex) taken after this many retries (0..=4294967295).
    #[arg(long, value_parser = u32_in(0, u32::MAX), allow_hyphen_values = true)]
    snapshot_after: Option<u32>,
    /// Resume from a snapshot (80 hex digits) taken under the same policy, instead of a fresh seed.
    #[arg(long, conflicts_with = "seed")]
    resume: Option<String>,
    /// Stop printing after this many retries even if the policy would go on (1..=1000000).
    #[arg(long, default_value_t = 10_000, value_parser = u32_in(1, 1_000_000), allow_hyphen_values = true)]
    limit: u32,
}

fn parse_at(text: &str) -> Result<(u32, String), String> {
    let bad = || {
        format!(
            "expected N=VALUE with N in 0..={} (got '{}')",
            u32::MAX,
            escape(text)
        )
    };
    let (n, value) = text.split_once('=').ok_or_else(bad)?;
    let n = n.parse::<u32>().map_err(|_| bad())?;
    Ok((n, value.to_string()))
}

fn parse_rate_limit_arg(text: &str) -> Result<(RateLimitHeader, String), String> {
    let bad = || {
        let names = RATE_LIMIT_HEADERS.map(|h| h.name()).join(", ");
        format!(
            "expected NAME=VALUE with NAME one of {names} (got '{}')",
            escape(text)
        )
    };
    let (name, value) = text.split_once('=').ok_or_else(bad)?;
    let header = RateLimitHeader::from_header_name(name.as_bytes()).ok_or_else(bad)?;
    Ok((header, value.to_string()))
}

fn parse_budget(text: &str) -> Result<BudgetConfig, String> {
    let usage =
        "expected grpc:MAX_TOKENS:RATIO (MAX_TOKENS 1..=1000, RATIO 0.001..=MAX_TOKENS) or aws";
    let got = escape(text);
    if text == "aws" {
        return Ok(BudgetConfig::AWS_DEFAULT);
    }
    let parts: Vec<&str> = text.split(':').collect();
    let ["grpc", max, ratio] = parts.as_slice() else {
        return Err(format!("{usage} (got '{got}')"));
    };
    let (int, frac) = ratio.split_once('.').unwrap_or((ratio, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(max) || !digits(int) || !(frac.is_empty() || (frac.len() <= 3 && digits(frac))) {
        return Err(format!("{usage} (got '{got}')"));
    }
    let max: u32 = max.parse().map_err(|_| format!("{usage} (got '{got}')"))?;
    let milli = format!("{int}{frac:0<3}")
        .parse::<u32>()
        .map_err(|_| format!("{usage} (got '{got}')"))?;
    BudgetConfig::grpc(max, milli).map_err(|e| format!("{} (got '{got}')", e.error.message()))
}

fn parse_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hint_ms(value: &str, now: u64, flag: &str) -> Result<u32, (u8, String)> {
    parse_retry_after(value.as_bytes(), now).map_err(|e| {
        let got = escape(value);
        (2, format!("error: {flag}: {} (got '{got}')", e.message()))
    })
}

pub fn run(args: &ScheduleArgs) -> Result<(), (u8, String)> {
    let policy = args
        .policy
        .to_policy()
        .map_err(|m| (2, format!("error: {m}")))?;
    let seed = match (args.seed, &args.resume) {
        (Some(seed), _) => Some(seed),
        (None, Some(_)) => None,
        (None, None) => Some(
            seeded_backoff::fleet::random_seed()
                .map_err(|e| (1, format!("error: no OS randomness for a seed: {e}")))?,
        ),
    };
    let now = args.now.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let every = match &args.retry_after {
        Some(v) => Some(hint_ms(v, now, "--retry-after")?),
        None => None,
    };
    let rate_limit = match &args.rate_limit {
        Some((header, v)) => Some(parse_rate_limit(*header, v.as_bytes(), now).map_err(|e| {
            let name = header.name();
            (
                2,
                format!(
                    "error: --rate-limit {name}: {} (got '{}')",
                    e.message(),
                    escape(v)
                ),
            )
        })?),
        None => None,
    };
    let mut at = Vec::new();
    for (n, v) in &args.retry_after_at {
        at.push((*n, hint_ms(v, now, "--retry-after-at")?));
    }

    let mut backoff = match (&args.resume, seed) {
        (Some(text), _) => {
            let bytes = parse_hex(text.trim()).ok_or_else(|| {
                (
                    2,
                    format!(
                        "error: --resume: expected 80 hex digits (got '{}')",
                        escape(text)
                    ),
                )
            })?;
            Backoff::restore(&policy, &bytes).map_err(|e| {
                (
                    2,
                    format!("error: --resume: {} ({})", e.message(), e.name()),
                )
            })?
        }
        (None, seed) => Backoff::new(&policy, seed.unwrap_or_default()),
    };
    let backoff_start = backoff.retries();
    // A resumed schedule goes on counting from the time its snapshot stored.
    let elapsed_start = backoff.elapsed_ms() as u64;
    let budget = args.budget.map(RetryBudget::new);
    let mut snapshot = None;
    let mut delays = Vec::new();
    let mut gave_up = None;
    while delays.len() < args.limit as usize {
        let retry = backoff.retries();
        let hint = at
            .iter()
            .rev()
            .find(|(n, _)| *n == retry)
            .map(|(_, ms)| *ms)
            .or(every)
            .map(ServerHint::RetryAfterMs)
            .or(rate_limit.map(ServerHint::RateLimitResetMs));
        if args.snapshot_after == Some(retry) && snapshot.is_none() {
            snapshot = Some(hex(&backoff.snapshot(&policy)));
        }
        let input = StepInput {
            hint,
            budget: budget
                .as_ref()
                .map(|b| (b as &dyn RetryGate, FailureKind::Error)),
            ..StepInput::default()
        };
        match backoff.next_delay_with(&policy, input) {
            Step::Retry { delay_ms, .. } => delays.push(delay_ms),
            Step::GiveUp(reason) => {
                gave_up = Some(reason.name());
                break;
            }
        }
    }

    match args.format {
        Format::Json => {
            let mut out = json!({
                "policy": policy_json(&policy),
                "seed": seed,
                "delays_ms": delays,
                "gave_up": gave_up,
            });
            if gave_up.is_none() {
                out["truncated_at"] = json!(args.limit);
            }
            if let Some(hex) = &snapshot {
                out["snapshot_after"] = json!(args.snapshot_after);
                out["snapshot_hex"] = json!(hex);
            }
            if let Some(b) = &budget {
                out["budget_tokens_milli"] = json!(b.tokens_milli());
            }
            println!("{out}");
        }
        Format::Csv => {
            if args.seed.is_none() && args.resume.is_none() {
                // stderr, so the CSV stays a table; the seed makes the run repeatable.
                eprintln!(
                    "seed {} (drawn from the OS; --seed {} repeats this schedule)",
                    seed.unwrap_or_default(),
                    seed.unwrap_or_default()
                );
            }
            println!("retry,delay_ms,elapsed_ms");
            let mut elapsed = elapsed_start;
            for (i, d) in (backoff_start as usize..).zip(&delays) {
                elapsed += *d as u64;
                println!("{i},{d},{elapsed}");
            }
        }
        Format::Table => {
            let (num, den) = policy.multiplier();
            let origin = match seed {
                Some(seed) => format!("seed {seed}"),
                None => format!("resumed at retry {}", backoff_start),
            };
            println!(
                "{origin}: {} jitter, initial {} ms, x{num}/{den}, cap {} ms, {} retries",
                policy.jitter().name(),
                policy.initial_ms(),
                policy.max_backoff_ms(),
                policy.max_retries()
            );
            println!("{:>6}  {:>10}  {:>12}", "retry", "delay_ms", "elapsed_ms");
            let mut elapsed = elapsed_start;
            for (i, d) in (backoff_start as usize..).zip(&delays) {
                elapsed += *d as u64;
                println!("{i:>6}  {d:>10}  {elapsed:>12}");
            }
            match gave_up {
                Some(reason) => println!("then give up: {reason}"),
                None => println!("(stopped printing at --limit {})", args.limit),
            }
            if let Some(hex) = &snapshot {
                println!(
                    "snapshot after {} retries: {hex}",
                    args.snapshot_after.unwrap_or(0)
                );
            }
        }
    }
    Ok(())
}
