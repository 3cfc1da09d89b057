//! One call's whole retry run as a state machine that does no I/O (SPEC.md §15).
//!
//! The step ([`Backoff::next_delay_with`]) decides one delay; everything around it, attempt
//! numbers, the elapsed clock without paused time, the budget's failure kind and its refund, the
//! re-drawn wait after a pause (§13), a failure while offline that spends no retry, the retry
//! event and the give-up, is the run's. Each binding's loop is then a shell, as with `quinn-proto`
//! or `rustls`: it performs the [`Action`] the run answers (call, sleep, wait for a pause to end)
//! and reports what happened as the next event. Every binding asks this one machine, so their
//! loops cannot drift apart.
//!
//! Clock readings are optional: a run whose first event carries a `now_ms` counts the time since
//! then against `max_elapsed_ms`, attempts included; without one the sum of the delays stands in.
//! A reading earlier than the last one counts as no time passing.

mod event;
mod pace;
mod raw;
pub(crate) mod snapshot;

pub use event::{Action, Outcome, PauseReason, RunError};
pub use pace::{answer_of, SendGate};
pub use raw::RawRun;

use crate::backoff::{Backoff, Step, StepInput};
use crate::budget::{FailureKind, RetryGate};
use crate::fleet::{startup_delay_ms, FleetError};
use crate::invalid::Invalid;
use crate::policy::{Policy, MAX_DELAY_MS};

/// Where a run is between events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum Phase {
    /// Nothing has happened yet: `start`, or `pause` for a run that begins offline.
    Ready = 0,
    /// An attempt is in flight: its `outcome` is awaited.
    Attempting = 1,
    /// A retry's delay or a re-drawn wait is being slept: `wake`, `pause` or `resume`.
    Sleeping = 2,
    /// Paused: `resume`.
    Paused = 3,
    /// Succeeded.
    Done = 4,
    /// Gave up.
    GaveUp = 5,
}

/// The run of one call: a [`Backoff`] plus what the loop around it used to keep (fixed size, no
/// policy inside: pass the same [`Policy`] to every event).
///
/// ```
/// use seeded_backoff::{Action, Jitter, Outcome, Policy, Run, ServerHint, FailureKind};
///
/// let policy = Policy::google().to_builder().jitter(Jitter::None).build().unwrap();
/// let mut run = Run::new(&policy, 7);
/// assert_eq!(run.start(Some(0)), Ok(Action::Attempt { attempt: 1 }));
/// // A 503 with `Retry-After: 3`: wait 3 s (the hint is a lower bound over the 1 s delay).
/// let busy = Outcome::Retryable { hint: Some(ServerHint::RetryAfterMs(3_000)), failure_kind: FailureKind::Error };
/// assert_eq!(run.outcome(&policy, busy, Some(120), None), Ok(Action::Retry { attempt: 1, delay_ms: 3_000 }));
/// assert_eq!(run.wake(Some(3_120)), Ok(Action::Attempt { attempt: 2 }));
/// assert_eq!(run.outcome(&policy, Outcome::Success, Some(3_200), None), Ok(Action::Done { attempts: 2 }));
/// // Finished: any further event is refused and changes nothing.
/// assert!(run.wake(None).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    backoff: Backoff,
    seed: u64,
    origin_ms: u64,
    now_ms: u64,
    paused_ms: u64,
    pause_since_ms: u64,
    attempt: u32,
    redraws: u32,
    window_ms: u32,
    phase: Phase,
    clock: bool,
    count_paused: bool,
    retried: Option<FailureKind>,
}

impl Run {
    /// A run not yet started, its jitter seeded from `seed` (SPEC.md §3.1).
    pub fn new(policy: &Policy, seed: u64) -> Run {
        Run::from_backoff(Backoff::new(policy, seed), seed)
    }

    /// A run over an existing state (one restored from a snapshot, say); `seed` is the seed of
    /// its re-drawn waits (§13).
    pub fn from_backoff(backoff: Backoff, seed: u64) -> Run {
        Run {
            backoff,
            seed,
            origin_ms: 0,
            now_ms: 0,
            paused_ms: 0,
            pause_since_ms: 0,
            attempt: 0,
            redraws: 0,
            window_ms: 0,
            phase: Phase::Ready,
            clock: false,
            count_paused: false,
            retried: None,
        }
    }

    /// Counts time spent paused against `max_elapsed_ms` too (by default it does not).
    pub fn count_paused_time(mut self, count: bool) -> Run {
        self.count_paused = count;
        self
    }

