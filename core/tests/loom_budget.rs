//! AtomicRetryBudget under every interleaving loom explores (SPEC.md §10): two or three threads
//! spending, failing and refunding at once end with the tokens a sequential run in some order
//! gives, never below 0 or above the bucket, no update lost, each refund applied once.
//! Run: RUSTFLAGS="--cfg seeded_backoff_loom" cargo test -p seeded-backoff --test loom_budget --release
#![cfg(seeded_backoff_loom)]

use loom::sync::Arc;
use loom::thread;
use seeded_backoff::{
    budget::{AtomicRetryBudget, BudgetConfig, RetryGate},
    FailureKind,
};

/// AWS quota of 10 tokens, retry cost 5, timeout cost 10, first-try success +1 (milli-tokens ×1000).
fn aws_small() -> BudgetConfig {
    BudgetConfig::aws_quota(10, 5, 10, 1).expect("valid")
}

#[test]
fn two_acquires_of_the_last_tokens_grant_exactly_what_is_there() {
    // 10 tokens, two threads each asking for 5 then 10 (a timeout): the grants never exceed 10.
    loom::model(|| {
        let b = Arc::new(AtomicRetryBudget::new(aws_small()));
        let spawn = |kind| {
            let b = b.clone();
            thread::spawn(move || b.try_acquire(kind))
        };
        let t1 = spawn(FailureKind::Error);
        let t2 = spawn(FailureKind::Timeout);
        let (g1, g2) = (t1.join().unwrap(), t2.join().unwrap());
        let spent = u32::from(g1) * 5_000 + u32::from(g2) * 10_000;
        assert!(spent <= 10_000, "granted {spent} milli-tokens of 10000");
        assert_eq!(b.tokens_milli(), 10_000 - spent, "a grant lost or doubled");
        // Exactly one of them is granted: either order leaves too little for the other.
        assert!(g1 ^ g2);
    });
}

#[test]
fn refunds_and_spends_at_once_lose_no_update() {
    // Spend 5 first; then one thread refunds it (a successful retry) while another spends 5:
    // whatever the order, 5 tokens remain and both operations count once.
    loom::model(|| {
        let b = Arc::new(AtomicRetryBudget::new(aws_small()));
        assert!(b.try_acquire(FailureKind::Error));
        let r = {
            let b = b.clone();
            thread::spawn(move || b.record_success(Some(FailureKind::Error)))
        };
        let s = {
            let b = b.clone();
            thread::spawn(move || b.try_acquire(FailureKind::Error))
        };
        r.join().unwrap();
        let granted = s.join().unwrap();
        assert!(granted, "5 tokens were there in either order");
        assert_eq!(b.tokens_milli(), 5_000);
    });
}

#[test]
fn refunds_never_pass_the_capacity() {
    // Full bucket, two refunds at once: still exactly the capacity.
    loom::model(|| {
        let b = Arc::new(AtomicRetryBudget::new(aws_small()));
        let ts: Vec<_> = (0..2)
            .map(|_| {
                let b = b.clone();
                thread::spawn(move || b.record_success(None))
            })
            .collect();
        for t in ts {
            t.join().unwrap();
        }
        assert_eq!(b.tokens_milli(), 10_000);
    });
}

#[test]
fn grpc_failures_and_successes_interleaved_sum_exactly() {
    // gRFC A6, 3 tokens, ratio 0.5: two failures (−1 each) and one success (+0.5) from three
    // threads, starting full: every order ends at 3 − 1 − 1 + 0.5 = 1.5 except when the refund
    // lands first against the cap (3 + 0.5 → 3, then − 2 = 1); never below 0.
    loom::model(|| {
        let b = Arc::new(AtomicRetryBudget::grpc(3, 500).expect("valid"));
        let f =
            |b: Arc<AtomicRetryBudget>| thread::spawn(move || b.record_failure(FailureKind::Error));
        let t1 = f(b.clone());
        let t2 = f(b.clone());
        let t3 = {
            let b = b.clone();
            thread::spawn(move || b.record_success(None))
        };
        t1.join().unwrap();
        t2.join().unwrap();
        t3.join().unwrap();
        let t = b.tokens_milli();
        assert!(t == 1_500 || t == 1_000, "tokens {t}");
    });
}
