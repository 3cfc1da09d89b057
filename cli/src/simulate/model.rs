//! The simulation's building blocks: the network, the clients, the policies each strategy runs
//! with, and the small statistics helpers.

use std::sync::atomic::{AtomicU64, Ordering};

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use seeded_backoff::{Backoff, Policy};

use super::strategy::Strategy;

/// One network hop: 10 ± 2 ms (Brooker's setup).
pub const NET_MIN_MS: u64 = 8;
pub const NET_SPREAD_MS: u64 = 4;
/// Contention: a client's read happens one round trip (2 × 10 ms) before its write lands, so any
/// successful write in that window invalidates it.
pub const WINDOW_MS: u64 = 20;
/// Contention: Brooker's base and cap.
pub const CONTENTION_BASE_MS: u32 = 5;
pub const CONTENTION_CAP_MS: u32 = 2000;
/// Outage: Google's first delay, 1 s; the cap is 32 of them and clients notice the outage within
/// the first one. `--base-ms` scales the whole policy, for a run that must fit in a short test.
pub const OUTAGE_BASE_MS: u32 = 1000;
/// The library default's cap and deadline at Google's 1 s base.
pub const API_CORE_CAP_MS: u32 = 10_000;
pub const API_CORE_DEADLINE_MS: u32 = 60_000;
/// No scenario runs longer than this after its server is up: bad flags end with "unfinished"
/// clients in the report instead of a hang.
pub const HORIZON_MS: u64 = 3_600_000;

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
    pub fn for_client(seed: u64, scenario: u64, run: u32, client: u32) -> SimRng {
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

/// Client `c` of one run of one scenario: its backoff seed and network draws depend on nothing else.
pub fn client(seed: u64, scenario: u64, run: u32, c: u32, policy: &Policy) -> SimClient {
    let mut rng = SimRng::for_client(seed, scenario, run, c);
    let backoff = Backoff::new(policy, rng.next_u64());
    SimClient { backoff, rng }
}

/// Retries never run out in either scenario: the horizon ends a run instead. Every strategy has
/// Brooker's base and cap here; the library default keeps its multiplier and has no deadline (the
/// conflict is retried by the application, whatever the library's own retry does).
pub fn contention_policy(name: Strategy) -> Policy {
    name.policy(
        CONTENTION_BASE_MS,
        (2, 1),
        CONTENTION_CAP_MS,
        CONTENTION_CAP_MS,
        0,
    )
}

/// Google's policy (1 s, ×2, cap 32 s) scaled to a first delay of `base_ms` (1..=60000); the
/// library default's (1 s, ×1.3, cap 10 s, 60 s deadline) scaled the same way.
pub fn outage_policy(name: Strategy, base_ms: u32) -> Policy {
    let google = Policy::google();
    let scale = |ms: u32| (ms as u64 * base_ms as u64 / google.initial_ms() as u64) as u32;
    let cap = match name {
        Strategy::ApiCoreDefault => scale(API_CORE_CAP_MS),
        _ => scale(google.max_backoff_ms()),
    };
    let (num, den) = google.multiplier();
    name.policy(base_ms, (num, den), cap, cap, scale(API_CORE_DEADLINE_MS))
}

/// When a failed client's next request arrives: its answer came back at `back`, then it waits the
/// core's delay and the network again. `None` once its backoff gives up.
pub fn retry_arrival(client: &mut SimClient, policy: &Policy, back: u64) -> Option<u64> {
    let delay_ms = client.backoff.next_delay(policy).delay_ms()?;
    Some(back + delay_ms as u64 + client.rng.net_ms())
}

/// Adds `n` to `counts[index]`, growing the vector as needed.
pub fn bump(counts: &mut Vec<u32>, index: u64, n: u32) {
    let i = index as usize;
    if counts.len() <= i {
        counts.resize(i + 1, 0);
    }
    counts[i] += n;
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

/// The longest a request can be in the future of the one being handled: a delay at the cap plus the
/// network both ways, or an outage client's first request, within the first delay.
pub fn queue_span_ms(policy: &Policy) -> u64 {
    let net = 2 * (NET_MIN_MS + NET_SPREAD_MS);
    (policy.max_backoff_ms() as u64 + net).max(policy.initial_ms() as u64 + net)
}

/// The pending requests, by arrival millisecond: a ring of one bucket per millisecond over the
/// longest possible gap (a calendar queue). Push and pop are O(1), so a run costs time linear in
/// the requests it simulates, where a binary heap costs a log factor and a cache miss per level.
/// Buckets hold 4-byte client numbers: moving the 40-byte clients themselves through the buckets
/// measured no faster and took four times the memory. Requests in the same millisecond come out in
/// the order they were pushed.
pub struct TimeQueue<T> {
    buckets: Vec<Vec<T>>,
    /// One bit per bucket, set while it holds requests: finding the next request skips 64 empty
    /// milliseconds per word, so a few clients over a long outage do not cost a step per millisecond.
    occupied: Vec<u64>,
    mask: u64,
    now: u64,
    len: usize,
}

impl<T> TimeQueue<T> {
    /// A queue for pushes at most `span_ms` after the millisecond being handled.
    pub fn new(span_ms: u64) -> TimeQueue<T> {
        let size = (span_ms + 1).next_power_of_two().max(64);
        TimeQueue {
            buckets: (0..size).map(|_| Vec::new()).collect(),
            occupied: vec![0; (size / 64) as usize],
            mask: size - 1,
            now: 0,
            len: 0,
        }
    }

    /// Queues `item` to arrive at `t`, which must be after the bucket last popped and at most the
    /// span after it: the simulation's delays are bounded by the policy's cap, so this holds.
    pub fn push(&mut self, t: u64, item: T) {
        assert!(
            t >= self.now && t - self.now <= self.mask,
            "request at {t} ms outside the queue's window at {} ms",
            self.now
        );
        let i = (t & self.mask) as usize;
        self.buckets[i].push(item);
        self.occupied[i / 64] |= 1 << (i % 64);
        self.len += 1;
    }

    /// Requests still queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Moves the earliest millisecond's items into `out` (emptied first) and returns that time.
    pub fn pop_bucket(&mut self, out: &mut Vec<T>) -> Option<u64> {
        out.clear();
        if self.len == 0 {
            return None;
        }
        // Every queued time is in `now..=now + mask`, so the first occupied bucket from `now` on,
        // wrapping around the ring, is the earliest; `len > 0` means there is one.
        loop {
            let i = (self.now & self.mask) as usize;
            let word = self.occupied[i / 64] >> (i % 64);
            if word == 0 {
                self.now += 64 - (i % 64) as u64;
                continue;
            }
            let skip = word.trailing_zeros() as usize;
            let i = i + skip;
            self.now += skip as u64;
            self.occupied[i / 64] &= !(1 << (i % 64));
            std::mem::swap(&mut self.buckets[i], out);
            self.len -= out.len();
            let t = self.now;
            // Later pushes land strictly after `t`.
            self.now += 1;
            return Some(t);
        }
    }
}

/// Loads the client handled a few requests after request `i` of a bucket, so that its cache miss
/// overlaps this request's work instead of stalling the next one (a safe stand-in for a prefetch
/// instruction: a million clients are 40 MB, far more than the caches). Measured on the million-client
/// outage: about half the wall time.
pub fn read_ahead(clients: &[SimClient], bucket: &[u32], i: usize) {
    const AHEAD: usize = 8;
    if let Some(&c) = bucket.get(i + AHEAD) {
        std::hint::black_box(clients[c as usize].rng.clone());
    }
}

/// Requests simulated so far by every thread, for the progress line of long runs.
pub static SIMULATED: AtomicU64 = AtomicU64::new(0);

/// Adds a run's requests to [`SIMULATED`] in batches, so the counter costs nothing per request.
pub fn count_simulated(n: u64) {
    SIMULATED.fetch_add(n, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_is_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50), 50);
        assert_eq!(percentile(&v, 99), 99);
        assert_eq!(percentile(&v, 100), 100);
        assert_eq!(percentile(&[7], 1), 7);
        assert_eq!(percentile(&[], 50), 0);
    }

    // The queue against the obvious reference: sorting every (time, push order) pair.
    #[test]
    fn queue_pops_in_time_order_then_push_order() {
        let mut rng = SimRng::new(5);
        let mut q = TimeQueue::new(100);
        let mut reference = Vec::new();
        let mut seq = 0u32;
        for _ in 0..50 {
            let t = rng.below(50);
            q.push(t, seq);
            reference.push((t, seq));
            seq += 1;
        }
        let mut got = Vec::new();
        let mut out = Vec::new();
        while let Some(t) = q.pop_bucket(&mut out) {
            for &c in &out {
                got.push((t, c));
                // Each handled request schedules another, up to the span ahead, for a while.
                if seq < 2000 {
                    let next = t + 1 + rng.below(100);
                    q.push(next, seq);
                    reference.push((next, seq));
                    seq += 1;
                }
            }
        }
        reference.sort_unstable();
        assert_eq!(got, reference);
        assert_eq!(q.len(), 0);
    }

    // Few requests far apart: the queue skips the empty milliseconds between them, in order.
    #[test]
    fn queue_skips_long_empty_stretches() {
        let mut q = TimeQueue::new(40_000);
        let mut out = Vec::new();
        q.push(5, 0u32);
        let mut expected = vec![5];
        let mut got = Vec::new();
        let mut t_next = 5;
        while let Some(t) = q.pop_bucket(&mut out) {
            got.push(t);
            if got.len() < 100 {
                // 1 to 39,999 ms later, across word and ring boundaries.
                t_next = t + 1 + (t * 7_919 + 12_345) % 39_999;
                q.push(t_next, 0);
                expected.push(t_next);
            }
        }
        assert_eq!(got, expected);
        assert!(t_next > 1_000_000, "{t_next}");
    }

    #[test]
    #[should_panic(expected = "outside the queue's window")]
    fn queue_refuses_a_push_beyond_its_span() {
        let mut q = TimeQueue::new(100);
        q.push(0, 0);
        let mut out = Vec::new();
        q.pop_bucket(&mut out);
        q.push(200, 1);
    }
}
