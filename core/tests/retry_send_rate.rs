//! The retry loop's send rate option (SPEC.md §15.2): its waits are no retries, its answers are
//! heard, and a loop stopped before its first attempt names why.

use core::time::Duration;
use std::cell::Cell;

use seeded_backoff::{
    send_rate::{Answer, AtomicSendRate, NotSent, SendRate, SendRateConfig},
    GiveUpReason, Jitter, Policy, Retry, RetryEvent, ServerHint, Verdict,
};

#[derive(Debug, PartialEq)]
enum Error {
    Busy,
    NotSent(NotSent),
}

impl From<NotSent> for Error {
    fn from(n: NotSent) -> Self {
        Error::NotSent(n)
    }
}

fn ten_per_s() -> SendRateConfig {
    SendRateConfig {
        min_rate_milli: 10_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    }
}

#[test]
fn a_held_rate_delays_the_first_attempt_without_a_retry() {
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let rate = AtomicSendRate::new(ten_per_s()).unwrap();
    rate.on_answer(0, Answer::Throttled { hint_ms: 2_000 });
    let now = Cell::new(100u64);
    let mut told = Vec::new();
    let mut sent_at = Vec::new();
    let result = Retry::new(&policy, 7)
        .clock(|| now.get())
        .send_rate(&rate)
        .on_retry(|e: RetryEvent<'_, Error>| told.push((e.attempt, e.delay_ms)))
        .run_blocking(
            |d: Duration| now.set(now.get() + d.as_millis() as u64),
            |attempt| {
                sent_at.push(now.get());
                if attempt < 2 {
                    Err(Error::Busy)
                } else {
                    Ok(attempt)
                }
            },
            |_e| Verdict::with_hint(ServerHint::RetryAfterMs(3_000)),
        );
    assert_eq!(result, Ok(2));
    // The first attempt waits out the hint (1.9 s, no retry event); the retry's 3 s hint is also
    // the send rate's throttle, which the second attempt's time already passes.
    assert_eq!(sent_at, [2_000, 5_000]);
    assert_eq!(told, [(1, 3_000)]);
    assert!(rate.rate_milli() >= 10_000);
}

#[test]
fn fail_fast_after_a_failure_gives_up_with_the_last_error() {
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let config = SendRateConfig {
        fail_fast: true,
        ..ten_per_s()
    };
    let rate = Cell::new(SendRate::new(config).unwrap());
    let now = Cell::new(0u64);
    let result = Retry::new(&policy, 7)
        .clock(|| now.get())
        .send_rate(&rate)
        .run_blocking(
            |d: Duration| now.set(now.get() + d.as_millis() as u64),
            |_| {
                // Another request of the process is told to hold off for a minute meanwhile.
                let mut r = rate.get();
                r.on_answer(now.get(), Answer::Throttled { hint_ms: 60_000 });
                rate.set(r);
                Err::<(), _>(Error::Busy)
            },
            |_e| true,
        );
    let e = result.unwrap_err();
    assert_eq!(
        (e.cause, e.attempts, e.reason),
        (Error::Busy, 1, Some(GiveUpReason::Throttled))
    );
    assert_eq!(now.get(), 1_000);
}

#[test]
fn a_loop_without_a_clock_is_not_sent() {
    let policy = Policy::google();
    let rate = AtomicSendRate::new(SendRateConfig::DEFAULT).unwrap();
    let mut calls = 0;
    let result = Retry::new(&policy, 7).send_rate(&rate).run_blocking(
        |_: Duration| {},
        |_| {
            calls += 1;
            Ok::<_, Error>(())
        },
        |_e| true,
    );
    let e = result.unwrap_err();
    assert_eq!(
        (e.cause, e.attempts, e.reason),
        (Error::NotSent(NotSent::NoClock), 0, None)
    );
    assert_eq!(calls, 0);
}

#[test]
fn a_wait_past_the_deadline_gives_up_before_the_first_attempt() {
    let policy = Policy::builder().max_elapsed_ms(1_000).build().unwrap();
    let rate = AtomicSendRate::new(ten_per_s()).unwrap();
    rate.on_answer(0, Answer::Throttled { hint_ms: 5_000 });
    let e = Retry::new(&policy, 7)
        .clock(|| 0)
        .send_rate(&rate)
        .run_blocking(|_: Duration| {}, |_| Ok::<_, Error>(()), |_e| true)
        .unwrap_err();
    let why = NotSent::GaveUp(GiveUpReason::Deadline);
    assert_eq!(
        (e.cause, e.attempts, e.reason),
        (Error::NotSent(why), 0, Some(GiveUpReason::Deadline))
    );
}

#[test]
fn threads_sharing_one_rate_are_spaced_by_its_interval() {
    let policy = Policy::google();
    let rate = AtomicSendRate::new(ten_per_s()).unwrap();
    rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
    // A virtual clock per thread that each sleep advances: every thread's first attempt is sent
    // at a distinct 100 ms slot of the shared rate.
    let mut slots: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (policy, rate) = (&policy, &rate);
                s.spawn(move || {
                    let now = Cell::new(0u64);
                    Retry::new(policy, i)
                        .clock(|| now.get())
                        .send_rate(rate)
                        .run_blocking(
                            |d: Duration| now.set(now.get() + d.as_millis() as u64),
                            |_| Ok::<_, Error>(now.get()),
                            |_e| true,
                        )
                        .unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), 8, "{slots:?}");
}

/// A rate that heard 100 accepted answers over its first second (one every 10 ms from 0).
fn hundred_accepted_in_a_second() -> SendRate {
    let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
    for t in 0..100 {
        rate.on_answer(t * 10, Answer::Accepted);
    }
    rate
}

/// One loop from 1000 ms on a virtual clock: attempt 1 fails and is classified by `classify`,
/// attempt 2 succeeds; the clock when it does.
fn fail_once(rate: &Cell<SendRate>, classify: fn(&Error) -> Verdict) -> u64 {
    let policy = Policy::google()
        .to_builder()
        .jitter(Jitter::None)
        .build()
        .unwrap();
    let now = Cell::new(1_000u64);
    let out = Retry::new(&policy, 7)
        .clock(|| now.get())
        .send_rate(rate)
        .run_blocking(
            |d: Duration| now.set(now.get() + d.as_millis() as u64),
            |attempt| {
                if attempt < 2 {
                    Err(Error::Busy)
                } else {
                    Ok(())
                }
            },
            classify,
        );
    assert_eq!(out, Ok(()));
    now.get()
}

#[test]
fn a_classifier_saying_throttled_cuts_the_rate() {
    // A 429 without Retry-After. §17.5 at 1000 ms: window span min(1000, 1000 - 0) = 1000 ms,
    // accepted 100 (rate 100 000), sent 1 (1 000); rate off, so current = 100 000;
    // base = max(min(100 000, 100 000), 50 000); rate = 100 000 · 980 ÷ 1000 = 98 000.
    // §15.2: the throttled retry waits min(1000, 0) = 0 ms, and §17.4 sends it at once (next_us
    // is the first attempt's 1000 ms); the probe there is not due (last probe 1000 + 500 ms).
    let classifiers: [fn(&Error) -> Verdict; 2] = [
        |_| Verdict::throttled(None),
        |_| Verdict::from_status(429, None),
    ];
    for classify in classifiers {
        let rate = Cell::new(hundred_accepted_in_a_second());
        assert_eq!(fail_once(&rate, classify), 1_000);
        assert_eq!(rate.get().rate_milli(), 98_000);
    }
}

#[test]
fn a_classifier_saying_plain_retry_for_a_500_does_not_cut_the_rate() {
    // The rate is on at 98 000 (the throttle above, told directly at 1000 ms). A 500 is an
    // accepted answer (§17.3), a plain retry no answer: neither cuts, and the retry keeps its
    // backoff (Google's 1 s, no jitter). Told as a throttle, it would be
    // base = max(min(98 000, 100 000), 49 000) = 98 000, rate 96 040. At 2000 ms the probe finds
    // sent_rate 1 000 < 98 000 ÷ 2: no growth.
    let classifiers: [fn(&Error) -> Verdict; 2] =
        [|_| Verdict::from_status(500, None), |_| Verdict::RETRY];
    for classify in classifiers {
        let mut on = hundred_accepted_in_a_second();
        on.on_answer(1_000, Answer::Throttled { hint_ms: 0 });
        assert_eq!(on.rate_milli(), 98_000);
        let rate = Cell::new(on);
        assert_eq!(fail_once(&rate, classify), 2_000);
        assert_eq!(rate.get().rate_milli(), 98_000);
    }
}

#[test]
fn a_status_verdict_carries_the_answer_spec_17_3_gives() {
    // §17.3: a 429, or a 503 with a Retry-After or rate-limit hint, is throttled with that hint
    // (0 if none); any other retryable status (§7: 429, 5xx) was accepted; other statuses stop.
    use seeded_backoff::FailureKind::Error as E;
    let after = |ms| Some(ServerHint::RetryAfterMs(ms));
    let reset = |ms| Some(ServerHint::RateLimitResetMs(ms));
    let retry = |hint, answer| Verdict::Retry {
        hint,
        failure_kind: E,
        answer: Some(answer),
    };
    let throttled = |hint_ms| Answer::Throttled { hint_ms };
    let no_retry = Some(ServerHint::DoNotRetry);
    let cases = [
        (429, None, retry(None, throttled(0))),
        (429, after(2_000), retry(after(2_000), throttled(2_000))),
        (429, reset(1_500), retry(reset(1_500), throttled(1_500))),
        (429, no_retry, retry(no_retry, throttled(0))),
        (503, None, retry(None, Answer::Accepted)),
        (503, after(3_000), retry(after(3_000), throttled(3_000))),
        (503, reset(700), retry(reset(700), throttled(700))),
        (503, no_retry, retry(no_retry, Answer::Accepted)),
        (500, after(100), retry(after(100), Answer::Accepted)),
        (502, None, retry(None, Answer::Accepted)),
        (599, None, retry(None, Answer::Accepted)),
        (200, None, Verdict::Stop),
        (404, after(1_000), Verdict::Stop),
        (428, None, Verdict::Stop),
        (600, None, Verdict::Stop),
    ];
    for (status, hint, want) in cases {
        assert_eq!(
            Verdict::from_status(status, hint),
            want,
            "{status} {hint:?}"
        );
    }
    assert_eq!(
        Verdict::throttled(reset(30_000)),
        retry(reset(30_000), throttled(30_000))
    );
}
