//! The send rate's cold start (SPEC.md §17.2's span floor, §17.5's one cut per flight) in the
//! plain, atomic and run forms. Every expected value is derived here from the SPEC's formulas.

use core::cell::Cell;

use seeded_backoff::{
    send_rate::{Answer, AtomicSendRate, Pace, SendRate, SendRateConfig, SPAN_FLOOR_MS},
    Action, FailureKind, Outcome, Policy, Run,
};

const D: SendRateConfig = SendRateConfig::DEFAULT;
const THROTTLED: Answer = Answer::Throttled { hint_ms: 0 };

#[test]
fn a_rate_early_in_a_process_is_read_over_at_least_100_ms() {
    assert_eq!(SPAN_FLOOR_MS, 100);
    // 10 accepted at 0, a throttle at 1 ms: span = max(100, min(1 + 1000, 1 − 0)) = 100, so
    // accepted_rate = 10 · 10^6 ÷ 100 = 100 000 (over the 1 ms itself: 10 000 000). Rate off:
    // current = max(sent_rate 0, 100 000); base = 100 000; rate = 100 000 · 980 ÷ 1000.
    let mut rate = SendRate::new(D).unwrap();
    for _ in 0..10 {
        rate.on_answer(0, Answer::Accepted);
    }
    rate.on_answer(1, THROTTLED);
    assert_eq!(rate.rate_milli(), 98_000);
    // At 99 ms the floor still holds: 10 · 10^6 ÷ 100; at 150 ms the span is 150.
    let at = |t| {
        let mut r = SendRate::new(D).unwrap();
        for _ in 0..10 {
            r.on_answer(0, Answer::Accepted);
        }
        r.on_answer(t, THROTTLED);
        r.rate_milli()
    };
    assert_eq!(at(99), 98_000);
    // 10 · 10^6 ÷ 150 = 66 666; · 980 ÷ 1000 = 65 332.
    assert_eq!(at(150), 65_332);
}

/// A rate cut once at 1000 ms to 98/s: 100 accepted over the second before it.
fn cut_at_1000() -> SendRate {
    let mut rate = SendRate::new(D).unwrap();
    for t in 0..100 {
        rate.on_answer(t * 10, Answer::Accepted);
    }
    rate.on_answer(1000, THROTTLED);
    assert_eq!(rate.rate_milli(), 98_000);
    rate
}

#[test]
fn a_throttle_of_an_attempt_sent_before_the_last_cut_holds_but_does_not_cut() {
    let mut rate = cut_at_1000();
    // Sent at 999, before the cut at 1000: no cut; its 500 ms hint still holds every attempt.
    rate.on_answer_sent(1010, 999, Answer::Throttled { hint_ms: 500 });
    assert_eq!(rate.rate_milli(), 98_000);
    assert_eq!(rate.before_attempt(1010), Pace::Wait { ms: 500 });
    // Sent at 1000, with the cut: cut. Span at 1020 = min(1020 − 1000 + 1000, 1020) = 1020,
    // accepted_rate = 100 · 10^6 ÷ 1020 = 98 039 ≥ rate, so base = 98 000; · 0.98 = 96 040.
    rate.on_answer_sent(1020, 1000, THROTTLED);
    assert_eq!(rate.rate_milli(), 96_040);
}

#[test]
fn an_answer_without_a_send_time_counts_as_sent_now_even_when_the_clock_went_back() {
    let mut rate = cut_at_1000();
    // The reading 900 steps to 1000 (§17): sent now = 1000, not before the cut: it cuts, as
    // before (span 1000, accepted_rate 100 000 ≥ 98 000: base 98 000, · 0.98 = 96 040).
    rate.on_answer(900, THROTTLED);
    assert_eq!(rate.rate_milli(), 96_040);
}

#[test]
fn the_atomic_form_applies_the_same_rule() {
    let shared = AtomicSendRate::new(D).unwrap();
    for t in 0..100 {
        shared.on_answer(t * 10, Answer::Accepted);
    }
    shared.on_answer_sent(1000, 1000, THROTTLED);
    shared.on_answer_sent(1010, 999, THROTTLED);
    assert_eq!(shared.rate_milli(), 98_000);
    shared.on_answer_sent(1020, 1000, THROTTLED);
    assert_eq!(shared.rate_milli(), 96_040);
    // A guard still applies to fresh throttles: within guard_ms of the cut, nothing.
    let guarded = AtomicSendRate::new(SendRateConfig { guard_ms: 50, ..D }).unwrap();
    guarded.on_answer(0, Answer::Accepted);
    guarded.on_answer(0, THROTTLED);
    // 1 accepted over the floor: 10 000; base 10 000 (rate off, sent 0); · 0.98 = 9 800.
    assert_eq!(guarded.rate_milli(), 9_800);
    guarded.on_answer_sent(49, 10, THROTTLED);
    assert_eq!(guarded.rate_milli(), 9_800);
}

#[test]
fn a_paced_run_tells_the_time_its_attempt_was_let_go() {
    let p = Policy::google();
    let rate = Cell::new(SendRate::new(D).unwrap());
    let busy = Outcome::Retryable {
        hint: None,
        failure_kind: FailureKind::Error,
    };
    let mut a = Run::new(&p, 1);
    let mut b = Run::new(&p, 2);
    // Both let go at 0 (rate off), both throttled at 20.
    assert_eq!(
        a.start_paced(&p, Some(0), &rate),
        Ok(Action::Attempt { attempt: 1 })
    );
    assert_eq!(
        b.start_paced(&p, Some(0), &rate),
        Ok(Action::Attempt { attempt: 1 })
    );
    let retry = Ok(Action::Retry {
        attempt: 1,
        delay_ms: 0,
    });
    assert_eq!(
        a.outcome_paced(&p, busy, Some(THROTTLED), Some(20), None, &rate),
        retry
    );
    // 2 sent over the 100 ms floor: 20 000; none accepted: base 10 000; · 0.98.
    assert_eq!(rate.get().rate_milli(), 9_800);
    // b's attempt went at 0, before the cut at 20: no second cut (it would be 4 802).
    assert_eq!(
        b.outcome_paced(&p, busy, Some(THROTTLED), Some(20), None, &rate),
        retry
    );
    assert_eq!(rate.get().rate_milli(), 9_800);
    // a's retry, let go at 30 after the cut, throttled at 50: cut. Interval 10^9 ÷ 9 800 =
    // 102 040 µs; next_us was 0 (both went at rate 0), so the wake at 30 goes.
    assert_eq!(
        a.wake_paced(&p, Some(30), &rate),
        Ok(Action::Attempt { attempt: 2 })
    );
    a.outcome_paced(&p, busy, Some(THROTTLED), Some(50), None, &rate)
        .unwrap();
    // current 9 800, none accepted: base = max(0, 4 900); · 0.98 = 4 802.
    assert_eq!(rate.get().rate_milli(), 4_802);
}
