//! `contention` (after Brooker, "Exponential Backoff And Jitter"): every client makes one
//! conditional write. The client read the record one window before its write lands, so the write
//! succeeds only if no other write succeeded within that window; otherwise it backs off and tries
//! again.

use seeded_backoff::Policy;

use super::model::{
    client, contention_policy, count_simulated, percentile, queue_span_ms, read_ahead,
    retry_arrival, TimeQueue, HORIZON_MS, WINDOW_MS,
};
use super::strategy::Strategy;

/// The resolution of `ContentionRow::done_curve`.
const CURVE_POINTS: usize = 400;

/// What one contention run produced.
#[derive(Debug, Default)]
struct ContentionRun {
    calls: u64,
    /// Each finished client's time from start to its success response, ms.
    completion_ms: Vec<u64>,
    unfinished: u32,
}

fn contention_run(policy: &Policy, clients: u32, seed: u64, run: u32) -> ContentionRun {
    let mut out = ContentionRun::default();
    let mut arrivals = TimeQueue::new(queue_span_ms(policy));
    let mut sim: Vec<_> = (0..clients)
        .map(|c| client(seed, 1, run, c, policy))
        .collect();
    for (c, client) in sim.iter_mut().enumerate() {
        arrivals.push(client.rng.net_ms(), c as u32);
    }
    let mut last_success: Option<u64> = None;
    let mut now = Vec::new();
    while let Some(t) = arrivals.pop_bucket(&mut now) {
        if t > HORIZON_MS {
            out.unfinished = (arrivals.len() + now.len()) as u32;
            break;
        }
        out.calls += now.len() as u64;
        count_simulated(now.len() as u64);
        for (i, &c) in now.iter().enumerate() {
            read_ahead(&sim, &now, i);
            let client = &mut sim[c as usize];
            let back = t + client.rng.net_ms();
            // Arrivals pop in time order, so `last_success <= t`.
            if last_success.is_none_or(|s| t - s >= WINDOW_MS) {
                last_success = Some(t);
                out.completion_ms.push(back);
                continue;
            }
            match retry_arrival(client, policy, back) {
                Some(next) => arrivals.push(next, c),
                None => out.unfinished += 1,
            }
        }
    }
    out
}

/// One strategy's contention figures over all runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentionRow {
    pub strategy: &'static str,
    pub calls_total: u64,
    pub calls_per_run: u64,
    pub completion_p50_ms: u64,
    pub completion_p99_ms: u64,
    pub completion_max_ms: u64,
    pub unfinished: u64,
    /// Clients done over time, over all runs: (ms since start, per mille of all clients), at most
    /// `CURVE_POINTS` + 1 points, the last at the last success.
    pub done_curve: Vec<(u64, u32)>,
}

pub fn contention(name: Strategy, clients: u32, runs: u32, seed: u64) -> ContentionRow {
    let policy = contention_policy(name);
    let mut calls = 0;
    let mut unfinished = 0;
    let mut completion = Vec::with_capacity(clients as usize * runs as usize);
    for run in 0..runs {
        let r = contention_run(&policy, clients, seed, run);
        calls += r.calls;
        unfinished += r.unfinished as u64;
        completion.extend(r.completion_ms);
    }
    completion.sort_unstable();
    let all = clients as u64 * runs as u64;
    let step = completion.len().div_ceil(CURVE_POINTS).max(1);
    let done_curve = (step - 1..completion.len())
        .step_by(step)
        .chain(completion.len().checked_sub(1))
        .map(|i| (completion[i], ((i as u64 + 1) * 1000 / all) as u32))
        .collect();
    ContentionRow {
        strategy: name.name(),
        calls_total: calls,
        calls_per_run: calls / runs as u64,
        completion_p50_ms: percentile(&completion, 50),
        completion_p99_ms: percentile(&completion, 99),
        completion_max_ms: percentile(&completion, 100),
        unfinished,
        done_curve,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::strategy::JITTER_STRATEGIES;

    fn contention_all(clients: u32, runs: u32, seed: u64) -> Vec<ContentionRow> {
        JITTER_STRATEGIES
            .iter()
            .map(|&s| contention(s, clients, runs, seed))
            .collect()
    }

    fn row<'a, T>(rows: &'a [T], name: &str, strategy: impl Fn(&T) -> &str) -> &'a T {
        rows.iter().find(|r| strategy(r) == name).unwrap()
    }

    #[test]
    fn same_seed_same_figures_other_seed_other_figures() {
        let a = contention(Strategy::named("full"), 50, 3, 7);
        let b = contention(Strategy::named("full"), 50, 3, 7);
        let c = contention(Strategy::named("full"), 50, 3, 8);
        assert_eq!(a, b);
        assert_ne!(a.calls_total, c.calls_total);
    }

    #[test]
    fn every_client_finishes_and_succeeds_once() {
        for r in contention_all(100, 5, 1) {
            assert_eq!(r.unfinished, 0, "{}", r.strategy);
            // One success per client plus the failed writes.
            assert!(r.calls_total >= 5 * 100, "{}", r.strategy);
        }
    }

    // Brooker's result: without jitter, clients that collided keep colliding, so no jitter is by
    // far the worst in calls and in time; full and decorrelated are the best (full makes the fewest
    // calls, decorrelated finishes soonest). Google's additive jitter is as small as the first delay
    // here, so it behaves almost like none.
    #[test]
    fn contention_no_jitter_is_worst_full_and_decorrelated_best() {
        let rows = contention_all(100, 20, 1);
        let by = |name| row(&rows, name, |r: &ContentionRow| r.strategy);
        let none = by("none");
        for r in rows.iter().filter(|r| r.strategy != "none") {
            assert!(none.calls_total > r.calls_total, "{}", r.strategy);
            assert!(
                none.completion_p99_ms > r.completion_p99_ms,
                "{}",
                r.strategy
            );
        }
        for name in ["full", "equal", "decorrelated", "proportional"] {
            assert!(none.calls_total > 2 * by(name).calls_total, "{name}");
            assert!(
                none.completion_p50_ms > 10 * by(name).completion_p50_ms,
                "{name}"
            );
        }
        let fewest = rows.iter().map(|r| r.calls_total).min().unwrap();
        assert!(
            by("full").calls_total * 100 <= fewest * 101,
            "full within 1 % of the fewest"
        );
        let mut by_p50: Vec<_> = rows.iter().collect();
        by_p50.sort_by_key(|r| r.completion_p50_ms);
        assert_eq!(by_p50[0].strategy, "decorrelated");
        assert_eq!(by_p50[1].strategy, "full");
        let mut by_p99: Vec<_> = rows.iter().collect();
        by_p99.sort_by_key(|r| r.completion_p99_ms);
        let top2 = [by_p99[0].strategy, by_p99[1].strategy];
        assert!(
            top2.contains(&"full") && top2.contains(&"decorrelated"),
            "{top2:?}"
        );
    }
}
