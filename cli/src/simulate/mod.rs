//! `seeded-backoff simulate`: a deterministic, seeded discrete-event simulation of many clients
//! retrying against one server, showing what each jitter strategy does to that server.
//!
//! Time is integer milliseconds and every delay comes from the core's own `Backoff`; floats
//! appear only when averaging series for the SVG and in the model of AWS adaptive mode, which
//! computes in floating-point seconds as the SDKs do. Four scenarios: `contention` (after Brooker),
//! `outage`, `shed` (a server that sheds load with 429) and `quota` (one process at 3× a server's
//! quota, with and without a shared limiter); see their modules. Besides the core's jitter
//! strategies, `api-core-default` is Google's client libraries' own retry (`strategy`). The cost of
//! a run is linear in the requests it simulates (a calendar queue, `model::TimeQueue`);
//! [`estimate`] refuses runs too large to finish in about a minute before they start.

mod aws_adaptive;
mod chart;
mod contention;
mod draw;
mod model;
mod outage;
// The shed with what the server answers: printed and drawn with `shed`.
mod paced;
// The outage with phones beside desktops: printed with `outage`.
mod phones;
mod quota;
mod quota_gates;
mod quota_report;
mod report;
mod strategy;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use seeded_backoff::Jitter;

use crate::echo::escape;
use crate::policy_args::{one_of, parse_seed, u32_in};
use crate::schedule_cmd::Format;
use contention::contention;
use model::SIMULATED;
use outage::{outage_scaled, Rejection};
pub use strategy::Strategy;
use strategy::ALL_STRATEGIES;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    /// Brooker's contention on one record, the outage, the 429 shedding, then the quota.
    All,
    /// N clients (default 100) each make one conditional write.
    Contention,
    /// N clients (default 1000) against a server that is down, then has a fixed capacity.
    Outage,
    /// N clients (default 1000) against a server with a fixed capacity that answers 429 above it.
    Shed,
    /// One process whose requests arrive at 3× a server's quota (the capacity, default 100/s)
    /// for 60 s, the quota halved from 20 s to 40 s: no limiter, AWS adaptive's model, ours.
    Quota,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Which scenario to run.
    #[arg(long, value_enum, default_value = "all")]
    pub scenario: Scenario,
    /// Clients (1..=10000000); default 100 for contention, 1000 for the outage.
    #[arg(long, value_parser = u32_in(1, 10_000_000), allow_hyphen_values = true)]
    pub clients: Option<u32>,
    /// Independent runs per strategy (1..=10000), each with its own seeds.
    #[arg(long, default_value_t = 50, value_parser = u32_in(1, 10_000), allow_hyphen_values = true)]
    pub runs: u32,
    /// Strategies to compare, comma-separated (default: all six jitters and api-core-default).
    #[arg(long, value_parser = one_of(Jitter::NAMES.into_iter().chain([strategy::API_CORE_DEFAULT])), value_delimiter = ',')]
    pub strategies: Vec<String>,
    /// Seed of the whole simulation (0..=18446744073709551615): same seed, same figures.
    #[arg(long, default_value = "1", value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Outage only: seconds the server is down (1..=86400); default 120.
    #[arg(long, value_parser = u32_in(1, 86_400), allow_hyphen_values = true)]
    pub outage_s: Option<u32>,
    /// Outage only: also run the outage with this percentage of the clients on phones (1..=100),
    /// desktops on the google preset and the phones on google, then on mobile.
    #[arg(long, value_parser = u32_in(1, 100), allow_hyphen_values = true)]
    pub phones: Option<u32>,
    /// Outage, shed and quota: requests per second the server accepts (1..=10000000); default a
    /// tenth of the clients (100 for 1000), so the shape is the same at any fleet size.
    #[arg(long, value_parser = u32_in(1, 10_000_000), allow_hyphen_values = true)]
    pub capacity: Option<u32>,
    /// Outage, shed and quota: Google's first delay in ms (1..=60000), the policies scaled to it:
    /// the cap is 32 of them, Google's jitter one, and clients notice the outage within one;
    /// default 1000.
    #[arg(long, value_parser = u32_in(1, 60_000), allow_hyphen_values = true)]
    pub base_ms: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Also write a chart of requests per second over time, one line per strategy.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// A run's parameters with every default resolved.
#[derive(Clone, Debug)]
pub struct Setup {
    pub strategies: Vec<Strategy>,
    pub contention: bool,
    pub outage: bool,
    pub shed: bool,
    pub quota: bool,
    pub contention_clients: u32,
    pub outage_clients: u32,
    pub runs: u32,
    pub seed: u64,
    pub outage_s: u32,
    pub capacity: u32,
    pub base_ms: u32,
    /// The outage's share of phones in percent, if its phones rows are asked for.
    pub phones: Option<u32>,
}

