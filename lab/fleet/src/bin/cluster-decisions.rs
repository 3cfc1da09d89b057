//! The shared parts against a Redis Cluster (lab/fleet-cluster.sh): PROCESSES threads, each with
//! its own connections and links as a process of a fleet, make one decision on each part every
//! 1/RATE s (as fast as they can if RATE is 0) for SECONDS: a pacer's assign, a budget's acquire
//! and a send rate's ask, each part under its own key at its own URL (the cluster node that
//! holds the key's slot, or one server for all three). Every process reads one clock (Unix ms; FleetClock::Caller), so
//! a slot's second is `now + reset_ms` on it for every process.
//!
//! The pacer decides at the latest reading it has seen (SPEC.md §16.2), which may be another
//! process's, later than this one's: so a slot's second is worked out from the reading before
//! and after the call (`slot_second`), not from `now + reset_ms` alone.
//!
//! Prints a line a second (decisions through the store and alone, per part) and a summary:
//! decisions per second (all, and those through the store), a decision's latency (p50, p99), the busiest second of the pacer's slots
//! handed out through the store before KILL_S and after REJOINED_S (at most its capacity when
//! the fleet shares one schedule) and of all its slots in between, the budget's acquires granted
//! (the fleet's one bucket: 100 of 500 tokens at 5 each, however many processes), the decisions
//! made alone per part (and the pacer's after REJOINED_S), and whether every link is joined at the
//! end.
//!
//! usage: cluster-decisions PROCESSES SECONDS RATE PACER_URL PACER_KEY BUDGET_URL BUDGET_KEY
//!        SEND_RATE_URL SEND_RATE_KEY [KILL_S REJOINED_S]

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use seeded_backoff::shared::{
    FleetClock, LinkState, SharedBudget, SharedPacer, SharedSendRate, Store, StoreStats,
};
use seeded_backoff::{
    budget::{BudgetConfig, RetryGate},
    pacer::{Pacer, PacerSlot},
    send_rate::SendRateConfig,
    FailureKind,
};

/// The pacer's capacity per second: below the fleet's asks, so the schedule fills ahead.
const PACER_CAPACITY: u32 = 20;

/// A pacer decision's value when the schedule was full.
const FULL: u64 = u64::MAX;

