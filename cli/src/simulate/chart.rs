//! The chart's data and words: one panel per scenario, in the README's order (contention, the
//! outage, the shed with a pacing server, then the quota, drawn by `quota_report`), each with a takeaway computed from the figures it
//! draws.

use super::contention::ContentionRow;
use super::draw::{Panel, Reference, Series};
use super::outage::OutageRow;
use super::paced::{PacingRow, PACED_STYLE};
use super::quota::QuotaRow;
use super::strategy::ALL_STRATEGIES;
use super::Setup;

/// A strategy's style index: its place in `ALL_STRATEGIES`, whatever subset is drawn.
fn style_of(strategy: &str) -> usize {
    ALL_STRATEGIES
        .iter()
        .position(|&s| s.name() == strategy)
        .unwrap_or(0)
}

pub fn chart_panels(
    setup: &Setup,
    contention_rows: &[ContentionRow],
    outage_rows: &[OutageRow],
    pacing_rows: &[PacingRow],
    quota_rows: &[QuotaRow],
) -> Vec<Panel> {
    let mut panels = Vec::new();
    if !contention_rows.is_empty() {
        panels.push(contention_panel(setup, contention_rows));
    }
    if !outage_rows.is_empty() {
        panels.push(outage_panel(setup, outage_rows));
    }
    if !pacing_rows.is_empty() {
        panels.push(pacing_panel(setup, pacing_rows));
    }
    if !quota_rows.is_empty() {
        panels.push(super::quota_report::panel(setup, quota_rows));
    }
    panels
}

/// The shed, second by second: arrivals (refused ones included) of each fleet against the
/// capacity, and when each is done, beside the physical limit (clients / capacity).
fn pacing_panel(setup: &Setup, rows: &[PacingRow]) -> Panel {
    let limit_s = setup.outage_clients as f64 / setup.capacity as f64;
    let paced = rows.iter().find(|r| r.style == PACED_STYLE);
    let best_other = rows
        .iter()
        .filter(|r| r.style != PACED_STYLE)
        .min_by_key(|r| r.run.last_done_ms);
    let calls = |r: &PacingRow| r.run.calls as f64 / setup.outage_clients as f64;
    let takeaway = match (paced, best_other) {
        (Some(p), Some(o)) => format!(
            "A pacing server with paced clients is done after {} with {:.2} calls per client (the \
             limit: {limit_s:.0} s, 1 retry each); the best fleet without it ({}) after {} with \
             {:.2}.",
            secs(p.run.last_done_ms),
            calls(p),
            o.name,
            secs(o.run.last_done_ms),
            calls(o)
        ),
        _ => String::new(),
    };
    let x_end = rows
        .iter()
        .map(|r| r.run.last_done_ms)
        .max()
        .unwrap_or(0)
        .min(60_000) as f64
        / 1000.0;
    // Scaled to the seconds after the first, where the fleets differ; the first second's arrival
    // of every client is off scale.
    let later = rows
        .iter()
        .flat_map(|r| r.run.per_second.iter().skip(1).copied())
        .max()
        .unwrap_or(0)
        .max(setup.capacity) as f64;
    let y_max = later * 1.15;
    let first = rows
        .iter()
        .filter_map(|r| r.run.per_second.first().copied())
        .max()
        .unwrap_or(0) as f64;
    Panel {
        title: format!(
            "3. shed: {} clients at once, a server of {} requests/s that refuses the rest with 429 \
             (one run)",
            setup.outage_clients, setup.capacity
        ),
        takeaway,
        x_desc: "time since start (s)",
        y_desc: "requests arriving per second",
        x_log: false,
        x_range: (0.0, x_end + 2.0),
        y_max,
        clip_note: (first > y_max)
            .then(|| format!("  ↑ off scale: the first second, when {first:.0} clients arrive")),
        references: vec![
            capacity_line(setup),
            Reference {
                at: limit_s,
                vertical: true,
                label: format!("the limit: every client done ({limit_s:.0} s)"),
            },
        ],
        legend_left: false,
        series: rows
            .iter()
            .map(|r| Series {
                name: r.name.to_string(),
                style: r.style,
                points: r
                    .run
                    .per_second
                    .iter()
                    .enumerate()
                    .map(|(s, &n)| (s as f64, n as f64))
                    .collect(),
            })
            .collect(),
    }
}

/// The server's capacity, drawn across a requests-per-second panel.
fn capacity_line(setup: &Setup) -> Reference {
    Reference {
        at: setup.capacity as f64,
        vertical: false,
        label: format!("capacity: {} requests/s", setup.capacity),
    }
}

/// Seconds for a takeaway: "0.8 s", "6.2 s", "120 s".
fn secs(ms: u64) -> String {
    if ms < 100_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{} s", (ms + 500) / 1000)
    }
}

