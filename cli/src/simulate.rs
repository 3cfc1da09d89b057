//! `seeded-backoff simulate`: a deterministic, seeded discrete-event simulation of many clients
//! retrying against one server, showing what each jitter strategy does to that server.
//!
//! Time is integer milliseconds and every delay comes from the core's own [`Backoff`]; floats
//! appear only when averaging series for the SVG. Two scenarios:
//!
//! - `contention` (after Brooker, "Exponential Backoff And Jitter"): every client makes one
//!   conditional write. The client read the record one window before its write lands, so the write
//!   succeeds only if no other write succeeded within that window; otherwise it backs off and
//!   tries again.
//! - `outage`: the server rejects everything for a while, then recovers with a fixed capacity per
//!   second. Google's formula loses its jitter at the cap, so its clients come back in bursts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use seeded_backoff::{Backoff, Jitter, Policy};
use serde_json::{json, Value};

use crate::policy_args::{parse_seed, JitterName};
use crate::schedule_cmd::Format;

/// One network hop: 10 ± 2 ms (Brooker's setup).
const NET_MIN_MS: u64 = 8;
const NET_SPREAD_MS: u64 = 4;
/// Contention: a client's read happens one round trip (2 × 10 ms) before its write lands, so any
/// successful write in that window invalidates it.
const WINDOW_MS: u64 = 20;
/// Contention: Brooker's base and cap.
const CONTENTION_BASE_MS: u32 = 5;
const CONTENTION_CAP_MS: u32 = 2000;
/// Outage: clients notice the outage within the first second.
const OUTAGE_START_SPREAD_MS: u64 = 1000;
/// No scenario runs longer than this after its server is up: bad flags end with "unfinished"
/// clients in the report instead of a hang.
const HORIZON_MS: u64 = 3_600_000;
/// Contention's timeline is counted in 10 ms buckets, then merged into log-spaced bins for the chart.
const CONTENTION_BUCKET_MS: u64 = 10;

const ALL_STRATEGIES: [JitterName; 6] = [
    JitterName::None,
    JitterName::Google,
    JitterName::Full,
    JitterName::Equal,
    JitterName::Decorrelated,
    JitterName::Proportional,
];

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
    scenario: Scenario,
    /// Clients (1..=100000); default 100 for contention, 1000 for the outage.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    clients: Option<u32>,
    /// Independent runs per strategy (1..=10000), each with its own seeds.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    runs: u32,
    /// Strategies to compare, comma-separated (default: all six).
    #[arg(long, value_enum, value_delimiter = ',')]
    strategies: Vec<JitterName>,
    /// Seed of the whole simulation (0..=18446744073709551615): same seed, same figures.
    #[arg(long, default_value = "1", value_parser = parse_seed, allow_hyphen_values = true)]
    seed: u64,
    /// Outage: seconds the server is down (1..=86400).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=86_400))]
    outage_s: u32,
    /// Outage: requests per second the recovered server accepts (1..=1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    capacity: u32,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Also write a chart of requests per second over time, one line per strategy.
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// SplitMix64: the simulation's own randomness (start times, network delays), kept apart from the
/// clients' backoff generators so every strategy sees the same network.
#[derive(Clone, Debug)]
struct SimRng(u64);

impl SimRng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An integer in `[0, n)`; the multiply-shift bias (below 2^-32) is irrelevant here.
    fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    fn net_ms(&mut self) -> u64 {
        NET_MIN_MS + self.below(NET_SPREAD_MS + 1)
    }

    /// The generator of one client in one run of one scenario.
    fn for_client(seed: u64, scenario: u64, run: u32, client: u32) -> SimRng {
        let mut mix = SimRng(seed ^ scenario.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let a = mix.next_u64() ^ (run as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        let mut mix = SimRng(a);
        SimRng(mix.next_u64() ^ (client as u64).wrapping_mul(0xE703_7ED1_A0B4_28DB))
    }
}

struct SimClient {
    backoff: Backoff,
    rng: SimRng,
}

fn clients_for(seed: u64, scenario: u64, run: u32, n: u32, policy: &Policy) -> Vec<SimClient> {
    (0..n)
        .map(|c| {
            let mut rng = SimRng::for_client(seed, scenario, run, c);
            let backoff = Backoff::new(policy, rng.next_u64());
            SimClient { backoff, rng }
        })
        .collect()
}

/// The jitter a strategy name means in a scenario whose first delay is `initial_ms`. Google's
/// additive jitter keeps its ratio to the first delay (1000 ms on 1 s); proportional is gRPC's ±20 %.
fn jitter_for(name: JitterName, initial_ms: u32) -> Jitter {
    match name {
        JitterName::None => Jitter::None,
        JitterName::Google => Jitter::Google {
            jitter_ms: initial_ms,
        },
        JitterName::Full => Jitter::Full,
        JitterName::Equal => Jitter::Equal,
        JitterName::Decorrelated => Jitter::Decorrelated,
        JitterName::Proportional => Jitter::Proportional {
            spread_per_mille: 200,
        },
    }
}

fn strategy_name(name: JitterName) -> &'static str {
    jitter_for(name, 1).name()
}