/// The most work a run may do, in steps of [`estimate`]: about a minute on a 2-core machine (a
/// request costs 25 to 135 ns of one core, more when the clients stop fitting in the caches).
pub const WORK_LIMIT: u64 = 1_000_000_000;

impl Setup {
    /// Resolves the defaults, and refuses flags that do not apply to the chosen scenario.
    pub fn from_args(args: &SimulateArgs) -> Result<Setup, String> {
        let contention = matches!(args.scenario, Scenario::All | Scenario::Contention);
        let outage = matches!(args.scenario, Scenario::All | Scenario::Outage);
        let shed = matches!(args.scenario, Scenario::All | Scenario::Shed);
        let quota = matches!(args.scenario, Scenario::All | Scenario::Quota);
        if args.scenario == Scenario::Quota && args.clients.is_some() {
            return Err(
                "--clients does not apply to the quota scenario (one process, its requests at 3x \
                 --capacity)"
                    .to_string(),
            );
        }
        for (flag, set) in [
            ("--outage-s", args.outage_s.is_some()),
            ("--phones", args.phones.is_some()),
        ] {
            if !outage && set {
                return Err(format!(
                    "{flag} applies to the outage scenario only (got --scenario {})",
                    args.scenario.to_possible_value().expect("named").get_name()
                ));
            }
        }
        if !outage && !shed && !quota {
            for (flag, set) in [
                ("--capacity", args.capacity.is_some()),
                ("--base-ms", args.base_ms.is_some()),
            ] {
                if set {
                    return Err(format!(
                        "{flag} applies to the outage, shed and quota scenarios only (got --scenario contention)"
                    ));
                }
            }
        }
        let mut strategies = Vec::new();
        for name in &args.strategies {
            let s = Strategy::from_name(name)
                .ok_or_else(|| format!("--strategies: unknown strategy '{}'", escape(name)))?;
            if !strategies.contains(&s) {
                strategies.push(s);
            }
        }
        if strategies.is_empty() {
            strategies = ALL_STRATEGIES.to_vec();
        }
        let outage_clients = args.clients.unwrap_or(1000);
        Ok(Setup {
            strategies,
            contention,
            outage,
            shed,
            quota,
            contention_clients: args.clients.unwrap_or(100),
            outage_clients,
            runs: args.runs,
            seed: args.seed,
            outage_s: args.outage_s.unwrap_or(120),
            capacity: args.capacity.unwrap_or((outage_clients / 10).max(1)),
            base_ms: args.base_ms.unwrap_or(model::OUTAGE_BASE_MS),
            phones: args.phones,
        })
    }
}

/// Roughly how many requests a run simulates (within a factor of 3 of the counts measured from
/// 100 to 1,000,000 clients): clients × runs × strategies × requests per client. In `contention` one
/// record takes at most one write per 20 ms window, so the last of N clients succeeds after about
/// N / 50 seconds, and a client at the cap retries about once a second: requests grow as N². In
/// `outage` a client makes a few requests to reach the cap, then about one per 24 s until the
/// server has let everyone in. Each run also costs one unit per 64 ms of simulated time.
pub fn estimate(setup: &Setup) -> u64 {
    let horizon_s = model::HORIZON_MS / 1000;
    // Per run: requests, plus one for every 64 ms of simulated time (the queue steps over empty
    // milliseconds 64 at a time, which matters when a few clients retry over a long outage).
    let mut per_run = 0u64;
    if setup.contention {
        let n = setup.contention_clients as u64;
        let seconds = 10 + (n / 50).min(horizon_s);
        per_run += n * (10 + (n / 100).min(horizon_s)) + seconds * 1000 / 64;
    }
    let mut phones = 0;
    if setup.outage {
        let n = setup.outage_clients as u64;
        let drain_s = (2 * n / setup.capacity as u64).max(64).min(horizon_s);
        let seconds = setup.outage_s as u64 + drain_s;
        // 24 s between requests at Google's 1 s base; proportionally less at a smaller base.
        let each = 4 + seconds * 1000 / (24 * setup.base_ms as u64);
        per_run += n * each + seconds * 1000 / 64;
        // Its phones rows: two more fleets, each an outage run (the presets' retry limits end
        // them sooner, so this overestimates).
        if setup.phones.is_some() {
            phones = 2 * (n * each + seconds * 1000 / 64) * setup.runs as u64;
        }
    }
    if setup.shed {
        // The outage's drain without the outage: clients at the cap until let in.
        let n = setup.outage_clients as u64;
        let seconds = (2 * n / setup.capacity as u64).max(64).min(horizon_s);
        per_run += n * (4 + seconds * 1000 / (24 * setup.base_ms as u64)) + seconds * 1000 / 64;
    }
    let scale = setup.strategies.len() as u64 * setup.runs as u64;
    // The quota: one run per row, 3 × capacity requests a second for 60 s, up to about 9
    // attempts each without a limiter (the backlog's retries).
    let quota = if setup.quota {
        (setup.strategies.len() as u64 + 5) * 3 * setup.capacity as u64 * 60 * 9
    } else {
        0
    };
    per_run
        .saturating_mul(scale)
        .saturating_add(quota)
        .saturating_add(phones)
}

