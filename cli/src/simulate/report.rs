//! The figures as a table, JSON or CSV.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::contention::ContentionRow;
use super::model::{CONTENTION_BASE_MS, CONTENTION_CAP_MS, NET_MIN_MS, NET_SPREAD_MS, WINDOW_MS};
use super::outage::OutageRow;
use super::paced::PacingRow;
use super::phones;
use super::quota::QuotaRow;
use super::quota_report;
use super::Setup;
use crate::schedule_cmd::Format;

/// Prints the figures on stdout; the wall time goes to stderr for JSON and CSV, so that their
/// stdout is the same for the same seed.
pub fn print(
    setup: &Setup,
    format: Format,
    contention_rows: &[ContentionRow],
    outage_rows: &[OutageRow],
    (shed_rows, pacing_rows, quota_rows, phones_rows): (
        &[OutageRow],
        &[PacingRow],
        &[QuotaRow],
        &[OutageRow],
    ),
    svg: Option<&Path>,
    wall: Duration,
) {
    let header_c = format!(
        "contention: {} clients, {} runs, seed {}; one conditional write each, \
         {WINDOW_MS} ms conflict window, network {}..={} ms, base {CONTENTION_BASE_MS} ms, cap \
         {CONTENTION_CAP_MS} ms",
        setup.contention_clients,
        setup.runs,
        setup.seed,
        NET_MIN_MS,
        NET_MIN_MS + NET_SPREAD_MS
    );
    let header_o = format!(
        "outage: {} clients, {} runs, seed {}; server down {} s, then {} requests/s; \
         Google's 1 s / x2 / 32 s with each strategy; api-core-default: 1 s / x1.3 / 10 s, full \
         jitter, 60 s deadline",
        setup.outage_clients, setup.runs, setup.seed, setup.outage_s, setup.capacity
    );
    let header_s = format!(
        "shed: {} clients, {} runs, seed {}; server up, {} requests/s, 429 above it (no \
         Retry-After); api-core-default does not retry 429",
        setup.outage_clients, setup.runs, setup.seed, setup.capacity
    );
    match format {
        Format::Table => {
            if setup.contention {
                println!("{header_c}");
                println!(
                    "{:<16} {:>10} {:>12} {:>12} {:>12} {:>11}",
                    "strategy",
                    "calls/run",
                    "done p50 ms",
                    "done p99 ms",
                    "done max ms",
                    "unfinished"
                );
                for r in contention_rows {
                    println!(
                        "{:<16} {:>10} {:>12} {:>12} {:>12} {:>11}",
                        r.strategy,
                        r.calls_per_run,
                        r.completion_p50_ms,
                        r.completion_p99_ms,
                        r.completion_max_ms,
                        r.unfinished
                    );
                }
            }
            if setup.outage {
                if setup.contention {
                    println!();
                }
                println!("{header_o}");
                println!(
                    "{:<16} {:>10} {:>10} {:>13} {:>14} {:>14} {:>11} {:>8}",
                    "strategy",
                    "peak rps",
                    "peak max",
                    "first second",
                    "all done p50 s",
                    "all done max s",
                    "unfinished",
                    "failed"
                );
                for r in outage_rows {
                    println!(
                        "{:<16} {:>10} {:>10} {:>13} {:>14} {:>14} {:>11} {:>8}",
                        r.strategy,
                        r.peak_rps_mean,
                        r.peak_rps_max,
                        r.first_second_mean,
                        seconds(r.all_done_p50_ms),
                        seconds(r.all_done_max_ms),
                        r.unfinished,
                        r.failed
                    );
                }
                println!(
                    "(peak rps: the busiest second from recovery on, mean over runs; first second: \
                     requests in the first second after recovery; all done: time after recovery \
                     until every client that succeeds has; failed: clients that ended with an \
                     error, over all runs)"
                );
                if let Some(share) = setup.phones {
                    phones::print_phones(phones_rows, setup.outage_clients, share, setup.runs);
                }
            }
            if setup.shed {
                if setup.contention || setup.outage {
                    println!();
                }
                println!("{header_s}");
                println!(
                    "{:<16} {:>10} {:>10} {:>10} {:>12} {:>12} {:>12} {:>8}",
                    "strategy",
                    "calls/run",
                    "later peak",
                    "succeeded",
                    "done p50 ms",
                    "done p99 ms",
                    "done max ms",
                    "failed"
                );
                for r in shed_rows {
                    println!(
                        "{:<16} {:>10} {:>10} {:>10} {:>12} {:>12} {:>12} {:>8}",
                        r.strategy,
                        r.requests_per_run,
                        later_peak(r, setup.runs),
                        r.succeeded,
                        r.completion_p50_ms,
                        r.completion_p99_ms,
                        r.completion_max_ms,
                        r.failed
                    );
                }
                println!(
                    "(later peak: the busiest second after the first, when every client made its \
                     first request, mean over runs; over all runs: succeeded and failed clients; \
                     done: from the start until a client's success, the clients that succeeded)"
                );
                print_pacing(setup, pacing_rows);
            }
            if setup.quota {
                if setup.contention || setup.outage || setup.shed {
                    println!();
                }
                quota_report::print_table(setup, quota_rows);
            }
            if let Some(path) = svg {
                println!("chart written to {}", path.display());
            }
            println!("wall time: {:.3} s", wall.as_secs_f64());
        }
        Format::Json => {
            let mut out = json!({ "seed": setup.seed, "runs": setup.runs });
            if setup.contention {
                out["contention"] = json!({
                    "clients": setup.contention_clients,
                    "window_ms": WINDOW_MS,
                    "base_ms": CONTENTION_BASE_MS,
                    "cap_ms": CONTENTION_CAP_MS,
                    "results": contention_rows.iter().map(contention_json).collect::<Vec<Value>>(),
                });
            }
            if setup.outage {
                out["outage"] = json!({
                    "clients": setup.outage_clients,
                    "outage_s": setup.outage_s,
                    "capacity_rps": setup.capacity,
                    "results": outage_rows.iter().map(outage_json).collect::<Vec<Value>>(),
                });
                if let Some(share) = setup.phones {
                    out["outage"]["phones"] = json!({
                        "percent": share,
                        "results": phones_rows.iter().map(outage_json).collect::<Vec<Value>>(),
                    });
                }
            }
            if setup.shed {
                out["shed"] = json!({
                    "clients": setup.outage_clients,
                    "capacity_rps": setup.capacity,
                    "results": shed_rows.iter().map(|r| {
                        let mut v = outage_json(r);
                        v["later_peak_rps"] = json!(later_peak(r, setup.runs));
                        v
                    }).collect::<Vec<Value>>(),
                    "pacing": pacing_rows.iter().map(pacing_json).collect::<Vec<Value>>(),
                });
            }
            if setup.quota {
                out["quota"] = quota_report::json(setup, quota_rows);
            }
            println!("{out}");
            // stderr, so the JSON on stdout is the same for the same seed.
            eprintln!("wall time: {:.3} s", wall.as_secs_f64());
        }
        Format::Csv => {
            println!("scenario,strategy,metric,value");
            for r in contention_rows {
                for (metric, value) in contention_metrics(r) {
                    println!("contention,{},{metric},{value}", r.strategy);
                }
            }
            for r in outage_rows {
                for (metric, value) in outage_metrics(r) {
                    println!("outage,{},{metric},{value}", r.strategy);
                }
            }
            for r in phones_rows {
                for (metric, value) in outage_metrics(r) {
                    println!("outage-phones,{},{metric},{value}", r.strategy);
                }
            }
            for r in shed_rows {
                for (metric, value) in outage_metrics(r) {
                    println!("shed,{},{metric},{value}", r.strategy);
                }
                println!(
                    "shed,{},later_peak_rps,{}",
                    r.strategy,
                    later_peak(r, setup.runs)
                );
            }
            for r in quota_rows {
                for (metric, value) in quota_report::metrics(r) {
                    println!("quota,{},{metric},{value}", r.name);
                }
            }
            eprintln!("wall time: {:.3} s", wall.as_secs_f64());
        }
    }
}