    /// A run that follows a give-up or an outage (SPEC.md §15.3): its start answers a wait of
    /// `startup_delay_ms(seed, window_ms)` (§12.2) instead of an attempt, and the `wake` after
    /// it makes attempt 1, so runs that begin together (a fleet back after an outage, devices
    /// whose last runs gave up together) spread their first attempts over the window rather
    /// than attempt at once. 0, the default, starts with the attempt. It sets the window of a
    /// run not yet started; a started run keeps its own. Above
    /// [`MAX_DELAY_MS`] it is [`FleetError::WindowMs`].
    ///
    /// ```
    /// use seeded_backoff::{call_seed, Action, Policy, Run};
    /// let p = Policy::google();
    /// // The device's third outage: its own seed, its own wait in the 32 s window, then attempt 1.
    /// let mut run = Run::new(&p, call_seed(7, 3)).startup_window_ms(32_000).unwrap();
    /// let Ok(Action::Wait { delay_ms }) = run.start(Some(0)) else { unreachable!() };
    /// assert!(delay_ms <= 32_000);
    /// assert_eq!(run.wake(Some(u64::from(delay_ms))), Ok(Action::Attempt { attempt: 1 }));
    /// ```
    pub fn startup_window_ms(mut self, window_ms: u32) -> Result<Run, Invalid<FleetError>> {
        self.set_startup_window_ms(window_ms)?;
        Ok(self)
    }

    /// [`Run::startup_window_ms`] on a run where it lies (one a binding keeps in memory it owns,
    /// changed without a copy); an error leaves the run as it was.
    ///
    /// ```
    /// use seeded_backoff::fleet::FleetError;
    /// use seeded_backoff::{Action, Policy, Run};
    /// let p = Policy::google();
    /// let mut run = Run::new(&p, 7);
    /// assert_eq!(run.set_startup_window_ms(u32::MAX).unwrap_err().error, FleetError::WindowMs);
    /// run.set_startup_window_ms(0).unwrap();
    /// assert_eq!(run.start(None), Ok(Action::Attempt { attempt: 1 }));
    /// ```
    pub fn set_startup_window_ms(&mut self, window_ms: u32) -> Result<(), Invalid<FleetError>> {
        if window_ms > MAX_DELAY_MS {
            return Err(Invalid::new(FleetError::WindowMs, window_ms));
        }
        // Before the start, `window_ms` holds the startup window (a pause there replaces it).
        if self.phase == Phase::Ready {
            self.window_ms = window_ms;
        }
        Ok(())
    }

    /// The per-request state as it is now.
    pub fn backoff(&self) -> &Backoff {
        &self.backoff
    }

    /// Attempts made so far (the one in flight included).
    pub const fn attempts(&self) -> u32 {
        self.attempt
    }

