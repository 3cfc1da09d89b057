//! SPEC.md §14's seed rule in the Rust loop: calls of one loop started on many threads at once
//! take their seeds from one `CallSeeds`, and together wait exactly the schedules of
//! `call_seed(seed, 0..n)`, each its own, whatever order the threads run in. The expected
//! call seeds are the vectors' (tests/vectors/call-seeds.json, recomputed by the model).

use std::sync::{Barrier, Mutex};
use std::time::Duration;

use seeded_backoff::{call_seed, Backoff, CallSeeds, Policy, Retry};

const CALLS: u64 = 32;

fn schedules_of(policy: &Policy, seeds: impl Iterator<Item = u64>) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = seeds
        .map(|seed| {
            let mut b = Backoff::new(policy, seed);
            (0..2)
                .map(|_| b.next_delay(policy).delay_ms().unwrap())
                .collect()
        })
        .collect();
    out.sort();
    out
}

fn run(seed: u64) -> Vec<Vec<u32>> {
    let policy = Policy::google();
    let seeds = CallSeeds::new(seed);
    let barrier = Barrier::new(CALLS as usize);
    let waits = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..CALLS {
            scope.spawn(|| {
                barrier.wait();
                let mut slept = Vec::new();
                let out = Retry::new(&policy, seeds.next_seed()).run_blocking(
                    |d: Duration| slept.push(d.as_millis() as u32),
                    |attempt| if attempt < 3 { Err("busy") } else { Ok(()) },
                    |_e| true,
                );
                assert_eq!(out, Ok(()));
                waits.lock().unwrap().push(slept);
            });
        }
    });
    assert_eq!(seeds.calls(), CALLS);
    let mut waits = waits.into_inner().unwrap();
    waits.sort();
    waits
}

#[test]
fn concurrent_calls_of_one_loop_have_distinct_reproducible_schedules() {
    let policy = Policy::google();
    let waits = run(42);
    assert_eq!(
        waits,
        schedules_of(&policy, (0..CALLS).map(|i| call_seed(42, i)))
    );
    let mut distinct = waits.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), CALLS as usize, "no two calls retry in step");
    assert_eq!(run(42), waits, "the run replays");
}

#[test]
fn call_zero_is_the_seed_itself_and_every_index_differs() {
    assert_eq!(call_seed(7, 0), 7);
    let mut seeds: Vec<u64> = (0..10_000).map(|i| call_seed(7, i)).collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 10_000);
    assert_ne!(call_seed(7, u64::MAX), call_seed(7, u64::MAX - 1));
}
