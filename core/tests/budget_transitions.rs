//! SPEC.md §10's budget transitions, hand-derived, applied to both budgets that implement them
//! (`RetryBudget` and the lock-free `AtomicRetryBudget`), which must agree step by step.

use seeded_backoff::{
    budget::{AtomicRetryBudget, BudgetConfig, RetryBudget, RetryGate},
    FailureKind as K,
};

/// A budget under test: the gate and its token count.
trait Budget: RetryGate {
    fn tokens(&self) -> u32;
}

impl Budget for RetryBudget {
    fn tokens(&self) -> u32 {
        self.tokens_milli()
    }
}

impl Budget for AtomicRetryBudget {
    fn tokens(&self) -> u32 {
        self.tokens_milli()
    }
}

/// §10.1 with max_tokens 10, ratio 0.1: max 10000; a failure takes 1000; a retry is allowed while
/// tokens > 5000 and takes nothing; a success adds 100.
fn grpc_walk(b: &dyn Budget) {
    assert_eq!(b.tokens(), 10_000);
    for left in [9000, 8000, 7000, 6000] {
        b.record_failure(K::Error);
        assert_eq!(b.tokens(), left);
        assert!(b.try_acquire(K::Error));
        assert_eq!(b.tokens(), left);
    }
    b.record_failure(K::Timeout);
    assert_eq!(b.tokens(), 5000);
    assert!(!b.try_acquire(K::Error), "5000 is not above max / 2");
    b.record_success(None);
    assert_eq!(b.tokens(), 5100);
    assert!(b.try_acquire(K::Timeout));
    for _ in 0..10 {
        b.record_failure(K::Error);
    }
    assert_eq!(b.tokens(), 0, "a failure never takes the count below 0");
    for _ in 0..101 {
        b.record_success(Some(K::Error));
    }
    assert_eq!(b.tokens(), 10_000, "a success never lifts it above max");
}

/// §10.2 with capacity 20, costs 5 and 10, increment 1 (× 1000): failures change nothing; a retry
/// takes its kind's cost while there is enough; a success after a retry refunds that kind's cost,
/// a first-try success adds the increment, never above capacity.
fn aws_walk(b: &dyn Budget) {
    assert_eq!(b.tokens(), 20_000);
    b.record_failure(K::Error);
    assert_eq!(b.tokens(), 20_000);
    assert!(b.try_acquire(K::Timeout));
    assert_eq!(b.tokens(), 10_000);
    assert!(b.try_acquire(K::Error) && b.try_acquire(K::Error));
    assert_eq!(b.tokens(), 0);
    assert!(!b.try_acquire(K::Error));
    b.record_success(Some(K::Error));
    assert_eq!(b.tokens(), 5000);
    assert!(!b.try_acquire(K::Timeout), "5000 < 10000");
    assert!(b.try_acquire(K::Error));
    b.record_success(None);
    assert_eq!(b.tokens(), 1000);
    b.record_success(Some(K::Timeout));
    assert_eq!(b.tokens(), 11_000);
    b.record_success(Some(K::Timeout));
    assert_eq!(b.tokens(), 20_000, "capped at capacity");
}

#[test]
fn grpc_budgets_follow_the_spec_step_by_step() {
    let config = BudgetConfig::grpc(10, 100).unwrap();
    grpc_walk(&RetryBudget::new(config));
    grpc_walk(&AtomicRetryBudget::new(config));
    grpc_walk(&AtomicRetryBudget::grpc(10, 100).unwrap());
}

#[test]
fn aws_quotas_follow_the_spec_step_by_step() {
    let config = BudgetConfig::aws_quota(20, 5, 10, 1).unwrap();
    aws_walk(&RetryBudget::new(config));
    aws_walk(&AtomicRetryBudget::new(config));
    let default = AtomicRetryBudget::aws_default();
    assert_eq!(default.config(), BudgetConfig::AWS_DEFAULT);
    assert_eq!(default.tokens_milli(), 500_000);
}

#[test]
fn a_saved_token_count_is_restored_up_to_the_bucket_size() {
    let b = RetryBudget::new(BudgetConfig::grpc(10, 100).unwrap());
    assert_eq!(b.set_tokens_milli(4321), Some(()));
    assert_eq!(b.tokens_milli(), 4321);
    assert_eq!(b.set_tokens_milli(10_000), Some(()));
    assert_eq!(b.set_tokens_milli(10_001), None);
    assert_eq!(b.tokens_milli(), 10_000, "a refused count changes nothing");
}
