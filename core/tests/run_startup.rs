//! SPEC.md §15.3 beyond the vectors: the window's bound, a paced start (the wait comes before
//! the send rate is asked), and a window set on a started run.

use core::cell::Cell;

use seeded_backoff::{
    fleet::{startup_delay_ms, FleetError},
    policy::MAX_DELAY_MS,
    send_rate::{SendRate, SendRateConfig},
    Action, Policy, Run,
};

#[test]
fn the_window_is_bounded_as_the_startup_delay_is() {
    let p = Policy::google();
    let err = Run::new(&p, 1)
        .startup_window_ms(MAX_DELAY_MS + 1)
        .unwrap_err();
    assert_eq!(err.error, FleetError::WindowMs);
    assert_eq!(err.got, 2_147_483_648);
    let mut run = Run::new(&p, 1).startup_window_ms(MAX_DELAY_MS).unwrap();
    let want = startup_delay_ms(1, MAX_DELAY_MS).unwrap();
    assert_eq!(run.start(None), Ok(Action::Wait { delay_ms: want }));
}

#[test]
fn a_paced_start_waits_first_and_its_wake_asks_the_rate() {
    let p = Policy::google();
    let rate = Cell::new(SendRate::new(SendRateConfig::DEFAULT).unwrap());
    let before = rate.get();
    let mut run = Run::new(&p, 9).startup_window_ms(10_000).unwrap();
    let want = startup_delay_ms(9, 10_000).unwrap();
    assert_eq!(
        run.start_paced(&p, Some(0), &rate),
        Ok(Action::Wait { delay_ms: want })
    );
    assert_eq!(
        rate.get(),
        before,
        "the startup wait asks the send rate nothing"
    );
    let wake = run.wake_paced(&p, Some(u64::from(want)), &rate);
    assert_eq!(wake, Ok(Action::Attempt { attempt: 1 }));
}

#[test]
fn a_started_run_keeps_its_own_window() {
    let p = Policy::google();
    let mut run = Run::new(&p, 2);
    assert_eq!(run.start(None), Ok(Action::Attempt { attempt: 1 }));
    let started = run.clone();
    assert_eq!(run.startup_window_ms(5_000).unwrap(), started);
}
