//! Many Tokio tasks and many threads sharing one send rate through the retry loop
//! (`Retry::send_rate` with `run_tokio` / `run_thread`) and through tower's `SendRateLayer`: it
//! never admits two attempts into one slot. The bound is SPEC.md §17.4's, derived here: at a fixed rate r (min = max, after one
//! throttle) and burst 1, attempt i goes only once the clock reads at least the first reading
//! plus i · 10^9 ÷ r µs, whatever the number of callers; and §17.5's answers keep the rate
//! within [min, max] whatever the order they arrive in.
#![cfg(feature = "tokio")]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use seeded_backoff::{
    send_rate::{Answer, AtomicSendRate, NotSent, SendRateConfig},
    Policy, Retry, ServerHint, Verdict,
};

#[derive(Debug)]
enum Error {
    Throttled,
    /// A loop stopped before its first attempt (none does here: no fail-fast, no deadline).
    NotSent,
}

impl From<NotSent> for Error {
    fn from(_: NotSent) -> Self {
        Error::NotSent
    }
}

#[cfg(feature = "tower")]
impl From<seeded_backoff::tower::SendRefused> for Error {
    fn from(_: seeded_backoff::tower::SendRefused) -> Self {
        Error::NotSent
    }
}

const RATE_MILLI: u32 = 500_000; // 500 attempts/s: 2 ms apart
const INTERVAL_US: u128 = 1_000_000_000 / RATE_MILLI as u128;

fn fixed_rate() -> AtomicSendRate {
    let config = SendRateConfig {
        min_rate_milli: RATE_MILLI,
        max_rate_milli: RATE_MILLI,
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let rate = AtomicSendRate::new(config).unwrap();
    rate.on_answer(0, Answer::Throttled { hint_ms: 0 });
    assert_eq!(rate.rate_milli(), RATE_MILLI);
    rate
}

/// Attempt i (in the order they went) left no earlier than i intervals after the start, less
/// the 1 ms the loop's ms clock may floor the first reading by.
fn assert_spaced(start: Instant, mut times: Vec<Instant>) {
    times.sort();
    for (i, t) in times.iter().enumerate() {
        let us = t.duration_since(start).as_micros() + 1_000;
        assert!(us >= i as u128 * INTERVAL_US, "attempt {i} at {us} us");
    }
}

/// A multi-threaded runtime, so that tasks ask the rate from several threads at once.
fn four_workers() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn fifty_tokio_tasks_share_one_rate_without_over_admitting() {
    let runtime = four_workers();
    let rate = Arc::new(fixed_rate());
    let times = Arc::new(Mutex::new(Vec::new()));
    let policy = Policy::google();
    let start = Instant::now();
    runtime.block_on(async {
        let tasks: Vec<_> = (0..50u64)
            .map(|i| {
                let (rate, times) = (Arc::clone(&rate), Arc::clone(&times));
                tokio::spawn(async move {
                    for call in 0..4 {
                        let times = &times;
                        Retry::new(&policy, i * 4 + call)
                            .send_rate(&*rate)
                            .run_tokio(
                                |_| async move {
                                    times.lock().unwrap().push(Instant::now());
                                    Ok::<_, Error>(())
                                },
                                |_| true,
                            )
                            .await
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
    });
    let times = Arc::try_unwrap(times).unwrap().into_inner().unwrap();
    assert_eq!(times.len(), 200);
    assert_spaced(start, times);
    // Paced, not stalled: 200 attempts 2 ms apart take about 0.4 s. Miri interprets every task
    // about a thousand times slower, so there the bound says nothing of the rate.
    if !cfg!(miri) {
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}

#[cfg(feature = "tower")]
#[test]
fn fifty_concurrent_calls_through_the_tower_layer_are_spaced_by_the_rate() {
    use seeded_backoff::tower::SendRateLayer;
    use tower::{service_fn, Layer, ServiceExt};

    let runtime = four_workers();
    let rate = Arc::new(fixed_rate());
    let times = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&times);
    let layer = SendRateLayer::new(Arc::clone(&rate), |_: &Result<(), Error>| Answer::Accepted);
    let service = layer.layer(service_fn(move |_call: u32| {
        seen.lock().unwrap().push(Instant::now());
        async { Ok::<_, Error>(()) }
    }));
    let start = Instant::now();
    runtime.block_on(async {
        let calls: Vec<_> = (0..50)
            .map(|i| tokio::spawn(service.clone().oneshot(i)))
            .collect();
        for c in calls {
            c.await.unwrap().unwrap();
        }
    });
    drop(service);
    let times = Arc::try_unwrap(times).unwrap().into_inner().unwrap();
    assert_eq!(times.len(), 50);
    assert_spaced(start, times);
    // Accepted answers leave a rate at its maximum where it is.
    assert_eq!(rate.rate_milli(), RATE_MILLI);
    if !cfg!(miri) {
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}

#[test]
fn many_threads_share_one_rate_without_over_admitting() {
    let rate = fixed_rate();
    let times = Mutex::new(Vec::new());
    let policy = Policy::google();
    let start = Instant::now();
    std::thread::scope(|s| {
        for i in 0..20u64 {
            let (rate, times, policy) = (&rate, &times, &policy);
            s.spawn(move || {
                for call in 0..5 {
                    Retry::new(policy, i * 5 + call)
                        .send_rate(rate)
                        .run_thread(
                            |_| {
                                times.lock().unwrap().push(Instant::now());
                                Ok::<_, Error>(())
                            },
                            |_| true,
                        )
                        .unwrap();
                }
            });
        }
    });
    let times = times.into_inner().unwrap();
    assert_eq!(times.len(), 100);
    assert_spaced(start, times);
}

#[test]
fn throttles_from_many_tasks_keep_the_rate_within_its_bounds() {
    // Every other attempt is throttled with a short hint: the answers of 50 tasks interleave, and
    // the rate stays within [min, max] (§17.5 clamps each cut) while every call ends.
    let config = SendRateConfig {
        min_rate_milli: 50_000,
        max_rate_milli: 2_000_000,
        ..SendRateConfig::DEFAULT
    };
    let rate = Arc::new(AtomicSendRate::new(config).unwrap());
    let runtime = four_workers();
    let policy = Policy::google()
        .to_builder()
        .initial_ms(5)
        .max_backoff_ms(20)
        .jitter(seeded_backoff::Jitter::None)
        .build()
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    runtime.block_on(async {
        let tasks: Vec<_> = (0..50u64)
            .map(|i| {
                let (rate, seen) = (Arc::clone(&rate), Arc::clone(&seen));
                tokio::spawn(async move {
                    let out = Retry::new(&policy, i)
                        .send_rate(&*rate)
                        .run_tokio(
                            |attempt| {
                                let r = rate.rate_milli();
                                seen.lock().unwrap().push(r);
                                async move {
                                    if attempt % 2 == 1 {
                                        Err(Error::Throttled)
                                    } else {
                                        Ok(())
                                    }
                                }
                            },
                            |_| Verdict::with_hint(ServerHint::RetryAfterMs(10)),
                        )
                        .await;
                    out.unwrap();
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
    });
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 100);
    assert!(
        rate.rate_milli() >= 50_000 && rate.rate_milli() <= 2_000_000,
        "{}",
        rate.rate_milli()
    );
    assert!(
        seen.iter()
            .all(|&r| r == 0 || (50_000..=2_000_000).contains(&r)),
        "{seen:?}"
    );
}
