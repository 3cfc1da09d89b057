//! The adaptive send rate (SPEC.md §17): one per process and server, shared by every request. It
//! learns the rate the server accepts from its answers and paces attempts, first attempts
//! included, just under it.
//!
//! The law: off until the first throttle; on a throttle, the rate becomes the accepted rate
//! measured over the last second (over at least [`SPAN_FLOOR_MS`]) less a margin (never below
//! half the rate before; once per flight: a throttle of an attempt sent before the last cut
//! answers the old rate and cuts nothing), and a server's
//! hint holds every attempt back until it passes, burst or not; without throttles the rate grows
//! every probe interval by a step that doubles from 1 % to 25 %. Attempts are spaced by the rate's interval
//! (a generic cell rate algorithm with a burst), so the server sees an even stream.
//! [`SendRate`] is for one thread; [`AtomicSendRate`] is `Sync`, present on targets with 64-bit
//! atomics.

#[cfg(target_has_atomic = "64")]
mod atomic;
mod config;
mod raw;
mod window;

#[cfg(target_has_atomic = "64")]
pub use atomic::AtomicSendRate;
pub use config::{SendRateConfig, SendRateError, MAX_RATE_MILLI};
pub use raw::SEND_RATE_WORDS;
use window::Window;
pub use window::SPAN_FLOOR_MS;

use crate::hint::ServerHint;
use crate::invalid::Invalid;
pub use crate::retry_rate::{LoopSendRate, NoSendRate, NotSent};

/// What the send rate answers before an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pace {
    /// Send the attempt now.
    Send,
    /// Wait this long, then ask again: nothing is reserved, so a rate cut while waiting applies
    /// to the waiting attempt too (reserved slots would go out at the old rate). Callers told to
    /// wait at once are told times one interval apart (a line), so they come back one by one.
    Wait {
        /// Milliseconds to wait.
        ms: u32,
    },
    /// Fail fast (the configuration's `fail_fast`): do not send; nothing is reserved. `ms` is the
    /// wait that sending would have taken (a gateway may pass it upstream as `Retry-After`).
    Refuse {
        /// Milliseconds until a slot would be free.
        ms: u32,
    },
}

/// What the server answered to an attempt, as the send rate reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// The server took the request (any answer but a throttle, errors included: it spent quota).
    Accepted,
    /// The server refused for rate (a 429, or a 503 with a hint); `hint_ms` is the time its
    /// `Retry-After` or rate-limit headers give (0 if none).
    Throttled {
        /// The server's hint in ms, 0 for none.
        hint_ms: u32,
    },
    /// No answer (a connection error or a timeout): it says nothing about the rate.
    NoAnswer,
}

impl Answer {
    /// The answer an HTTP status and the hint its headers give denote (SPEC.md §17.3): a 429 is a
    /// throttle, a 503 with a `Retry-After` or rate-limit hint too; anything else is accepted.
    ///
    /// ```
    /// use seeded_backoff::send_rate::Answer;
    /// use seeded_backoff::ServerHint;
    /// assert_eq!(Answer::from_http(429, None), Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(Answer::from_http(503, Some(ServerHint::RetryAfterMs(2000))), Answer::Throttled { hint_ms: 2000 });
    /// assert_eq!(Answer::from_http(503, None), Answer::Accepted);
    /// assert_eq!(Answer::from_http(200, None), Answer::Accepted);
    /// ```
    pub const fn from_http(status: u16, hint: Option<ServerHint>) -> Answer {
        let timed = matches!(
            hint,
            Some(ServerHint::RetryAfterMs(_) | ServerHint::RateLimitResetMs(_))
        );
        match (status, timed) {
            (429, _) | (503, true) => Answer::throttle(hint),
            _ => Answer::Accepted,
        }
    }

    /// The throttle a hint gives: its ms if it is a `Retry-After` or rate-limit one, else 0.
    pub(crate) const fn throttle(hint: Option<ServerHint>) -> Answer {
        match hint {
            Some(ServerHint::RetryAfterMs(ms) | ServerHint::RateLimitResetMs(ms)) => {
                Answer::Throttled { hint_ms: ms }
            }
            _ => Answer::Throttled { hint_ms: 0 },
        }
    }
}

/// How far past the time the rate lets the next attempt go a waiting caller may be told to come
/// back, in ms: a line that reaches further starts again at that time, so the places of callers
/// that gave up or came back early leave the rate idle for at most this long (SPEC.md §17.4
/// step 5).
pub const LINE_MS: u64 = 1000;

/// Whole ms from `now_us` to `then_us`, rounded up, at most u32's maximum.
fn ms_until(now_us: u64, then_us: u64) -> u32 {
    u32::try_from(then_us.saturating_sub(now_us).div_ceil(1000)).unwrap_or(u32::MAX)
}

