//! An arbitrary sequence of events on one `Run` (SPEC.md §15): start, outcomes of every kind with
//! hints and a shared budget, wakes, pauses and resumes, with clock readings that stand still, go
//! forward, go back or jump anywhere, and events outside their phase. Each answer and the whole
//! state after it equal the reference model in `src/model/run.rs`; beyond the model: a refused
//! event changes nothing (state, clock, budget), delays stay under max(cap, max_hint), a re-drawn
//! wait never exceeds its window, the clock never runs back, paused time fits in the elapsed time,
//! and the raw form round-trips.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use seeded_backoff::budget::{AtomicRetryBudget, RetryBudget, RetryGate};
use seeded_backoff::policy::MAX_DELAY_MS;
use seeded_backoff::run::{PauseReason, RunError};
use seeded_backoff::{Action, Backoff, FailureKind, Outcome, Policy, Run, ServerHint};
use seeded_backoff_fuzz::inputs::{spread, BudgetFields, PolicyFields};
use seeded_backoff_fuzz::model::run::{ModelAnswer, ModelOutcome, ModelRun};
use seeded_backoff_fuzz::model::{ModelBackoff, ModelBudget, ModelHint, ModelPolicy};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Hint {
    RetryAfter(u32),
    RateLimit(u32),
    DoNotRetry,
}

