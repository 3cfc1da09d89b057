//! The call-seed vectors of SPEC.md §14: the seed of call `index` of a loop seeded `seed`, and the
//! first delays of that call under the Google preset, for the seeds of §11 and indexes at the
//! edges of u64.

use seeded_backoff::{call_seed, Backoff, Policy};
use serde_json::{json, Value};

use crate::vectors::SEEDS;

/// The indexes every seed covers: the first calls, then the edges of the low word and of u64.
const INDEXES: [u64; 9] = [
    0,
    1,
    2,
    3,
    63,
    1 << 32,
    (1 << 32) + 1,
    u64::MAX - 1,
    u64::MAX,
];

/// Retries stepped per call: enough to show two calls' schedules apart.
const STEPS: usize = 3;

/// The `call_seed` vector file.
pub fn file() -> Value {
    let policy = Policy::google();
    let mut cases = Vec::new();
    for seed in SEEDS {
        for index in INDEXES {
            let call = call_seed(seed, index);
            let mut backoff = Backoff::new(&policy, call);
            let delays: Vec<Option<u32>> = (0..STEPS)
                .map(|_| backoff.next_delay(&policy).delay_ms())
                .collect();
            cases.push(json!({
                "seed": seed.to_string(),
                "index": index.to_string(),
                "expect": call.to_string(),
                "google_delays": delays,
            }));
        }
    }
    json!({
        "kind": "call_seed",
        "description": "the seed of each call of a loop (SPEC.md §14), and its first Google delays",
        "cases": cases,
    })
}
