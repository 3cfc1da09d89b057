//! §13 and §15 of the model: the run as a state machine over the model's §5 step, written from the
//! text alone (the Python reading in tests/model/run_model.py, ported). It shares no code with the
//! core's `Run`: phases are the §15 codes, refusals the §15 error names.

use super::{ModelBackoff, ModelBudget, ModelHint, ModelPolicy, ModelRng, ModelStep};

pub const READY: u8 = 0;
pub const ATTEMPTING: u8 = 1;
pub const SLEEPING: u8 = 2;
pub const PAUSED: u8 = 3;
pub const DONE: u8 = 4;
pub const GAVE_UP: u8 = 5;

/// §12.2's domain: the ASCII bytes of `startup!`.
const STARTUP_DOMAIN: u64 = u64::from_be_bytes(*b"startup!");

/// §13: re-draw `k` of a run seeded `seed`, uniform in `0 ..= window_ms`.
pub fn resume_delay(seed: u64, k: u32, window_ms: u32) -> u32 {
    assert!(
        window_ms <= super::MAX_DELAY_MS,
        "window {window_ms} beyond §12.2's range"
    );
    ModelRng::from_seed(seed ^ k as u64 ^ STARTUP_DOMAIN).uniform(window_ms)
}

/// What §15 answers to an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelAnswer {
    Attempt(u32),
    Retry(u32, u32),
    Wait(u32),
    Paused(Option<u32>),
    Done(u32),
    /// Attempts and the §5 give-up code (1–4), `None` for a permanent error.
    GiveUp(u32, Option<u8>),
    /// A refused event: `start`, `outcome`, `wake`, `pause`, `resume` or `finished`.
    Refused(&'static str),
}

/// §15's `outcome` values; `Retryable`'s bool is `kind == timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelOutcome {
    Success,
    Permanent,
    Retryable(Option<ModelHint>, bool),
    Offline,
}

/// §15's state. `retried` is `None`, or whether the last retry's failure was a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelRun {
    pub backoff: ModelBackoff,
    pub seed: u64,
    pub phase: u8,
    pub attempt: u32,
    pub redraws: u32,
    pub window_ms: u32,
    pub retried: Option<bool>,
    pub clock: bool,
    pub origin: u64,
    pub now: u64,
    pub paused_ms: u64,
    pub pause_since: u64,
    pub count_paused: bool,
}

impl ModelRun {
    pub fn new(backoff: ModelBackoff, seed: u64, count_paused: bool) -> ModelRun {
        ModelRun {
            backoff,
            seed,
            phase: READY,
            attempt: 0,
            redraws: 0,
            window_ms: 0,
            retried: None,
            clock: false,
            origin: 0,
            now: 0,
            paused_ms: 0,
            pause_since: 0,
            count_paused,
        }
    }

    /// The refusal for an event allowed only in `phases`, checked before anything changes.
    fn refusal(&self, event: &'static str, phases: &[u8]) -> Option<ModelAnswer> {
        if self.phase == DONE || self.phase == GAVE_UP {
            return Some(ModelAnswer::Refused("finished"));
        }
        if !phases.contains(&self.phase) {
            return Some(ModelAnswer::Refused(event));
        }
        None
    }

    /// §15 "Clock".
    fn read(&mut self, reading: Option<u64>) {
        match reading {
            Some(r) if self.phase == READY => {
                self.clock = true;
                self.origin = r;
                self.now = r;
            }
            Some(r) if self.clock => self.now = self.now.max(r),
            _ => {}
        }
    }

    fn elapsed(&self) -> Option<u64> {
        if !self.clock {
            return None;
        }
        let paused = if self.count_paused { 0 } else { self.paused_ms };
        Some((self.now - self.origin).saturating_sub(paused))
    }

    pub fn start(&mut self, now: Option<u64>) -> ModelAnswer {
        if let Some(r) = self.refusal("start", &[READY]) {
            return r;
        }
        self.read(now);
        self.attempt = 1;
        self.phase = ATTEMPTING;
        ModelAnswer::Attempt(1)
    }

    pub fn outcome(
        &mut self,
        p: &ModelPolicy,
        o: ModelOutcome,
        now: Option<u64>,
        budget: Option<&mut ModelBudget>,
    ) -> ModelAnswer {
        if let Some(r) = self.refusal("outcome", &[ATTEMPTING]) {
            return r;
        }
        self.read(now);
        let n = self.attempt;
        match o {
            ModelOutcome::Success => {
                if let Some(b) = budget {
                    b.record_success(self.retried);
                }
                self.phase = DONE;
                ModelAnswer::Done(n)
            }
            ModelOutcome::Permanent => {
                self.phase = GAVE_UP;
                ModelAnswer::GiveUp(n, None)
            }
            ModelOutcome::Offline => {
                self.window_ms = self.backoff.level;
                self.pause_since = self.now;
                self.phase = PAUSED;
                ModelAnswer::Paused(Some(p.cap))
            }
            ModelOutcome::Retryable(hint, timeout) => {
                let elapsed = self.elapsed();
                match self
                    .backoff
                    .step(p, hint, elapsed, budget.map(|b| (b, timeout)))
                {
                    ModelStep::Retry(d, _) => {
                        self.retried = Some(timeout);
                        self.window_ms = d;
                        self.phase = SLEEPING;
                        ModelAnswer::Retry(n, d)
                    }
                    ModelStep::GiveUp(code) => {
                        self.phase = GAVE_UP;
                        ModelAnswer::GiveUp(n, Some(code))
                    }
                }
            }
        }
    }

    pub fn wake(&mut self, now: Option<u64>) -> ModelAnswer {
        if let Some(r) = self.refusal("wake", &[SLEEPING]) {
            return r;
        }
        self.read(now);
        self.attempt = self.attempt.saturating_add(1);
        self.phase = ATTEMPTING;
        ModelAnswer::Attempt(self.attempt)
    }

    /// `offline`: the pause's reason is `offline` (1), else `hidden` (0).
    pub fn pause(&mut self, p: &ModelPolicy, offline: bool, now: Option<u64>) -> ModelAnswer {
        if let Some(r) = self.refusal("pause", &[READY, SLEEPING]) {
            return r;
        }
        if self.phase == READY {
            self.window_ms = self.backoff.level;
        }
        self.read(now);
        self.pause_since = self.now;
        self.phase = PAUSED;
        ModelAnswer::Paused(offline.then_some(p.cap))
    }

    pub fn resume(&mut self, now: Option<u64>) -> ModelAnswer {
        if let Some(r) = self.refusal("resume", &[PAUSED, SLEEPING]) {
            return r;
        }
        self.read(now);
        if self.phase == PAUSED {
            // Pauses do not overlap and lie between the origin and `now`: their sum cannot pass
            // `now − origin`, so a plain sum (an overflow would be a crash) is the spec's.
            self.paused_ms += self.now - self.pause_since;
        }
        self.redraws = self.redraws.saturating_add(1);
        self.phase = SLEEPING;
        ModelAnswer::Wait(resume_delay(self.seed, self.redraws, self.window_ms))
    }
}