/// Retries never run out in either scenario: the horizon ends a run instead.
fn contention_policy(name: JitterName) -> Policy {
    Policy::builder()
        .initial_ms(CONTENTION_BASE_MS)
        .multiplier(2, 1)
        .max_backoff_ms(CONTENTION_CAP_MS)
        .max_retries(u32::MAX)
        .jitter(jitter_for(name, CONTENTION_BASE_MS))
        .build()
        .expect("contention policy is valid")
}

fn outage_policy(name: JitterName) -> Policy {
    let google = Policy::google();
    google
        .to_builder()
        .max_retries(u32::MAX)
        .jitter(jitter_for(name, google.initial_ms()))
        .build()
        .expect("outage policy is valid")
}

/// Adds one to `counts[index]`, growing the vector as needed.
/// When a failed client's next request arrives: its answer came back at `back`, then it waits the
/// core's delay and the network again. `None` once its backoff gives up.
fn retry_arrival(client: &mut SimClient, policy: &Policy, back: u64) -> Option<u64> {
    let delay_ms = client.backoff.next_delay(policy).delay_ms()?;
    Some(back + delay_ms as u64 + client.rng.net_ms())
}

fn bump(counts: &mut Vec<u32>, index: u64) {
    let i = index as usize;
    if counts.len() <= i {
        counts.resize(i + 1, 0);
    }
    counts[i] += 1;
}

/// What one contention run produced.
#[derive(Debug, Default)]
struct ContentionRun {
    calls: u64,
    /// Each finished client's time from start to its success response, ms.
    completion_ms: Vec<u64>,
    unfinished: u32,
    /// Writes landing per `CONTENTION_BUCKET_MS`.
    timeline: Vec<u32>,
}

fn contention_run(policy: &Policy, clients: u32, seed: u64, run: u32) -> ContentionRun {
    let mut sim = clients_for(seed, 1, run, clients, policy);
    let mut out = ContentionRun::default();
    let mut arrivals = BinaryHeap::with_capacity(clients as usize);
    for (c, client) in sim.iter_mut().enumerate() {
        arrivals.push(Reverse((client.rng.net_ms(), c as u32)));
    }
    let mut last_success: Option<u64> = None;
    while let Some(Reverse((t, c))) = arrivals.pop() {
        if t > HORIZON_MS {
            out.unfinished = arrivals.len() as u32 + 1;
            break;
        }
        out.calls += 1;
        bump(&mut out.timeline, t / CONTENTION_BUCKET_MS);
        let client = &mut sim[c as usize];
        let back = t + client.rng.net_ms();
        // Arrivals pop in time order, so `last_success <= t`.
        if last_success.is_none_or(|s| t - s >= WINDOW_MS) {
            last_success = Some(t);
            out.completion_ms.push(back);
            continue;
        }
        match retry_arrival(client, policy, back) {
            Some(next) => arrivals.push(Reverse((next, c))),
            None => out.unfinished += 1,
        }
    }
    out
}

/// What one outage run produced.
#[derive(Debug, Default)]
struct OutageRun {
    /// Requests arriving per second since the start.
    per_second: Vec<u32>,
    /// ms after recovery when the last client succeeded.
    all_done_after_recovery_ms: u64,
    unfinished: u32,
}