/// An adaptive send rate for one thread (SPEC.md §17): ask [`before_attempt`](Self::before_attempt)
/// before every attempt and report each answer with [`on_answer`](Self::on_answer). Clock readings
/// are milliseconds on any monotonic clock; one earlier than a previous reading counts as that one.
///
/// ```
/// use seeded_backoff::send_rate::{Answer, Pace, SendRate, SendRateConfig};
/// let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
/// assert_eq!(rate.before_attempt(0), Pace::Send); // off until the first throttle
/// for t in 0..100 {
///     rate.on_answer(t * 10, Answer::Accepted); // 100 accepted in 1 s
/// }
/// rate.on_answer(1000, Answer::Throttled { hint_ms: 0 });
/// assert_eq!(rate.rate_milli(), 98_000); // 100/s less 2 %
/// assert_eq!(rate.before_attempt(1000), Pace::Send);
/// assert_eq!(rate.before_attempt(1000), Pace::Send); // the default burst of 2
/// assert_eq!(rate.before_attempt(1000), Pace::Wait { ms: 11 }); // 1/98 s later: ask again then
/// assert_eq!(rate.before_attempt(1000), Pace::Wait { ms: 21 }); // the next caller in line
/// assert_eq!(rate.before_attempt(1011), Pace::Send);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SendRate {
    config: SendRateConfig,
    /// The allowed rate in thousandths of a request per second; 0 while off.
    rate_milli: u32,
    /// When the next attempt may go, in µs (the cell rate algorithm's theoretical arrival time).
    next_us: u64,
    /// Until when a server's hint holds every attempt, in µs: apart from `next_us`, so the burst
    /// tolerance never lets an attempt go inside a hint.
    hold_us: u64,
    /// The end of the line of waiting callers, in µs: the time the latest one was told to come
    /// back, plus one interval (SPEC.md §17.4 step 5).
    line_us: u64,
    last_probe_ms: u64,
    step_permille: u32,
    last_decrease_ms: u64,
    decreased: bool,
    now_ms: u64,
    window: Window,
}

impl SendRate {
    /// A send rate, off until the first throttle; the configuration's error if it is out of range.
    pub const fn new(config: SendRateConfig) -> Result<SendRate, Invalid<SendRateError>> {
        match config.check() {
            Ok(config) => Ok(SendRate {
                config,
                rate_milli: 0,
                next_us: 0,
                hold_us: 0,
                line_us: 0,
                last_probe_ms: 0,
                step_permille: config.probe_first_permille,
                last_decrease_ms: 0,
                decreased: false,
                now_ms: 0,
                window: Window::new(),
            }),
            Err(e) => Err(e),
        }
    }

    /// The parameters.
    pub const fn config(&self) -> SendRateConfig {
        self.config
    }

    /// The allowed rate in thousandths of a request per second; 0 while off (no throttle yet).
    pub const fn rate_milli(&self) -> u32 {
        self.rate_milli
    }

    /// Whether an attempt may go at `now_ms` (SPEC.md §17.4): [`Pace::Send`], [`Pace::Wait`] with
    /// the ms after which to ask again (a server's hint first, then the spacing with its burst), or
    /// in fail-fast mode [`Pace::Refuse`]; neither changes the state but the clock.
    pub fn before_attempt(&mut self, now_ms: u64) -> Pace {
        let now = self.tick(now_ms);
        self.probe(now);
        let now_us = now.saturating_mul(1000);
        let interval = self.interval_us();
        let due_us = if now_us < self.hold_us {
            self.hold_us
        } else {
            let tolerance = interval.saturating_mul(u64::from(self.config.burst.saturating_sub(1)));
            let allowed_us = self.next_us.saturating_sub(tolerance);
            if now_us >= allowed_us {
                self.next_us = self.next_us.max(now_us).saturating_add(interval);
                self.window.add_sent();
                return Pace::Send;
            }
            allowed_us
        };
        if self.config.fail_fast {
            return Pace::Refuse {
                ms: ms_until(now_us, due_us),
            };
        }
        // The line: each waiting caller gets its own time, one interval after the one before,
        // so callers come back one by one rather than together (SPEC.md §17.4 step 5). A line
        // behind `due` is empty; one more than LINE_MS past it restarts at `due` (its places are
        // mostly callers that came back and left), so the spacing is never lost to a clamp.
        let back_us = if (due_us..=due_us.saturating_add(LINE_MS * 1000)).contains(&self.line_us) {
            self.line_us
        } else {
            due_us
        };
        self.line_us = back_us.saturating_add(interval);
        Pace::Wait {
            ms: ms_until(now_us, back_us),
        }
    }

    /// Reports the server's answer to an attempt, at `now_ms` (SPEC.md §17.5), as if the attempt
    /// was sent now: a throttle cuts the rate (unless within `guard_ms` of the last cut). Use
    /// [`on_answer_sent`](Self::on_answer_sent) when the attempt's send time is known.
    pub fn on_answer(&mut self, now_ms: u64, answer: Answer) {
        self.answer(now_ms, None, answer);
    }

