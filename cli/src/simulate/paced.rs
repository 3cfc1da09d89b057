//! The shed server of `outage.rs` with what it answers a refusal: nothing, a constant
//! `Retry-After`, or the core's `Pacer` (SPEC.md §16), so that the paced fleet can be measured
//! beside the strategies on the same clients and network.

use seeded_backoff::pacer::Pacer;
use seeded_backoff::{Policy, ServerHint, StepInput};

use super::model::{client, outage_policy, queue_span_ms, TimeQueue, HORIZON_MS};
use super::strategy::{Strategy, ALL_STRATEGIES};

/// What the server sends with a 429.
#[derive(Clone, Copy, Debug)]
pub enum Answer {
    /// No `Retry-After`.
    Bare,
    /// The same `Retry-After` for every refusal, in seconds.
    Constant(u32),
    /// Each refusal's own return second, from a pacer of the server's capacity that keeps this
    /// many thousandths of it for first attempts.
    Paced(u32),
}

/// One shed run's figures.
#[derive(Debug, Default)]
pub struct ShedRun {
    /// Requests arriving per second, and of them accepted.
    pub per_second: Vec<u32>,
    pub accepted: Vec<u32>,
    pub calls: u64,
    /// When the last client got its success response, ms from the start.
    pub last_done_ms: u64,
    pub unfinished: u32,
}

/// `clients` start within the policy's first delay against a server of `capacity` requests a
/// second that refuses the rest with 429 and `answer`.
pub fn shed_run(
    policy: &Policy,
    answer: Answer,
    clients: u32,
    capacity: u32,
    seed: u64,
) -> ShedRun {
    let mut out = ShedRun::default();
    let reserve = match answer {
        Answer::Paced(r) => r,
        _ => 0,
    };
    let mut pacer = Pacer::new(capacity, reserve, 600, seed).ok();
    let mut arrivals = TimeQueue::new(queue_span_ms(policy).max(700_000));
    let mut sim: Vec<_> = (0..clients)
        .map(|c| client(seed, 3, 0, c, policy))
        .collect();
    for (c, client) in sim.iter_mut().enumerate() {
        let start = client.rng.below(policy.initial_ms() as u64);
        arrivals.push(start + client.rng.net_ms(), c as u32);
    }
    let mut now = Vec::new();
    while let Some(t) = arrivals.pop_bucket(&mut now) {
        if t > HORIZON_MS {
            out.unfinished = (arrivals.len() + now.len()) as u32;
            break;
        }
        let second = t / 1000;
        for &c in &now {
            super::model::bump(&mut out.per_second, second, 1);
            out.calls += 1;
            let client = &mut sim[c as usize];
            let i = second as usize;
            if out.accepted.len() <= i {
                out.accepted.resize(i + 1, 0);
            }
            let back = t + client.rng.net_ms();
            if out.accepted[i] < capacity {
                out.accepted[i] += 1;
                out.last_done_ms = out.last_done_ms.max(back);
                continue;
            }
            let hint = match (answer, pacer.as_mut()) {
                (Answer::Bare, _) | (Answer::Paced(_), None) => None,
                (Answer::Constant(s), _) => Some(ServerHint::RetryAfterMs(s * 1000)),
                (Answer::Paced(_), Some(p)) => {
                    Some(ServerHint::RetryAfterMs(p.assign(t).retry_after_s * 1000))
                }
            };
            let input = match hint {
                Some(h) => StepInput::default().hint(h),
                None => StepInput::default(),
            };
            match client.backoff.next_delay_with(policy, input).delay_ms() {
                Some(d) => arrivals.push(back + d as u64 + client.rng.net_ms(), c),
                None => out.unfinished += 1,
            }
        }
    }
    out
}

/// One fleet of the `pacing` comparison: its clients' strategy, what the server answers, its run.
pub struct PacingRow {
    pub name: &'static str,
    /// The chart style: the strategy's own, and one of its own for the paced fleet.
    pub style: usize,
    pub run: ShedRun,
}

/// The chart style of the paced fleet (after the strategies' seven).
pub const PACED_STYLE: usize = 7;

