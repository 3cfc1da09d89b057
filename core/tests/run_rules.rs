//! The run's counters and its raw form (SPEC.md §15), hand-derived from the text: what a run
//! reports between events, every field of `RawRun` after a known sequence, and each check of the
//! restore at the edge of its range. The re-drawn waits come from tests/model/pause_model.py.

use seeded_backoff::bindings::RawRun;
use seeded_backoff::{
    policy::MAX_DELAY_MS, run::PauseReason, snapshot::SnapshotError, Action, FailureKind, Jitter,
    Outcome, Policy, Run,
};

/// 100 ms doubling to 1 s, no jitter, five retries: every delay is the level.
fn policy() -> Policy {
    Policy::builder()
        .initial_ms(100)
        .max_backoff_ms(1000)
        .multiplier(2, 1)
        .jitter(Jitter::None)
        .max_retries(5)
        .build()
        .unwrap()
}

fn fail(kind: FailureKind) -> Outcome {
    Outcome::Retryable {
        hint: None,
        failure_kind: kind,
    }
}

/// start at 1000, an error at 1100 (retry 1 of 100 ms), hidden 1150..1400, a wake at 1500, a
/// timeout at 1600 (retry 2 of 200 ms), resumed during that sleep at 1700, a wake at 1800.
fn walked(p: &Policy) -> Run {
    let mut run = Run::new(p, 7);
    assert_eq!(run.start(Some(1000)), Ok(Action::Attempt { attempt: 1 }));
    assert_eq!(
        (run.attempts(), run.paused_ms(), run.is_finished()),
        (1, 0, false)
    );
    assert_eq!(
        run.outcome(p, fail(FailureKind::Error), Some(1100), None),
        Ok(Action::Retry {
            attempt: 1,
            delay_ms: 100
        })
    );
    assert_eq!(run.backoff().retries(), 1);
    assert_eq!(
        run.pause(p, PauseReason::Hidden, Some(1150)),
        Ok(Action::Paused { max_ms: None })
    );
    // resume_delay(7, 1, 100) = 93 (pause_model.py); 250 ms paused.
    assert_eq!(run.resume(Some(1400)), Ok(Action::Wait { delay_ms: 93 }));
    assert_eq!(run.paused_ms(), 250);
    assert_eq!(run.wake(Some(1500)), Ok(Action::Attempt { attempt: 2 }));
    assert_eq!(run.attempts(), 2);
    assert_eq!(
        run.outcome(p, fail(FailureKind::Timeout), Some(1600), None),
        Ok(Action::Retry {
            attempt: 2,
            delay_ms: 200
        })
    );
    // Resumed during a sleep: no paused time; resume_delay(7, 2, 200) = 16.
    assert_eq!(run.resume(Some(1700)), Ok(Action::Wait { delay_ms: 16 }));
    assert_eq!(run.paused_ms(), 250);
    assert_eq!(run.wake(Some(1800)), Ok(Action::Attempt { attempt: 3 }));
    assert_eq!((run.attempts(), run.is_finished()), (3, false));
    run
}

#[test]
fn the_counters_follow_the_events_and_a_success_finishes() {
    let p = policy();
    let mut run = walked(&p);
    assert_eq!(
        run.outcome(&p, Outcome::Success, Some(1900), None),
        Ok(Action::Done { attempts: 3 })
    );
    assert_eq!((run.attempts(), run.is_finished()), (3, true));
    let mut gave_up = Run::new(&p, 7);
    gave_up.start(None).unwrap();
    assert_eq!(
        gave_up.outcome(&p, Outcome::Permanent, None, None),
        Ok(Action::GiveUp {
            attempts: 1,
            reason: None
        })
    );
    assert!(gave_up.is_finished());
    assert!(!Run::new(&p, 7).is_finished());
}

#[test]
fn the_raw_form_holds_every_field_of_section_15() {
    let p = policy();
    let run = walked(&p);
    let raw = run.to_raw();
    let fields = (
        raw.seed,
        raw.origin_ms,
        raw.now_ms,
        raw.paused_ms,
        raw.pause_since_ms,
        raw.attempt,
        raw.redraws,
        raw.window_ms,
    );
    assert_eq!(fields, (7, 1000, 1800, 250, 1150, 3, 2, 200));
    // attempting 1, a clock, paused time not counted, the last retry a timeout (2).
    let codes = (raw.phase, raw.clock, raw.count_paused, raw.retried);
    assert_eq!(codes, (1, 1, 0, 2));
    assert_eq!((raw.backoff.retries, raw.backoff.level), (2, 400));
    assert_eq!(Run::from_raw(&p, raw), Ok(run.clone()));

    // After one error retry the kind is 1; before any retry 0; counting paused time sets its flag.
    let mut one = Run::new(&p, 7).count_paused_time(true);
    assert_eq!((one.to_raw().retried, one.to_raw().count_paused), (0, 1));
    one.start(None).unwrap();
    one.outcome(&p, fail(FailureKind::Error), None, None)
        .unwrap();
    assert_eq!((one.to_raw().retried, one.to_raw().clock), (1, 0));
    assert_eq!(Run::from_raw(&p, one.to_raw()), Ok(one));
}

/// `from_raw` of `raw` changed by `edit`.
fn restored(p: &Policy, raw: RawRun, edit: impl Fn(&mut RawRun)) -> Result<Run, SnapshotError> {
    let mut r = raw;
    edit(&mut r);
    Run::from_raw(p, r)
}

