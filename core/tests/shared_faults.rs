//! Shared parts when the store fails (SPEC.md §19.5, §19.6), against a redis-server the test kills
//! and starts again: every call answers within ten times the bound, the process paces from its
//! own state meanwhile (never above it), and rejoins once the store is back. Assertions are on
//! counts and states; the one time figure is the bound, with a tenfold margin.
#![cfg(feature = "valkey")]

mod store_support;

use std::time::{Duration, Instant};

use seeded_backoff::shared::{
    LinkState, SharedBudget, SharedSendRate, Store, LATE_LIMIT, REJOIN_MS, SEND_RATE_VALUE_SIZE,
    STORE_BOUND_MS,
};
use seeded_backoff::{
    budget::RetryGate,
    send_rate::{Answer, Pace, SendRateConfig},
    FailureKind,
};
use store_support::Server;

/// The bound of these runs: ten times the default, so a loaded test machine (2 shared cores)
/// does not make the live store look down; the fault is the killed server.
const BOUND: Duration = Duration::from_millis(10 * STORE_BOUND_MS as u64);
/// Ten times the bound: no call may take longer, whatever the store does.
const CALL_LIMIT: Duration = Duration::from_millis(100 * STORE_BOUND_MS as u64);

/// Waits (at most 10 s) until `joined` says the part decides through the store, calling it again
/// and again: each call is a decision that changes nothing.
fn until_joined(joined: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(10);
    while !joined() {
        assert!(Instant::now() < until, "not joined in 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn ms_since(origin: Instant) -> u64 {
    origin.elapsed().as_millis() as u64
}

#[test]
fn a_send_rate_paces_alone_while_the_store_is_down_and_rejoins_after() {
    let mut server = Server::start();
    // The real clock: the store's TIME.
    let store = Store::open(&server.url()).unwrap().bound(BOUND);
    // 200/s once on, one at a time: every send 5 ms after the last.
    let config = SendRateConfig {
        min_rate_milli: 200_000,
        max_rate_milli: 200_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    };
    let rate = SharedSendRate::new(&store, "rate", config).unwrap();
    let origin = Instant::now();
    until_joined(|| {
        rate.on_answer(ms_since(origin), Answer::NoAnswer);
        rate.link_state() == LinkState::Joined
    });
    rate.on_answer(ms_since(origin), Answer::Throttled { hint_ms: 0 });

    let (mut sends, mut slowest, mut saw_local) = (0u64, Duration::ZERO, false);
    let mut phase = 0;
    let mut restarted_at = None;
    let mut rejoined_at = None;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let t = start.elapsed();
        if phase == 0 && t > Duration::from_millis(500) {
            server.kill();
            phase = 1;
        } else if phase == 1 && t > Duration::from_millis(1200) {
            server.restart();
            restarted_at = Some(Instant::now());
            phase = 2;
        }
        let before = Instant::now();
        let pace = rate.before_attempt(ms_since(origin));
        slowest = slowest.max(before.elapsed());
        saw_local |= rate.link_state() == LinkState::Local;
        match pace {
            Pace::Send => sends += 1,
            Pace::Wait { ms } => std::thread::sleep(Duration::from_millis(ms.into())),
            Pace::Refuse { .. } => panic!("not fail-fast"),
        }
        if phase == 2 && rate.link_state() == LinkState::Joined {
            rejoined_at.get_or_insert_with(Instant::now);
            if sends > 0 && start.elapsed() > Duration::from_millis(2000) {
                break;
            }
        }
    }
    let elapsed = start.elapsed().as_millis() as u64;
    assert!(slowest < CALL_LIMIT, "a call took {slowest:?}");
    assert!(saw_local, "never decided alone while the store was down");
    // Rejoined, within ten times the rejoin bound of the restart.
    let rejoin = rejoined_at.expect("rejoined") - restarted_at.unwrap();
    assert!(
        rejoin < Duration::from_millis(10 * u64::from(REJOIN_MS)),
        "rejoined after {rejoin:?}"
    );
    // Never above the rate (one per 5 ms, one more for the start), and on through the outage.
    assert!(sends <= elapsed / 5 + 2, "{sends} sends in {elapsed} ms");
    assert!(sends >= elapsed / 5 / 10, "{sends} sends in {elapsed} ms");
    // The rejoining process published its own state to the empty store.
    assert_eq!(
        server.command(&["STRLEN", "rate"]),
        SEND_RATE_VALUE_SIZE.to_string()
    );
    let stats = rate.stats();
    assert!(
        stats.alone > 0 && stats.alone < stats.decisions,
        "{stats:?}"
    );
}

#[test]
fn a_budget_spends_from_its_own_copy_while_the_store_is_down_and_publishes_it_on_rejoining() {
    let mut server = Server::start();
    let store = Store::open(&server.url()).unwrap().bound(BOUND);
    // 10 tokens; a failure costs one.
    let config = seeded_backoff::budget::BudgetConfig::grpc(10, 1000).unwrap();
    let budget = SharedBudget::new(&store, "budget", config);
    // A gRPC acquire changes no token: a decision to join with.
    until_joined(|| {
        assert!(budget.try_acquire(FailureKind::Error));
        budget.link_state() == LinkState::Joined
    });
    let timed = |f: &dyn Fn()| {
        let before = Instant::now();
        f();
        assert!(
            before.elapsed() < CALL_LIMIT,
            "a call took {:?}",
            before.elapsed()
        );
    };
    timed(&|| budget.record_failure(FailureKind::Error));
    timed(&|| budget.record_failure(FailureKind::Error));
    server.kill();
    for _ in 0..3 {
        timed(&|| budget.record_failure(FailureKind::Error));
    }
    assert_eq!(budget.link_state(), LinkState::Local);
    assert_eq!(budget.tokens_milli(), 5_000);
    server.restart();
    // Asked again at the first decision REJOIN_MS after the fall; try_acquire changes no token.
    let until = Instant::now() + Duration::from_millis(10 * u64::from(REJOIN_MS));
    while budget.link_state() != LinkState::Joined {
        assert!(Instant::now() < until, "not rejoined");
        timed(&|| assert!(!budget.try_acquire(FailureKind::Error)));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(budget.stats().alone > 0);
    // The restarted store was empty: the process published its copy, 5 tokens, not a cold 10.
    assert_eq!(budget.tokens_milli(), 5_000);
    let other = SharedBudget::new(&store, "budget", config);
    other.record_failure(FailureKind::Error);
    assert_eq!(other.tokens_milli(), 4_000);
}

#[test]
fn a_late_reply_costs_its_decision_and_late_limit_in_a_row_make_the_process_local() {
    let server = Server::start();
    // The default bound, 50 ms: the server is made slow on purpose.
    let store = Store::open(&server.url()).unwrap();
    let config = seeded_backoff::budget::BudgetConfig::grpc(10, 1000).unwrap();
    let budget = SharedBudget::new(&store, "budget", config);
    until_joined(|| {
        assert!(budget.try_acquire(FailureKind::Error));
        budget.link_state() == LinkState::Joined
    });
    // The server sleeps 1 s (DEBUG SLEEP blocks it): every reply in that time is late, and the
    // LATE_LIMIT decisions below take at most the bound each.
    let port = server.port.to_string();
    let sleeper = std::thread::spawn(move || {
        std::process::Command::new("/usr/bin/redis-cli")
            .args(["-p", &port, "DEBUG", "SLEEP", "1"])
            .output()
            .unwrap()
    });
    let until = Instant::now() + Duration::from_millis(900);
    let acquire = || {
        let before = Instant::now();
        assert!(budget.try_acquire(FailureKind::Error));
        assert!(
            before.elapsed() < CALL_LIMIT,
            "a call took {:?}",
            before.elapsed()
        );
    };
    while budget.stats().late == 0 {
        assert!(Instant::now() < until, "no reply was late");
        acquire();
    }
    // Late decisions short of LATE_LIMIT in a row: each made alone, the process still joined.
    for late in 1..LATE_LIMIT {
        if late > 1 {
            acquire();
        }
        assert_eq!(budget.stats().late, u64::from(late));
        assert_eq!(budget.link_state(), LinkState::Joined);
        assert_eq!(budget.stats().alone, u64::from(late));
    }
    // The LATE_LIMIT-th in a row (the server still asleep): local.
    acquire();
    assert_eq!(budget.stats().late, u64::from(LATE_LIMIT));
    assert_eq!(budget.link_state(), LinkState::Local);
    assert_eq!(budget.stats().failed, 0);
    sleeper.join().unwrap();
}
