//! One process's turn on a fleet's three shared parts (SPEC.md §19), for the cross-language
//! test in which Python, Node and Rust processes take turns on the same keys
//! (`python/tests/test_shared_turns.py`): on `PREFIX:rate` an ask then an answer, on
//! `PREFIX:budget` one acquire, on `PREFIX:pacer` one slot, each decided on the state the store
//! holds (what the previous process wrote), at the caller's reading `NOW`. It prints the answers
//! and the state after them, one JSON line.
//!
//! `cargo run --release -p seeded-backoff --features valkey --example shared_turn -- PORT PREFIX NOW accepted|throttled`

use std::time::Duration;

use seeded_backoff::budget::{BudgetConfig, FailureKind, RetryGate};
use seeded_backoff::pacer::Pacer;
use seeded_backoff::send_rate::{Answer, Pace, SendRateConfig};
use seeded_backoff::shared::{FleetClock, SharedBudget, SharedPacer, SharedSendRate, Store};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port, prefix, now, answer] = args.as_slice() else {
        eprintln!("usage: shared_turn PORT PREFIX NOW accepted|throttled");
        std::process::exit(2);
    };
    let now: u64 = now.parse().expect("NOW: ms, an integer");
    let answer = match answer.as_str() {
        "accepted" => Answer::Accepted,
        "throttled" => Answer::Throttled { hint_ms: 0 },
        other => panic!("ANSWER: accepted or throttled, got {other}"),
    };
    // The readings as given (every process of the test shares one virtual clock), and a wide
    // bound: a loaded machine must not make a turn decide alone.
    let store = Store::open(&format!("redis://127.0.0.1:{port}/"))
        .expect("a port")
        .clock(FleetClock::Caller)
        .bound(Duration::from_secs(5));
    // The configuration every process of the test gives: the send rate's defaults with a floor
    // of one request a second, the AWS SDKs' quota, 10 slots a second seeded 3.
    let config = SendRateConfig {
        min_rate_milli: 1000,
        ..SendRateConfig::DEFAULT
    };
    let rate =
        SharedSendRate::new(&store, format!("{prefix}:rate"), config).expect("a valid config");
    let budget = SharedBudget::new(
        &store,
        format!("{prefix}:budget"),
        BudgetConfig::AWS_DEFAULT,
    );
    let pacer = Pacer::new(10, 0, 60, 3).expect("a valid pacer");
    let pacer = SharedPacer::new(&store, format!("{prefix}:pacer"), pacer);

    let pace = match rate.before_attempt(now) {
        Pace::Send => ("send", 0),
        Pace::Wait { ms } => ("wait", ms),
        Pace::Refuse { ms } => ("refuse", ms),
    };
    rate.on_answer(now, answer);
    let acquired = budget.try_acquire(FailureKind::Error);
    let slot = pacer.assign(now);
    let pending = pacer.pending(now);
    // A turn decided alone (the store away) would prove nothing: say so, and fail.
    let alone = rate.stats().alone + budget.stats().alone + pacer.stats().alone;
    println!(
        "{{\"pace\": [\"{}\", {}], \"rate_milli\": {}, \"acquired\": {acquired}, \"tokens_milli\": {}, \
         \"slot\": [{}, {}, {}], \"pending\": {pending}, \"alone\": {alone}}}",
        pace.0,
        pace.1,
        rate.load().rate_milli(),
        budget.tokens_milli(),
        slot.retry_after_s,
        slot.reset_ms,
        slot.full,
    );
}
