//! The startup delay's run vectors (SPEC.md §15.3): a run given a startup window waits its draw
//! before attempt 1, with and without a clock, paused during the wait or before it, restored
//! from a snapshot, against a deadline, and from two call seeds of one device.

use seeded_backoff::{
    call_seed, fleet::seed_from_device, reconnect::RETRY_FOREVER, Jitter, Policy,
};
use serde_json::{json, Value};

use crate::vectors_run::{cases_json, Spec};

fn specs() -> Result<Vec<Spec>, String> {
    let plain = |b: seeded_backoff::PolicyBuilder| b.build().map_err(|e| e.to_string());
    let reconnect = plain(
        Policy::builder()
            .max_backoff_ms(64_000)
            .jitter(Jitter::Full)
            .max_retries(RETRY_FOREVER),
    )?;
    let google = Policy::google();
    let timed = plain(Policy::builder().max_elapsed_ms(10_000))?;
    let device = seed_from_device(&[0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6], 1);
    let s = |name, policy, seed, startup_window_ms, events| Spec {
        name,
        policy,
        seed,
        count_paused: false,
        budget: None,
        startup_window_ms,
        events,
    };
    Ok(vec![
        s(
            "a run after a give-up waits its startup delay, then makes attempt 1",
            reconnect,
            call_seed(device, 1),
            64_000,
            "start@0 wake@70000 fail@70100 wake@72000 success@72100",
        ),
        s(
            "the next outage of the same device draws its own wait",
            reconnect,
            call_seed(device, 2),
            64_000,
            "start@0 wake@70000 success@70100",
        ),
        s(
            "without a clock",
            google,
            3,
            32_000,
            "start wake fail wake success",
        ),
        s("a window of 1 ms", google, 4, 1, "start wake success"),
        s(
            "start is refused during the wait, which a pause stops and a resume re-draws",
            google,
            5,
            32_000,
            "start@0 start@10 pause@100:reason=hidden resume@5000 wake@6000 success@6100",
        ),
        s(
            "a pause before the start replaces the window with the level",
            google,
            6,
            32_000,
            "pause@0:reason=offline resume@900 wake@1000 success@1200",
        ),
        s(
            "with a clock, the time from the start on is elapsed time against the deadline",
            timed,
            7,
            9_000,
            "start@0 wake@9000 fail@9100",
        ),
        s(
            "a snapshot before the start keeps the window",
            google,
            8,
            32_000,
            "snapshot start@0 snapshot wake@40000 success@40100",
        ),
    ])
}

/// The `startup/run-startup.json` vector file.
pub fn file() -> Result<Value, String> {
    Ok(json!({
        "kind": "run",
        "description": "a run that begins with its startup delay (SPEC.md §15.3)",
        "cases": cases_json(specs()?)?,
    }))
}