    /// Whether the run is done or has given up.
    pub const fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Done | Phase::GaveUp)
    }

    /// Milliseconds spent paused, by the run's clock.
    pub const fn paused_ms(&self) -> u64 {
        self.paused_ms
    }

    fn check(&self, allowed: bool, error: RunError) -> Result<(), RunError> {
        match (self.is_finished(), allowed) {
            (true, _) => Err(RunError::Finished),
            (false, false) => Err(error),
            (false, true) => Ok(()),
        }
    }

    /// Reads the clock: the first reading of a run fixes its origin and says whether it has one.
    fn tick(&mut self, now_ms: Option<u64>) {
        match (self.phase, now_ms) {
            (Phase::Ready, Some(now)) => {
                self.clock = true;
                self.origin_ms = now;
                self.now_ms = now;
            }
            (_, Some(now)) if self.clock => self.now_ms = self.now_ms.max(now),
            _ => {}
        }
    }

    /// Begins the run: make attempt 1, or with a startup window
    /// ([`Run::startup_window_ms`]) wait first.
    pub fn start(&mut self, now_ms: Option<u64>) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Ready, RunError::Start)?;
        self.tick(now_ms);
        Ok(match self.startup_wait() {
            Some(wait) => wait,
            None => self.attempt_next(),
        })
    }

    /// The startup wait of a run given a window (SPEC.md §15.3): one draw of §12.2 from the run's
    /// seed, slept as a wait; its delay is the window a pause during it re-draws in (§13).
    fn startup_wait(&mut self) -> Option<Action> {
        if self.window_ms == 0 {
            return None;
        }
        // The window was checked against MAX_DELAY_MS when it was set: no error here.
        let delay_ms = startup_delay_ms(self.seed, self.window_ms).unwrap_or(self.window_ms);
        self.window_ms = delay_ms;
        self.phase = Phase::Sleeping;
        Some(Action::Wait { delay_ms })
    }

    fn attempt_next(&mut self) -> Action {
        self.attempt = self.attempt.saturating_add(1);
        self.phase = Phase::Attempting;
        Action::Attempt {
            attempt: self.attempt,
        }
    }

    /// Reports how the attempt in flight ended. A retryable failure is one step of SPEC.md §5,
    /// with the clock's elapsed time and the budget charged for its kind; a success records the
    /// budget's success with the kind of the retry it followed.
    pub fn outcome(
        &mut self,
        policy: &Policy,
        outcome: Outcome,
        now_ms: Option<u64>,
        budget: Option<&dyn RetryGate>,
    ) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Attempting, RunError::Outcome)?;
        self.tick(now_ms);
        let attempts = self.attempt;
        match outcome {
            Outcome::Success => {
                if let Some(budget) = budget {
                    budget.record_success(self.retried);
                }
                self.phase = Phase::Done;
                Ok(Action::Done { attempts })
            }
            Outcome::Permanent => Ok(self.give_up(None)),
            Outcome::Offline => {
                self.window_ms = self.backoff.level();
                Ok(self.pause_now(policy, PauseReason::Offline))
            }
            Outcome::Retryable {
                hint,
                failure_kind: kind,
            } => {
                let input = StepInput {
                    hint,
                    elapsed_ms: self.elapsed_ms(),
                    budget: budget.map(|b| (b, kind)),
                };
                match self.backoff.next_delay_with(policy, input) {
                    Step::Retry { delay_ms, .. } => {
                        self.retried = Some(kind);
                        self.window_ms = delay_ms;
                        self.phase = Phase::Sleeping;
                        Ok(Action::Retry {
                            attempt: attempts,
                            delay_ms,
                        })
                    }
                    Step::GiveUp(reason) => Ok(self.give_up(Some(reason))),
                }
            }
        }
    }

    fn give_up(&mut self, reason: Option<crate::GiveUpReason>) -> Action {
        self.phase = Phase::GaveUp;
        Action::GiveUp {
            attempts: self.attempt,
            reason,
        }
    }

    /// Time since the origin, less the time paused unless the run counts it; `None` without a
    /// clock.
    fn elapsed_ms(&self) -> Option<u64> {
        let total = self.now_ms.saturating_sub(self.origin_ms);
        let paused = if self.count_paused { 0 } else { self.paused_ms };
        self.clock.then_some(total.saturating_sub(paused))
    }

    /// Reports that the sleep of a retry or a wait has ended: make the next attempt.
    pub fn wake(&mut self, now_ms: Option<u64>) -> Result<Action, RunError> {
        self.check(self.phase == Phase::Sleeping, RunError::Wake)?;
        self.tick(now_ms);
        Ok(self.attempt_next())
    }

    /// Reports that the page is hidden or the device offline, before the start or during a sleep
    /// (which it stops). A run that begins paused re-draws its first wait in its `initial_ms`.
    pub fn pause(
        &mut self,
        policy: &Policy,
        reason: PauseReason,
        now_ms: Option<u64>,
    ) -> Result<Action, RunError> {
        let allowed = matches!(self.phase, Phase::Ready | Phase::Sleeping);
        self.check(allowed, RunError::Pause)?;
        if self.phase == Phase::Ready {
            self.window_ms = self.backoff.level();
        }
        self.tick(now_ms);
        Ok(self.pause_now(policy, reason))
    }

    fn pause_now(&mut self, policy: &Policy, reason: PauseReason) -> Action {
        self.phase = Phase::Paused;
        self.pause_since_ms = self.now_ms;
        let max_ms = match reason {
            PauseReason::Hidden => None,
            PauseReason::Offline => Some(policy.max_backoff_ms()),
        };
        Action::Paused { max_ms }
    }

    /// Reports that the pause has ended (or, during a sleep, that the page was resumed): wait a
    /// re-drawn `resume_delay(seed, k, window_ms)` (SPEC.md §13), then `wake`.
    pub fn resume(&mut self, now_ms: Option<u64>) -> Result<Action, RunError> {
        let allowed = matches!(self.phase, Phase::Paused | Phase::Sleeping);
        self.check(allowed, RunError::Resume)?;
        self.tick(now_ms);
        if self.phase == Phase::Paused {
            let paused = self.now_ms.saturating_sub(self.pause_since_ms);
            self.paused_ms = self.paused_ms.saturating_add(paused);
        }
        self.redraws = self.redraws.saturating_add(1);
        // The window is a delay or a level, both at most MAX_DELAY_MS: the error cannot occur.
        let delay_ms = startup_delay_ms(self.seed ^ u64::from(self.redraws), self.window_ms)
            .unwrap_or(self.window_ms);
        self.phase = Phase::Sleeping;
        Ok(Action::Wait { delay_ms })
    }
}