/// Runs `work` for every item (a strategy, a row) on all cores, each thread taking the next item
/// as it finishes one (their costs differ by up to 3×), and keeps the items' order.
fn per_item<I: Sync, T: Send>(items: &[I], work: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (work, next) = (&work, &next);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, work(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("simulation thread panicked"))
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// A line on stderr every 2 s while a run lasts longer than that: requests simulated so far
/// against the estimate. Stops when `done` is dropped.
fn progress(estimate: u64, done: std::sync::mpsc::Receiver<()>) {
    let started = Instant::now();
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
        done.recv_timeout(Duration::from_secs(2))
    {
        let so_far = SIMULATED.load(Ordering::Relaxed);
        eprintln!(
            "simulate: {:.1} M requests simulated of about {:.1} M estimated, {} s",
            so_far as f64 / 1e6,
            estimate as f64 / 1e6,
            started.elapsed().as_secs()
        );
    }
}

pub fn run(args: &SimulateArgs) -> Result<(), (u8, String)> {
    let started = Instant::now();
    let setup = Setup::from_args(args).map_err(|m| (2, format!("error: {m}")))?;
    let work = estimate(&setup);
    if work > WORK_LIMIT {
        return Err((
            2,
            format!(
                "error: this run would cost about {:.1e} steps (requests simulated, plus one per 64 ms \
                 of simulated time: {} strategies x {} runs x ~{} each), over the limit of \
                 {WORK_LIMIT:.0e} (about a minute here); lower --runs, --clients or --strategies{}",
                work as f64,
                setup.strategies.len(),
                setup.runs,
                work / (setup.strategies.len() as u64 * setup.runs as u64),
                if setup.outage || setup.shed || setup.quota {
                    " or raise --capacity"
                } else {
                    ""
                }
            ),
        ));
    }
    let (stop, done) = std::sync::mpsc::channel::<()>();
    let reporter = std::thread::spawn(move || progress(work, done));
    let contention_rows = if setup.contention {
        per_item(&setup.strategies, |&s| {
            contention(s, setup.contention_clients, setup.runs, setup.seed)
        })
    } else {
        Vec::new()
    };
    let outage_rows = if setup.outage {
        per_item(&setup.strategies, |&s| {
            outage_scaled(
                s,
                setup.outage_clients,
                setup.runs,
                setup.seed,
                setup.outage_s,
                setup.capacity,
                setup.base_ms,
                Rejection::Unavailable,
            )
        })
    } else {
        Vec::new()
    };
    let phones_rows = phones::rows(&setup);
    let shed_rows = if setup.shed {
        per_item(&setup.strategies, |&s| {
            outage_scaled(
                s,
                setup.outage_clients,
                setup.runs,
                setup.seed,
                0,
                setup.capacity,
                setup.base_ms,
                Rejection::TooManyRequests,
            )
        })
    } else {
        Vec::new()
    };
    // The shed again with what the server answers, a pacing server among them (one run each).
    let pacing_rows = if setup.shed {
        paced::pacing_rows(
            setup.outage_clients,
            setup.capacity,
            setup.base_ms,
            setup.seed,
        )
    } else {
        Vec::new()
    };
    let quota_rows = if setup.quota {
        quota::quota_rows(&setup.strategies, setup.capacity, setup.base_ms, setup.seed)
    } else {
        Vec::new()
    };
    drop(stop);
    let _ = reporter.join();
    if let Some(path) = &args.svg {
        draw::write_svg(
            path,
            &chart::chart_panels(
                &setup,
                &contention_rows,
                &outage_rows,
                &pacing_rows,
                &quota_rows,
            ),
        )
        .map_err(|e| (1, format!("error: --svg {}: {e}", path.display())))?;
    }
    report::print(
        &setup,
        args.format,
        &contention_rows,
        &outage_rows,
        (&shed_rows, &pacing_rows, &quota_rows, &phones_rows),
        args.svg.as_deref(),
        started.elapsed(),
    );
    Ok(())
}

#[cfg(test)]
mod tests;
