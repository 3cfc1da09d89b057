//! The run's gate: a send rate (SPEC.md §17) consulted before every attempt and told every answer
//! (SPEC.md §15.2). The send rate is one per process and server, shared by many runs, so a run
//! never owns it: each paced event borrows it as a [`SendGate`].

use core::cell::Cell;

use super::{Action, Outcome, Phase, Run, RunError};
use crate::backoff::GiveUpReason;
use crate::hint::ServerHint;
use crate::policy::Policy;
use crate::send_rate::{Answer, Pace, SendRate};

/// A send rate as a run sees it: asked before each attempt, told each answer. Implemented by
/// [`AtomicSendRate`](crate::send_rate::AtomicSendRate) (shared by threads and tasks) and by
/// `Cell<SendRate>` (shared by the runs of one thread; a C or Python binding holds its
/// [`SendRate`] in a cell for the length of one event).
pub trait SendGate {
    /// [`SendRate::before_attempt`].
    fn before_attempt(&self, now_ms: u64) -> Pace;
    /// [`SendRate::on_answer_sent`]: the answer, at `now_ms`, to an attempt sent at `sent_ms`.
    fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer);
}

impl SendGate for Cell<SendRate> {
    fn before_attempt(&self, now_ms: u64) -> Pace {
        let mut rate = self.get();
        let pace = rate.before_attempt(now_ms);
        self.set(rate);
        pace
    }

    fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer) {
        let mut rate = self.get();
        rate.on_answer_sent(now_ms, sent_ms, answer);
        self.set(rate);
    }
}

#[cfg(target_has_atomic = "64")]
impl SendGate for crate::send_rate::AtomicSendRate {
    fn before_attempt(&self, now_ms: u64) -> Pace {
        crate::send_rate::AtomicSendRate::before_attempt(self, now_ms)
    }

    fn on_answer_sent(&self, now_ms: u64, sent_ms: u64, answer: Answer) {
        crate::send_rate::AtomicSendRate::on_answer_sent(self, now_ms, sent_ms, answer)
    }
}

/// The answer an outcome tells the send rate when the loop does not know the response's status
/// (SPEC.md §15.2): a success or a permanent error was an answer that spent quota; a retryable
/// error with a `Retry-After` or rate-limit hint is a throttle; anything else, a timeout, an
/// error without a hint or a failure while offline, says nothing about the rate.
///
/// ```
/// use seeded_backoff::run::answer_of;
/// use seeded_backoff::send_rate::Answer;
/// use seeded_backoff::{FailureKind, Outcome, ServerHint};
/// let busy = Outcome::Retryable { hint: Some(ServerHint::RetryAfterMs(2_000)), failure_kind: FailureKind::Error };
/// assert_eq!(answer_of(busy), Answer::Throttled { hint_ms: 2_000 });
/// assert_eq!(answer_of(Outcome::Success), Answer::Accepted);
/// assert_eq!(answer_of(Outcome::Offline), Answer::NoAnswer);
/// ```
pub const fn answer_of(outcome: Outcome) -> Answer {
    match outcome {
        Outcome::Success | Outcome::Permanent => Answer::Accepted,
        Outcome::Retryable {
            hint: Some(ServerHint::RetryAfterMs(ms) | ServerHint::RateLimitResetMs(ms)),
            failure_kind: crate::budget::FailureKind::Error,
        } => Answer::Throttled { hint_ms: ms },
        Outcome::Retryable { .. } | Outcome::Offline => Answer::NoAnswer,
    }
}

impl Run {
    /// The clock reading a paced event would use, without changing the run: the send rate needs
    /// one ([`RunError::NoClock`]).
    fn paced_now(&self, now_ms: Option<u64>) -> Result<u64, RunError> {
        match (self.phase, now_ms) {
            (Phase::Ready, Some(now)) => Ok(now),
            (_, now) if self.clock => Ok(now.map_or(self.now_ms, |n| self.now_ms.max(n))),
            _ => Err(RunError::NoClock),
        }
    }