    /// Reports the server's answer, at `now_ms`, to an attempt sent at `sent_ms` (SPEC.md §17.5):
    /// a throttle of an attempt sent before the last decrease answers the old rate, so it sets
    /// the hold from its hint but does not cut the rate again (one cut per flight of attempts).
    ///
    /// ```
    /// use seeded_backoff::send_rate::{Answer, SendRate, SendRateConfig};
    /// let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    /// for t in 0..100 {
    ///     rate.on_answer(t * 10, Answer::Accepted); // 100 accepted in 1 s
    /// }
    /// rate.on_answer(1000, Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(rate.rate_milli(), 98_000); // 100/s less 2 %
    /// // Sent at 990, before the cut at 1000: the old rate's answer, no second cut.
    /// rate.on_answer_sent(1010, 990, Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(rate.rate_milli(), 98_000);
    /// // Sent at 1000, with the cut: a throttle of the new rate cuts it, from 98/s (the 100
    /// // accepted over 1020 ms read 98.04/s, not less) by 2 %.
    /// rate.on_answer_sent(1020, 1000, Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(rate.rate_milli(), 96_040);
    /// ```
    pub fn on_answer_sent(&mut self, now_ms: u64, sent_ms: u64, answer: Answer) {
        self.answer(now_ms, Some(sent_ms), answer);
    }

    fn answer(&mut self, now_ms: u64, sent_ms: Option<u64>, answer: Answer) {
        let now = self.tick(now_ms);
        match answer {
            Answer::Accepted => {
                self.window.add_accepted();
                self.probe(now);
            }
            Answer::Throttled { hint_ms } => self.throttled(now, sent_ms.unwrap_or(now), hint_ms),
            Answer::NoAnswer => {}
        }
    }

    /// This state (a fleet's) with the attempts sent and answers accepted that `alone` counted
    /// beyond `since` added to its window (SPEC.md §19.6): its clock first moved to `alone`'s
    /// latest reading, so the newest of them are kept. Nothing else of `alone` is taken: the
    /// fleet's rate and schedule stand.
    pub(crate) fn with_counts_beyond(&self, since: &SendRate, alone: &SendRate) -> SendRate {
        let mut merged = *self;
        if alone.window.started {
            merged.tick(alone.now_ms);
            merged.window.add_beyond(&since.window, &alone.window);
        }
        merged
    }

    fn tick(&mut self, now_ms: u64) -> u64 {
        self.now_ms = self.now_ms.max(now_ms);
        self.window.roll(self.now_ms);
        self.now_ms
    }

    fn interval_us(&self) -> u64 {
        match self.rate_milli {
            0 => 0,
            r => 1_000_000_000u64.checked_div(u64::from(r)).unwrap_or(0),
        }
    }

    /// Grows the rate one step if a probe interval passed and the last second's sends used at
    /// least half of it (an idle client learns nothing, so its rate stays).
    fn probe(&mut self, now: u64) {
        if self.rate_milli == 0
            || now
                < self
                    .last_probe_ms
                    .saturating_add(u64::from(self.config.probe_ms))
        {
            return;
        }
        self.last_probe_ms = now;
        if self.window.sent_rate(now) < self.rate_milli / 2 {
            return;
        }
        let grow = (u64::from(self.rate_milli) * u64::from(self.step_permille) / 1000).max(1);
        let rate = u64::from(self.rate_milli).saturating_add(grow);
        self.rate_milli = u32::try_from(rate)
            .unwrap_or(u32::MAX)
            .min(self.config.max_rate_milli);
        self.step_permille = self
            .step_permille
            .saturating_mul(2)
            .min(self.config.probe_max_permille);
    }

    fn throttled(&mut self, now: u64, sent: u64, hint_ms: u32) {
        let hold_ms = hint_ms.min(self.config.max_hold_ms);
        if hold_ms > 0 {
            let until_us = now.saturating_add(u64::from(hold_ms)).saturating_mul(1000);
            self.hold_us = self.hold_us.max(until_us);
        }
        // An attempt sent before the last decrease went out at the old rate: its throttle is
        // the same news again (the first flight of a cold start would cut once per attempt).
        if self.decreased
            && (sent < self.last_decrease_ms
                || now
                    < self
                        .last_decrease_ms
                        .saturating_add(u64::from(self.config.guard_ms)))
        {
            return;
        }
        let current = match self.rate_milli {
            0 => self
                .window
                .sent_rate(now)
                .max(self.window.accepted_rate(now)),
            r => r,
        };
        let base = current.min(self.window.accepted_rate(now)).max(current / 2);
        let cut =
            u64::from(base) * u64::from(1000u32.saturating_sub(self.config.margin_permille)) / 1000;
        // max then min, not clamp: clamp asserts min <= max, which the checked config holds
        // but the compiler cannot see.
        let rate = cut
            .max(u64::from(self.config.min_rate_milli))
            .min(u64::from(self.config.max_rate_milli));
        self.rate_milli = u32::try_from(rate).unwrap_or(self.config.max_rate_milli);
        self.step_permille = self.config.probe_first_permille;
        self.last_probe_ms = now;
        self.last_decrease_ms = now;
        self.decreased = true;
    }
}