/// How the clock reading of an event is made from the harness's wall clock.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Clock {
    None,
    Same,
    Forward(u32),
    Back(u32),
    At(u64),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Fate {
    Success,
    Fail { hint: Option<Hint>, timeout: bool },
    Permanent,
    Offline,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Event {
    Start(Clock),
    Outcome {
        fate: Fate,
        budget: bool,
        clock: Clock,
    },
    Wake(Clock),
    Pause {
        offline: bool,
        clock: Clock,
    },
    Resume(Clock),
    /// The event a loop would report next after the last answer (an attempt's `fate`; `wake`
    /// after a retry or a wait, or `pause`/`resume` by `interrupt`; `resume` after a pause).
    Follow {
        fate: Fate,
        interrupt: u8,
        clock: Clock,
    },
    /// `to_raw` then `from_raw`, continuing from the restored run.
    RawRoundTrip,
    /// One field of the raw form changed: `from_raw` accepts it exactly when §15's checks do.
    RawCorrupt {
        field: u8,
        value: u64,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    policy: PolicyFields,
    seed: u64,
    /// The backoff is seeded apart from the run's re-draws, and may start fast-forwarded.
    backoff_seed: Option<(u64, u32)>,
    count_paused: bool,
    budget: Option<(BudgetFields, bool)>,
    wall: u64,
    events: Vec<Event>,
}

fn hint_pair(h: Hint) -> (ServerHint, ModelHint) {
    match h {
        Hint::RetryAfter(ms) => (
            ServerHint::RetryAfterMs(spread(ms)),
            ModelHint::RetryAfter(spread(ms)),
        ),
        Hint::RateLimit(ms) => (
            ServerHint::RateLimitResetMs(spread(ms)),
            ModelHint::RateLimit(spread(ms)),
        ),
        Hint::DoNotRetry => (ServerHint::DoNotRetry, ModelHint::DoNotRetry),
    }
}

fn outcome_pair(f: Fate) -> (Outcome, ModelOutcome) {
    match f {
        Fate::Success => (Outcome::Success, ModelOutcome::Success),
        Fate::Permanent => (Outcome::Permanent, ModelOutcome::Permanent),
        Fate::Offline => (Outcome::Offline, ModelOutcome::Offline),
        Fate::Fail { hint, timeout } => {
            let kind = if timeout {
                FailureKind::Timeout
            } else {
                FailureKind::Error
            };
            let (core_hint, model_hint) = match hint.map(hint_pair) {
                Some((c, m)) => (Some(c), Some(m)),
                None => (None, None),
            };
            (
                Outcome::Retryable {
                    hint: core_hint,
                    failure_kind: kind,
                },
                ModelOutcome::Retryable(model_hint, timeout),
            )
        }
    }
}

fn answer_of(r: Result<Action, RunError>) -> ModelAnswer {
    match r {
        Ok(Action::Attempt { attempt }) => ModelAnswer::Attempt(attempt),
        Ok(Action::Retry { attempt, delay_ms }) => ModelAnswer::Retry(attempt, delay_ms),
        Ok(Action::Wait { delay_ms }) => ModelAnswer::Wait(delay_ms),
        Ok(Action::Paused { max_ms }) => ModelAnswer::Paused(max_ms),
        Ok(Action::Done { attempts }) => ModelAnswer::Done(attempts),
        Ok(Action::GiveUp { attempts, reason }) => {
            ModelAnswer::GiveUp(attempts, reason.map(|r| r.code()))
        }
        Err(e) => ModelAnswer::Refused(e.name()),
    }
}

/// The model's whole state as the raw form lays it out (SPEC.md §15 "Raw form").
fn check_state(run: &Run, m: &ModelRun, event: &Event) {
    let raw = run.to_raw();
    let b = raw.backoff;
    assert_eq!(b.rng, m.backoff.rng.0, "rng after {event:?}");
    assert_eq!(
        (b.retries, b.level, b.elapsed_ms, b.gave_up),
        (
            m.backoff.retries,
            m.backoff.level,
            m.backoff.elapsed,
            m.backoff.gave_up as u32
        ),
        "backoff after {event:?}"
    );
    let retried = m.retried.map_or(0, |t| 1 + t as u8);
    assert_eq!(
        (
            raw.seed,
            raw.phase,
            raw.attempt,
            raw.redraws,
            raw.window_ms,
            raw.retried
        ),
        (m.seed, m.phase, m.attempt, m.redraws, m.window_ms, retried),
        "run after {event:?}"
    );
    assert_eq!(
        (
            raw.clock == 1,
            raw.origin_ms,
            raw.now_ms,
            raw.paused_ms,
            raw.pause_since_ms,
            raw.count_paused == 1
        ),
        (
            m.clock,
            m.origin,
            m.now,
            m.paused_ms,
            m.pause_since,
            m.count_paused
        ),
        "clock after {event:?}"
    );
    assert!(raw.window_ms <= MAX_DELAY_MS);
    assert!(raw.origin_ms <= raw.now_ms && raw.pause_since_ms <= raw.now_ms);
    assert!(raw.paused_ms <= raw.now_ms - raw.origin_ms);
    assert_eq!(run.attempts(), raw.attempt);
    assert_eq!(run.paused_ms(), raw.paused_ms);
    assert_eq!(run.is_finished(), raw.phase >= 4);
}

/// `from_raw` on a raw form with one field replaced, against §15's checks of that field.
fn check_corrupt(policy: &Policy, run: &Run, field: u8, value: u64) {
    let mut raw = run.to_raw();
    let byte = value as u8;
    let ok = match field % 8 {
        0 => {
            raw.phase = byte;
            byte <= 5
        }
        1 => {
            raw.clock = byte;
            byte <= 1
        }
        2 => {
            raw.count_paused = byte;
            byte <= 1
        }
        3 => {
            raw.retried = byte;
            byte <= 2
        }
        4 => {
            raw.window_ms = value as u32;
            value as u32 <= MAX_DELAY_MS
        }
        5 => {
            raw.origin_ms = value;
            value <= raw.now_ms
        }
        6 => {
            raw.pause_since_ms = value;
            value <= raw.now_ms
        }
        _ => {
            raw.now_ms = value;
            raw.origin_ms <= value && raw.pause_since_ms <= value
        }
    };
    match Run::from_raw(policy, raw) {
        Ok(back) => {
            assert!(ok, "from_raw accepted field {} = {value}", field % 8);
            assert_eq!(back.to_raw(), raw);
        }
        Err(e) => {
            assert!(!ok, "from_raw refused field {} = {value}: {e:?}", field % 8);
            assert_eq!(e, seeded_backoff::snapshot::SnapshotError::InvalidState);
        }
    }
}

fuzz_target!(|input: Input| {
    let policy = input.policy.valid();
    let mp = ModelPolicy::of(&policy);
    let (backoff, model_backoff) = match input.backoff_seed {
        None => (
            Backoff::new(&policy, input.seed),
            ModelBackoff::new(&mp, input.seed),
        ),
        Some((seed, n)) => {
            let n = spread(n);
            let mut b = Backoff::new(&policy, seed);
            b.fast_forward(&policy, n);
            let mut mb = ModelBackoff::new(&mp, seed);
            mb.fast_forward(&mp, n);
            (b, mb)
        }
    };
    let mut run = Run::from_backoff(backoff, input.seed).count_paused_time(input.count_paused);
    let mut model = ModelRun::new(model_backoff, input.seed, input.count_paused);

    let config = input.budget.map(|(f, atomic)| (f.valid(), atomic));
    let cell = config.map(|(c, _)| RetryBudget::new(c));
    let atomic = config.map(|(c, _)| AtomicRetryBudget::new(c));
    let gate: Option<&dyn RetryGate> = match config {
        Some((_, true)) => atomic.as_ref().map(|b| b as &dyn RetryGate),
        Some((_, false)) => cell.as_ref().map(|b| b as &dyn RetryGate),
        None => None,
    };
    let tokens = || match config {
        Some((_, true)) => atomic.as_ref().map(|b| b.tokens_milli() as u64),
        Some((_, false)) => cell.as_ref().map(|b| b.tokens_milli() as u64),
        None => None,
    };
    let mut model_budget = config.map(|(c, _)| ModelBudget::of(c));

    let mut wall = input.wall;
    let mut read = |c: Clock| -> Option<u64> {
        match c {
            Clock::None => return None,
            Clock::Same => {}
            Clock::Forward(d) => wall = wall.saturating_add(spread(d) as u64),
            Clock::Back(d) => wall = wall.saturating_sub(spread(d) as u64),
            Clock::At(t) => wall = t,
        }
        Some(wall)
    };
    let mut last = ModelAnswer::Refused("none yet");

    for event in input.events.iter().take(2048) {
        let before = run.clone();
        let tokens_before = tokens();
        let mut event = *event;
        if let Event::Follow {
            fate,
            interrupt,
            clock,
        } = event
        {
            event = match last {
                ModelAnswer::Attempt(_) => Event::Outcome {
                    fate,
                    budget: true,
                    clock,
                },
                ModelAnswer::Retry(..) | ModelAnswer::Wait(_) => match interrupt % 8 {
                    0 => Event::Pause {
                        offline: interrupt & 8 != 0,
                        clock,
                    },
                    1 => Event::Resume(clock),
                    _ => Event::Wake(clock),
                },
                ModelAnswer::Paused(_) => Event::Resume(clock),
                _ => Event::Start(clock),
            };
        }
        let answer = match event {
            Event::Start(c) => {
                let now = read(c);
                let got = answer_of(run.start(now));
                assert_eq!(got, model.start(now), "start at {now:?}");
                got
            }
            Event::Outcome {
                fate,
                budget,
                clock,
            } => {
                let now = read(clock);
                let (o, mo) = outcome_pair(fate);
                let g = if budget { gate } else { None };
                let got = answer_of(run.outcome(&policy, o, now, g));
                let mb = if budget { model_budget.as_mut() } else { None };
                assert_eq!(got, model.outcome(&mp, mo, now, mb), "{fate:?} at {now:?}");
                if let ModelAnswer::Retry(_, d) = got {
                    let cap = policy.max_backoff_ms();
                    let h = policy.max_hint_ms();
                    let ceiling = match fate {
                        Fate::Fail {
                            hint: Some(Hint::RateLimit(_)),
                            ..
                        } => cap.max((h + 1000 + h / 10).min(MAX_DELAY_MS)),
                        _ => cap.max(h),
                    };
                    assert!(d <= ceiling, "delay {d} above {ceiling}");
                    assert!(run.backoff().retries() <= policy.max_retries());
                }
                got
            }
            Event::Wake(c) => {
                let now = read(c);
                let got = answer_of(run.wake(now));
                assert_eq!(got, model.wake(now), "wake at {now:?}");
                got
            }
            Event::Pause { offline, clock } => {
                let now = read(clock);
                let reason = if offline {
                    PauseReason::Offline
                } else {
                    PauseReason::Hidden
                };
                let got = answer_of(run.pause(&policy, reason, now));
                assert_eq!(got, model.pause(&mp, offline, now), "pause at {now:?}");
                got
            }
            Event::Resume(c) => {
                let now = read(c);
                let window = before.to_raw().window_ms;
                let got = answer_of(run.resume(now));
                assert_eq!(got, model.resume(now), "resume at {now:?}");
                if let ModelAnswer::Wait(d) = got {
                    assert!(d <= window, "wait {d} beyond its window {window}");
                }
                got
            }
            Event::RawRoundTrip => {
                let back = Run::from_raw(&policy, run.to_raw()).expect("own raw form restores");
                assert_eq!(back, run);
                run = back;
                last
            }
            Event::RawCorrupt { field, value } => {
                check_corrupt(&policy, &run, field, value);
                last
            }
            Event::Follow { .. } => unreachable!("replaced above"),
        };
        if let ModelAnswer::Refused(_) = answer {
            assert_eq!(run, before, "a refused {event:?} changed the run");
            assert_eq!(
                tokens(),
                tokens_before,
                "a refused {event:?} touched the budget"
            );
        } else {
            last = answer;
        }
        let raw = run.to_raw();
        assert!(raw.now_ms >= before.to_raw().now_ms, "the clock ran back");
        check_state(&run, &model, &event);
        if let (Some(t), Some(mb)) = (tokens(), model_budget.as_ref()) {
            assert_eq!(t, mb.tokens(), "budget tokens after {event:?}");
            assert!(t <= mb.max());
        }
    }
});
