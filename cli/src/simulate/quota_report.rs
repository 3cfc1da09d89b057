//! The `quota` scenario's table, JSON, CSV and chart panel.

use serde_json::{json, Value};

use super::draw::{Panel, Reference, Series};
use super::quota::{
    quota_at, quota_total, Fleet, QuotaRow, ARRIVALS_MS, AWS_STYLE, DEMAND, HALVED_MS, OURS_STYLE,
    QUOTA_STYLE,
};
use super::report::seconds;
use super::Setup;

/// The goals of the send rate in this scenario: goodput and refused in thousandths, settling in ms.
pub const GOAL_GOODPUT_PERMILLE: u64 = 970;
pub const GOAL_REFUSED_PERMILLE: u64 = 30;
pub const GOAL_SETTLE_MS: u64 = 10_000;

/// The goals of one send rate shared by a fleet: goodput, refused after the first second, settling.
pub const FLEET_GOAL_GOODPUT_PERMILLE: u64 = 980;
pub const FLEET_GOAL_REFUSED_PERMILLE: u64 = 10;
pub const FLEET_GOAL_SETTLE_MS: u64 = 3_000;

/// Refused attempts sent after the first second, in thousandths of the attempts sent after it.
pub fn refused_after_first_s_permille(r: &QuotaRow) -> u64 {
    r.run.refused_after_first_s * 1000 / r.run.attempts_after_first_s.max(1)
}

/// Whether a fleet's shared send rate meets its goals.
pub fn meets_fleet_goals(r: &QuotaRow) -> bool {
    r.goodput_permille >= FLEET_GOAL_GOODPUT_PERMILLE
        && refused_after_first_s_permille(r) <= FLEET_GOAL_REFUSED_PERMILLE
        && r.settle_ms
            .iter()
            .all(|s| s.is_some_and(|ms| ms <= FLEET_GOAL_SETTLE_MS))
}

/// Thousandths as a percentage with one decimal, without floats: 981 is "98.1 %".
fn percent(permille: u64) -> String {
    format!("{}.{} %", permille / 10, permille % 10)
}

fn settle(ms: Option<u64>) -> String {
    ms.map_or("never".to_string(), |ms| format!("{} s", seconds(ms)))
}

/// Whether a row meets the goals.
pub fn meets_goals(r: &QuotaRow) -> bool {
    r.goodput_permille >= GOAL_GOODPUT_PERMILLE
        && r.refused_permille <= GOAL_REFUSED_PERMILLE
        && r.settle_ms
            .iter()
            .all(|s| s.is_some_and(|ms| ms <= GOAL_SETTLE_MS))
}

fn header(setup: &Setup) -> String {
    let q = setup.capacity;
    format!(
        "quota: one process, {} requests/s ({DEMAND} x the quota) for {} s; a server quota of {q} \
         requests/s (token bucket, burst {}, 429 without Retry-After), {} requests/s from {} s to \
         {} s; seed {}, one run per row; no limiter: Google's 1 s / x2 / 32 s with each strategy; \
         AWS: its adaptive mode's constants, retries on standard mode's backoff",
        DEMAND * q,
        ARRIVALS_MS / 1000,
        (q / 10).max(1),
        quota_at(q, HALVED_MS.0),
        HALVED_MS.0 / 1000,
        HALVED_MS.1 / 1000,
        setup.seed
    )
}

pub fn print_table(setup: &Setup, rows: &[QuotaRow]) {
    println!("{}", header(setup));
    println!(
        "{:<30} {:>9} {:>9} {:>9} {:>11} {:>11} {:>14} {:>16} {:>8}",
        "process",
        "goodput",
        "refused",
        "attempts",
        "wait p50 s",
        "wait p99 s",
        "back (halved)",
        "back (restored)",
        "failed"
    );
    for r in rows {
        println!(
            "{:<30} {:>9} {:>9} {:>9} {:>11} {:>11} {:>14} {:>16} {:>8}",
            r.name,
            percent(r.goodput_permille),
            percent(r.refused_permille),
            r.run.attempts,
            seconds(r.wait_p50_ms),
            seconds(r.wait_p99_ms),
            settle(r.settle_ms[0]),
            settle(r.settle_ms[1]),
            r.run.failed + r.run.unfinished
        );
    }
    println!(
        "(goodput: requests accepted in the {} s as a share of the quota's {}; refused: 429s as a \
         share of all attempts; wait: from a request's arrival until its accepted attempt left, \
         over the requests served, the backlog draining at the quota after {} s; back: from a \
         change of the quota until every 1 s window of goodput up to the next change is within 5 % \
         of the new quota; failed: requests that ended with a 429 or are unserved at the end of the drain)",
        ARRIVALS_MS / 1000,
        quota_total(setup.capacity),
        ARRIVALS_MS / 1000
    );
    if let Some(shared) = rows
        .iter()
        .find(|r| r.fleet.shared && r.style == OURS_STYLE)
    {
        println!(
            "goals for one send rate shared by {} processes (simulated, the store {} ms away): \
             goodput >= 98 % ({}), refused after the first second <= 1 % ({}), back within 5 % of \
             a changed quota in <= 3 s ({}, {}): {}",
            shared.fleet.processes,
            super::quota::STORE_MS,
            percent(shared.goodput_permille),
            percent(refused_after_first_s_permille(shared)),
            settle(shared.settle_ms[0]),
            settle(shared.settle_ms[1]),
            if meets_fleet_goals(shared) {
                "met"
            } else {
                "NOT met"
            }
        );
    }
    if let Some(ours) = rows
        .iter()
        .find(|r| r.style == OURS_STYLE && r.fleet == Fleet::ONE)
    {
        println!(
            "goals for the send rate: goodput >= 97 % ({}), refused <= 3 % ({}), back within 5 % \
             of a changed quota in <= 10 s ({}, {}): {}",
            percent(ours.goodput_permille),
            percent(ours.refused_permille),
            settle(ours.settle_ms[0]),
            settle(ours.settle_ms[1]),
            if meets_goals(ours) { "met" } else { "NOT met" }
        );
    }
}

