//! `quota`: one process whose requests arrive at 3× a server's quota for 60 s, the quota halved
//! from 20 s to 40 s. The server is a token bucket (the quota per second, a tenth of a second's
//! worth of burst, nginx `limit_req`'s shape) that answers 429 without `Retry-After` when empty.
//! The process either has no limiter (every request sends at once and backs off on its own on a
//! 429, with each strategy), or shares one limiter between its requests: a model of AWS adaptive
//! mode (`aws_adaptive`), or the core's `SendRate` (SPEC.md §17). Requests that wait for the
//! limiter wait in arrival order; a refused one goes back to the limiter (AWS after its standard
//! mode's backoff, ours at once: the send rate paces it).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use seeded_backoff::{send_rate::SendRateConfig, Backoff, Jitter, Policy};

use super::model::{outage_policy, percentile, SimRng};
pub use super::quota_gates::Limiter;
use super::quota_gates::{Bucket, Gate};
use super::strategy::Strategy;

/// Requests arrive for this long.
pub const ARRIVALS_MS: u64 = 60_000;
/// The quota is halved over `[HALVED_MS.0, HALVED_MS.1)`.
pub const HALVED_MS: (u64, u64) = (20_000, 40_000);
/// Requests arrive at this many times the quota.
pub const DEMAND: u32 = 3;
/// The resolution of the per-time series.
pub const BIN_MS: u64 = 100;
/// "Back within 5 %": every 1 s window of goodput from then to the next change within this many
/// thousandths of the quota.
pub const SETTLED_PERMILLE: u64 = 50;
/// The backlog left at 60 s drains for at most this long.
const DRAIN_MS: u64 = 600_000;

/// The send rate's configuration in this scenario: the defaults (their burst of 2 lets an attempt
/// asked for after a whole-ms wait, up to 1 ms late, go on the schedule: with a burst of 1, at
/// 400/s, 2.5 ms apart, the process sent 333/s, 3 ms apart, and at 100/s its goodput never stayed
/// within 5 % of the restored quota).
pub const OURS: SendRateConfig = SendRateConfig::DEFAULT;

/// The quota at `t_ms`.
pub fn quota_at(quota: u32, t_ms: u64) -> u32 {
    if (HALVED_MS.0..HALVED_MS.1).contains(&t_ms) {
        (quota / 2).max(1)
    } else {
        quota
    }
}

/// The quota's total over the arrivals' 60 s, in requests.
pub fn quota_total(quota: u32) -> u64 {
    (0..ARRIVALS_MS)
        .map(|t| quota_at(quota, t) as u64)
        .sum::<u64>()
        / 1000
}

/// One process's figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QuotaRun {
    pub requests: u64,
    pub attempts: u64,
    pub refused: u64,
    /// Refused attempts sent after the first second (a cold start's refusals aside), and all
    /// attempts sent after it.
    pub refused_after_first_s: u64,
    pub attempts_after_first_s: u64,
    /// Requests that ended with a 429 their strategy does not retry.
    pub failed: u64,
    /// Requests still not served when the drain ended.
    pub unfinished: u64,
    /// Accepted by the server within the arrivals' 60 s.
    pub accepted_in_window: u64,
    /// Per request served: from its arrival until its accepted attempt left, ms (sorted).
    pub wait_ms: Vec<u64>,
    /// Per `BIN_MS`, by the time the server saw them: attempts, and of them accepted.
    pub attempts_per_bin: Vec<u32>,
    pub accepted_per_bin: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// Request `r` arrives in the process.
    Arrive(u32),
    /// Process `p`'s limiter may let its next waiting request go.
    Wake(u32),
    /// Request `r`'s attempt, sent at `sent`, reaches the server.
    AtServer(u32, u64),
    /// The server's answer to `r`'s attempt sent at `sent` is back.
    Back(u32, u64, bool),
    /// Request `r`'s backoff has passed.
    Retry(u32),
}

