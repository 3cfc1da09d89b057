//! The `Sync` send rate: the state of a [`SendRate`] in atomic words behind a spin flag held for
//! one O(1) transition, so many threads or tasks share one rate in safe code and without a lock
//! from `std`.

use super::raw::{from_words_unchecked, SEND_RATE_WORDS as WORDS};
use super::{Answer, Pace, SendRate, SendRateConfig, SendRateError};
use crate::invalid::Invalid;
// The loom model check (core/tests/loom_send_rate.rs, RUSTFLAGS="--cfg seeded_backoff_loom")
// swaps in loom's atomics; every other build uses core's.
#[cfg(not(seeded_backoff_loom))]
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(seeded_backoff_loom)]
use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A send rate shared by every thread and task of a process: each call applies the transition of
/// [`SendRate`] atomically (SPEC.md §17.6). Counts are unsigned and saturating, so no interleaving
/// makes them negative. Absent on targets without 64-bit atomics; use `SendRate` there.
///
/// ```
/// use seeded_backoff::send_rate::{Answer, AtomicSendRate, Pace, SendRateConfig};
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
    pub fn new(config: SendRateConfig) -> Result<AtomicSendRate, Invalid<SendRateError>> {
        let rate = SendRate::new(config)?;
        let words = rate.to_words().map(AtomicU64::new);
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

    /// [`SendRate::on_answer_sent`], atomically: the answer to an attempt sent at `sent_ms`.
    ///
    /// ```
    /// use seeded_backoff::send_rate::{Answer, AtomicSendRate, SendRateConfig};
    /// let rate = AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap();
    /// assert_eq!(rate.before_attempt(0), seeded_backoff::send_rate::Pace::Send);
    /// // The first throttle, at 5: 1 sent over the 100 ms floor is 10/s, none accepted, so half
    /// // of it (5/s) less 2 %.
    /// rate.on_answer_sent(5, 0, Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(rate.rate_milli(), 4_900);
    /// // Another attempt sent at 0, before that cut, answered after it: no second cut.
    /// rate.on_answer_sent(20, 0, Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(rate.rate_milli(), 4_900);
    /// ```
    pub fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer) {
        self.with(|r| r.on_answer_sent(now_ms, sent_ms, answer))
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
            // Under loom a spin must yield, or the model explores the spinning thread forever.
            #[cfg(seeded_backoff_loom)]
            loom::thread::yield_now();
            #[cfg(not(seeded_backoff_loom))]
            core::hint::spin_loop();
        }
        let mut words = [0u64; WORDS];
        for (w, a) in words.iter_mut().zip(&self.words) {
            *w = a.load(Ordering::Relaxed);
        }
        let mut rate = from_words_unchecked(self.config, &words);
        let out = f(&mut rate);
        for (w, a) in rate.to_words().iter().zip(&self.words) {
            a.store(*w, Ordering::Relaxed);
        }
        self.busy.store(false, Ordering::Release);
        out
    }
}