    /// [`Run::start`] behind a send rate: the attempt goes only when `rate` lets it (SPEC.md
    /// §15.2). A wait is [`Action::Wait`] (then [`Run::wake_paced`]), a fail-fast refusal a
    /// give-up with [`GiveUpReason::Throttled`], a wait past `max_elapsed_ms` one with
    /// [`GiveUpReason::Deadline`]. Needs a clock reading.
    ///
    /// ```
    /// use core::cell::Cell;
    /// use seeded_backoff::send_rate::{Answer, SendRate, SendRateConfig};
    /// use seeded_backoff::{Action, Policy, Run};
    /// let p = Policy::google();
    /// let rate = Cell::new(SendRate::new(SendRateConfig::DEFAULT).unwrap());
    /// let mut run = Run::new(&p, 7);
    /// assert_eq!(run.start_paced(&p, Some(0), &rate), Ok(Action::Attempt { attempt: 1 }));
    /// // A throttle with a 2 s hint holds every attempt of every run sharing the rate.
    /// let mut other = Run::new(&p, 8);
    /// rate.set({ let mut r = rate.get(); r.on_answer(10, Answer::Throttled { hint_ms: 2_000 }); r });
    /// assert_eq!(other.start_paced(&p, Some(10), &rate), Ok(Action::Wait { delay_ms: 2_000 }));
    /// assert_eq!(other.wake_paced(&p, Some(2_010), &rate), Ok(Action::Attempt { attempt: 1 }));
    /// ```
    pub fn start_paced(
        &mut self,
        policy: &Policy,
        now_ms: Option<u64>,
        rate: &dyn SendGate,
    ) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Ready, RunError::Start)?;
        let now = self.paced_now(now_ms)?;
        self.tick(Some(now));
        // A startup wait comes first; the wake after it asks the send rate (SPEC.md §15.3).
        Ok(match self.startup_wait() {
            Some(wait) => wait,
            None => self.gate(policy, now, rate),
        })
    }

    /// [`Run::wake`] behind a send rate, as [`Run::start_paced`].
    pub fn wake_paced(
        &mut self,
        policy: &Policy,
        now_ms: Option<u64>,
        rate: &dyn SendGate,
    ) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Sleeping, RunError::Wake)?;
        let now = self.paced_now(now_ms)?;
        self.tick(Some(now));
        Ok(self.gate(policy, now, rate))
    }

    /// Asks the send rate whether the next attempt goes: the wait spends no retry and no budget.
    /// Before the first attempt it sets the window of a re-drawn wait to the level, as a pause
    /// before the start does; later it leaves the last retry's delay there.
    fn gate(&mut self, policy: &Policy, now: u64, rate: &dyn SendGate) -> Action {
        match rate.before_attempt(now) {
            Pace::Send => self.attempt_next(),
            Pace::Refuse { .. } => self.give_up(Some(GiveUpReason::Throttled)),
            Pace::Wait { ms } => {
                let limit = u64::from(policy.max_elapsed_ms());
                let elapsed = self.elapsed_ms().unwrap_or(0);
                if limit > 0 && elapsed.saturating_add(u64::from(ms)) > limit {
                    return self.give_up(Some(GiveUpReason::Deadline));
                }
                if self.phase == Phase::Ready {
                    self.window_ms = self.backoff.level();
                }
                self.phase = Phase::Sleeping;
                Action::Wait { delay_ms: ms }
            }
        }
    }

    /// [`Run::outcome`], then the attempt's answer told to the send rate: `answer`, or when the
    /// loop does not know the response, [`answer_of`] the outcome, as the answer to an attempt
    /// sent at the run's clock before this event (the start or wake that admitted it), so a
    /// throttle of an attempt sent before the rate's last cut does not cut it again. A throttled
    /// retry waits only the server's hint, not its backoff: the send rate paces it (SPEC.md
    /// §15.2). Needs a clock reading; a refused event tells the send rate nothing.
    ///
    /// ```
    /// use core::cell::Cell;
    /// use seeded_backoff::send_rate::{Answer, SendRate, SendRateConfig};
    /// use seeded_backoff::{Action, FailureKind, Outcome, Policy, Run};
    /// let p = Policy::google();
    /// let rate = Cell::new(SendRate::new(SendRateConfig::DEFAULT).unwrap());
    /// let mut run = Run::new(&p, 7);
    /// run.start_paced(&p, Some(0), &rate).unwrap();
    /// let throttled = Some(Answer::Throttled { hint_ms: 0 });
    /// let busy = Outcome::Retryable { hint: None, failure_kind: FailureKind::Error };
    /// let retry = run.outcome_paced(&p, busy, throttled, Some(5), None, &rate);
    /// assert_eq!(retry, Ok(Action::Retry { attempt: 1, delay_ms: 0 }));
    /// // The wake asks the rate the throttle turned on.
    /// assert!(matches!(run.wake_paced(&p, Some(5), &rate), Ok(Action::Wait { .. } | Action::Attempt { .. })));
    /// ```
    pub fn outcome_paced(
        &mut self,
        policy: &Policy,
        outcome: Outcome,
        answer: Option<Answer>,
        now_ms: Option<u64>,
        budget: Option<&dyn crate::budget::RetryGate>,
        rate: &dyn SendGate,
    ) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Attempting, RunError::Outcome)?;
        let now = self.paced_now(now_ms)?;
        // In `attempting` the last event was the start or wake that admitted the attempt (a pause
        // or resume is refused there), so the clock still reads when the attempt went.
        let sent = self.now_ms;
        let answer = answer.unwrap_or(answer_of(outcome));
        let action = self.outcome_behind_rate(policy, outcome, Some(answer), Some(now), budget)?;
        rate.on_answer_sent(now, sent, answer);
        Ok(action)
    }

    /// [`Run::outcome`] of a run whose attempts a send rate paces outside it (a tower
    /// `SendRateLayer` asks the rate and tells it each answer): a throttled retry waits only the
    /// server's hint, as in [`Run::outcome_paced`], and no rate is told anything here.
    ///
    /// ```
    /// use seeded_backoff::send_rate::Answer;
    /// use seeded_backoff::{Action, FailureKind, Outcome, Policy, Run};
    /// let p = Policy::google();
    /// let mut run = Run::new(&p, 7);
    /// run.start(None).unwrap();
    /// let busy = Outcome::Retryable { hint: None, failure_kind: FailureKind::Error };
    /// let throttled = Some(Answer::Throttled { hint_ms: 0 });
    /// assert_eq!(run.outcome_behind_rate(&p, busy, throttled, None, None), Ok(Action::Retry { attempt: 1, delay_ms: 0 }));
    /// ```
    pub fn outcome_behind_rate(
        &mut self,
        policy: &Policy,
        outcome: Outcome,
        answer: Option<Answer>,
        now_ms: Option<u64>,
        budget: Option<&dyn crate::budget::RetryGate>,
    ) -> Result<Action, RunError> {
        let action = self.outcome(policy, outcome, now_ms, budget)?;
        Ok(self.paced_retry(action, answer.unwrap_or(answer_of(outcome))))
    }

    /// SPEC.md §15.2's throttled retry: the throttle has just cut the shared rate, which paces
    /// this retry with every other attempt; the request's own backoff on top would leave the
    /// quota idle, so only the server's hint is waited.
    fn paced_retry(&mut self, action: Action, answer: Answer) -> Action {
        match (action, answer) {
            (Action::Retry { attempt, delay_ms }, Answer::Throttled { hint_ms }) => {
                let delay_ms = delay_ms.min(hint_ms);
                self.window_ms = delay_ms;
                Action::Retry { attempt, delay_ms }
            }
            _ => action,
        }
    }
}
