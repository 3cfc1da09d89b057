//! `seeded-backoff simulate`: a deterministic, seeded discrete-event simulation of many clients
//! retrying against one server, showing what each jitter strategy does to that server.
//!
//! Time is integer milliseconds and every delay comes from the core's own `Backoff`; floats
//! appear only when averaging series for the SVG. Two scenarios: `contention` (after Brooker) and
//! `outage` (see their modules).

mod chart;
mod contention;
mod draw;
mod model;
mod outage;
mod report;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use crate::policy_args::{parse_seed, JitterName};
use crate::schedule_cmd::Format;
use contention::contention;
use model::{
    ALL_STRATEGIES, CONTENTION_BASE_MS, CONTENTION_CAP_MS, NET_MIN_MS, NET_SPREAD_MS, WINDOW_MS,
};
use outage::outage;
use report::{contention_json, contention_metrics, outage_json, outage_metrics, seconds};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    /// Brooker's contention on one record, then the outage.
    All,
    /// N clients (default 100) each make one conditional write.
    Contention,
    /// N clients (default 1000) against a server that is down, then has a fixed capacity.
    Outage,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Which scenario to run.
    #[arg(long, value_enum, default_value = "all")]
    pub scenario: Scenario,
    /// Clients (1..=100000); default 100 for contention, 1000 for the outage.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub clients: Option<u32>,
    /// Independent runs per strategy (1..=10000), each with its own seeds.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: u32,
    /// Strategies to compare, comma-separated (default: all six).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub strategies: Vec<JitterName>,
    /// Seed of the whole simulation (0..=18446744073709551615): same seed, same figures.
    #[arg(long, default_value = "1", value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Outage: seconds the server is down (1..=86400).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub outage_s: u32,
    /// Outage: requests per second the recovered server accepts (1..=1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub capacity: u32,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Also write a chart of requests per second over time, one line per strategy.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Runs `work` for every strategy on both cores, keeping the strategies' order.
fn per_strategy<T: Send>(
    strategies: &[JitterName],
    work: impl Fn(JitterName) -> T + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = strategies.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = strategies
            .chunks(chunk)
            .map(|part| {
                let work = &work;
                scope.spawn(move || part.iter().map(|&s| work(s)).collect::<Vec<T>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("simulation thread panicked"))
            .collect()
    })
}

pub fn run(args: &SimulateArgs) -> Result<(), (u8, String)> {
    let started = Instant::now();
    let strategies: Vec<JitterName> = if args.strategies.is_empty() {
        ALL_STRATEGIES.to_vec()
    } else {
        let mut unique = Vec::new();
        for s in &args.strategies {
            if !unique.contains(s) {
                unique.push(*s);
            }
        }
        unique
    };
    let contention_clients = args.clients.unwrap_or(100);
    let outage_clients = args.clients.unwrap_or(1000);
    let want_contention = matches!(args.scenario, Scenario::All | Scenario::Contention);
    let want_outage = matches!(args.scenario, Scenario::All | Scenario::Outage);

    let contention_rows = if want_contention {
        per_strategy(&strategies, |s| {
            contention(s, contention_clients, args.runs, args.seed)
        })
    } else {
        Vec::new()
    };
    let outage_rows = if want_outage {
        per_strategy(&strategies, |s| {
            outage(
                s,
                outage_clients,
                args.runs,
                args.seed,
                args.outage_s,
                args.capacity,
            )
        })
    } else {
        Vec::new()
    };
    if let Some(path) = &args.svg {
        draw::write_svg(
            path,
            &chart::chart_panels(args, &contention_rows, &outage_rows),
        )
        .map_err(|e| (1, format!("error: --svg {}: {e}", path.display())))?;
    }
    let wall = started.elapsed();

    let header_c = format!(
        "contention: {contention_clients} clients, {} runs, seed {}; one conditional write each, \
         {WINDOW_MS} ms conflict window, network {}..={} ms, base {CONTENTION_BASE_MS} ms, cap \
         {CONTENTION_CAP_MS} ms",
        args.runs,
        args.seed,
        NET_MIN_MS,
        NET_MIN_MS + NET_SPREAD_MS
    );
    let header_o = format!(
        "outage: {outage_clients} clients, {} runs, seed {}; server down {} s, then {} requests/s; \
         Google's 1 s / x2 / 32 s with each strategy",
        args.runs, args.seed, args.outage_s, args.capacity
    );
    match args.format {
        Format::Table => {
            if want_contention {
                println!("{header_c}");
                println!(
                    "{:<13} {:>10} {:>12} {:>12} {:>12} {:>11}",
                    "strategy",
                    "calls/run",
                    "done p50 ms",
                    "done p99 ms",
                    "done max ms",
                    "unfinished"
                );
                for r in &contention_rows {
                    println!(
                        "{:<13} {:>10} {:>12} {:>12} {:>12} {:>11}",
                        r.strategy,
                        r.calls_per_run,
                        r.completion_p50_ms,
                        r.completion_p99_ms,
                        r.completion_max_ms,
                        r.unfinished
                    );
                }
            }
            if want_outage {
                if want_contention {
                    println!();
                }
                println!("{header_o}");
                println!(
                    "{:<13} {:>10} {:>10} {:>13} {:>14} {:>14} {:>11}",
                    "strategy",
                    "peak rps",
                    "peak max",
                    "first second",
                    "all done p50 s",
                    "all done max s",
                    "unfinished"
                );
                for r in &outage_rows {
                    println!(
                        "{:<13} {:>10} {:>10} {:>13} {:>14} {:>14} {:>11}",
                        r.strategy,
                        r.peak_rps_mean,
                        r.peak_rps_max,
                        r.first_second_mean,
                        seconds(r.all_done_p50_ms),
                        seconds(r.all_done_max_ms),
                        r.unfinished
                    );
                }
                println!(
                    "(peak rps: the busiest second from recovery on, mean over runs; first second: \
                     requests in the first second after recovery; all done: time after recovery \
                     until every client has succeeded)"
                );
            }
            if let Some(path) = &args.svg {
                println!("chart written to {}", path.display());
            }
            println!("wall time: {:.3} s", wall.as_secs_f64());
        }
        Format::Json => {
            let mut out = json!({ "seed": args.seed, "runs": args.runs });
            if want_contention {
                out["contention"] = json!({
                    "clients": contention_clients,
                    "window_ms": WINDOW_MS,
                    "base_ms": CONTENTION_BASE_MS,
                    "cap_ms": CONTENTION_CAP_MS,
                    "results": contention_rows.iter().map(contention_json).collect::<Vec<Value>>(),
                });
            }
            if want_outage {
                out["outage"] = json!({
                    "clients": outage_clients,
                    "outage_s": args.outage_s,
                    "capacity_rps": args.capacity,
                    "results": outage_rows.iter().map(outage_json).collect::<Vec<Value>>(),
                });
            }
            println!("{out}");
            // stderr, so the JSON on stdout is the same for the same seed.
            eprintln!("wall time: {:.3} s", wall.as_secs_f64());
        }
        Format::Csv => {
            println!("scenario,strategy,metric,value");
            for r in &contention_rows {
                for (metric, value) in contention_metrics(r) {
                    println!("contention,{},{metric},{value}", r.strategy);
                }
            }
            for r in &outage_rows {
                for (metric, value) in outage_metrics(r) {
                    println!("outage,{},{metric},{value}", r.strategy);
                }
            }
            eprintln!("wall time: {:.3} s", wall.as_secs_f64());
        }
    }
    Ok(())
}
