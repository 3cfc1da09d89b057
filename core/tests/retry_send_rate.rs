//! The retry loop's send rate option (SPEC.md §15.2): its waits are no retries, its answers are
//! heard, and a loop stopped before its first attempt names why.

use core::time::Duration;
use std::cell::Cell;

use seeded_backoff::{
    Answer, AtomicSendRate, GiveUpReason, Jitter, NotSent, Policy, Retry, RetryEvent, SendRate,
    SendRateConfig, ServerHint, Verdict,
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
