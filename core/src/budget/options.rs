//! The coded tables of a retry budget (SPEC.md §10): failure kinds, modes, and each mode's options
//! with their defaults and the error naming their range, so bindings take options by these names
//! instead of keeping their own lists.

#[cfg(feature = "bindings")]
use super::BudgetError;
use crate::coded_enum::coded_enum;

coded_enum! {
    /// What kind of failure prompted a retry; the AWS quota charges timeouts more. The codes are
    /// the C ABI's `SB_FAILURE_*`.
    #[derive(Default)]
    pub enum FailureKind {
        /// An error response or a connection failure.
        #[default]
        Error = 0, "error";
        /// A timeout.
        Timeout = 1, "timeout";
    }
}

// The modes and options by code and name are what bindings take (the `bindings` feature); the
// typed API builds a budget with `BudgetConfig`'s constructors instead.
#[cfg(feature = "bindings")]
coded_enum! {
    /// A budget's mode (SPEC.md §10); the codes are the C ABI's `SB_BUDGET_*`.
    pub enum BudgetMode {
        /// gRFC A6 retry throttling: [`BudgetConfig::grpc`](super::BudgetConfig::grpc).
        Grpc = 1, "grpc";
        /// The AWS SDKs' retry quota: [`BudgetConfig::aws_quota`](super::BudgetConfig::aws_quota).
        AwsQuota = 2, "aws_quota";
    }
}

#[cfg(feature = "bindings")]
coded_enum! {
    /// One option of a budget's configuration, as bindings take them by name (SPEC.md §10):
    /// which mode it belongs to, whether it has a default, and which error names its range.
    ///
    /// ```
    /// use seeded_backoff::bindings::{BudgetMode, BudgetOption};
    /// use seeded_backoff::budget::BudgetError;
    /// assert_eq!(BudgetMode::Grpc.options(), [BudgetOption::MaxTokens, BudgetOption::TokenRatio]);
    /// assert_eq!(BudgetOption::TimeoutCost.default_value(), Some(10));
    /// assert_eq!(BudgetOption::MaxTokens.default_value(), None); // required
    /// assert_eq!(BudgetOption::RetryCost.error(), BudgetError::Cost);
    /// ```
    pub enum BudgetOption {
        /// gRPC: the bucket size in tokens, 1..=1000; required.
        MaxTokens = 0, "max_tokens";
        /// gRPC: what a success refunds, in thousandths of a token, 1..=1000·max_tokens; required.
        /// Bindings that take a decimal (`0.1`) accept at most three decimal places.
        TokenRatio = 1, "token_ratio";
        /// AWS: the bucket size in tokens, 1..=1000000 (default 500).
        Capacity = 2, "capacity";
        /// AWS: what retrying an error costs, 1..=capacity (default 5).
        RetryCost = 3, "retry_cost";
        /// AWS: what retrying a timeout costs, 1..=capacity (default 10).
        TimeoutCost = 4, "timeout_cost";
        /// AWS: what a first-try success adds, 0..=capacity (default 1).
        NoRetryIncrement = 5, "no_retry_increment";
    }
}

/// The AWS SDKs' quota defaults, in tokens.
pub(super) const AWS_CAPACITY: u32 = 500;
pub(super) const AWS_RETRY_COST: u32 = 5;
pub(super) const AWS_TIMEOUT_COST: u32 = 10;
pub(super) const AWS_NO_RETRY_INCREMENT: u32 = 1;

#[cfg(feature = "bindings")]
impl BudgetMode {
    /// The options this mode takes, in the order its constructor takes them.
    pub const fn options(self) -> &'static [BudgetOption] {
        match self {
            BudgetMode::Grpc => &[BudgetOption::MaxTokens, BudgetOption::TokenRatio],
            BudgetMode::AwsQuota => &[
                BudgetOption::Capacity,
                BudgetOption::RetryCost,
                BudgetOption::TimeoutCost,
                BudgetOption::NoRetryIncrement,
            ],
        }
    }
}

#[cfg(feature = "bindings")]
impl BudgetOption {
    /// The mode the option belongs to; giving it to the other mode is an error.
    pub const fn mode(self) -> BudgetMode {
        match self {
            BudgetOption::MaxTokens | BudgetOption::TokenRatio => BudgetMode::Grpc,
            _ => BudgetMode::AwsQuota,
        }
    }

    /// The value an omitted option takes (the AWS SDKs' 500 / 5 / 10 / 1), `None` for a required
    /// one.
    pub const fn default_value(self) -> Option<u32> {
        match self {
            BudgetOption::MaxTokens | BudgetOption::TokenRatio => None,
            BudgetOption::Capacity => Some(AWS_CAPACITY),
            BudgetOption::RetryCost => Some(AWS_RETRY_COST),
            BudgetOption::TimeoutCost => Some(AWS_TIMEOUT_COST),
            BudgetOption::NoRetryIncrement => Some(AWS_NO_RETRY_INCREMENT),
        }
    }

    /// The error that names this option's allowed range.
    pub const fn error(self) -> BudgetError {
        match self {
            BudgetOption::MaxTokens => BudgetError::MaxTokens,
            BudgetOption::TokenRatio => BudgetError::TokenRatio,
            BudgetOption::Capacity => BudgetError::Capacity,
            BudgetOption::RetryCost | BudgetOption::TimeoutCost => BudgetError::Cost,
            BudgetOption::NoRetryIncrement => BudgetError::NoRetryIncrement,
        }
    }
}
