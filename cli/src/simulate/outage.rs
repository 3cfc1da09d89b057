//! `outage`: the server rejects everything (503) for a while, then recovers with a fixed capacity
//! per second, answering 503 above it. Google's formula loses its jitter at the cap, so its
//! clients come back in bursts.
//!
//! `shed` is the same server without the outage that sheds load with 429: every client starts
//! within the first delay and whatever exceeds the capacity gets a 429, which the guidance retries
//! and the client libraries' default does not.

use seeded_backoff::Policy;

use super::model::{
    accumulate, bump, client, count_simulated, outage_policy, percentile, queue_span_ms,
    read_ahead, retry_arrival, TimeQueue, HORIZON_MS,
};
use super::strategy::Strategy;

/// What one outage run produced.
#[derive(Debug, Default)]
struct OutageRun {
    /// Requests arriving per second since the start.
    per_second: Vec<u32>,
    /// ms after recovery when the last client succeeded.
    all_done_after_recovery_ms: u64,
    /// Each finished client's time from the start to its success response, ms.
    completion_ms: Vec<u64>,
    unfinished: u32,
    /// Clients whose last answer was an error they do not retry: a 429 the strategy does not
    /// retry, or a retry the policy gave up (the library default's deadline).
    failed: u32,
    /// The phones among `failed`.
    failed_phones: u32,
}

/// Who retries in a run: clients `0..phones` are phones on `phone`'s policy, the rest desktops on
/// `desktop`'s. Every client starts within the desktop policy's first delay, so two fleets that
/// differ in the phones' policy see the same outage begin.
#[derive(Clone, Copy, Debug)]
pub struct Fleet<'a> {
    pub desktop: &'a Policy,
    pub phone: &'a Policy,
    pub phones: u32,
}

impl<'a> Fleet<'a> {
    /// Every client on one policy.
    pub fn uniform(policy: &'a Policy) -> Fleet<'a> {
        Fleet {
            desktop: policy,
            phone: policy,
            phones: 0,
        }
    }

    fn policy(&self, c: u32) -> &'a Policy {
        if c < self.phones {
            self.phone
        } else {
            self.desktop
        }
    }
}

/// How the server rejects what exceeds its capacity once it is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// 503, retried by every strategy.
    Unavailable,
    /// 429, retried only by the strategies that retry it.
    TooManyRequests,
}

/// The server of one run: down until `outage_ms`, then `capacity` requests per second, the rest
/// rejected with `rejection`.
#[derive(Clone, Copy, Debug)]
pub struct Server {
    pub outage_ms: u64,
    pub capacity: u32,
    pub rejection: Rejection,
}

fn outage_run(
    fleet: Fleet,
    retries_429: bool,
    clients: u32,
    server: Server,
    seed: u64,
    run: u32,
) -> OutageRun {
    let Server {
        outage_ms,
        capacity,
        rejection,
    } = server;
    let mut out = OutageRun::default();
    let mut accepted: Vec<u32> = Vec::new();
    let span = queue_span_ms(fleet.desktop).max(queue_span_ms(fleet.phone));
    let mut arrivals = TimeQueue::new(span);
    let mut sim: Vec<_> = (0..clients)
        .map(|c| client(seed, 2, run, c, fleet.policy(c)))
        .collect();
    for (c, client) in sim.iter_mut().enumerate() {
        let start = client.rng.below(fleet.desktop.initial_ms() as u64);
        arrivals.push(start + client.rng.net_ms(), c as u32);
    }
    let mut last_success = 0;
    let mut now = Vec::new();
    while let Some(t) = arrivals.pop_bucket(&mut now) {
        if t > outage_ms + HORIZON_MS {
            out.unfinished = (arrivals.len() + now.len()) as u32;
            break;
        }
        count_simulated(now.len() as u64);
        let second = t / 1000;
        bump(&mut out.per_second, second, now.len() as u32);
        for (i, &c) in now.iter().enumerate() {
            read_ahead(&sim, &now, i);
            let client = &mut sim[c as usize];
            let back = t + client.rng.net_ms();
            if t >= outage_ms {
                let i = second as usize;
                if accepted.len() <= i {
                    accepted.resize(i + 1, 0);
                }
                if accepted[i] < capacity {
                    accepted[i] += 1;
                    last_success = last_success.max(back);
                    out.completion_ms.push(back);
                    continue;
                }
                if rejection == Rejection::TooManyRequests && !retries_429 {
                    out.failed += 1;
                    continue;
                }
            }
            match retry_arrival(client, fleet.policy(c), back) {
                Some(next) => arrivals.push(next, c),
                None => {
                    out.failed += 1;
                    out.failed_phones += u32::from(c < fleet.phones);
                }
            }
        }
    }
    out.all_done_after_recovery_ms = last_success.saturating_sub(outage_ms);
    out
}