fn outage_run(
    policy: &Policy,
    clients: u32,
    outage_ms: u64,
    capacity: u32,
    seed: u64,
    run: u32,
) -> OutageRun {
    let mut sim = clients_for(seed, 2, run, clients, policy);
    let mut out = OutageRun::default();
    let mut accepted: Vec<u32> = Vec::new();
    let mut arrivals = BinaryHeap::with_capacity(clients as usize);
    for (c, client) in sim.iter_mut().enumerate() {
        let start = client.rng.below(OUTAGE_START_SPREAD_MS);
        arrivals.push(Reverse((start + client.rng.net_ms(), c as u32)));
    }
    let mut last_success = 0;
    while let Some(Reverse((t, c))) = arrivals.pop() {
        if t > outage_ms + HORIZON_MS {
            out.unfinished = arrivals.len() as u32 + 1;
            break;
        }
        let second = t / 1000;
        bump(&mut out.per_second, second);
        let client = &mut sim[c as usize];
        let back = t + client.rng.net_ms();
        if t >= outage_ms {
            let i = second as usize;
            if accepted.len() <= i {
                accepted.resize(i + 1, 0);
            }
            if accepted[i] < capacity {
                accepted[i] += 1;
                last_success = last_success.max(back);
                continue;
            }
        }
        match retry_arrival(client, policy, back) {
            Some(next) => arrivals.push(Reverse((next, c))),
            None => out.unfinished += 1,
        }
    }
    out.all_done_after_recovery_ms = last_success.saturating_sub(outage_ms);
    out
}

/// The nearest-rank percentile of sorted values (`p` in 1..=100).
fn percentile(sorted: &[u64], p: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p * sorted.len() as u64).div_ceil(100).max(1);
    sorted[rank as usize - 1]
}

/// Adds `counts` into `sum` element-wise, growing `sum` as needed.
fn accumulate(sum: &mut Vec<u64>, counts: &[u32]) {
    if sum.len() < counts.len() {
        sum.resize(counts.len(), 0);
    }
    for (s, c) in sum.iter_mut().zip(counts) {
        *s += *c as u64;
    }
}

/// One strategy's contention figures over all runs.
#[derive(Debug, Clone, PartialEq)]
struct ContentionRow {
    strategy: &'static str,
    calls_total: u64,
    calls_per_run: u64,
    completion_p50_ms: u64,
    completion_p99_ms: u64,
    completion_max_ms: u64,
    unfinished: u64,
    /// Writes per `CONTENTION_BUCKET_MS`, summed over runs.
    timeline_sum: Vec<u64>,
}

fn contention(name: JitterName, clients: u32, runs: u32, seed: u64) -> ContentionRow {
    let policy = contention_policy(name);
    let mut calls = 0;
    let mut unfinished = 0;
    let mut completion = Vec::with_capacity(clients as usize * runs as usize);
    let mut timeline_sum = Vec::new();
    for run in 0..runs {
        let r = contention_run(&policy, clients, seed, run);
        calls += r.calls;
        unfinished += r.unfinished as u64;
        completion.extend(r.completion_ms);
        accumulate(&mut timeline_sum, &r.timeline);
    }
    completion.sort_unstable();
    ContentionRow {
        strategy: strategy_name(name),
        calls_total: calls,
        calls_per_run: calls / runs as u64,
        completion_p50_ms: percentile(&completion, 50),
        completion_p99_ms: percentile(&completion, 99),
        completion_max_ms: percentile(&completion, 100),
        unfinished,
        timeline_sum,
    }
}

/// One strategy's outage figures over all runs.
#[derive(Debug, Clone, PartialEq)]
struct OutageRow {
    strategy: &'static str,
    /// The busiest second from recovery on: mean over runs, and the worst run.
    peak_rps_mean: u64,
    peak_rps_max: u64,
    /// Requests in the first second after recovery, mean over runs.
    first_second_mean: u64,
    all_done_p50_ms: u64,
    all_done_max_ms: u64,
    unfinished: u64,
    /// Requests per second, summed over runs.
    per_second_sum: Vec<u64>,
}

