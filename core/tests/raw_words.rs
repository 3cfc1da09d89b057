//! The word forms bindings keep a run and a send rate in (`RawRun::to_words`, `SendRate::to_words`):
//! where each half of a 64-bit field goes, and every state `SendRate::from_words` refuses, at the
//! edge of each range its documentation states.

use seeded_backoff::bindings::{RawRun, SEND_RATE_WORDS};
use seeded_backoff::{
    send_rate::{Answer, SendRate, SendRateConfig},
    Policy, Run,
};

#[test]
fn a_run_word_pair_holds_the_low_half_then_the_high_half() {
    let mut raw = Run::new(&Policy::google(), 1).to_raw();
    raw.seed = (5 << 32) | 7;
    raw.now_ms = 1 << 40;
    let w = raw.to_words();
    assert_eq!((w[0], w[1]), (7, 5));
    assert_eq!((w[4], w[5]), (0, 1 << 8));
    // Back from words written by hand, not by to_words. (`|` and `^` join the halves alike: the
    // low word and the high word shifted up never share a bit.)
    let mut hand = w;
    hand[1] = 9;
    assert_eq!(RawRun::from_words(hand).seed, (9 << 32) | 7);
    assert_eq!(RawRun::from_words(w), raw);
}

fn words() -> [u64; SEND_RATE_WORDS] {
    // A reached state: on after a throttle, so rate and step hold values inside their ranges.
    let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    for t in 0..20 {
        rate.on_answer(t * 10, Answer::Accepted);
    }
    rate.on_answer(300, Answer::Throttled { hint_ms: 0 });
    rate.to_words()
}

fn from(w: &[u64; SEND_RATE_WORDS]) -> Option<SendRate> {
    SendRate::from_words(SendRateConfig::DEFAULT, w)
}

#[test]
fn send_rate_words_round_trip() {
    let w = words();
    assert!(w[0] > 0, "the state is on");
    assert_eq!(from(&w).map(|r| r.to_words()), Some(w));
}

#[test]
fn send_rate_words_refuse_a_count_or_rate_beyond_u32() {
    let d = SendRateConfig::DEFAULT;
    for i in [0usize, 3].into_iter().chain(10..20) {
        let mut w = words();
        w[i] = u64::from(u32::MAX) + 1;
        assert_eq!(from(&w), None, "word {i} beyond u32");
        if i >= 10 {
            w[i] = u64::from(u32::MAX);
            assert!(from(&w).is_some(), "count word {i} at u32::MAX");
        }
    }
    let mut w = words();
    w[0] = u64::from(d.max_rate_milli);
    assert!(from(&w).is_some(), "the rate at max_rate_milli");
}

#[test]
fn send_rate_words_refuse_a_flag_other_than_0_or_1() {
    for i in [5usize, 9] {
        for (v, ok) in [(0, true), (1, true), (2, false)] {
            let mut w = words();
            w[i] = v;
            assert_eq!(from(&w).is_some(), ok, "flag word {i} = {v}");
        }
    }
}

#[test]
fn send_rate_words_hold_a_rate_of_0_or_within_its_range() {
    let c = SendRateConfig {
        min_rate_milli: 1000,
        max_rate_milli: 5000,
        ..SendRateConfig::DEFAULT
    };
    let mut w = SendRate::new(c).unwrap().to_words();
    for (v, ok) in [
        (0, true),
        (999, false),
        (1000, true),
        (5000, true),
        (5001, false),
    ] {
        w[0] = v;
        assert_eq!(SendRate::from_words(c, &w).is_some(), ok, "rate {v}");
    }
}

#[test]
fn send_rate_words_hold_a_step_within_first_to_max_permille() {
    let d = SendRateConfig::DEFAULT;
    let (first, max) = (
        u64::from(d.probe_first_permille),
        u64::from(d.probe_max_permille),
    );
    for (v, ok) in [
        (first - 1, false),
        (first, true),
        (max, true),
        (max + 1, false),
    ] {
        let mut w = words();
        w[3] = v;
        assert_eq!(from(&w).is_some(), ok, "step {v}");
    }
}

#[test]
fn send_rate_words_under_a_bad_configuration_are_refused() {
    let bad = SendRateConfig {
        max_rate_milli: 0,
        ..SendRateConfig::DEFAULT
    };
    assert_eq!(SendRate::from_words(bad, &words()), None);
}