/// One strategy's outage figures over all runs.
#[derive(Debug, Clone, PartialEq)]
pub struct OutageRow {
    pub strategy: &'static str,
    /// The busiest second from recovery on: mean over runs, and the worst run.
    pub peak_rps_mean: u64,
    pub peak_rps_max: u64,
    /// Requests in the first second after recovery, mean over runs.
    pub first_second_mean: u64,
    pub all_done_p50_ms: u64,
    pub all_done_max_ms: u64,
    pub unfinished: u64,
    /// Clients that ended with an error (a 429 not retried, or the policy gave up), over all runs.
    pub failed: u64,
    /// The phones among `failed` (a fleet with phones, `Fleet`).
    pub failed_phones: u64,
    /// Requests (accepted or rejected) and rejections, mean per run.
    pub requests_per_run: u64,
    pub rejected_per_run: u64,
    /// Each client's time from the start until its success response, over all runs.
    pub completion_p50_ms: u64,
    pub completion_p99_ms: u64,
    pub completion_max_ms: u64,
    /// Requests per second, summed over runs.
    pub per_second_sum: Vec<u64>,
    /// Clients that succeeded, over all runs.
    pub succeeded: u64,
}

#[cfg(test)]
pub fn outage(
    name: Strategy,
    clients: u32,
    runs: u32,
    seed: u64,
    outage_s: u32,
    capacity: u32,
) -> OutageRow {
    outage_scaled(
        name,
        clients,
        runs,
        seed,
        outage_s,
        capacity,
        super::model::OUTAGE_BASE_MS,
        Rejection::Unavailable,
    )
}

/// One strategy's outage figures over all runs, with Google's policy scaled to a first delay of
/// `base_ms` (1000 is Google's own). With `outage_s` 0 and 429 rejections it is the `shed` scenario.
#[allow(clippy::too_many_arguments)]
pub fn outage_scaled(
    name: Strategy,
    clients: u32,
    runs: u32,
    seed: u64,
    outage_s: u32,
    capacity: u32,
    base_ms: u32,
    rejection: Rejection,
) -> OutageRow {
    let policy = outage_policy(name, base_ms);
    let server = Server {
        outage_ms: outage_s as u64 * 1000,
        capacity,
        rejection,
    };
    let fleet = Fleet::uniform(&policy);
    outage_fleet(
        name.name(),
        fleet,
        name.retries_429(),
        clients,
        runs,
        seed,
        server,
    )
}