#[test]
fn each_restore_check_holds_at_its_edge_and_fails_past_it() {
    let p = policy();
    let raw = walked(&p).to_raw();
    let bad = Err(SnapshotError::InvalidState);
    for phase in 0..=5 {
        let r = restored(&p, raw, |r| r.phase = phase).unwrap();
        assert_eq!(r.to_raw().phase, phase);
        assert_eq!(r.is_finished(), phase >= 4);
    }
    assert_eq!(restored(&p, raw, |r| r.phase = 6), bad);
    for flag in 0..=1 {
        assert_eq!(
            restored(&p, raw, |r| r.clock = flag)
                .unwrap()
                .to_raw()
                .clock,
            flag
        );
        let back = restored(&p, raw, |r| r.count_paused = flag).unwrap();
        assert_eq!(back.to_raw().count_paused, flag);
    }
    assert_eq!(restored(&p, raw, |r| r.clock = 2), bad);
    assert_eq!(restored(&p, raw, |r| r.count_paused = 2), bad);
    for kind in 0..=2 {
        assert_eq!(
            restored(&p, raw, |r| r.retried = kind)
                .unwrap()
                .to_raw()
                .retried,
            kind
        );
    }
    assert_eq!(restored(&p, raw, |r| r.retried = 3), bad);
    let window = restored(&p, raw, |r| r.window_ms = MAX_DELAY_MS).unwrap();
    assert_eq!(window.to_raw().window_ms, MAX_DELAY_MS);
    assert_eq!(restored(&p, raw, |r| r.window_ms = MAX_DELAY_MS + 1), bad);
    // origin ≤ now and pause_since ≤ now, equality allowed.
    assert!(restored(&p, raw, |r| r.origin_ms = r.now_ms).is_ok());
    assert_eq!(restored(&p, raw, |r| r.origin_ms = r.now_ms + 1), bad);
    assert!(restored(&p, raw, |r| r.pause_since_ms = r.now_ms).is_ok());
    assert_eq!(restored(&p, raw, |r| r.pause_since_ms = r.now_ms + 1), bad);
    assert_eq!(restored(&p, raw, |r| r.now_ms = r.pause_since_ms - 1), bad);
    // The backoff is checked as §9 restores it.
    assert_eq!(
        restored(&p, raw, |r| r.backoff.rng = [0; 4]),
        Err(SnapshotError::ZeroRngState)
    );
    assert_eq!(restored(&p, raw, |r| r.backoff.retries = 6), bad);
}

#[test]
fn a_run_that_starts_without_a_clock_ignores_later_readings() {
    // §15 "Clock": the first event fixes whether the run has a clock; without one, later readings
    // are ignored, so no time passes and none is paused.
    let p = policy();
    let mut run = Run::new(&p, 7);
    run.start(None).unwrap();
    run.outcome(&p, fail(FailureKind::Error), Some(5_000), None)
        .unwrap();
    run.pause(&p, PauseReason::Hidden, Some(6_000)).unwrap();
    run.resume(Some(9_000)).unwrap();
    run.wake(Some(10_000)).unwrap();
    let raw = run.to_raw();
    assert_eq!((raw.clock, raw.origin_ms, raw.now_ms), (0, 0, 0));
    assert_eq!((raw.pause_since_ms, run.paused_ms()), (0, 0));
}

/// A send rate that always answers the same pace, and counts the answers it is told.
struct Fixed(seeded_backoff::send_rate::Pace, core::cell::Cell<u32>);

impl seeded_backoff::run::SendGate for Fixed {
    fn before_attempt(&self, _now_ms: u64) -> seeded_backoff::send_rate::Pace {
        self.0
    }
    fn on_answer_sent(
        &self,
        _now_ms: u64,
        _sent_ms: u64,
        _answer: seeded_backoff::send_rate::Answer,
    ) {
        self.1.set(self.1.get() + 1);
    }
}

#[test]
fn a_send_rate_wait_that_ends_at_the_time_budget_is_waited_and_one_past_it_gives_up() {
    // SPEC.md §15.2: a wait gives up as `deadline` only when elapsed + wait passes max_elapsed_ms.
    let p = Policy::builder()
        .initial_ms(100)
        .max_backoff_ms(1000)
        .jitter(Jitter::None)
        .max_elapsed_ms(1000)
        .build()
        .unwrap();
    let at_limit = Fixed(
        seeded_backoff::send_rate::Pace::Wait { ms: 1000 },
        Default::default(),
    );
    assert_eq!(
        Run::new(&p, 1).start_paced(&p, Some(0), &at_limit),
        Ok(Action::Wait { delay_ms: 1000 })
    );
    let past = Fixed(
        seeded_backoff::send_rate::Pace::Wait { ms: 1001 },
        Default::default(),
    );
    assert_eq!(
        Run::new(&p, 1).start_paced(&p, Some(0), &past),
        Ok(Action::GiveUp {
            attempts: 0,
            reason: Some(seeded_backoff::GiveUpReason::Deadline)
        })
    );
}

#[test]
fn a_run_tells_a_shared_atomic_send_rate_each_answer() {
    // A throttle with a 500 ms hint while the rate is off holds every ask until 10 + 500
    // (SPEC.md §17.5), so the shared rate must have heard it through the run.
    use seeded_backoff::send_rate::{Answer, AtomicSendRate, Pace, SendRateConfig};
    let p = policy();
    let rate = AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap();
    let mut run = Run::new(&p, 1);
    assert_eq!(
        run.start_paced(&p, Some(0), &rate),
        Ok(Action::Attempt { attempt: 1 })
    );
    let throttled = Some(Answer::Throttled { hint_ms: 500 });
    run.outcome_paced(
        &p,
        fail(FailureKind::Error),
        throttled,
        Some(10),
        None,
        &rate,
    )
    .unwrap();
    assert_eq!(rate.before_attempt(11), Pace::Wait { ms: 499 });
}
