//! A model of the AWS SDKs' "adaptive" retry mode, written from its documented constants (botocore
//! `retries/adaptive.py`, `bucket.py`, `throttling.py`; the same numbers in `@smithy/util-retry` and
//! aws-sdk-go-v2), for the `quota` scenario to compare with the core's send rate. In seconds and
//! `f64`, as the SDKs compute it: the model is a peer's behaviour, not this project's rule.
//!
//! - Every attempt takes a token from a bucket; the gate is off until the first throttle.
//! - Each response updates the measured rate: responses counted in 0.5 s buckets, and when a new
//!   bucket starts, `count / (bucket − last bucket)` smoothed 0.8 into the previous measure.
//! - A throttle: the rate used is the measured rate the first time, then min(measured, the bucket's
//!   fill rate); CUBIC sets `w_max` to it, `K = ∛(w_max·(1 − β) / C)`, the new rate is `β·rate`.
//! - A success: the new rate is `C·(t − t_fail − K)³ + w_max`.
//! - Either way the bucket fills at min(new rate, 2 × measured), at least 0.5 tokens/s, and holds
//!   max(that rate, 1) tokens.

/// CUBIC's multiplicative decrease.
pub const BETA: f64 = 0.7;
/// CUBIC's scale constant `C`.
pub const SCALE: f64 = 0.4;
/// The weight of the newest bucket's rate in the measured rate.
pub const SMOOTHING: f64 = 0.8;
/// The measured rate's bucket, s.
pub const BUCKET_S: f64 = 0.5;
/// The lowest fill rate, tokens/s.
pub const MIN_FILL: f64 = 0.5;
/// The fill rate never exceeds this many times the measured rate.
pub const MAX_RATE_ADJUST: f64 = 2.0;
/// CUBIC's `w_max` before any throttle, and the bucket's first rate.
const STARTING_RATE: f64 = 0.5;

/// One client's adaptive rate limiter (one is shared by every request of the process).
#[derive(Clone, Debug)]
pub struct AwsAdaptive {
    enabled: bool,
    measured: f64,
    last_bucket: f64,
    count: u32,
    w_max: f64,
    k: f64,
    last_fail: f64,
    fill_rate: f64,
    max_capacity: f64,
    capacity: f64,
    last_refill: f64,
}

impl AwsAdaptive {
    /// A limiter created at `now_s`, off until its first throttle.
    pub fn new(now_s: f64) -> AwsAdaptive {
        let mut a = AwsAdaptive {
            enabled: false,
            measured: 0.0,
            last_bucket: now_s.floor(),
            count: 0,
            w_max: STARTING_RATE,
            k: 0.0,
            last_fail: now_s,
            fill_rate: STARTING_RATE,
            max_capacity: 1.0,
            capacity: 0.0,
            last_refill: now_s,
        };
        a.k = a.zero_point();
        a
    }

    fn zero_point(&self) -> f64 {
        (self.w_max * (1.0 - BETA) / SCALE).cbrt()
    }

    /// The bucket's fill rate, tokens/s (what the SDKs call its max rate).
    #[cfg(test)]
    pub fn fill_rate(&self) -> f64 {
        self.fill_rate
    }

    /// The measured rate, responses/s.
    #[cfg(test)]
    pub fn measured(&self) -> f64 {
        self.measured
    }

