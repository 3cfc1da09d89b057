//! The figures as a table, JSON or CSV.

use serde_json::{json, Value};

use super::contention::ContentionRow;
use super::outage::OutageRow;

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

pub fn outage_metrics(r: &OutageRow) -> [(&'static str, u64); 6] {
    [
        ("peak_rps_mean", r.peak_rps_mean),
        ("peak_rps_max", r.peak_rps_max),
        ("first_second_after_recovery_mean", r.first_second_mean),
        ("all_done_after_recovery_p50_ms", r.all_done_p50_ms),
        ("all_done_after_recovery_max_ms", r.all_done_max_ms),
        ("unfinished", r.unfinished),
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
