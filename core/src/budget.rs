//! Retry budgets: token buckets shared by every request to one server (SPEC.md §10), so a
//! struggling server is not buried under retries.
//!
//! Two modes: gRFC A6 retry throttling, and the AWS SDKs' retry quota. [`RetryBudget`] is for one
//! thread (or a device without atomics); [`AtomicRetryBudget`] is lock-free and `Sync`, present only
//! on targets with 32-bit atomics (`cfg(target_has_atomic = "32")`, so not on thumbv6m).

use crate::error_enum::error_enum;
use crate::invalid::Invalid;

pub(crate) mod options;
use core::cell::Cell;
pub use options::FailureKind;
use options::{AWS_CAPACITY, AWS_NO_RETRY_INCREMENT, AWS_RETRY_COST, AWS_TIMEOUT_COST};

/// A budget's fixed parameters. Build one with [`BudgetConfig::grpc`] or [`BudgetConfig::aws_quota`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BudgetConfig {
    /// gRFC A6: a failure costs one token, a success refunds `token_ratio`, retries only while more
    /// than half the tokens remain.
    Grpc {
        /// `max_tokens · 1000`.
        max_milli: u32,
        /// `token_ratio · 1000`.
        ratio_milli: u32,
    },
    /// The AWS SDK retry quota: a retry costs tokens, a success refunds them, fail fast when empty.
    AwsQuota {
        /// The bucket size, in milli-tokens.
        capacity_milli: u32,
        /// The cost of retrying an error, in milli-tokens.
        retry_cost_milli: u32,
        /// The cost of retrying a timeout, in milli-tokens.
        timeout_cost_milli: u32,
        /// What a first-try success adds, in milli-tokens.
        no_retry_increment_milli: u32,
    },
}

error_enum! {
    /// Why a budget's parameters were rejected. Each names the field and its range.
    pub enum BudgetError {
        /// gRPC `max_tokens` outside 1..=1000.
        MaxTokens => "max_tokens", "max_tokens must be in 1..=1000";
        /// gRPC `token_ratio_milli` outside 1..=1000·max_tokens.
        TokenRatio => "token_ratio_milli", "token_ratio_milli must be in 1..=1000*max_tokens";
        /// AWS `capacity` outside 1..=1_000_000.
        Capacity => "capacity", "capacity must be in 1..=1000000";
        /// AWS `retry_cost` or `timeout_cost` outside 1..=capacity.
        Cost => "cost", "retry_cost and timeout_cost must be in 1..=capacity";
        /// AWS `no_retry_increment` above capacity.
        NoRetryIncrement => "no_retry_increment", "no_retry_increment must be in 0..=capacity";
    }
}

impl BudgetConfig {
    /// gRFC A6 throttling with `max_tokens` (1..=1000) and `token_ratio` given in thousandths.
    pub const fn grpc(
        max_tokens: u32,
        token_ratio_milli: u32,
    ) -> Result<Self, Invalid<BudgetError>> {
        if max_tokens == 0 || max_tokens > 1000 {
            return Err(Invalid::new(BudgetError::MaxTokens, max_tokens));
        }
        if token_ratio_milli == 0 || token_ratio_milli > max_tokens * 1000 {
            return Err(Invalid::new(BudgetError::TokenRatio, token_ratio_milli));
        }
        Ok(BudgetConfig::Grpc {
            max_milli: max_tokens * 1000,
            ratio_milli: token_ratio_milli,
        })
    }

    /// An AWS-style quota; [`BudgetConfig::AWS_DEFAULT`] is the SDKs' 500 / 5 / 10 / 1.
    pub const fn aws_quota(
        capacity: u32,
        retry_cost: u32,
        timeout_cost: u32,
        no_retry_increment: u32,
    ) -> Result<Self, Invalid<BudgetError>> {
        if capacity == 0 || capacity > 1_000_000 {
            return Err(Invalid::new(BudgetError::Capacity, capacity));
        }
        if retry_cost == 0 || retry_cost > capacity {
            return Err(Invalid::new(BudgetError::Cost, retry_cost));
        }
        if timeout_cost == 0 || timeout_cost > capacity {
            return Err(Invalid::new(BudgetError::Cost, timeout_cost));
        }
        if no_retry_increment > capacity {
            return Err(Invalid::new(
                BudgetError::NoRetryIncrement,
                no_retry_increment,
            ));
        }
        Ok(BudgetConfig::AwsQuota {
            capacity_milli: capacity * 1000,
            retry_cost_milli: retry_cost * 1000,
            timeout_cost_milli: timeout_cost * 1000,
            no_retry_increment_milli: no_retry_increment * 1000,
        })
    }