fn outage(
    name: JitterName,
    clients: u32,
    runs: u32,
    seed: u64,
    outage_s: u32,
    capacity: u32,
) -> OutageRow {
    let policy = outage_policy(name);
    let recovery = outage_s as usize;
    let (mut peak_sum, mut peak_max, mut first_sum, mut unfinished) = (0, 0, 0, 0);
    let mut done = Vec::with_capacity(runs as usize);
    let mut per_second_sum = Vec::new();
    for run in 0..runs {
        let r = outage_run(
            &policy,
            clients,
            outage_s as u64 * 1000,
            capacity,
            seed,
            run,
        );
        let after = r.per_second.get(recovery..).unwrap_or(&[]);
        let peak = after.iter().copied().max().unwrap_or(0) as u64;
        peak_sum += peak;
        peak_max = peak_max.max(peak);
        first_sum += after.first().copied().unwrap_or(0) as u64;
        unfinished += r.unfinished as u64;
        done.push(r.all_done_after_recovery_ms);
        accumulate(&mut per_second_sum, &r.per_second);
    }
    done.sort_unstable();
    OutageRow {
        strategy: strategy_name(name),
        peak_rps_mean: peak_sum / runs as u64,
        peak_rps_max: peak_max,
        first_second_mean: first_sum / runs as u64,
        all_done_p50_ms: percentile(&done, 50),
        all_done_max_ms: percentile(&done, 100),
        unfinished,
        per_second_sum,
    }
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
        crate::simulate_chart::write_svg(path, &chart_panels(args, &contention_rows, &outage_rows))
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

/// Milliseconds as seconds with one decimal, without floats.
fn seconds(ms: u64) -> String {
    format!("{}.{}", ms / 1000, ms % 1000 / 100)
}

fn contention_metrics(r: &ContentionRow) -> [(&'static str, u64); 6] {
    [
        ("calls_total", r.calls_total),
        ("calls_per_run", r.calls_per_run),
        ("completion_p50_ms", r.completion_p50_ms),
        ("completion_p99_ms", r.completion_p99_ms),
        ("completion_max_ms", r.completion_max_ms),
        ("unfinished", r.unfinished),
    ]
}

fn outage_metrics(r: &OutageRow) -> [(&'static str, u64); 6] {
    [
        ("peak_rps_mean", r.peak_rps_mean),
        ("peak_rps_max", r.peak_rps_max),
        ("first_second_after_recovery_mean", r.first_second_mean),
        ("all_done_after_recovery_p50_ms", r.all_done_p50_ms),
        ("all_done_after_recovery_max_ms", r.all_done_max_ms),
        ("unfinished", r.unfinished),
    ]
}

fn contention_json(r: &ContentionRow) -> Value {
    let mut v = json!({ "strategy": r.strategy });
    for (metric, value) in contention_metrics(r) {
        v[metric] = json!(value);
    }
    v
}

fn outage_json(r: &OutageRow) -> Value {
    let mut v = json!({ "strategy": r.strategy });
    for (metric, value) in outage_metrics(r) {
        v[metric] = json!(value);
    }
    v
}

/// The chart's data: requests per second over time, averaged over runs.
fn chart_panels(
    args: &SimulateArgs,
    contention_rows: &[ContentionRow],
    outage_rows: &[OutageRow],
) -> Vec<crate::simulate_chart::Panel> {
    use crate::simulate_chart::{Panel, Series};
    let runs = args.runs as f64;
    let mut panels = Vec::new();
    if !outage_rows.is_empty() {
        panels.push(Panel {
            title: format!(
                "outage: {} clients, server down {} s then {} requests/s (mean of {} runs)",
                args.clients.unwrap_or(1000),
                args.outage_s,
                args.capacity,
                args.runs
            ),
            log_axes: false,
            marker_s: Some(args.outage_s as f64),
            series: outage_rows
                .iter()
                .map(|r| Series {
                    name: r.strategy,
                    points: r
                        .per_second_sum
                        .iter()
                        .enumerate()
                        .map(|(s, &n)| (s as f64, n as f64 / runs))
                        .collect(),
                })
                .collect(),
        });
    }
    if !contention_rows.is_empty() {
        panels.push(Panel {
            title: format!(
                "contention: {} clients, one conditional write each (mean of {} runs)",
                args.clients.unwrap_or(100),
                args.runs
            ),
            log_axes: true,
            marker_s: None,
            series: contention_rows
                .iter()
                .map(|r| Series {
                    name: r.strategy,
                    points: log_binned_rate(&r.timeline_sum, runs),
                })
                .collect(),
        });
    }
    panels
}

/// Requests per second in bins that grow by a quarter each (10 ms, 12 ms, 15 ms, ... of
/// `CONTENTION_BUCKET_MS` buckets), at each bin's geometric middle: even points on a log time axis.
fn log_binned_rate(buckets: &[u64], runs: f64) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    let mut start = 0usize;
    let mut width = 1usize;
    while start < buckets.len() {
        let end = (start + width).min(buckets.len());
        let count: u64 = buckets[start..end].iter().sum();
        let seconds = |b: usize| (b as u64 * CONTENTION_BUCKET_MS) as f64 / 1000.0;
        let span = seconds(end) - seconds(start);
        let middle = if start == 0 {
            seconds(end) / 2.0
        } else {
            (seconds(start) * seconds(end)).sqrt()
        };
        points.push((middle, count as f64 / span / runs));
        start = end;
        width = (width * 5).div_ceil(4);
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contention_all(clients: u32, runs: u32, seed: u64) -> Vec<ContentionRow> {
        ALL_STRATEGIES
            .iter()
            .map(|&s| contention(s, clients, runs, seed))
            .collect()
    }

    fn row<'a, T>(rows: &'a [T], name: &str, strategy: impl Fn(&T) -> &str) -> &'a T {
        rows.iter().find(|r| strategy(r) == name).unwrap()
    }

    #[test]
    fn same_seed_same_figures_other_seed_other_figures() {
        let a = contention(JitterName::Full, 50, 3, 7);
        let b = contention(JitterName::Full, 50, 3, 7);
        let c = contention(JitterName::Full, 50, 3, 8);
        assert_eq!(a, b);
        assert_ne!(a.calls_total, c.calls_total);
        let a = outage(JitterName::Google, 200, 2, 7, 30, 50);
        let b = outage(JitterName::Google, 200, 2, 7, 30, 50);
        assert_eq!(a, b);
    }

    #[test]
    fn every_client_finishes_and_succeeds_once() {
        for r in contention_all(100, 5, 1) {
            assert_eq!(r.unfinished, 0, "{}", r.strategy);
            // One success per client plus the failed writes.
            assert!(r.calls_total >= 5 * 100, "{}", r.strategy);
        }
        let r = outage(JitterName::Full, 300, 2, 1, 60, 100);
        assert_eq!(r.unfinished, 0);
        // During the outage every request fails, so each client made several.
        let total: u64 = r.per_second_sum.iter().sum();
        assert!(total > 2 * 300 * 5, "{total}");
    }

    // Brooker's result: without jitter, clients that collided keep colliding, so no jitter is by
    // far the worst in calls and in time; full and decorrelated are the best (full makes the fewest
    // calls, decorrelated finishes soonest). Google's additive jitter is as small as the first delay
    // here, so it behaves almost like none.
    #[test]
    fn contention_no_jitter_is_worst_full_and_decorrelated_best() {
        let rows = contention_all(100, 20, 1);
        let by = |name| row(&rows, name, |r: &ContentionRow| r.strategy);
        let none = by("none");
        for r in rows.iter().filter(|r| r.strategy != "none") {
            assert!(none.calls_total > r.calls_total, "{}", r.strategy);
            assert!(
                none.completion_p99_ms > r.completion_p99_ms,
                "{}",
                r.strategy
            );
        }
        for name in ["full", "equal", "decorrelated", "proportional"] {
            assert!(none.calls_total > 2 * by(name).calls_total, "{name}");
            assert!(
                none.completion_p50_ms > 10 * by(name).completion_p50_ms,
                "{name}"
            );
        }
        let fewest = rows.iter().map(|r| r.calls_total).min().unwrap();
        assert!(
            by("full").calls_total * 100 <= fewest * 101,
            "full within 1 % of the fewest"
        );
        let mut by_p50: Vec<_> = rows.iter().collect();
        by_p50.sort_by_key(|r| r.completion_p50_ms);
        assert_eq!(by_p50[0].strategy, "decorrelated");
        assert_eq!(by_p50[1].strategy, "full");
        let mut by_p99: Vec<_> = rows.iter().collect();
        by_p99.sort_by_key(|r| r.completion_p99_ms);
        let top2 = [by_p99[0].strategy, by_p99[1].strategy];
        assert!(
            top2.contains(&"full") && top2.contains(&"decorrelated"),
            "{top2:?}"
        );
    }

    // Google's formula loses its jitter at the cap: clients re-synchronize and hit the recovered
    // server in bursts. Full jitter keeps them spread over the whole cap.
    #[test]
    fn outage_google_resynchronizes_at_the_cap_full_keeps_spread() {
        let google = outage(JitterName::Google, 1000, 10, 1, 120, 100);
        let full = outage(JitterName::Full, 1000, 10, 1, 120, 100);
        let none = outage(JitterName::None, 1000, 10, 1, 120, 100);
        assert!(
            google.peak_rps_mean > 3 * full.peak_rps_mean,
            "google {} full {}",
            google.peak_rps_mean,
            full.peak_rps_mean
        );
        assert!(none.peak_rps_mean >= google.peak_rps_mean);
        // Full jitter over a 32 s cap: about 1000 / 16 requests per second, far below a burst.
        assert!(full.peak_rps_mean < 200, "{}", full.peak_rps_mean);
        assert!(google.all_done_p50_ms > full.all_done_p50_ms);
        // Before recovery, in the last 32 s window at the cap, Google's busiest second holds a
        // large share of all clients; full jitter's holds only a few percent.
        let busiest = |r: &OutageRow| r.per_second_sum[88..120].iter().copied().max().unwrap() / 10;
        assert!(busiest(&google) > 150, "{}", busiest(&google));
        assert!(busiest(&full) < 100, "{}", busiest(&full));
    }

    #[test]
    fn log_bins_give_rates_per_second_at_rising_times() {
        // 5 requests per 10 ms bucket is 500/s whatever a bin's width.
        let points = log_binned_rate(&[5; 1000], 1.0);
        assert!(points.len() < 40, "{}", points.len());
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(
            points.iter().all(|p| (p.1 - 500.0).abs() < 1e-9),
            "{points:?}"
        );
        // Two runs summed: halve. A lone first bucket of 100 is 100 per 10 ms = 10 000/s.
        let mut spike = vec![0; 50];
        spike[0] = 200;
        let points = log_binned_rate(&spike, 2.0);
        assert_eq!(points[0], (0.005, 10_000.0));
        assert!(points[1..].iter().all(|p| p.1 == 0.0));
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50), 50);
        assert_eq!(percentile(&v, 99), 99);
        assert_eq!(percentile(&v, 100), 100);
        assert_eq!(percentile(&[7], 1), 7);
        assert_eq!(percentile(&[], 50), 0);
    }

    #[test]
    fn chart_has_one_labelled_line_per_strategy() {
        let dir = std::env::temp_dir().join(format!("sb-sim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.svg");
        let args = SimulateArgs {
            scenario: Scenario::All,
            clients: Some(50),
            runs: 2,
            strategies: Vec::new(),
            seed: 1,
            outage_s: 20,
            capacity: 20,
            format: Format::Table,
            svg: Some(path.clone()),
        };
        let c: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| contention(s, 50, 2, 1))
            .collect();
        let o: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| outage(s, 50, 2, 1, 20, 20))
            .collect();
        crate::simulate_chart::write_svg(&path, &chart_panels(&args, &c, &o)).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(svg.starts_with("<svg"));
        for name in Jitter::NAMES {
            assert!(
                svg.contains(&format!(">\n{name}\n</text>")),
                "legend entry {name}"
            );
        }
        assert!(svg.contains("requests per second"));
        assert!(svg.contains("requests per second (log scale)"));
        assert!(svg.contains("time since start (s)"));
        assert!(svg.contains("time since start (s, log scale)"));
        // Series are the only 2-px lines (axes, ticks and legend samples are 1 or 3 px).
        assert_eq!(
            svg.matches(r#"stroke-width="2" points="#).count(),
            2 * 6,
            "one line per strategy and panel"
        );
    }
}