/// The figures of `runs` runs of one fleet against one server, named `name`.
pub fn outage_fleet(
    name: &'static str,
    fleet: Fleet,
    retries_429: bool,
    clients: u32,
    runs: u32,
    seed: u64,
    server: Server,
) -> OutageRow {
    let recovery = (server.outage_ms / 1000) as usize;
    let (mut peak_sum, mut peak_max, mut first_sum, mut unfinished) = (0, 0, 0, 0);
    let (mut failed, mut failed_phones) = (0, 0);
    let mut done = Vec::with_capacity(runs as usize);
    let mut per_second_sum = Vec::new();
    let mut completion = Vec::new();
    let mut requests = 0u64;
    for run in 0..runs {
        let r = outage_run(fleet, retries_429, clients, server, seed, run);
        let after = r.per_second.get(recovery..).unwrap_or(&[]);
        let peak = after.iter().copied().max().unwrap_or(0) as u64;
        peak_sum += peak;
        peak_max = peak_max.max(peak);
        first_sum += after.first().copied().unwrap_or(0) as u64;
        unfinished += r.unfinished as u64;
        failed += r.failed as u64;
        failed_phones += r.failed_phones as u64;
        done.push(r.all_done_after_recovery_ms);
        requests += r.per_second.iter().map(|&n| n as u64).sum::<u64>();
        completion.extend(r.completion_ms);
        accumulate(&mut per_second_sum, &r.per_second);
    }
    done.sort_unstable();
    let successes = completion.len() as u64;
    completion.sort_unstable();
    OutageRow {
        strategy: name,
        peak_rps_mean: peak_sum / runs as u64,
        peak_rps_max: peak_max,
        first_second_mean: first_sum / runs as u64,
        all_done_p50_ms: percentile(&done, 50),
        all_done_max_ms: percentile(&done, 100),
        unfinished,
        failed,
        failed_phones,
        requests_per_run: requests / runs as u64,
        rejected_per_run: (requests - successes) / runs as u64,
        completion_p50_ms: percentile(&completion, 50),
        completion_p99_ms: percentile(&completion, 99),
        completion_max_ms: percentile(&completion, 100),
        per_second_sum,
        succeeded: successes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_figures() {
        let a = outage(Strategy::named("google"), 200, 2, 7, 30, 50);
        let b = outage(Strategy::named("google"), 200, 2, 7, 30, 50);
        assert_eq!(a, b);
        let c = outage(Strategy::named("google"), 200, 2, 8, 30, 50);
        assert_ne!(a.per_second_sum, c.per_second_sum);
    }

    #[test]
    fn every_client_finishes() {
        let r = outage(Strategy::named("full"), 300, 2, 1, 60, 100);
        assert_eq!(r.unfinished, 0);
        // During the outage every request fails, so each client made several.
        let total: u64 = r.per_second_sum.iter().sum();
        assert!(total > 2 * 300 * 5, "{total}");
    }

    // Google's formula loses its jitter at the cap: clients re-synchronize and hit the recovered
    // server in bursts. Full jitter keeps them spread over the whole cap.
    #[test]
    fn outage_google_resynchronizes_at_the_cap_full_keeps_spread() {
        let google = outage(Strategy::named("google"), 1000, 10, 1, 120, 100);
        let full = outage(Strategy::named("full"), 1000, 10, 1, 120, 100);
        let none = outage(Strategy::named("none"), 1000, 10, 1, 120, 100);
        assert!(
            google.peak_rps_mean > 3 * full.peak_rps_mean,
            "google {} full {}",
            google.peak_rps_mean,
            full.peak_rps_mean
        );
        assert!(none.peak_rps_mean >= google.peak_rps_mean);
        // Full jitter over a 32 s cap: about 1000 / 16 requests per second, far below a burst.
        assert!(full.peak_rps_mean < 200, "{}", full.peak_rps_mean);
        assert!(google.all_done_p50_ms > full.all_done_p50_ms);
        // Before recovery, in the last 32 s window at the cap, Google's busiest second holds a
        // large share of all clients; full jitter's holds only a few percent.
        let busiest = |r: &OutageRow| r.per_second_sum[88..120].iter().copied().max().unwrap() / 10;
        assert!(busiest(&google) > 150, "{}", busiest(&google));
        assert!(busiest(&full) < 100, "{}", busiest(&full));
    }

    fn shed(name: Strategy) -> OutageRow {
        outage_scaled(name, 1000, 5, 1, 0, 100, 1000, Rejection::TooManyRequests)
    }

    // The client libraries' default gives up 60 s into an outage: in a 120 s one every client
    // fails, where the guidance's formula gets every client through.
    #[test]
    fn api_core_default_gives_up_in_a_long_outage() {
        let lib = outage(Strategy::ApiCoreDefault, 300, 2, 1, 120, 100);
        assert_eq!(lib.failed, 2 * 300);
        let short = outage(Strategy::ApiCoreDefault, 300, 2, 1, 30, 100);
        assert_eq!(short.failed, 0);
        assert_eq!(
            outage(Strategy::named("google"), 300, 2, 1, 120, 100).failed,
            0
        );
    }

    // Shedding with 429: what exceeds the first second's capacity fails at once under the library
    // default (a 429 is final there); every strategy that retries 429 gets all its clients through.
    #[test]
    fn shed_429_fails_the_library_default_not_the_guidance() {
        let lib = shed(Strategy::ApiCoreDefault);
        assert!(lib.failed >= 5 * 800, "{}", lib.failed);
        assert_eq!(lib.failed + lib.succeeded, 5 * 1000);
        for &s in crate::simulate::strategy::JITTER_STRATEGIES {
            let r = shed(s);
            assert_eq!((r.failed, r.unfinished), (0, 0), "{}", r.strategy);
        }
    }
}
