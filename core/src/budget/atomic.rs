//! The lock-free budget: the transitions of `RetryBudget`, each one compare-and-swap loop.

use super::{BudgetConfig, BudgetError, FailureKind, RetryGate};
use crate::invalid::Invalid;
// The loom model check (core/tests/loom_budget.rs, RUSTFLAGS="--cfg seeded_backoff_loom") swaps
// in loom's atomics; every other build uses core's.
#[cfg(not(seeded_backoff_loom))]
use core::sync::atomic::{AtomicU32, Ordering};
#[cfg(seeded_backoff_loom)]
use loom::sync::atomic::{AtomicU32, Ordering};

/// A `const fn` in every build but loom's, whose atomics are made at run time.
macro_rules! const_unless_loom {
    ($(#[$m:meta])* pub fn $($rest:tt)*) => {
        #[cfg(not(seeded_backoff_loom))]
        $(#[$m])* pub const fn $($rest)*
        #[cfg(seeded_backoff_loom)]
        $(#[$m])* pub fn $($rest)*
    };
}

/// A lock-free, `Sync` retry budget for many threads: each operation is one compare-and-swap
/// loop applying the same transitions as [`RetryBudget`](super::RetryBudget). Absent on targets
/// without 32-bit atomics (e.g. thumbv6m); use `RetryBudget` there.
///
/// ```
/// use seeded_backoff::budget::{AtomicRetryBudget, RetryGate};
/// use seeded_backoff::FailureKind;
/// let budget = AtomicRetryBudget::aws_default();
/// assert!(budget.try_acquire(FailureKind::Timeout));
/// assert_eq!(budget.tokens_milli(), 490_000);
/// ```
#[derive(Debug)]
pub struct AtomicRetryBudget {
    config: BudgetConfig,
    tokens_milli: AtomicU32,
}

impl AtomicRetryBudget {
    const_unless_loom! {
        /// A full budget with the given parameters.
        pub fn new(config: BudgetConfig) -> Self {
            AtomicRetryBudget {
                config,
                tokens_milli: AtomicU32::new(config.max_milli()),
            }
        }
    }

    const_unless_loom! {
        /// A full gRFC A6 budget; see [`BudgetConfig::grpc`].
        pub fn grpc(max_tokens: u32, token_ratio_milli: u32) -> Result<Self, Invalid<BudgetError>> {
            match BudgetConfig::grpc(max_tokens, token_ratio_milli) {
                Ok(config) => Ok(AtomicRetryBudget::new(config)),
                Err(e) => Err(e),
            }
        }
    }

    const_unless_loom! {
        /// A full AWS quota with the SDKs' defaults.
        pub fn aws_default() -> Self {
            AtomicRetryBudget::new(BudgetConfig::AWS_DEFAULT)
        }
    }

    /// The parameters.
    pub const fn config(&self) -> BudgetConfig {
        self.config
    }

    /// Tokens left, in thousandths.
    pub fn tokens_milli(&self) -> u32 {
        self.tokens_milli.load(Ordering::Acquire)
    }

    fn update(&self, f: impl Fn(u32) -> Option<u32>) -> bool {
        self.tokens_milli
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, f)
            .is_ok()
    }
}

impl RetryGate for AtomicRetryBudget {
    fn record_failure(&self, _kind: FailureKind) {
        self.update(|t| Some(self.config.after_failure(t)));
    }

    fn try_acquire(&self, kind: FailureKind) -> bool {
        self.update(|t| self.config.after_acquire(t, kind))
    }

    fn record_success(&self, retried: Option<FailureKind>) {
        self.update(|t| Some(self.config.after_success(t, retried)));
    }
}
