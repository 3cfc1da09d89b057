//! A fresh seed per call by default (SPEC.md §14: a loop given no seed draws one from the
//! operating system): eight `retry_tokio` calls started together retry apart, where one constant
//! seed put them in lockstep; a given seed still replays; the tower and reqwest-retry policies
//! draw their loop seed likewise; and the helpers' futures and policies stay `Send`.
#![cfg(all(feature = "tower", feature = "retry-policies"))]

use std::sync::{Arc, Mutex};

use seeded_backoff::{
    retry_policies::SeededRetryPolicy, retry_tokio, tower::TowerPolicy, Jitter, Policy, Retry,
    Verdict,
};

/// A window of 10^9 ms for the first retry: eight draws from independent seeds collide with a
/// chance of about 3 in 10^8, so "all apart" is a deterministic outcome, not a timing one.
fn wide() -> Policy {
    Policy::builder()
        .initial_ms(1_000_000_000)
        .max_backoff_ms(1_000_000_000)
        .jitter(Jitter::Full)
        .build()
        .unwrap()
}

/// When each of eight calls started together made its second attempt, on Tokio's paused clock.
async fn second_attempts(seeded: Option<u64>) -> Vec<u128> {
    let start = tokio::time::Instant::now();
    let times = Arc::new(Mutex::new(Vec::new()));
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let times = Arc::clone(&times);
            tokio::spawn(async move {
                let policy = wide();
                let op = |attempt: u32| {
                    let times = Arc::clone(&times);
                    async move {
                        if attempt == 2 {
                            times.lock().unwrap().push(start.elapsed().as_millis());
                            return Ok(());
                        }
                        Err("503")
                    }
                };
                match seeded {
                    Some(seed) => Retry::new(&policy, seed).run_tokio(op, |_| true).await,
                    None => retry_tokio(&policy, op, |_| true).await,
                }
                .unwrap();
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let mut times = times.lock().unwrap().clone();
    times.sort_unstable();
    times
}

#[tokio::test(start_paused = true)]
async fn calls_without_a_seed_retry_apart_and_a_given_seed_replays() {
    let fresh = second_attempts(None).await;
    let mut apart = fresh.clone();
    apart.dedup();
    assert_eq!(apart.len(), 8, "eight calls' first retries: {fresh:?}");
    let same = second_attempts(Some(0x5eed)).await;
    assert!(
        same.windows(2).all(|w| w[0] == w[1]),
        "one seed, one schedule: {same:?}"
    );
    assert_eq!(same, second_attempts(Some(0x5eed)).await);
}

#[tokio::test(start_paused = true)]
async fn tower_policies_without_a_seed_draw_their_own() {
    use tower::{service_fn, ServiceExt};
    let mut firsts = Vec::new();
    for _ in 0..4 {
        let start = tokio::time::Instant::now();
        let at = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&at);
        let service = service_fn(move |_req: ()| {
            let n = {
                let mut seen = seen.lock().unwrap();
                seen.push(start.elapsed().as_millis());
                seen.len()
            };
            async move { Ok::<u16, &str>(if n < 2 { 503 } else { 200 }) }
        });
        let policy = TowerPolicy::new(wide(), |r: &Result<u16, &str>| match r {
            Ok(503) => Verdict::RETRY,
            _ => Verdict::Stop,
        });
        let retry = tower::retry::Retry::new(policy, service);
        assert_eq!(retry.oneshot(()).await, Ok(200));
        let gap = at.lock().unwrap()[1];
        firsts.push(gap);
    }
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 4, "four policies' first retries: {firsts:?}");
}

#[test]
fn reqwest_retry_policies_without_a_seed_draw_their_own() {
    let start = std::time::SystemTime::now();
    let delays: Vec<_> = (0..4)
        .map(|_| SeededRetryPolicy::new(wide()).delay_ms(start, 0))
        .collect();
    let mut apart = delays.clone();
    apart.sort_unstable();
    apart.dedup();
    assert_eq!(apart.len(), 4, "{delays:?}");
    let seeded = SeededRetryPolicy::new(wide()).seed(9).delay_ms(start, 0);
    assert_eq!(
        seeded,
        SeededRetryPolicy::new(wide()).seed(9).delay_ms(start, 0)
    );
}

#[test]
fn the_helpers_keep_send() {
    fn send<T: Send>(_: &T) {}
    let policy = Policy::google();
    let tower_policy = TowerPolicy::new(policy, |r: &Result<u16, ()>| Verdict::from(r.is_err()))
        .give_up_as_error();
    send(&tower_policy);
    send(&SeededRetryPolicy::new(policy));
    let call = retry_tokio(&policy, |_| async { Ok::<(), ()>(()) }, |_| false);
    send(&call);
    let seeded = Retry::new(&policy, 1).run_tokio(|_| async { Ok::<(), ()>(()) }, |_| false);
    send(&seeded);
}
