//! The `Sync` send rate: the state of a [`SendRate`] in atomic words behind a spin flag held for
//! one O(1) transition, so many threads or tasks share one rate in safe code and without a lock
//! from `std`.

use super::{Answer, Pace, SendRate, SendRateConfig, SendRateError};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Words the state takes: rate, next, last probe, step, last decrease, decreased, now, epoch,
/// first, started, five sent and five accepted counts.
const WORDS: usize = 20;

/// A send rate shared by every thread and task of a process: each call applies the transition of
/// [`SendRate`] atomically (SPEC.md §17.6). Counts are unsigned and saturating, so no interleaving
/// makes them negative. Absent on targets without 64-bit atomics; use `SendRate` there.
///
/// ```
/// use seeded_backoff::{Answer, AtomicSendRate, Pace, SendRateConfig};
/// let rate = AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap();
/// std::thread::scope(|s| {
///     for _ in 0..4 {
///         s.spawn(|| assert_eq!(rate.before_attempt(0), Pace::Send));
///     }
/// });
/// rate.on_answer(10, Answer::Throttled { hint_ms: 1000 });
/// assert_eq!(rate.before_attempt(10), Pace::Wait { ms: 1000 });
/// ```
#[derive(Debug)]
pub struct AtomicSendRate {
    config: SendRateConfig,
    busy: AtomicBool,
    words: [AtomicU64; WORDS],
}

impl AtomicSendRate {
    /// A shared send rate, off until the first throttle; the configuration's error if it is out
    /// of range.
    pub fn new(config: SendRateConfig) -> Result<AtomicSendRate, SendRateError> {
        let rate = SendRate::new(config)?;
        let words = to_words(&rate).map(AtomicU64::new);
        Ok(AtomicSendRate {
            config,
            busy: AtomicBool::new(false),
            words,
        })
    }

    /// The parameters.
    pub const fn config(&self) -> SendRateConfig {
        self.config
    }

    /// The allowed rate in thousandths of a request per second; 0 while off.
    pub fn rate_milli(&self) -> u32 {
        self.with(|r| r.rate_milli())
    }

    /// [`SendRate::before_attempt`], atomically.
    pub fn before_attempt(&self, now_ms: u64) -> Pace {
        self.with(|r| r.before_attempt(now_ms))
    }

    /// [`SendRate::on_answer`], atomically.
    pub fn on_answer(&self, now_ms: u64, answer: Answer) {
        self.with(|r| r.on_answer(now_ms, answer))
    }

    /// A copy of the state (for a test or a snapshot).
    pub fn load(&self) -> SendRate {
        self.with(|r| *r)
    }

    fn with<T>(&self, f: impl FnOnce(&mut SendRate) -> T) -> T {
        while self
            .busy
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
        let mut words = [0u64; WORDS];
        for (w, a) in words.iter_mut().zip(&self.words) {
            *w = a.load(Ordering::Relaxed);
        }
        let mut rate = from_words(self.config, &words);
        let out = f(&mut rate);
        for (w, a) in to_words(&rate).iter().zip(&self.words) {
            a.store(*w, Ordering::Relaxed);
        }
        self.busy.store(false, Ordering::Release);
        out
    }
}

fn to_words(r: &SendRate) -> [u64; WORDS] {
    let mut w = [0u64; WORDS];
    w[0] = u64::from(r.rate_milli);
    w[1] = r.next_us;
    w[2] = r.last_probe_ms;
    w[3] = u64::from(r.step_permille);
    w[4] = r.last_decrease_ms;
    w[5] = u64::from(r.decreased);
    w[6] = r.now_ms;
    w[7] = r.window.epoch;
    w[8] = r.window.first_ms;
    w[9] = u64::from(r.window.started);
    for i in 0..5 {
        w[10 + i] = u64::from(r.window.sent[i]);
        w[15 + i] = u64::from(r.window.accepted[i]);
    }
    w
}

fn narrow(w: u64) -> u32 {
    u32::try_from(w).unwrap_or(u32::MAX)
}

fn from_words(config: SendRateConfig, w: &[u64; WORDS]) -> SendRate {
    let mut window = super::Window::new();
    window.epoch = w[7];
    window.first_ms = w[8];
    window.started = w[9] != 0;
    for i in 0..5 {
        window.sent[i] = narrow(w[10 + i]);
        window.accepted[i] = narrow(w[15 + i]);
    }
    SendRate {
        config,
        rate_milli: narrow(w[0]),
        next_us: w[1],
        last_probe_ms: w[2],
        step_permille: narrow(w[3]),
        last_decrease_ms: w[4],
        decreased: w[5] != 0,
        now_ms: w[6],
        window,
    }
}
