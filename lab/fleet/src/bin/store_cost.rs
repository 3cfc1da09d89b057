//! What a send rate shared through Valkey costs (lab/fleet-store.sh): CLIENTS threads ask one key
//! as fast as they can for SECONDS, each with its own connection and link as a process of a fleet
//! would (`processes`), or all through one link as the tasks of one process would (`tasks`);
//! printed: asks per second through the store and alone, the latency an ask adds over the
//! in-process `AtomicSendRate` (p50, p99), and conflicts decided again per ask.
//!
//! usage: store-cost URL CLIENTS SECONDS processes|tasks \[ASKS_PER_S\]
//! ASKS_PER_S: each client's asks a second (as a client sending requests at that rate), instead
//! of as fast as it can.

use std::time::{Duration, Instant};

use seeded_backoff::send_rate::{AtomicSendRate, SendRateConfig};
use seeded_backoff::shared::{LinkState, SharedSendRate, Store};

/// The nanoseconds of each ask of `ask`, made for `seconds` by each of `clients` threads, each
/// `gap` apart (at once if zero).
fn run(clients: usize, seconds: u64, gap: Duration, ask: impl Fn(usize, u64) + Sync) -> Vec<u64> {
    let until = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..clients)
            .map(|i| {
                let ask = &ask;
                s.spawn(move || {
                    let mut took = Vec::new();
                    // Each client's asks from its own phase in the gap, as clients that started apart.
                    let mut next = Instant::now() + gap.mul_f64(i as f64 / clients as f64);
                    while Instant::now() < until {
                        if let Some(wait) = next.checked_duration_since(Instant::now()) {
                            std::thread::sleep(wait);
                        }
                        next += gap;
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
    let processes = args[4] == "processes";
    let per_s: f64 = args.get(5).map_or(0.0, |r| r.parse().unwrap());
    let gap = if per_s > 0.0 {
        Duration::from_secs_f64(1.0 / per_s)
    } else {
        Duration::ZERO
    };
    // Off (no throttle yet): every ask sends and counts the send, so every ask writes the key.
    let config = SendRateConfig::DEFAULT;

    let local = AtomicSendRate::new(config).unwrap();
    let mut base = run(clients, 1, Duration::ZERO, |_, now| {
        local.before_attempt(now);
    });
    base.sort_unstable();

    let key = format!("sb:lab:send-rate:{}", args[4]);
    let links = if processes { clients } else { 1 };
    let rates: Vec<_> = (0..links)
        .map(|_| {
            let store = Store::open(url).unwrap();
            SharedSendRate::new(&store, key.as_str(), config).unwrap()
        })
        .collect();
    // One ask each first, one client at a time: the connection made and the script loaded, which
    // 64 at once on 2 cores can take longer than the bound.
    for r in &rates {
        r.before_attempt(0);
    }
    let before: Vec<_> = rates.iter().map(|r| r.stats()).collect();
    let mut took = run(clients, seconds, gap, |i, now| {
        let rate = &rates[i % links];
        rate.before_attempt(now);
        // Deciding alone takes no time: a client that spun on it would starve the store's I/O
        // threads of the 2 cores and measure nothing but itself. A process without its store goes
        // on with its own work; here, it pauses.
        if rate.link_state() == LinkState::Local {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    took.sort_unstable();
    let (mut asks, mut alone, mut conflicts) = (0, 0, 0);
    for (r, b) in rates.iter().zip(&before) {
        let s = r.stats();
        asks += s.decisions - b.decisions;
        alone += s.alone - b.alone;
        conflicts += s.conflicts - b.conflicts;
    }
    let us = |ns: u64| ns as f64 / 1000.0;
    let (p50, p99) = (quantile(&took, 0.5), quantile(&took, 0.99));
    let (b50, b99) = (quantile(&base, 0.5), quantile(&base, 0.99));
    let stored = asks - alone;
    println!(
        "{}{} clients={clients} stored_per_s={:.0} alone_per_s={:.0} p50_us={:.1} p99_us={:.1} added_p50_us={:.1} added_p99_us={:.1} conflicts_per_stored={:.2} alone_share={:.4} local_p50_us={:.2}",
        args[4],
        if per_s > 0.0 { format!(" each_asks_per_s={per_s}") } else { String::new() },
        stored as f64 / seconds as f64,
        alone as f64 / seconds as f64,
        us(p50),
        us(p99),
        us(p50.saturating_sub(b50)),
        us(p99.saturating_sub(b99)),
        conflicts as f64 / stored.max(1) as f64,
        alone as f64 / asks.max(1) as f64,
        us(b50),
    );
}