/// Clients done over time on a log time axis: where each strategy's curve reaches the top is when
/// its last client succeeded.
fn contention_panel(setup: &Setup, rows: &[ContentionRow]) -> Panel {
    let slowest = rows
        .iter()
        .max_by_key(|r| r.completion_max_ms)
        .expect("rows");
    let fastest = rows
        .iter()
        .min_by_key(|r| r.completion_max_ms)
        .expect("rows");
    let takeaway = format!(
        "{} makes {} calls per run and its last client is done after {}; {} makes {} and is done after {}.",
        slowest.strategy,
        slowest.calls_per_run,
        secs(slowest.completion_max_ms),
        fastest.strategy,
        fastest.calls_per_run,
        secs(fastest.completion_max_ms)
    );
    let x_max = rows
        .iter()
        .map(|r| r.completion_max_ms)
        .max()
        .unwrap_or(1000)
        .max(1000) as f64
        / 1000.0
        * 1.5;
    let x_min = rows
        .iter()
        .filter_map(|r| r.done_curve.first().map(|p| p.0))
        .min()
        .unwrap_or(10)
        .max(1) as f64
        / 1000.0
        * 0.8;
    Panel {
        title: format!(
            "1. contention: {} clients, one conditional write each on one record (all {} runs)",
            setup.contention_clients, setup.runs
        ),
        takeaway,
        x_desc: "time since start (s, log scale)",
        y_desc: "clients done (%)",
        x_log: true,
        x_range: (x_min, x_max),
        y_max: 100.0,
        clip_note: None,
        references: Vec::new(),
        legend_left: true,
        series: rows
            .iter()
            .map(|r| Series {
                name: format!("{} ({} calls/run)", r.strategy, r.calls_per_run),
                style: style_of(r.strategy),
                points: r
                    .done_curve
                    .iter()
                    .map(|&(ms, per_mille)| (ms as f64 / 1000.0, per_mille as f64 / 10.0))
                    .collect(),
            })
            .collect(),
    }
}

/// Requests per second over time with the capacity drawn in; the y axis is scaled to the recovery,
/// so the burst when every client notices the outage at once is clipped and labelled.
fn outage_panel(setup: &Setup, rows: &[OutageRow]) -> Panel {
    let runs = setup.runs as f64;
    let recovery = setup.outage_s as usize;
    let mean =
        |r: &OutageRow, s: usize| r.per_second_sum.get(s).copied().unwrap_or(0) as f64 / runs;
    let after_max = rows
        .iter()
        .flat_map(|r| (recovery..r.per_second_sum.len()).map(move |s| mean(r, s)))
        .fold(setup.capacity as f64, f64::max);
    let y_max = after_max * 1.15;
    let start_max = rows
        .iter()
        .flat_map(|r| (0..recovery.min(r.per_second_sum.len())).map(move |s| mean(r, s)))
        .fold(0.0, f64::max);
    let clip_note = (start_max > y_max).then(|| {
        format!(
            "  ↑ off scale: up to {start_max:.0} requests/s in the first seconds, when every client \
             notices the outage"
        )
    });
    let last = rows
        .iter()
        .map(|r| r.per_second_sum.len())
        .max()
        .unwrap_or(recovery + 1);
    let takeaway = outage_takeaway(setup.capacity, rows);
    Panel {
        title: format!(
            "2. outage: {} clients, server down {} s, then {} requests/s (mean of {} runs)",
            setup.outage_clients, setup.outage_s, setup.capacity, setup.runs
        ),
        takeaway,
        x_desc: "time since start (s)",
        y_desc: "requests per second",
        x_log: false,
        x_range: (0.0, last as f64 + 5.0),
        y_max,
        clip_note,
        references: vec![
            capacity_line(setup),
            Reference {
                at: setup.outage_s as f64,
                vertical: true,
                label: format!("server recovers ({} s)", setup.outage_s),
            },
        ],
        legend_left: false,
        series: rows
            .iter()
            .map(|r| Series {
                name: r.strategy.to_string(),
                style: style_of(r.strategy),
                points: (0..r.per_second_sum.len())
                    .map(|s| (s as f64, mean(r, s)))
                    .collect(),
            })
            .collect(),
    }
}

/// Which strategies come back in bursts (a busiest second after recovery over twice the capacity)
/// and which stay spread out, with their peaks (mean over runs), and which gave up on every client
/// before the recovery.
fn outage_takeaway(capacity: u32, rows: &[OutageRow]) -> String {
    let (back, failed): (Vec<&OutageRow>, Vec<&OutageRow>) =
        rows.iter().partition(|r| r.succeeded > 0);
    let text = outage_bursts(capacity, &back);
    if failed.is_empty() {
        return text;
    }
    let names = failed.iter().map(|r| r.strategy).collect::<Vec<_>>();
    format!("{text} {} gave up on every client.", names.join(", "))
}

