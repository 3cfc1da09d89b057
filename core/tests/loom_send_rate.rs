//! AtomicSendRate under every interleaving loom explores (SPEC.md §17.6): concurrent asks and
//! answers end in the state of some serial order of them, so no send is counted twice or lost,
//! and no throttle's cut or hold is undone by a concurrent ask.
//! Run: RUSTFLAGS="--cfg seeded_backoff_loom" cargo test -p seeded-backoff --test loom_send_rate --release
#![cfg(seeded_backoff_loom)]

use loom::sync::Arc;
use loom::thread;
use seeded_backoff::send_rate::{Answer, AtomicSendRate, Pace, SendRate, SendRateConfig};

/// 10 requests/s at most once on (the first throttle sets the rate under it), burst 1.
fn config() -> SendRateConfig {
    SendRateConfig {
        max_rate_milli: 10_000,
        burst: 1,
        ..SendRateConfig::DEFAULT
    }
}

/// The states the serial orders of `a` then `b`, and `b` then `a`, reach from `start`.
fn serial(start: SendRate, a: impl Fn(&mut SendRate), b: impl Fn(&mut SendRate)) -> [SendRate; 2] {
    let (mut ab, mut ba) = (start, start);
    a(&mut ab);
    b(&mut ab);
    b(&mut ba);
    a(&mut ba);
    [ab, ba]
}

/// A rate that is on (one throttle at 0 ms, no hint), as both forms start each model.
fn throttled() -> SendRate {
    let mut r = SendRate::new(config()).expect("valid");
    r.before_attempt(0);
    r.on_answer(0, Answer::Throttled { hint_ms: 0 });
    r
}

/// The shared form of [`throttled`].
fn shared_throttled() -> Arc<AtomicSendRate> {
    let shared = Arc::new(AtomicSendRate::new(config()).expect("valid"));
    shared.before_attempt(0);
    shared.on_answer(0, Answer::Throttled { hint_ms: 0 });
    shared
}

#[test]
fn two_asks_at_once_take_one_slot_each() {
    loom::model(|| {
        let shared = shared_throttled();
        let ask = |now| {
            let s = shared.clone();
            thread::spawn(move || s.before_attempt(now))
        };
        let (t1, t2) = (ask(1_000), ask(1_000));
        let answers = [t1.join().unwrap(), t2.join().unwrap()];
        // One interval: exactly one of the two is sent, the other told to wait.
        assert_eq!(
            answers.iter().filter(|&&p| p == Pace::Send).count(),
            1,
            "{answers:?}"
        );
        let want = serial(
            throttled(),
            |r| {
                let _ = r.before_attempt(1_000);
            },
            |r| {
                let _ = r.before_attempt(1_000);
            },
        );
        assert!(
            want.contains(&shared.load()),
            "a state no serial order reaches"
        );
    });
}

#[test]
fn a_throttle_and_an_ask_at_once_lose_neither() {
    loom::model(|| {
        let shared = shared_throttled();
        let hold = Answer::Throttled { hint_ms: 5_000 };
        let t = {
            let s = shared.clone();
            thread::spawn(move || s.on_answer(2_000, hold))
        };
        let a = {
            let s = shared.clone();
            thread::spawn(move || s.before_attempt(2_000))
        };
        t.join().unwrap();
        a.join().unwrap();
        let want = serial(
            throttled(),
            |r| r.on_answer(2_000, hold),
            |r| {
                let _ = r.before_attempt(2_000);
            },
        );
        assert!(
            want.contains(&shared.load()),
            "a state no serial order reaches"
        );
        // Whichever went first, the hint holds the next ask.
        assert!(matches!(shared.before_attempt(2_001), Pace::Wait { .. }));
    });
}

#[test]
fn two_throttles_of_one_flight_at_once_cut_once() {
    loom::model(|| {
        let shared = shared_throttled();
        let thr = Answer::Throttled { hint_ms: 0 };
        // Both sent after the cut at 0 and answered at 2 000: whichever is taken first cuts,
        // and the other, sent before that cut, does not (§17.5).
        let answer = |sent| {
            let s = shared.clone();
            thread::spawn(move || s.on_answer_sent(2_000, sent, thr))
        };
        let (t1, t2) = (answer(1_000), answer(1_500));
        t1.join().unwrap();
        t2.join().unwrap();
        let want = serial(
            throttled(),
            |r| r.on_answer_sent(2_000, 1_000, thr),
            |r| r.on_answer_sent(2_000, 1_500, thr),
        );
        assert!(
            want.contains(&shared.load()),
            "a state no serial order reaches"
        );
        // The cut at 0: 1 sent over the 100 ms floor, 10 000, none accepted: 5 000 · 0.98 =
        // 4 900. One cut at 2 000 (nothing accepted in the window): 2 450 · 0.98 = 2 401; a
        // second would give 1 200 · 0.98 = 1 176.
        assert_eq!(shared.rate_milli(), 2_401);
    });
}