/// The policy a request backs off with after a 429: the strategy's (Google's scaled to
/// `base_ms`), or AWS standard mode's (full jitter on 1 s × 2, capped at 20 s).
fn retry_policy(limiter: Limiter, base_ms: u32) -> Policy {
    match limiter {
        Limiter::PerRequest(s) => outage_policy(s, base_ms),
        _ => Policy::builder()
            .initial_ms(1000)
            .multiplier(2, 1)
            .max_backoff_ms(20_000)
            .jitter(Jitter::Full)
            .max_retries(u32::MAX)
            .build()
            .expect("AWS standard mode's backoff is a valid policy"),
    }
}

/// How many processes the requests arrive at (request `r` at process `r % processes`), and whether
/// they share one limiter through a store (each decision then a round trip of `STORE_MS` before
/// the attempt leaves) or each have their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fleet {
    pub processes: u32,
    pub shared: bool,
}

impl Fleet {
    pub const ONE: Fleet = Fleet {
        processes: 1,
        shared: false,
    };
}

/// A shared limiter's decision costs one round trip to the store (a compare-and-set on 127.0.0.1,
/// rounded up to the simulation's ms).
pub const STORE_MS: u64 = 1;

/// A process of a run: which gate it asks, and its requests waiting for it.
struct Process {
    gate: usize,
    waiting: VecDeque<u32>,
    wake_at: Option<u64>,
}

/// `fleet.processes` processes sharing `DEMAND` × `quota` for 60 s, each behind its own `limiter`
/// or all behind one; the same arrivals for every limiter and fleet of a seed.
pub fn fleet_run(limiter: Limiter, fleet: Fleet, quota: u32, base_ms: u32, seed: u64) -> QuotaRun {
    let mut out = QuotaRun::default();
    let mut rng = SimRng::for_client(seed, 4, 0, 0);
    let mut events = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |events: &mut BinaryHeap<_>, t: u64, e: Event| {
        seq += 1;
        events.push(Reverse((t, seq, e)));
    };
    // `DEMAND × quota` arrivals in every second, at uniform ms within it.
    let per_second = (DEMAND * quota) as u64;
    let mut arrivals: Vec<u64> = (0..ARRIVALS_MS / 1000)
        .flat_map(|s| (0..per_second).map(move |_| s))
        .map(|s| s * 1000 + rng.below(1000))
        .collect();
    arrivals.sort_unstable();
    let policy = retry_policy(limiter, base_ms);
    let mut backoffs: Vec<Backoff> = (0..arrivals.len())
        .map(|_| Backoff::new(&policy, rng.next_u64()))
        .collect();
    let n = fleet.processes.max(1);
    let mut gates: Vec<Gate> = (0..if fleet.shared { 1 } else { n })
        .map(|_| Gate::new(limiter))
        .collect();
    let mut procs: Vec<Process> = (0..n)
        .map(|i| Process {
            gate: if fleet.shared { 0 } else { i as usize },
            waiting: VecDeque::new(),
            wake_at: None,
        })
        .collect();
    let store_ms = if fleet.shared { STORE_MS } else { 0 };
    for (r, &t) in arrivals.iter().enumerate() {
        push(&mut events, t, Event::Arrive(r as u32));
    }
    out.requests = arrivals.len() as u64;
    let mut server = Bucket::server(quota);
    let mut done = 0u64;
    let bin = |v: &mut Vec<u32>, t: u64| super::model::bump(v, t / BIN_MS, 1);
    while let Some(Reverse((t, _, e))) = events.pop() {
        if t > ARRIVALS_MS + DRAIN_MS {
            break;
        }
        let mut send_now = None;
        // The process the event is about.
        let at = match e {
            Event::Arrive(r) | Event::Retry(r) | Event::AtServer(r, _) | Event::Back(r, _, _) => {
                r % n
            }
            Event::Wake(p) => p,
        } as usize;
        match e {
            Event::Arrive(r) | Event::Retry(r) => match limiter {
                Limiter::PerRequest(_) => send_now = Some(r),
                _ => procs[at].waiting.push_back(r),
            },
            Event::Wake(_) => {
                if procs[at].wake_at == Some(t) {
                    procs[at].wake_at = None;
                }
            }
            Event::AtServer(r, sent) => {
                let ok = server.admit(t);
                bin(&mut out.attempts_per_bin, t);
                if ok {
                    bin(&mut out.accepted_per_bin, t);
                    if t < ARRIVALS_MS {
                        out.accepted_in_window += 1;
                    }
                }
                push(&mut events, t + rng.net_ms(), Event::Back(r, sent, ok));
            }
            Event::Back(r, sent, ok) => {
                gates[procs[at].gate].answer(t, sent, ok);
                if ok {
                    out.wait_ms.push(sent - arrivals[r as usize]);
                    done += 1;
                } else {
                    out.refused += 1;
                    if sent >= 1000 {
                        out.refused_after_first_s += 1;
                    }
                    match limiter {
                        Limiter::PerRequest(s) if !s.retries_429() => out.failed += 1,
                        Limiter::Ours(_) | Limiter::Fixed(_) => procs[at].waiting.push_front(r),
                        _ => match backoffs[r as usize].next_delay(&policy).delay_ms() {
                            Some(d) => push(&mut events, t + d as u64, Event::Retry(r)),
                            None => out.failed += 1,
                        },
                    }
                }
            }
        }
        if let Some(r) = send_now {
            out.attempts += 1;
            if t >= 1000 {
                out.attempts_after_first_s += 1;
            }
            push(&mut events, t + rng.net_ms(), Event::AtServer(r, t));
        }
        // Let the process's waiting requests go while its limiter allows, then wake when it says.
        let p = &mut procs[at];
        while let Some(&r) = p.waiting.front() {
            match gates[p.gate].ask(t) {
                Ok(()) => {
                    p.waiting.pop_front();
                    out.attempts += 1;
                    if t + store_ms >= 1000 {
                        out.attempts_after_first_s += 1;
                    }
                    push(
                        &mut events,
                        t + store_ms + rng.net_ms(),
                        Event::AtServer(r, t + store_ms),
                    );
                }
                Err(when) => {
                    if p.wake_at.is_none_or(|w| when < w || w <= t) {
                        p.wake_at = Some(when);
                        push(&mut events, when, Event::Wake(at as u32));
                    }
                    break;
                }
            }
        }
    }
    out.unfinished = out.requests - done - out.failed;
    out.wait_ms.sort_unstable();
    out
}

