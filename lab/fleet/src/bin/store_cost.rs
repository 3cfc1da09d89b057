//! What a send rate shared through Valkey costs (lab/fleet-store.sh): CLIENTS threads, each its
//! own connection as a process of a fleet would be, ask one key as fast as they can for SECONDS;
//! printed: asks per second, the latency an ask adds over the in-process `AtomicSendRate` (p50,
//! p99), conflicts decided again per ask, and asks decided alone.
//!
//! usage: store-cost URL CLIENTS SECONDS

use std::time::{Duration, Instant};

use seeded_backoff::shared::{SharedSendRate, Store};
use seeded_backoff::{AtomicSendRate, SendRateConfig};

/// The nanoseconds of each ask of `ask`, made for `seconds` by each of `clients` threads.
fn run(clients: usize, seconds: u64, ask: impl Fn(usize, u64) + Sync) -> Vec<u64> {
    let until = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..clients)
            .map(|i| {
                let ask = &ask;
                s.spawn(move || {
                    let mut took = Vec::new();
                    while Instant::now() < until {
                        let t = Instant::now();
                        ask(i, start.elapsed().as_millis() as u64);
                        took.push(t.elapsed().as_nanos() as u64);
                    }
                    took
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

fn quantile(sorted: &[u64], q: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * q) as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = &args[1];
    let clients: usize = args[2].parse().unwrap();
    let seconds: u64 = args[3].parse().unwrap();
    // Off (no throttle yet): every ask sends and counts the send, so every ask writes the key.
    let config = SendRateConfig::DEFAULT;

    let local = AtomicSendRate::new(config).unwrap();
    let mut base = run(clients, 1, |_, now| {
        local.before_attempt(now);
    });
    base.sort_unstable();

    let rates: Vec<_> = (0..clients)
        .map(|_| {
            let store = Store::open(url).unwrap();
            SharedSendRate::new(&store, "sb:lab:send-rate", config).unwrap()
        })
        .collect();
    let mut took = run(clients, seconds, |i, now| {
        rates[i].before_attempt(now);
    });
    took.sort_unstable();
    let (mut asks, mut alone, mut conflicts) = (0, 0, 0);
    for r in &rates {
        let s = r.stats();
        asks += s.decisions;
        alone += s.alone;
        conflicts += s.conflicts;
    }
    let us = |ns: u64| ns as f64 / 1000.0;
    let (p50, p99) = (quantile(&took, 0.5), quantile(&took, 0.99));
    let (b50, b99) = (quantile(&base, 0.5), quantile(&base, 0.99));
    println!(
        "clients={clients} asks_per_s={:.0} p50_us={:.1} p99_us={:.1} added_p50_us={:.1} added_p99_us={:.1} conflicts_per_ask={:.2} alone_share={:.4} local_p50_us={:.2}",
        asks as f64 / seconds as f64,
        us(p50),
        us(p99),
        us(p50.saturating_sub(b50)),
        us(p99.saturating_sub(b99)),
        conflicts as f64 / asks.max(1) as f64,
        alone as f64 / asks.max(1) as f64,
        us(b50),
    );
}