fn outage_bursts(capacity: u32, rows: &[&OutageRow]) -> String {
    let (bursty, spread): (Vec<&OutageRow>, Vec<&OutageRow>) = rows
        .iter()
        .copied()
        .partition(|r| r.peak_rps_mean > 2 * capacity as u64);
    let names = |rs: &[&OutageRow]| rs.iter().map(|r| r.strategy).collect::<Vec<_>>().join(", ");
    let peak = |rs: &[&OutageRow]| rs.iter().map(|r| r.peak_rps_mean).max().unwrap_or(0);
    match (bursty.is_empty(), spread.is_empty()) {
        (false, false) => format!(
            "After recovery {} come back in bursts of up to {} requests/s against a capacity of \
             {capacity}; {} peak at {} or less.",
            names(&bursty),
            peak(&bursty),
            names(&spread),
            peak(&spread)
        ),
        (false, true) => format!(
            "After recovery every strategy comes back in bursts, of up to {} requests/s against a \
             capacity of {capacity}.",
            peak(&bursty)
        ),
        _ => format!(
            "After recovery no strategy's busiest second exceeds twice the capacity of {capacity} \
             requests/s (peak {}).",
            peak(&spread)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::contention::contention;
    use crate::simulate::outage::outage;

    pub fn small_setup() -> Setup {
        Setup {
            strategies: ALL_STRATEGIES.to_vec(),
            contention: true,
            outage: true,
            shed: false,
            quota: false,
            contention_clients: 50,
            outage_clients: 200,
            runs: 2,
            seed: 1,
            outage_s: 60,
            capacity: 20,
            base_ms: 1000,
            phones: None,
        }
    }

    fn panels() -> Vec<Panel> {
        let setup = small_setup();
        let c: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| contention(s, 50, 2, 1))
            .collect();
        let o: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| outage(s, 200, 2, 1, 60, 20))
            .collect();
        chart_panels(&setup, &c, &o, &[], &[])
    }

    #[test]
    fn contention_first_then_outage_with_capacity_and_clipped_start() {
        let p = panels();
        assert!(p[0].title.starts_with("1. contention"));
        assert!(p[1].title.starts_with("2. outage"));
        let outage = &p[1];
        assert!(outage
            .references
            .iter()
            .any(|r| !r.vertical && r.at == 20.0));
        assert!(outage.references.iter().any(|r| r.vertical && r.at == 60.0));
        // The axis is scaled to what follows the recovery: the start, when every client notices
        // the outage at once, is higher, so it is clipped and said to be.
        let top = |from: f64, to: f64| {
            outage
                .series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| p.0 >= from && p.0 < to)
                .map(|p| p.1)
                .fold(0.0, f64::max)
        };
        assert!(outage.y_max >= top(60.0, 1e9), "{}", outage.y_max);
        assert!(outage.y_max <= 1.2 * top(60.0, 1e9), "{}", outage.y_max);
        assert!(top(0.0, 60.0) > outage.y_max);
        assert!(outage.clip_note.as_deref().unwrap().contains("off scale"));
        // The contention curves end at 100 % (every client done) and never fall.
        for s in &p[0].series {
            assert_eq!(s.points.last().unwrap().1, 100.0, "{}", s.name);
            assert!(s
                .points
                .windows(2)
                .all(|w| w[0].1 <= w[1].1 && w[0].0 <= w[1].0));
        }
    }

    #[test]
    fn takeaways_quote_the_figures() {
        let p = panels();
        let c = &p[0].takeaway;
        assert!(c.starts_with("none") || c.starts_with("google"), "{c}");
        assert!(c.contains("calls per run"), "{c}");
        let o = &p[1].takeaway;
        assert!(o.contains("capacity of 20"), "{o}");
    }

    #[test]
    fn svg_has_every_strategy_once_per_panel_in_its_own_style() {
        let dir = std::env::temp_dir().join(format!("sb-sim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.svg");
        crate::simulate::draw::write_svg(&path, &panels()).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(svg.starts_with("<svg"));
        for name in seeded_backoff::Jitter::NAMES {
            assert!(
                svg.contains(&format!(">\n{name} (")),
                "contention legend {name}"
            );
            assert!(
                svg.contains(&format!(">\n{name}\n</text>")),
                "outage legend {name}"
            );
        }
        for text in [
            "clients done (%)",
            "requests per second",
            "capacity: 20 requests/s",
            "server recovers (60 s)",
            "off scale",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        // The six Okabe–Ito colours, each used.
        for colour in [
            "#000000", "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00",
        ] {
            assert!(svg.contains(colour), "{colour}");
        }
    }
}