    /// Whether the gate is on (a throttle was seen).
    #[cfg(test)]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    fn refill(&mut self, now_s: f64) {
        let dt = (now_s - self.last_refill).max(0.0);
        self.capacity = (self.capacity + dt * self.fill_rate).min(self.max_capacity);
        self.last_refill = self.last_refill.max(now_s);
    }

    /// Before an attempt: `Ok` when it may go (a token taken), else how long to sleep, in ms,
    /// before asking again (until one token has filled).
    pub fn acquire(&mut self, now_s: f64) -> Result<(), u64> {
        if !self.enabled {
            return Ok(());
        }
        self.refill(now_s);
        if self.capacity >= 1.0 {
            self.capacity -= 1.0;
            return Ok(());
        }
        let wait_s = (1.0 - self.capacity) / self.fill_rate;
        Err(((wait_s * 1000.0).ceil() as u64).max(1))
    }

    /// Counts a response at `now_s` and returns the measured rate.
    fn record(&mut self, now_s: f64) -> f64 {
        let bucket = (now_s / BUCKET_S).floor() * BUCKET_S;
        self.count += 1;
        if bucket > self.last_bucket {
            let current = self.count as f64 / (bucket - self.last_bucket);
            self.measured = current * SMOOTHING + self.measured * (1.0 - SMOOTHING);
            self.count = 0;
            self.last_bucket = bucket;
        }
        self.measured
    }

    /// After a response at `now_s`: a throttle (429) or anything else.
    pub fn on_response(&mut self, now_s: f64, throttled: bool) {
        let measured = self.record(now_s);
        let new_rate = if throttled {
            let rate = if self.enabled {
                measured.min(self.fill_rate)
            } else {
                measured
            };
            self.enabled = true;
            self.w_max = rate;
            self.k = self.zero_point();
            self.last_fail = now_s;
            rate * BETA
        } else {
            SCALE * (now_s - self.last_fail - self.k).powi(3) + self.w_max
        };
        self.set_rate(now_s, new_rate.min(MAX_RATE_ADJUST * measured));
    }

    fn set_rate(&mut self, now_s: f64, rate: f64) {
        self.refill(now_s);
        self.fill_rate = rate.max(MIN_FILL);
        self.max_capacity = rate.max(1.0);
        self.capacity = self.capacity.min(self.max_capacity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    /// 100 successes a second, one every 10 ms from `from_s + 0.005` s, before `until_s`.
    fn steady(a: &mut AwsAdaptive, from_s: f64, until_s: f64) {
        let mut i = 0;
        loop {
            let t = from_s + 0.005 + i as f64 * 0.01;
            if t >= until_s {
                return;
            }
            a.on_response(t, false);
            i += 1;
        }
    }

    // By hand from the constants: a steady 100/s puts 50 responses in each 0.5 s bucket. The first
    // response of a new bucket closes the last one and counts in it: the first bucket closes with
    // 51 (102/s), the measure moves 0.8 of the way from 0: 81.6; the next closes with 50 (the
    // count restarted): 0.8·100 + 0.2·81.6 = 96.32.
    #[test]
    fn the_measured_rate_is_smoothed_08_over_half_second_buckets() {
        let mut a = AwsAdaptive::new(0.0);
        steady(&mut a, 0.0, 0.5);
        assert_eq!(a.measured(), 0.0);
        a.on_response(0.505, false);
        assert!(close(a.measured(), 81.6), "{}", a.measured());
        steady(&mut a, 0.51, 1.0);
        assert!(close(a.measured(), 81.6), "{}", a.measured());
        a.on_response(1.005, false);
        assert!(close(a.measured(), 96.32), "{}", a.measured());
        assert!(!a.enabled());
        assert_eq!(
            a.acquire(1.005),
            Ok(()),
            "the gate is off before a throttle"
        );
    }

    // The sawtooth: a throttle cuts the rate to 0.7 of the measured rate; CUBIC climbs back to it
    // exactly K = ∛(w_max · 0.3 / 0.4) s after the throttle; a throttle there cuts to 0.7 again.
    #[test]
    fn a_throttle_cuts_to_07_and_cubic_regains_w_max_after_k() {
        let mut a = AwsAdaptive::new(0.0);
        steady(&mut a, 0.0, 2.0);
        // The buckets closed at 0.5, 1.0, 1.5 s: 81.6, 96.32, 0.8·100 + 0.2·96.32 = 99.264; the
        // throttle at 2.0 s closes the fourth (49 + itself): w_max = 80 + 0.2·99.264 = 99.8528.
        assert!(close(a.measured(), 99.264), "{}", a.measured());
        a.on_response(2.0, true);
        let w_max = 99.8528;
        assert!(close(a.measured(), w_max), "{}", a.measured());
        assert!(a.enabled());
        assert!(close(a.fill_rate(), 0.7 * w_max), "{}", a.fill_rate());
        // Successes go on at 100/s (the measure stays near 100, so 2 × measured never binds).
        let k = (w_max * 0.3 / 0.4).cbrt();
        let mut half = a.clone();
        steady(&mut a, 2.0, 2.0 + k);
        a.on_response(2.0 + k, false);
        assert!(close(a.fill_rate(), w_max), "{} vs {w_max}", a.fill_rate());
        // Halfway, K/2 after the throttle: w_max − 0.4·(K/2)³ = w_max − 0.3·w_max/8.
        steady(&mut half, 2.0, 2.0 + k / 2.0);
        half.on_response(2.0 + k / 2.0, false);
        let expected = w_max - 0.3 * w_max / 8.0;
        assert!(
            close(half.fill_rate(), expected),
            "{} vs {expected}",
            half.fill_rate()
        );
        // A second throttle while on: min(measured ≈ 100, fill rate = w_max) = w_max, cut 0.7.
        assert!(a.measured() > w_max, "{}", a.measured());
        a.on_response(2.0 + k + 0.001, true);
        assert!(close(a.fill_rate(), 0.7 * w_max), "{}", a.fill_rate());
    }

    // The bucket holds max(rate, 1) tokens and fills at the rate, floor 0.5/s.
    #[test]
    fn the_bucket_holds_its_rate_in_tokens_with_a_half_token_floor() {
        let mut a = AwsAdaptive::new(0.0);
        steady(&mut a, 0.0, 2.0);
        a.on_response(2.0, true);
        let rate: f64 = 0.7 * 99.8528; // 69.89696 tokens/s, as above
        while a.acquire(2.0).is_ok() {}
        // 10 s later it is full: 69.897 tokens, so 69 go at once and the 70th waits for the
        // missing 0.103 token: 0.103 / 69.897 s, 1.5 ms, rounded up to 2.
        let mut taken = 0;
        while a.acquire(12.0).is_ok() {
            taken += 1;
        }
        assert_eq!(taken, 69);
        let wait_ms = ((1.0 - (rate - 69.0)) / rate * 1000.0).ceil() as u64;
        assert_eq!(wait_ms, 2);
        assert_eq!(a.acquire(12.0), Err(wait_ms));
        // A throttle with nothing measured: rate 0.7 · 0 = 0, so the fill rate is the 0.5/s floor
        // and the bucket holds 1; it holds the 0.05 token that filled in 0.1 s at the starting
        // 0.5/s, so the first token is (1 − 0.05) / 0.5 = 1.9 s away.
        let mut z = AwsAdaptive::new(0.0);
        z.on_response(0.1, true);
        assert_eq!(z.fill_rate(), MIN_FILL);
        assert_eq!(z.acquire(0.1), Err(1900));
    }
}