/// One row of the `quota` table and panel.
#[derive(Debug, Clone)]
pub struct QuotaRow {
    pub name: String,
    pub style: usize,
    /// The processes the quota's requests arrive at, and whether they share one limiter.
    pub fleet: Fleet,
    pub run: QuotaRun,
    pub goodput_permille: u64,
    pub refused_permille: u64,
    pub wait_p50_ms: u64,
    pub wait_p99_ms: u64,
    /// From each change of the quota (halved, restored) until every 1 s window of goodput up to
    /// the next change (or the end of the arrivals) is within 5 % of the new quota; `None` if
    /// that never happens.
    pub settle_ms: [Option<u64>; 2],
}

/// From `change_ms` on, the first time after which every 1 s window of accepted requests that ends
/// by `end_ms` is within 5 % of `quota`, as ms after the change.
pub fn settle_ms(accepted_per_bin: &[u32], quota: u32, change_ms: u64, end_ms: u64) -> Option<u64> {
    let window = 1000 / BIN_MS;
    let sum = |from: u64| -> u64 {
        (from..from + window)
            .map(|b| accepted_per_bin.get(b as usize).copied().unwrap_or(0) as u64)
            .sum()
    };
    let ok = |from: u64| sum(from).abs_diff(quota as u64) * 1000 <= SETTLED_PERMILLE * quota as u64;
    let (first, last) = (change_ms / BIN_MS, end_ms / BIN_MS - window);
    // The latest window that is out of bounds; settled from the bin after it.
    match (first..=last).rev().find(|&b| !ok(b)) {
        None => Some(0),
        Some(b) if b == last => None,
        Some(b) => Some((b + 1) * BIN_MS - change_ms),
    }
}

