//! A run event whose code names nothing is refused with the core's `RunCodeError`, counted after
//! the `RunError`s, and changes nothing: no unknown outcome read as offline, no unknown pause
//! reason read as hidden, no unknown event read as resume, no unknown answer read as the
//! outcome's own.

use seeded_backoff::bindings::RunCodeError;
use seeded_backoff::run::RunError;
use seeded_backoff::send_rate::SendRateConfig;
use seeded_backoff::{Policy, Run};
use seeded_backoff_wasm::io::hint;
use seeded_backoff_wasm::rt::io;
use seeded_backoff_wasm::run::{answer, event, outcome, run_event};
use seeded_backoff_wasm::send_rate::{config_words, run_event_paced, send_rate_new};
use wasm_bindgen_test::wasm_bindgen_test as test;

/// What the exports return for `e`: after the run's own refusals, the code refusals in order.
fn refused(e: RunCodeError) -> u32 {
    let at = RunCodeError::ALL.iter().position(|x| *x == e).unwrap();
    1 + (RunError::ALL.len() + at) as u32
}

/// A run of Google's preset in the run words, started at 0 when `started`.
fn fresh(started: bool) -> [u32; seeded_backoff_wasm::rt::RUN_WORDS] {
    io(|io| {
        io.options = [0; seeded_backoff_wasm::rt::OPTION_WORDS];
        let mut run = Run::new(&Policy::google(), 7);
        if started {
            run.start(Some(0)).unwrap();
        }
        io.run = run.to_raw().to_words();
        io.run
    })
}

/// `run_event` with these codes, at now = 10; its status, and whether the run words changed.
fn plain(e: u32, kind: u32, hint_kind: u32, timeout: u32, before: [u32; 22]) -> (u32, bool) {
    let r = run_event(e, kind, hint_kind, 0, timeout, true, 10, 0, false);
    (r, io(|io| io.run) != before)
}

#[test]
fn unknown_codes_are_the_cores_refusals_and_change_nothing() {
    let w = fresh(false);
    assert_eq!(plain(9, 0, 0, 0, w), (refused(RunCodeError::Event), false));
    assert_eq!(
        plain(event::PAUSE, 2, 0, 0, w),
        (refused(RunCodeError::PauseReason), false)
    );
    let w = fresh(true);
    assert_eq!(
        plain(event::OUTCOME, 4, 0, 0, w),
        (refused(RunCodeError::Outcome), false)
    );
    let retryable = outcome::RETRYABLE;
    assert_eq!(
        plain(event::OUTCOME, retryable, 0, 2, w),
        (refused(RunCodeError::FailureKind), false)
    );
    let not_a_step = hint::ASK_DATE_PART;
    assert_eq!(
        plain(event::OUTCOME, retryable, not_a_step, 0, w),
        (refused(RunCodeError::Hint), false)
    );
    // A permanent outcome reads no hint and no failure kind.
    assert_eq!(
        plain(event::OUTCOME, outcome::PERMANENT, not_a_step, 2, w),
        (0, true)
    );
    // The known codes still act: a retryable error is a retry.
    fresh(true);
    assert_eq!(
        run_event(
            event::OUTCOME,
            retryable,
            hint::NONE,
            0,
            1,
            true,
            10,
            0,
            false
        ),
        0
    );
}

#[test]
fn unknown_answers_and_statuses_are_refused_before_the_send_rate_hears_them() {
    let rate = |io: &mut seeded_backoff_wasm::rt::Io| {
        for (i, w) in config_words(SendRateConfig::DEFAULT)
            .into_iter()
            .enumerate()
        {
            io.bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
    };
    for (told, arg) in [
        (9, 0),
        (answer::HTTP, 0),
        (answer::HTTP, 600),
        (answer::HTTP, 65_936),
    ] {
        let w = fresh(true);
        io(rate);
        assert_eq!(send_rate_new(), 0);
        let bytes = io(|io| io.bytes);
        let r = run_event_paced(
            event::OUTCOME,
            outcome::SUCCESS,
            0,
            0,
            0,
            true,
            10,
            0,
            false,
            told,
            arg,
        );
        assert_eq!(r, refused(RunCodeError::Answer), "answer {told} {arg}");
        assert_eq!(
            io(|io| (io.run, io.bytes)),
            (w, bytes),
            "answer {told} {arg}: nothing changed"
        );
    }
}
