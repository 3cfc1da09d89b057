//! The send-rate part's paced run events (SPEC.md §15.2), with the send rate's words in the shared
//! bytes: the core's gate decides the wait and the give-up, and the answer told reaches the rate.

use seeded_backoff::run::RunError;
use seeded_backoff::send_rate::SendRateConfig;
use seeded_backoff::{GiveUpReason, Policy, Run};
use seeded_backoff_wasm::rt::io;
use seeded_backoff_wasm::run::{action, answer, event, outcome, BAD_WORDS};
use seeded_backoff_wasm::send_rate::{
    config_words, run_event_paced, send_rate_new, send_rate_rate, CONFIG_WORDS,
};
use wasm_bindgen_test::wasm_bindgen_test as test;

/// A fresh run of Google's preset in the run words, and a send rate of `config` in the bytes.
fn fresh(config: SendRateConfig) {
    io(|io| {
        io.options = [0; seeded_backoff_wasm::rt::OPTION_WORDS];
        io.run = Run::new(&Policy::google(), 7).to_raw().to_words();
        for (i, w) in config_words(config).into_iter().enumerate() {
            io.bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
    });
    assert_eq!(send_rate_new(), 0);
}

fn ev(e: u32, kind: u32, now: u32, told: u32, arg: u32) -> (u32, [u32; 4]) {
    let r = run_event_paced(e, kind, 0, 0, 0, true, now, 0, false, told, arg);
    (r, io(|io| io.action))
}

#[test]
fn a_held_rate_makes_the_first_attempt_wait_and_fail_fast_gives_up_throttled() {
    // Burst 1: the second run waits one interval after the first.
    let config = SendRateConfig {
        min_rate_milli: 10_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    fresh(config);
    // The first attempt, then a 429 without a hint, told by its status: the rate is on (§17.5).
    assert_eq!(
        ev(event::START, 0, 0, 0, 0),
        (0, [action::ATTEMPT, 1, 0, 0])
    );
    assert_eq!(
        ev(event::OUTCOME, outcome::RETRYABLE, 10, answer::HTTP, 429).1[0],
        action::RETRY
    );
    // Off before: 1 sent at 10 ms is read over the 100 ms span floor (§17.2), 10/s; none
    // accepted, so half of it less 2 % (4.9/s), raised to min_rate_milli's 10/s.
    assert_eq!(send_rate_rate(), 10_000);
    // Other runs sharing the rate: the first goes (the next slot was 0), the second waits the
    // interval 10^9 / 10 000 = 100 000 µs, 100 ms (§17.4).
    io(|io| io.run = Run::new(&Policy::google(), 8).to_raw().to_words());
    assert_eq!(
        ev(event::START, 0, 10, 0, 0),
        (0, [action::ATTEMPT, 1, 0, 0])
    );
    io(|io| io.run = Run::new(&Policy::google(), 9).to_raw().to_words());
    assert_eq!(
        ev(event::START, 0, 10, 0, 0),
        (0, [action::WAIT, 0, 100, 0])
    );
    // Fail fast: the same ask refused, a give-up after 0 attempts.
    fresh(SendRateConfig {
        fail_fast: true,
        ..config
    });
    assert_eq!(ev(event::START, 0, 0, 0, 0).1[0], action::ATTEMPT);
    assert_eq!(
        ev(event::OUTCOME, outcome::SUCCESS, 0, answer::THROTTLED, 1000).1[0],
        action::DONE
    );
    io(|io| io.run = Run::new(&Policy::google(), 8).to_raw().to_words());
    let code = u32::from(GiveUpReason::Throttled.code());
    assert_eq!(
        ev(event::START, 0, 10, 0, 0),
        (0, [action::GIVE_UP, 0, 0, code])
    );
}

#[test]
fn a_paced_event_needs_a_clock_and_bad_rate_words_change_nothing() {
    fresh(SendRateConfig::DEFAULT);
    let r = run_event_paced(event::START, 0, 0, 0, 0, false, 0, 0, false, 0, 0);
    let no_clock = RunError::ALL
        .iter()
        .position(|e| *e == RunError::NoClock)
        .unwrap();
    assert_eq!(r, 1 + no_clock as u32);
    let before = io(|io| io.run);
    // A fail_fast word other than 0 or 1 is no send rate's.
    io(|io| io.bytes[4 * (CONFIG_WORDS - 1)] = 7);
    assert_eq!(
        run_event_paced(event::START, 0, 0, 0, 0, true, 0, 0, false, 0, 0),
        BAD_WORDS
    );
    assert_eq!(io(|io| io.run), before);
}
