//! Reading criterion's saved estimates back and turning them into the summary: nanoseconds per
//! delay, and the ratio to the fastest peer.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::{DELAYS_PER_SCHEDULE, GROUP};

/// Where criterion saves its estimates: as criterion itself decides (`$CRITERION_HOME`, else
/// `$CARGO_TARGET_DIR/criterion`), falling back to the workspace's `target/criterion`.
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion")
}

/// The time of one schedule in ns (criterion's slope estimate, else its mean), read from
/// `<dir>/<group>/<id>/new/estimates.json` (criterion
/// writes the `/` of an id as `_` in directory names).
/// Estimates older than `since` are from an earlier run and are refused.
pub fn schedule_ns(dir: &Path, id: &str, since: SystemTime) -> Result<f64, String> {
    let path = dir
        .join(GROUP)
        .join(id.replace('/', "_"))
        .join("new/estimates.json");
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if modified < since {
        return Err(format!("{}: from an earlier run", path.display()));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    // The slope is the figure criterion prints as `time:`; flat sampling has only the mean.
    json["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| json["mean"]["point_estimate"].as_f64())
        .ok_or_else(|| format!("{}: no slope or mean estimate", path.display()))
}

/// One row of the summary: a measured id, ns per delay, and how many times faster than the
/// fastest peer (> 1 is faster).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark id, e.g. `seeded-backoff/google` or `peer/backon`.
    pub id: String,
    /// Mean nanoseconds per delay.
    pub ns_per_delay: f64,
    /// Fastest peer's ns per delay divided by this row's.
    pub speedup_vs_fastest_peer: f64,
}

/// Builds the summary rows from `(id, ns per schedule)` pairs; `None` if no peer was measured.
pub fn summarize(measured: &[(String, f64)]) -> Option<Vec<Row>> {
    let per_delay = |ns: f64| ns / DELAYS_PER_SCHEDULE as f64;
    let fastest_peer = measured
        .iter()
        .filter(|(id, _)| id.starts_with("peer/"))
        .map(|(_, ns)| per_delay(*ns))
        .fold(None, |best: Option<f64>, ns| {
            Some(best.map_or(ns, |b| b.min(ns)))
        })?;
    Some(
        measured
            .iter()
            .map(|(id, ns)| Row {
                id: id.clone(),
                ns_per_delay: per_delay(*ns),
                speedup_vs_fastest_peer: fastest_peer / per_delay(*ns),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_divides_by_ten_and_compares_with_the_fastest_peer() {
        let rows = summarize(&[
            ("seeded-backoff/google".into(), 20.0),
            ("peer/a".into(), 300.0),
            ("peer/b".into(), 600.0),
        ])
        .unwrap();
        assert_eq!(rows[0].ns_per_delay, 2.0);
        assert_eq!(rows[0].speedup_vs_fastest_peer, 15.0);
        assert_eq!(rows[1].speedup_vs_fastest_peer, 1.0);
        assert_eq!(rows[2].speedup_vs_fastest_peer, 0.5);
        assert_eq!(summarize(&[("seeded-backoff/none".into(), 1.0)]), None);
    }
}