/// Each row's figures by name, for JSON and CSV (a settling time that never comes is absent).
pub fn metrics(r: &QuotaRow) -> Vec<(&'static str, u64)> {
    let mut m = vec![
        ("goodput_permille", r.goodput_permille),
        ("refused_permille", r.refused_permille),
        ("requests", r.run.requests),
        ("attempts", r.run.attempts),
        ("refused", r.run.refused),
        ("failed", r.run.failed),
        ("unfinished", r.run.unfinished),
        ("wait_p50_ms", r.wait_p50_ms),
        ("wait_p99_ms", r.wait_p99_ms),
    ];
    for (name, s) in ["settle_halved_ms", "settle_restored_ms"]
        .into_iter()
        .zip(r.settle_ms)
    {
        if let Some(ms) = s {
            m.push((name, ms));
        }
    }
    m
}

pub fn json(setup: &Setup, rows: &[QuotaRow]) -> Value {
    json!({
        "quota_rps": setup.capacity,
        "demand": DEMAND,
        "results": rows.iter().map(|r| {
            let mut v = json!({ "process": r.name });
            for (metric, value) in metrics(r) {
                v[metric] = json!(value);
            }
            v
        }).collect::<Vec<Value>>(),
    })
}

/// Attempts per second (refused included) of the limiters against the quota; the processes
/// without a limiter send several times the quota and are off scale, so their figures are in the
/// note and the table instead of lines along the top edge.
pub fn panel(setup: &Setup, rows: &[QuotaRow]) -> Panel {
    let q = setup.capacity;
    let per_second = |bins: &[u32]| -> Vec<(f64, f64)> {
        bins.chunks(10)
            .enumerate()
            .map(|(s, c)| (s as f64 + 0.5, c.iter().sum::<u32>() as f64))
            .collect()
    };
    // One process's rows: the fleet's are in the table.
    let (limited, unlimited): (Vec<&QuotaRow>, Vec<&QuotaRow>) = rows
        .iter()
        .filter(|r| r.fleet == Fleet::ONE)
        .partition(|r| r.style == AWS_STYLE || r.style == OURS_STYLE);
    let x_end = (ARRIVALS_MS / 1000 + 5) as f64;
    let mut series: Vec<Series> = limited
        .iter()
        .map(|r| Series {
            name: format!(
                "{}: {} good, {} refused",
                r.name,
                percent(r.goodput_permille),
                percent(r.refused_permille)
            ),
            style: r.style,
            points: per_second(&r.run.attempts_per_bin)
                .into_iter()
                .filter(|p| p.0 <= x_end)
                .collect(),
        })
        .collect();
    let half = quota_at(q, HALVED_MS.0) as f64;
    let (h0, h1) = (HALVED_MS.0 as f64 / 1000.0, HALVED_MS.1 as f64 / 1000.0);
    series.push(Series {
        name: format!("the quota: {q} requests/s, {half:.0} from {h0:.0} s to {h1:.0} s"),
        style: QUOTA_STYLE,
        points: vec![
            (0.0, q as f64),
            (h0, q as f64),
            (h0, half),
            (h1, half),
            (h1, q as f64),
            (x_end, q as f64),
        ],
    });
    let y_max = q as f64 * 1.9;
    let clip_note = (!unlimited.is_empty()).then(|| {
        let refused = |f: fn(u64, u64) -> u64| {
            unlimited
                .iter()
                .map(|r| r.refused_permille)
                .reduce(f)
                .unwrap_or(0)
        };
        let peak = unlimited
            .iter()
            .flat_map(|r| {
                r.run
                    .attempts_per_bin
                    .chunks(10)
                    .map(|c| c.iter().sum::<u32>())
            })
            .max()
            .unwrap_or(0);
        format!(
            "  ↑ off scale: with no limiter, {DEMAND}x to {}x the quota, {} to {} refused",
            peak / q.max(1),
            percent(refused(u64::min)),
            percent(refused(u64::max))
        )
    });
    Panel {
        title: format!(
            "4. quota: one process at {DEMAND}x a server quota of {q} requests/s for {} s, the quota \
             halved from {h0:.0} s to {h1:.0} s (one run)",
            ARRIVALS_MS / 1000
        ),
        takeaway: takeaway(&limited),
        x_desc: "time since start (s)",
        y_desc: "attempts sent per second",
        x_log: false,
        x_range: (0.0, x_end),
        y_max,
        clip_note,
        references: Vec::<Reference>::new(),
        legend_left: false,
        series,
    }
}

fn takeaway(limited: &[&QuotaRow]) -> String {
    let back =
        |ms: Option<u64>| ms.map_or("never".to_string(), |ms| format!("after {} s", seconds(ms)));
    limited
        .iter()
        .map(|r| {
            format!(
                "{}: {} of the quota used, {} of attempts refused; back within 5 % of the halved \
                 quota {}, of the restored one {}.",
                r.name,
                percent(r.goodput_permille),
                percent(r.refused_permille),
                back(r.settle_ms[0]),
                back(r.settle_ms[1])
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