/// One row of a fleet: `limiter` per process or shared, its figures and its series.
pub fn fleet_row(
    name: String,
    style: usize,
    limiter: Limiter,
    fleet: Fleet,
    quota: u32,
    base_ms: u32,
    seed: u64,
) -> QuotaRow {
    let run = fleet_run(limiter, fleet, quota, base_ms, seed);
    let halved = quota_at(quota, HALVED_MS.0);
    QuotaRow {
        name,
        style,
        fleet,
        goodput_permille: run.accepted_in_window * 1000 / quota_total(quota),
        refused_permille: run.refused * 1000 / run.attempts.max(1),
        wait_p50_ms: percentile(&run.wait_ms, 50),
        wait_p99_ms: percentile(&run.wait_ms, 99),
        settle_ms: [
            settle_ms(&run.accepted_per_bin, halved, HALVED_MS.0, HALVED_MS.1),
            settle_ms(&run.accepted_per_bin, quota, HALVED_MS.1, ARRIVALS_MS),
        ],
        run,
    }
}

/// The chart styles of the two limiters and of the quota's line, after the paced fleet's.
pub const AWS_STYLE: usize = 8;
pub const OURS_STYLE: usize = 9;
pub const QUOTA_STYLE: usize = 10;

/// The rows of `quota`: no limiter with each strategy, then AWS adaptive's model, then ours.
pub fn quota_rows(strategies: &[Strategy], quota: u32, base_ms: u32, seed: u64) -> Vec<QuotaRow> {
    let mut rows: Vec<(String, usize, Limiter)> = strategies
        .iter()
        .map(|&s| {
            let style = super::strategy::ALL_STRATEGIES
                .iter()
                .position(|&a| a == s)
                .unwrap_or(0);
            (
                format!("{} (no limiter)", s.name()),
                style,
                Limiter::PerRequest(s),
            )
        })
        .collect();
    rows.push(("AWS adaptive (model)".into(), AWS_STYLE, Limiter::Aws));
    rows.push(("send rate (ours)".into(), OURS_STYLE, Limiter::Ours(OURS)));
    let mut rows: Vec<(String, usize, Limiter, Fleet)> = rows
        .into_iter()
        .map(|(name, style, limiter)| (name, style, limiter, Fleet::ONE))
        .collect();
    // The same requests at a fleet of processes: each with its own send rate (one process's
    // share of the 429s each), one send rate shared through a store, and a rate set once to the
    // quota and shared (Bottleneck's clustering), which does not follow the quota's change.
    let (own, shared) = (
        Fleet {
            processes: FLEET_PROCESSES,
            shared: false,
        },
        Fleet {
            processes: FLEET_PROCESSES,
            shared: true,
        },
    );
    rows.push((
        format!("{FLEET_PROCESSES} processes, a send rate each"),
        OURS_STYLE,
        Limiter::Ours(OURS),
        own,
    ));
    rows.push((
        format!("{FLEET_PROCESSES} processes, one shared send rate"),
        OURS_STYLE,
        Limiter::Ours(OURS),
        shared,
    ));
    rows.push((
        format!("{FLEET_PROCESSES} processes, one fixed shared rate"),
        AWS_STYLE,
        Limiter::Fixed(quota),
        shared,
    ));
    super::per_item(&rows, |(name, style, limiter, fleet)| {
        fleet_row(name.clone(), *style, *limiter, *fleet, quota, base_ms, seed)
    })
}

/// The processes of the quota's fleet rows (the fleet: 50 worker processes on one API
/// key's quota).
pub const FLEET_PROCESSES: u32 = 50;

#[cfg(test)]
#[path = "quota_tests.rs"]
mod tests;
