//! The simulation's building blocks: the network, the clients, the policies each strategy runs
//! with, and the small statistics helpers.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use seeded_backoff::{Backoff, Jitter, Policy};

use crate::policy_args::JitterName;

/// One network hop: 10 ± 2 ms (Brooker's setup).
pub const NET_MIN_MS: u64 = 8;
pub const NET_SPREAD_MS: u64 = 4;
/// Contention: a client's read happens one round trip (2 × 10 ms) before its write lands, so any
/// successful write in that window invalidates it.
pub const WINDOW_MS: u64 = 20;
/// Contention: Brooker's base and cap.
pub const CONTENTION_BASE_MS: u32 = 5;
pub const CONTENTION_CAP_MS: u32 = 2000;
/// Outage: clients notice the outage within the first second.
pub const OUTAGE_START_SPREAD_MS: u64 = 1000;
/// No scenario runs longer than this after its server is up: bad flags end with "unfinished"
/// clients in the report instead of a hang.
pub const HORIZON_MS: u64 = 3_600_000;
/// Contention's timeline is counted in 10 ms buckets, then merged into log-spaced bins for the chart.
pub const CONTENTION_BUCKET_MS: u64 = 10;

pub const ALL_STRATEGIES: [JitterName; 6] = [
    JitterName::None,
    JitterName::Google,
    JitterName::Full,
    JitterName::Equal,
    JitterName::Decorrelated,
    JitterName::Proportional,
];

/// The simulation's own randomness (start times, network delays): SplitMix64, kept apart from the
/// clients' backoff generators so every strategy sees the same network.
#[derive(Clone, Debug)]
pub struct SimRng(SplitMix64);

impl SimRng {
    fn new(state: u64) -> SimRng {
        SimRng(SplitMix64::seed_from_u64(state))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// An integer in `[0, n)`; the multiply-shift bias (below 2^-32) is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    pub fn net_ms(&mut self) -> u64 {
        NET_MIN_MS + self.below(NET_SPREAD_MS + 1)
    }

    /// The generator of one client in one run of one scenario.
    fn for_client(seed: u64, scenario: u64, run: u32, client: u32) -> SimRng {
        let mut mix = SimRng::new(seed ^ scenario.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let a = mix.next_u64() ^ (run as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        let mut mix = SimRng::new(a);
        SimRng::new(mix.next_u64() ^ (client as u64).wrapping_mul(0xE703_7ED1_A0B4_28DB))
    }
}

pub struct SimClient {
    pub backoff: Backoff,
    pub rng: SimRng,
}

pub fn clients_for(seed: u64, scenario: u64, run: u32, n: u32, policy: &Policy) -> Vec<SimClient> {
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
pub fn jitter_for(name: JitterName, initial_ms: u32) -> Jitter {
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

pub fn strategy_name(name: JitterName) -> &'static str {
    jitter_for(name, 1).name()
}

/// Retries never run out in either scenario: the horizon ends a run instead.
pub fn contention_policy(name: JitterName) -> Policy {
    Policy::builder()
        .initial_ms(CONTENTION_BASE_MS)
        .multiplier(2, 1)
        .max_backoff_ms(CONTENTION_CAP_MS)
        .max_retries(u32::MAX)
        .jitter(jitter_for(name, CONTENTION_BASE_MS))
        .build()
        .expect("contention policy is valid")
}

pub fn outage_policy(name: JitterName) -> Policy {
    let google = Policy::google();
    google
        .to_builder()
        .max_retries(u32::MAX)
        .jitter(jitter_for(name, google.initial_ms()))
        .build()
        .expect("outage policy is valid")
}

/// When a failed client's next request arrives: its answer came back at `back`, then it waits the
/// core's delay and the network again. `None` once its backoff gives up.
pub fn retry_arrival(client: &mut SimClient, policy: &Policy, back: u64) -> Option<u64> {
    let delay_ms = client.backoff.next_delay(policy).delay_ms()?;
    Some(back + delay_ms as u64 + client.rng.net_ms())
}

/// Adds one to `counts[index]`, growing the vector as needed.
pub fn bump(counts: &mut Vec<u32>, index: u64) {
    let i = index as usize;
    if counts.len() <= i {
        counts.resize(i + 1, 0);
    }
    counts[i] += 1;
}

/// The nearest-rank percentile of sorted values (`p` in 1..=100).
pub fn percentile(sorted: &[u64], p: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p * sorted.len() as u64).div_ceil(100).max(1);
    sorted[rank as usize - 1]
}

/// Adds `counts` into `sum` element-wise, growing `sum` as needed.
pub fn accumulate(sum: &mut Vec<u64>, counts: &[u32]) {
    if sum.len() < counts.len() {
        sum.resize(counts.len(), 0);
    }
    for (s, c) in sum.iter_mut().zip(counts) {
        *s += *c as u64;
    }
}