    /// [`BudgetConfig::aws_quota`] with each `None` the SDKs' default ([`BudgetConfig::AWS_DEFAULT`]):
    /// the rule for bindings whose fields are optional.
    ///
    /// ```
    /// use seeded_backoff::budget::BudgetConfig;
    /// assert_eq!(BudgetConfig::aws_quota_or_default(None, None, None, None), Ok(BudgetConfig::AWS_DEFAULT));
    /// let small = BudgetConfig::aws_quota_or_default(Some(50), None, None, None).unwrap();
    /// assert_eq!(small, BudgetConfig::aws_quota(50, 5, 10, 1).unwrap());
    /// ```
    pub fn aws_quota_or_default(
        capacity: Option<u32>,
        retry_cost: Option<u32>,
        timeout_cost: Option<u32>,
        no_retry_increment: Option<u32>,
    ) -> Result<Self, Invalid<BudgetError>> {
        BudgetConfig::aws_quota(
            capacity.unwrap_or(AWS_CAPACITY),
            retry_cost.unwrap_or(AWS_RETRY_COST),
            timeout_cost.unwrap_or(AWS_TIMEOUT_COST),
            no_retry_increment.unwrap_or(AWS_NO_RETRY_INCREMENT),
        )
    }

    /// The AWS SDKs' retry quota: 500 tokens, a retry costs 5, a timeout 10, a first-try success
    /// adds 1.
    pub const AWS_DEFAULT: BudgetConfig = BudgetConfig::AwsQuota {
        capacity_milli: AWS_CAPACITY * 1000,
        retry_cost_milli: AWS_RETRY_COST * 1000,
        timeout_cost_milli: AWS_TIMEOUT_COST * 1000,
        no_retry_increment_milli: AWS_NO_RETRY_INCREMENT * 1000,
    };

    /// The full bucket, where every budget starts.
    pub const fn max_milli(&self) -> u32 {
        match *self {
            BudgetConfig::Grpc { max_milli, .. } => max_milli,
            BudgetConfig::AwsQuota { capacity_milli, .. } => capacity_milli,
        }
    }

    fn cost(&self, kind: FailureKind) -> u32 {
        match (*self, kind) {
            (
                BudgetConfig::AwsQuota {
                    retry_cost_milli, ..
                },
                FailureKind::Error,
            ) => retry_cost_milli,
            (
                BudgetConfig::AwsQuota {
                    timeout_cost_milli, ..
                },
                FailureKind::Timeout,
            ) => timeout_cost_milli,
            (BudgetConfig::Grpc { .. }, _) => 1000,
        }
    }

    /// Tokens after a failure is recorded.
    fn after_failure(&self, tokens: u32) -> u32 {
        match self {
            BudgetConfig::Grpc { .. } => tokens.saturating_sub(1000),
            BudgetConfig::AwsQuota { .. } => tokens,
        }
    }

    /// Tokens after a granted retry, or `None` when the retry is refused.
    fn after_acquire(&self, tokens: u32, kind: FailureKind) -> Option<u32> {
        match *self {
            BudgetConfig::Grpc { max_milli, .. } => (tokens > max_milli / 2).then_some(tokens),
            BudgetConfig::AwsQuota { .. } => tokens.checked_sub(self.cost(kind)),
        }
    }