/// `shed` with what the server answers, one run of each fleet: today's strategies with no
/// `Retry-After` and with a constant one, beside a pacing server (6 % kept for first attempts in
/// the schedule's first second, where the clients that start in the last ms of the first second
/// arrive; every later second is given whole to returns) and clients
/// that follow it (`paced`). The physical limit is `clients / capacity` seconds.
pub fn pacing_rows(clients: u32, capacity: u32, base_ms: u32, seed: u64) -> Vec<PacingRow> {
    // The names and options are this function's own, so each builds; a fleet that did not would
    // be left out rather than stop the run.
    let policy = |name: &str, paced: bool| {
        let strategy = Strategy::from_name(name)?;
        outage_policy(strategy, base_ms)
            .to_builder()
            .paced(paced)
            .max_retries(50)
            .build()
            .ok()
    };
    let fleets: [(&'static str, &str, bool, Answer); 5] = [
        ("full, no Retry-After", "full", false, Answer::Bare),
        ("google, no Retry-After", "google", false, Answer::Bare),
        ("equal, Retry-After: 1", "equal", false, Answer::Constant(1)),
        (
            "decorrelated, Retry-After: 1",
            "decorrelated",
            false,
            Answer::Constant(1),
        ),
        ("pacer + paced clients", "full", true, Answer::Paced(60)),
    ];
    fleets
        .into_iter()
        .filter_map(|(name, strategy, paced, answer)| {
            Some(PacingRow {
                name,
                style: if paced {
                    PACED_STYLE
                } else {
                    ALL_STRATEGIES
                        .iter()
                        .position(|s| s.name() == strategy)
                        .unwrap_or(0)
                },
                run: shed_run(&policy(strategy, paced)?, answer, clients, capacity, seed),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(name: &str, r: &ShedRun, clients: u32) -> (f64, u64, u32) {
        let calls = r.calls as f64 / clients as f64;
        let peak_after_first = r.per_second.iter().skip(1).copied().max().unwrap_or(0);
        println!(
            "{name:<28} calls/client {calls:5.2}  last done {:6.1} s  busiest second after the first {peak_after_first:5}  unfinished {}",
            r.last_done_ms as f64 / 1000.0,
            r.unfinished
        );
        (calls, r.last_done_ms, peak_after_first)
    }

    // SPEC.md §16 against today's strategies: 1,000 clients at a server of 100/s (the simulator's
    // `shed`). Goals: the paced fleet done by the physical limit, 10 s, give or take the round
    // trip (the last refused started near 1 s, is told 9 s and is served at 10 s plus two network
    // delays), at most 2 calls per client, no second after the first above 1.05 × capacity
    // (counting arrivals, refused ones included).
    #[test]
    fn a_paced_fleet_drains_a_shed_at_capacity() {
        let paced = outage_policy(Strategy::named("full"), 1000)
            .to_builder()
            .paced(true)
            .max_retries(50)
            .build()
            .unwrap();
        // The clients that start in the last few ms of the first second arrive in the second one:
        // 6 % of its capacity kept for first attempts leaves them room; the later seconds hold
        // 100 returns each.
        let r = shed_run(&paced, Answer::Paced(60), 1000, 100, 42);
        let (calls, last, peak) = show("pacer (6 % kept) + paced", &r, 1000);
        let none_kept = shed_run(&paced, Answer::Paced(0), 1000, 100, 42);
        let (calls0, last0, peak0) = show("pacer (none kept) + paced", &none_kept, 1000);
        for (name, strategy, answer) in [
            ("full, no Retry-After", "full", Answer::Bare),
            ("google, no Retry-After", "google", Answer::Bare),
            ("full, Retry-After: 1", "full", Answer::Constant(1)),
            ("equal, Retry-After: 1", "equal", Answer::Constant(1)),
            ("full + pacer, not paced", "full", Answer::Paced(60)),
        ] {
            let p = outage_policy(Strategy::named(strategy), 1000)
                .to_builder()
                .max_retries(50)
                .build()
                .unwrap();
            show(name, &shed_run(&p, answer, 1000, 100, 42), 1000);
        }
        // With 6 % kept every second after the first stays within 1.05 × capacity and the last
        // client is done at 10.0 s, as with none kept; with none kept the second second holds the
        // ~1 % of first attempts that start late on top of a full second of returns (111).
        assert_eq!((r.unfinished, none_kept.unfinished), (0, 0));
        assert!(calls <= 2.0 && calls0 <= 2.0, "{calls} {calls0}");
        assert!(peak <= 105, "{peak}");
        assert!(last <= 10_050, "{last}");
        assert!(last0 <= 10_050, "{last0}");
        assert!(peak0 <= 115, "{peak0}");
    }
}
