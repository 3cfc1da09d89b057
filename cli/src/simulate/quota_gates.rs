//! The token buckets of the quota scenario, and what gates a process's attempts: the server's
//! bucket (nginx `limit_req`'s shape, the quota halved from 20 s to 40 s), the same bucket at a
//! fixed rate as a limiter the processes share (Bottleneck's clustering: a rate set by hand, kept
//! in a store), AWS adaptive mode's model, and the core's send rate.

use seeded_backoff::send_rate::{Answer, Pace, SendRate, SendRateConfig};

use super::aws_adaptive::AwsAdaptive;
use super::quota::{quota_at, HALVED_MS};
use super::strategy::Strategy;

/// A token bucket, in thousandths of a token so that a ms adds the rate's count: a tenth of a
/// second's worth of burst.
pub struct Bucket {
    rate: u32,
    /// Whether the rate follows the scenario's halving (the server's) or stays (a set limiter).
    halves: bool,
    level: u64,
    cap: u64,
    last_ms: u64,
}

impl Bucket {
    /// The server: the quota, halved from 20 s to 40 s.
    pub fn server(quota: u32) -> Bucket {
        Bucket::new(quota, true)
    }

    /// A limiter at a rate set once.
    pub fn fixed(rate: u32) -> Bucket {
        Bucket::new(rate, false)
    }

    fn new(rate: u32, halves: bool) -> Bucket {
        let cap = (rate as u64 / 10).max(1) * 1000;
        Bucket {
            rate,
            halves,
            level: cap,
            cap,
            last_ms: 0,
        }
    }

    fn rate_at(&self, t: u64) -> u32 {
        if self.halves {
            quota_at(self.rate, t)
        } else {
            self.rate
        }
    }

    fn fill(&mut self, t: u64) {
        while self.last_ms < t {
            // Fill up to the next change of the quota, or to `t`.
            let next = [HALVED_MS.0, HALVED_MS.1, t]
                .into_iter()
                .filter(|&c| c > self.last_ms)
                .min()
                .unwrap_or(t)
                .min(t);
            let fill = (next - self.last_ms) * self.rate_at(self.last_ms) as u64;
            self.level = (self.level + fill).min(self.cap);
            self.last_ms = next;
        }
    }

    /// Takes a token at `t`: `Ok`, or the ms at which one is there (a fixed rate only).
    pub fn take(&mut self, t: u64) -> Result<(), u64> {
        self.fill(t);
        if self.level >= 1000 {
            self.level -= 1000;
            Ok(())
        } else {
            let rate = self.rate_at(t).max(1) as u64;
            Err(t + (1000 - self.level).div_ceil(rate).max(1))
        }
    }

    /// Whether the server admits a request at `t`.
    pub fn admit(&mut self, t: u64) -> bool {
        self.take(t).is_ok()
    }
}

/// What gates a process's attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limiter {
    /// None: each request backs off on its own with this strategy.
    PerRequest(Strategy),
    /// The model of AWS adaptive mode, its retries on standard mode's backoff.
    Aws,
    /// The core's send rate with this configuration.
    Ours(SendRateConfig),
    /// A token bucket at this many requests a second, set once (with a tenth of a second's burst).
    Fixed(u32),
}

/// One limiter's state: a process's own, or one that processes share.
pub struct Gate {
    pub limiter: Limiter,
    aws: AwsAdaptive,
    ours: Option<SendRate>,
    fixed: Option<Bucket>,
}

impl Gate {
    pub fn new(limiter: Limiter) -> Gate {
        Gate {
            limiter,
            aws: AwsAdaptive::new(0.0),
            ours: match limiter {
                Limiter::Ours(c) => SendRate::new(c).ok(),
                _ => None,
            },
            fixed: match limiter {
                Limiter::Fixed(rate) => Some(Bucket::fixed(rate)),
                _ => None,
            },
        }
    }

    /// Asks the limiter for an attempt at `t`: `Ok` to send it, or when to ask again.
    pub fn ask(&mut self, t: u64) -> Result<(), u64> {
        match self.limiter {
            Limiter::PerRequest(_) => Ok(()),
            Limiter::Aws => self.aws.acquire(t as f64 / 1000.0).map_err(|ms| t + ms),
            Limiter::Ours(_) => match self.ours.as_mut().map(|r| r.before_attempt(t)) {
                Some(Pace::Wait { ms } | Pace::Refuse { ms }) => Err(t + ms.max(1) as u64),
                _ => Ok(()),
            },
            Limiter::Fixed(_) => self.fixed.as_mut().map_or(Ok(()), |b| b.take(t)),
        }
    }

    /// The answer at `t` to the attempt sent at `sent`.
    pub fn answer(&mut self, t: u64, sent: u64, accepted: bool) {
        match (self.limiter, self.ours.as_mut()) {
            (Limiter::Aws, _) => self.aws.on_response(t as f64 / 1000.0, !accepted),
            (Limiter::Ours(_), Some(rate)) => rate.on_answer_sent(
                t,
                sent,
                if accepted {
                    Answer::Accepted
                } else {
                    Answer::Throttled { hint_ms: 0 }
                },
            ),
            _ => {}
        }
    }
}