    /// Tokens after a success; `retried` is the kind of the retry that succeeded, if any.
    fn after_success(&self, tokens: u32, retried: Option<FailureKind>) -> u32 {
        let refund = match (*self, retried) {
            (BudgetConfig::Grpc { ratio_milli, .. }, _) => ratio_milli,
            (
                BudgetConfig::AwsQuota {
                    no_retry_increment_milli,
                    ..
                },
                None,
            ) => no_retry_increment_milli,
            (BudgetConfig::AwsQuota { .. }, Some(kind)) => self.cost(kind),
        };
        tokens.saturating_add(refund).min(self.max_milli())
    }
}

/// What [`Backoff::next_delay_with`](crate::Backoff::next_delay_with) needs from a
/// budget. Implemented by [`RetryBudget`] and [`AtomicRetryBudget`]; implement it to plug in your own.
pub trait RetryGate {
    /// Records that an attempt failed (gRPC mode spends a token here).
    fn record_failure(&self, kind: FailureKind);
    /// Asks to retry; `false` means give up. AWS mode spends the retry's cost here.
    fn try_acquire(&self, kind: FailureKind) -> bool;
    /// Records a success; `retried` is the kind of failure the successful retry followed, or `None`
    /// for a first-try success.
    fn record_success(&self, retried: Option<FailureKind>);
}

/// A retry budget for one thread (or one core without atomics). Interior mutability through
/// [`Cell`], so many [`Backoff`](crate::Backoff)s can share it by reference.
///
/// ```
/// use seeded_backoff::budget::{RetryBudget, RetryGate};
/// use seeded_backoff::FailureKind;
/// let budget = RetryBudget::grpc(10, 500).unwrap(); // 10 tokens, each success refunds 0.5
/// for _ in 0..4 {
///     budget.record_failure(FailureKind::Error);
/// }
/// assert!(budget.try_acquire(FailureKind::Error)); // 6 > 5
/// budget.record_failure(FailureKind::Error);
/// assert!(!budget.try_acquire(FailureKind::Error)); // 5 is not > 5
/// budget.record_success(None);
/// assert_eq!(budget.tokens_milli(), 5_500);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryBudget {
    config: BudgetConfig,
    tokens_milli: Cell<u32>,
}

impl RetryBudget {
    /// A full budget with the given parameters.
    pub const fn new(config: BudgetConfig) -> Self {
        RetryBudget {
            config,
            tokens_milli: Cell::new(config.max_milli()),
        }
    }

    /// A full gRFC A6 budget; see [`BudgetConfig::grpc`].
    pub const fn grpc(
        max_tokens: u32,
        token_ratio_milli: u32,
    ) -> Result<Self, Invalid<BudgetError>> {
        match BudgetConfig::grpc(max_tokens, token_ratio_milli) {
            Ok(config) => Ok(RetryBudget::new(config)),
            Err(e) => Err(e),
        }
    }

    /// A full AWS quota with the SDKs' defaults (500 / 5 / 10 / 1).
    pub const fn aws_default() -> Self {
        RetryBudget::new(BudgetConfig::AWS_DEFAULT)
    }

    /// The parameters.
    pub const fn config(&self) -> BudgetConfig {
        self.config
    }

    /// Tokens left, in thousandths.
    pub fn tokens_milli(&self) -> u32 {
        self.tokens_milli.get()
    }

    /// Restores a saved token count; `None` (and no change) if it is above the bucket's size.
    pub fn set_tokens_milli(&self, tokens_milli: u32) -> Option<()> {
        (tokens_milli <= self.config.max_milli()).then(|| self.tokens_milli.set(tokens_milli))
    }
}

impl RetryGate for RetryBudget {
    fn record_failure(&self, _kind: FailureKind) {
        self.tokens_milli
            .set(self.config.after_failure(self.tokens_milli.get()));
    }

    fn try_acquire(&self, kind: FailureKind) -> bool {
        match self.config.after_acquire(self.tokens_milli.get(), kind) {
            Some(tokens) => {
                self.tokens_milli.set(tokens);
                true
            }
            None => false,
        }
    }

    fn record_success(&self, retried: Option<FailureKind>) {
        self.tokens_milli
            .set(self.config.after_success(self.tokens_milli.get(), retried));
    }
}

#[cfg(target_has_atomic = "32")]
pub use atomic::AtomicRetryBudget;

#[cfg(target_has_atomic = "32")]
mod atomic;
