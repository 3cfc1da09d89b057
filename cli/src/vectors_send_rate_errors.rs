//! The send-rate vectors' configuration errors (SPEC.md §17.1): each field out of its range, named
//! by the field the core rejects first.

use seeded_backoff::send_rate::{SendRateConfig, SendRateError};
use serde_json::{json, Value};

use crate::vectors_send_rate::config_json;

pub(crate) fn errors() -> Value {
    let d = SendRateConfig::DEFAULT;
    let bad: Vec<(SendRateConfig, SendRateError)> = vec![
        (
            SendRateConfig {
                max_rate_milli: 0,
                ..d
            },
            SendRateError::MaxRate,
        ),
        (
            SendRateConfig {
                max_rate_milli: 1_000_000_001,
                ..d
            },
            SendRateError::MaxRate,
        ),
        (
            SendRateConfig {
                min_rate_milli: 0,
                ..d
            },
            SendRateError::MinRate,
        ),
        (
            SendRateConfig {
                min_rate_milli: 11,
                max_rate_milli: 10,
                ..d
            },
            SendRateError::MinRate,
        ),
        (
            SendRateConfig {
                margin_permille: 0,
                ..d
            },
            SendRateError::Margin,
        ),
        (
            SendRateConfig {
                margin_permille: 501,
                ..d
            },
            SendRateError::Margin,
        ),
        (SendRateConfig { probe_ms: 9, ..d }, SendRateError::ProbeMs),
        (
            SendRateConfig {
                probe_ms: 60_001,
                ..d
            },
            SendRateError::ProbeMs,
        ),
        (
            SendRateConfig {
                probe_first_permille: 0,
                ..d
            },
            SendRateError::ProbeFirst,
        ),
        (
            SendRateConfig {
                probe_first_permille: 251,
                ..d
            },
            SendRateError::ProbeFirst,
        ),
        (
            SendRateConfig {
                probe_max_permille: 1001,
                probe_first_permille: 1001,
                ..d
            },
            SendRateError::ProbeMax,
        ),
        (
            SendRateConfig {
                guard_ms: 60_001,
                ..d
            },
            SendRateError::GuardMs,
        ),
        (SendRateConfig { burst: 0, ..d }, SendRateError::Burst),
        (SendRateConfig { burst: 1001, ..d }, SendRateError::Burst),
        (
            SendRateConfig {
                max_hold_ms: 3_600_001,
                ..d
            },
            SendRateError::MaxHold,
        ),
    ];
    bad.into_iter()
        .map(|(c, e)| {
            assert_eq!(
                c.check().map_err(|refused| refused.error),
                Err(e),
                "vector error cases are what the core rejects"
            );
            json!({ "config": config_json(&c), "error": e.name() })
        })
        .collect()
}