/// The shed scenario's busiest second after the first (which holds every client's first request),
/// as a mean over the runs.
pub fn later_peak(r: &OutageRow, runs: u32) -> u64 {
    r.per_second_sum.iter().skip(1).copied().max().unwrap_or(0) / runs.max(1) as u64
}

/// Milliseconds as seconds with one decimal, without floats.
pub fn seconds(ms: u64) -> String {
    format!("{}.{}", ms / 1000, ms % 1000 / 100)
}

pub fn contention_metrics(r: &ContentionRow) -> [(&'static str, u64); 6] {
    [
        ("calls_total", r.calls_total),
        ("calls_per_run", r.calls_per_run),
        ("completion_p50_ms", r.completion_p50_ms),
        ("completion_p99_ms", r.completion_p99_ms),
        ("completion_max_ms", r.completion_max_ms),
        ("unfinished", r.unfinished),
    ]
}

pub fn outage_metrics(r: &OutageRow) -> [(&'static str, u64); 14] {
    [
        ("peak_rps_mean", r.peak_rps_mean),
        ("peak_rps_max", r.peak_rps_max),
        ("first_second_after_recovery_mean", r.first_second_mean),
        ("all_done_after_recovery_p50_ms", r.all_done_p50_ms),
        ("all_done_after_recovery_max_ms", r.all_done_max_ms),
        ("unfinished", r.unfinished),
        ("failed", r.failed),
        ("failed_phones", r.failed_phones),
        ("succeeded", r.succeeded),
        ("requests_per_run", r.requests_per_run),
        ("rejected_per_run", r.rejected_per_run),
        ("completion_p50_ms", r.completion_p50_ms),
        ("completion_p99_ms", r.completion_p99_ms),
        ("completion_max_ms", r.completion_max_ms),
    ]
}

pub fn contention_json(r: &ContentionRow) -> Value {
    let mut v = json!({ "strategy": r.strategy });
    for (metric, value) in contention_metrics(r) {
        v[metric] = json!(value);
    }
    v
}

pub fn outage_json(r: &OutageRow) -> Value {
    let mut v = json!({ "strategy": r.strategy });
    for (metric, value) in outage_metrics(r) {
        v[metric] = json!(value);
    }
    v
}

/// One fleet of the shed with what the server answers, for `--format json`: the figures the table
/// prints, and per second the arrivals and of them the accepted (what a real server's log is
/// compared with).
fn pacing_json(r: &PacingRow) -> Value {
    json!({
        "fleet": r.name,
        "calls": r.run.calls,
        "last_done_ms": r.run.last_done_ms,
        "later_peak_rps": r.run.per_second.iter().skip(1).copied().max().unwrap_or(0),
        "per_second": r.run.per_second,
        "accepted_per_second": r.run.accepted,
        "unfinished": r.run.unfinished,
    })
}

/// The shed with what the server answers: calls per client, when the last client is done, and the
/// busiest second after the first, against the physical limit.
fn print_pacing(setup: &Setup, rows: &[PacingRow]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "shed with what the server answers: {} clients, one run, seed {}; {} requests/s; the limit: \
         every client done after {} s with one retry at most; pacer: SPEC.md §16, 6 % kept for \
         first attempts in its first second, clients with the paced option",
        setup.outage_clients,
        setup.seed,
        setup.capacity,
        setup.outage_clients / setup.capacity.max(1)
    );
    println!(
        "{:<30} {:>12} {:>12} {:>14} {:>11}",
        "fleet", "calls/client", "last done s", "later peak", "unfinished"
    );
    for r in rows {
        println!(
            "{:<30} {:>12.2} {:>12.1} {:>14} {:>11}",
            r.name,
            r.run.calls as f64 / setup.outage_clients.max(1) as f64,
            r.run.last_done_ms as f64 / 1000.0,
            r.run.per_second.iter().skip(1).copied().max().unwrap_or(0),
            r.run.unfinished
        );
    }
    println!("(later peak: arrivals in the busiest second after the first, refused ones included)");
}