/// One decision: when (ms from the run's start), which part (0 pacer, 1 budget, 2 send rate),
/// whether it was made alone, how long it took (ns), and the pacer's slot second or the budget's
/// grant.
struct Decision {
    at_ms: u64,
    part: usize,
    alone: bool,
    took_ns: u64,
    value: u64,
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn open(url: &str) -> Store {
    Store::open(url)
        .unwrap_or_else(|e| panic!("{url}: {e}"))
        .clock(FleetClock::Caller)
}

/// One process's decisions for `seconds`, `gap` apart, starting at its phase `phase` of the gap.
fn process(
    i: usize,
    parts: &[String],
    seconds: u64,
    gap: Duration,
    start: Instant,
) -> (Vec<Decision>, bool) {
    let pacer = SharedPacer::new(
        &open(&parts[0]),
        parts[1].as_str(),
        Pacer::new(PACER_CAPACITY, 0, 600, i as u64 + 1).unwrap(),
    );
    let budget = SharedBudget::new(
        &open(&parts[2]),
        parts[3].as_str(),
        BudgetConfig::AWS_DEFAULT,
    );
    let rate =
        SharedSendRate::new(&open(&parts[4]), parts[5].as_str(), SendRateConfig::DEFAULT).unwrap();
    let alone = |s: StoreStats| s.alone;
    let mut out = Vec::new();
    let mut next = start + gap.mul_f64(i as f64 / 8.0);
    let until = start + Duration::from_secs(seconds);
    while Instant::now() < until {
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        next += gap;
        for part in 0..3 {
            let before = [
                alone(pacer.stats()),
                alone(budget.stats()),
                alone(rate.stats()),
            ][part];
            let t = Instant::now();
            let now = unix_ms();
            let value = match part {
                0 => match pacer.assign(now) {
                    // A full schedule's answer is the same last second for every call (SPEC.md
                    // §16.3), not a slot: left out of the count.
                    slot if slot.full => FULL,
                    slot => slot_second(now, unix_ms(), slot),
                },
                1 => u64::from(budget.try_acquire(FailureKind::Error)),
                _ => {
                    rate.before_attempt(now);
                    0
                }
            };
            let took_ns = t.elapsed().as_nanos() as u64;
            let after = [
                alone(pacer.stats()),
                alone(budget.stats()),
                alone(rate.stats()),
            ][part];
            out.push(Decision {
                at_ms: start.elapsed().as_millis() as u64,
                part,
                alone: after > before,
                took_ns,
                value,
            });
        }
    }
    let joined = [pacer.link_state(), budget.link_state(), rate.link_state()]
        .iter()
        .all(|s| *s == LinkState::Joined);
    (out, joined)
}

/// The second `slot` lies in. The pacer decided at some `now_p` between the caller's readings
/// `before` and `after` (the latest reading the fleet gave it), and placed the slot at
/// `now_p + reset_ms`, in second `now_p / 1000 + retry_after_s` (SPEC.md §16.2): of the seconds
/// `now_p` may lie in, the one where both agree. `before + reset_ms`'s if none does.
fn slot_second(before: u64, after: u64, slot: PacerSlot) -> u64 {
    let (wait_s, reset) = (u64::from(slot.retry_after_s), u64::from(slot.reset_ms));
    (before / 1000..=after / 1000)
        .find(|&now_s| {
            let (lo, hi) = (before.max(now_s * 1000), after.min(now_s * 1000 + 999));
            let s = now_s + wait_s;
            lo <= hi && lo + reset <= s * 1000 + 999 && hi + reset >= s * 1000
        })
        .map_or((before + reset) / 1000, |now_s| now_s + wait_s)
}

/// The most slots of one second among `decisions` (a full schedule's answers left out).
fn busiest(decisions: &[&Decision]) -> u64 {
    let mut per: HashMap<u64, u64> = HashMap::new();
    for d in decisions.iter().filter(|d| d.value != FULL) {
        *per.entry(d.value).or_default() += 1;
    }
    per.into_values().max().unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 10 && args.len() != 12 {
        eprintln!("usage: cluster-decisions PROCESSES SECONDS RATE PACER_URL PACER_KEY BUDGET_URL BUDGET_KEY SEND_RATE_URL SEND_RATE_KEY [KILL_S REJOINED_S]");
        std::process::exit(2);
    }
    let processes: usize = args[1].parse().unwrap();
    let seconds: u64 = args[2].parse().unwrap();
    let per_s: f64 = args[3].parse().unwrap();
    let gap = if per_s > 0.0 {
        Duration::from_secs_f64(1.0 / per_s)
    } else {
        Duration::ZERO
    };
    let parts = args[4..10].to_vec();
    let (kill_ms, rejoined_ms) = match args.get(10..12) {
        Some([k, r]) => (
            k.parse::<u64>().unwrap() * 1000,
            r.parse::<u64>().unwrap() * 1000,
        ),
        _ => (u64::MAX, u64::MAX),
    };
    let start = Instant::now();
    let runs: Vec<_> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..processes)
            .map(|i| {
                let parts = &parts;
                s.spawn(move || process(i, parts, seconds, gap, start))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let joined = runs.iter().all(|(_, j)| *j);
    let all: Vec<&Decision> = runs.iter().flat_map(|(d, _)| d).collect();

    let names = ["pacer", "budget", "send-rate"];
    for second in 0..seconds {
        let cells: Vec<String> = (0..3)
            .map(|part| {
                let of = |alone| {
                    all.iter()
                        .filter(|d| d.part == part && d.at_ms / 1000 == second && d.alone == alone)
                        .count()
                };
                format!("{}={}/{}", names[part], of(false), of(true))
            })
            .collect();
        println!("second {second}: stored/alone {}", cells.join(" "));
    }
    let mut took: Vec<u64> = all.iter().map(|d| d.took_ns).collect();
    took.sort_unstable();
    let q = |x: f64| {
        took.get(((took.len().max(1) - 1) as f64 * x) as usize)
            .copied()
            .unwrap_or(0)
    };
    let pacer = |f: &dyn Fn(&Decision) -> bool| {
        let picked: Vec<&Decision> = all
            .iter()
            .copied()
            .filter(|d| d.part == 0 && f(d))
            .collect();
        busiest(&picked)
    };
    let alone = |part| all.iter().filter(|d| d.part == part && d.alone).count();
    println!(
        "summary decisions_per_s={:.0} stored_per_s={:.0} p50_us={:.0} p99_us={:.0} pacer_before_max={} pacer_outage_max={} \
         pacer_after_max={} pacer_capacity={PACER_CAPACITY} budget_granted={} alone_pacer={} alone_budget={} \
         alone_send_rate={} decisions={} pacer_after={} pacer_after_alone={} joined_at_end={}",
        all.len() as f64 / start.elapsed().as_secs_f64(),
        all.iter().filter(|d| !d.alone).count() as f64 / start.elapsed().as_secs_f64(),
        q(0.5) as f64 / 1000.0,
        q(0.99) as f64 / 1000.0,
        pacer(&|d| !d.alone && d.at_ms < kill_ms),
        pacer(&|d| d.at_ms >= kill_ms && d.at_ms < rejoined_ms),
        pacer(&|d| !d.alone && d.at_ms >= rejoined_ms),
        all.iter().filter(|d| d.part == 1).map(|d| d.value).sum::<u64>(),
        alone(0),
        alone(1),
        alone(2),
        all.len(),
        all.iter().filter(|d| d.part == 0 && d.at_ms >= rejoined_ms).count(),
        all.iter().filter(|d| d.part == 0 && d.at_ms >= rejoined_ms && d.alone).count(),
        if joined { "yes" } else { "no" },
    );
}
