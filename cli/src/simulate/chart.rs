//! The chart's data: requests per second over time per strategy, averaged over runs.

use super::contention::ContentionRow;
use super::model::CONTENTION_BUCKET_MS;
use super::outage::OutageRow;
use super::Setup;

/// The chart's data: requests per second over time, averaged over runs.
pub fn chart_panels(
    setup: &Setup,
    contention_rows: &[ContentionRow],
    outage_rows: &[OutageRow],
) -> Vec<super::draw::Panel> {
    use super::draw::{Panel, Series};
    let runs = setup.runs as f64;
    let mut panels = Vec::new();
    if !outage_rows.is_empty() {
        panels.push(Panel {
            title: format!(
                "outage: {} clients, server down {} s then {} requests/s (mean of {} runs)",
                setup.outage_clients, setup.outage_s, setup.capacity, setup.runs
            ),
            log_axes: false,
            marker_s: Some(setup.outage_s as f64),
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
                setup.contention_clients, setup.runs
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
    use crate::simulate::contention::contention;
    use crate::simulate::model::ALL_STRATEGIES;
    use crate::simulate::outage::outage;
    use seeded_backoff::Jitter;

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
    fn chart_has_one_labelled_line_per_strategy() {
        let dir = std::env::temp_dir().join(format!("sb-sim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.svg");
        let setup = Setup {
            strategies: ALL_STRATEGIES.to_vec(),
            contention: true,
            outage: true,
            contention_clients: 50,
            outage_clients: 50,
            runs: 2,
            seed: 1,
            outage_s: 20,
            capacity: 20,
        };
        let c: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| contention(s, 50, 2, 1))
            .collect();
        let o: Vec<_> = ALL_STRATEGIES
            .iter()
            .map(|&s| outage(s, 50, 2, 1, 20, 20))
            .collect();
        crate::simulate::draw::write_svg(&path, &chart_panels(&setup, &c, &o)).unwrap();
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
