//! AtomicRetryBudget under real threads (SPEC.md §10): many threads spending and refunding at once
//! grant exactly the tokens there are, lose no update, apply every refund once, and a reader never
//! sees more than the bucket holds. The interleavings themselves are model-checked in
//! loom_budget.rs (RUSTFLAGS="--cfg seeded_backoff_loom").

use seeded_backoff::{
    budget::{AtomicRetryBudget, BudgetConfig, RetryGate},
    FailureKind,
};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Barrier;
use std::thread;

const THREADS: u32 = 8;

/// AWS quota: 1000 tokens, a retry costs 5, a successful retry refunds them.
fn budget() -> AtomicRetryBudget {
    AtomicRetryBudget::new(BudgetConfig::aws_quota(1000, 5, 10, 1).expect("valid"))
}

#[test]
fn concurrent_spends_grant_exactly_the_tokens_there_are() {
    for _ in 0..200 {
        let b = budget();
        let granted = AtomicU32::new(0);
        // Every thread starts at once, so that their compare-and-swaps contend.
        let start = Barrier::new(THREADS as usize);
        thread::scope(|s| {
            for _ in 0..THREADS {
                s.spawn(|| {
                    start.wait();
                    while b.try_acquire(FailureKind::Error) {
                        granted.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        // 1_000_000 milli-tokens / 5_000 each: 200 grants, no more (none from a stale read), no
        // fewer (no lost update), and nothing left.
        assert_eq!(granted.into_inner(), 200);
        assert_eq!(b.tokens_milli(), 0);
    }
}

#[test]
fn every_refund_is_applied_once_and_the_bucket_never_overflows() {
    let b = budget();
    // Empty it, then refund from every thread at once: 8 × 25 refunds of 5 tokens = 1000 tokens.
    while b.try_acquire(FailureKind::Error) {}
    let done = AtomicBool::new(false);
    let max_seen = AtomicU32::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Acquire) {
                max_seen.fetch_max(b.tokens_milli(), Ordering::Relaxed);
            }
        });
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    for _ in 0..25 {
                        b.record_success(Some(FailureKind::Error));
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        done.store(true, Ordering::Release);
    });
    assert_eq!(b.tokens_milli(), 1_000_000);
    assert!(max_seen.into_inner() <= 1_000_000);
    // Further refunds stop at the capacity.
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| (0..100).for_each(|_| b.record_success(None)));
        }
    });
    assert_eq!(b.tokens_milli(), 1_000_000);
}

#[test]
fn spends_paired_with_refunds_end_where_they_started() {
    // Each thread spends and refunds in pairs while others do: every pair is net zero, so the end
    // is the start exactly, and the tokens stay within 0..=capacity throughout.
    let b = budget();
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..2_000 {
                    if b.try_acquire(FailureKind::Timeout) {
                        assert!(b.tokens_milli() <= 1_000_000);
                        b.record_success(Some(FailureKind::Timeout));
                    }
                }
            });
        }
    });
    assert_eq!(b.tokens_milli(), 1_000_000);
}
