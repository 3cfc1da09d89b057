//! The shared retry budget behind the JS `RetryBudget`.

use seeded_backoff::{BudgetConfig, BudgetError, FailureKind, RetryBudget, RetryGate};
use wasm_bindgen::prelude::*;

use crate::errors::range_error;

/// A core [`RetryBudget`] (gRFC A6 throttling or the AWS retry quota, SPEC.md §10).
#[wasm_bindgen]
pub struct BudgetState {
    budget: RetryBudget,
}

/// `record_success`'s `retried`: a first-try success.
pub const RETRIED_NONE: u32 = 0;
/// `record_success`'s `retried`: success after a retry of an error.
pub const RETRIED_ERROR: u32 = 1;
/// `record_success`'s `retried`: success after a retry of a timeout.
pub const RETRIED_TIMEOUT: u32 = 2;

fn budget_error(e: BudgetError) -> JsValue {
    let (message, code) = match e {
        BudgetError::MaxTokens => ("maxTokens must be in 1..=1000", "max_tokens"),
        BudgetError::TokenRatio => ("tokenRatio must be in 0.001..=maxTokens", "token_ratio"),
        BudgetError::Capacity => ("capacity must be in 1..=1000000", "capacity"),
        BudgetError::Cost => ("retryCost and timeoutCost must be in 1..=capacity", "cost"),
        BudgetError::NoRetryIncrement => (
            "noRetryIncrement must be in 0..=capacity",
            "no_retry_increment",
        ),
        _ => (e.message(), "budget"),
    };
    range_error(message, code)
}

fn kind(timeout: bool) -> FailureKind {
    if timeout {
        FailureKind::Timeout
    } else {
        FailureKind::Error
    }
}

#[wasm_bindgen]
impl BudgetState {
    /// A full gRFC A6 budget: `max_tokens` tokens, each success refunds `token_ratio_milli` / 1000.
    pub fn grpc(max_tokens: u32, token_ratio_milli: u32) -> Result<BudgetState, JsValue> {
        let config = BudgetConfig::grpc(max_tokens, token_ratio_milli).map_err(budget_error)?;
        Ok(BudgetState {
            budget: RetryBudget::new(config),
        })
    }

    /// A full AWS retry quota, in whole tokens. `present` has bit 0 for `capacity`, 1 for
    /// `retry_cost`, 2 for `timeout_cost`, 3 for `no_retry_increment`; absent ones are the SDKs'
    /// defaults ([`BudgetConfig::AWS_DEFAULT`]).
    #[wasm_bindgen(js_name = awsQuota)]
    pub fn aws_quota(
        present: u32,
        capacity: u32,
        retry_cost: u32,
        timeout_cost: u32,
        no_retry_increment: u32,
    ) -> Result<BudgetState, JsValue> {
        let pick = |bit: u32, given: u32, default_milli: u32| {
            if present & (1 << bit) != 0 {
                given
            } else {
                default_milli / 1000
            }
        };
        let BudgetConfig::AwsQuota {
            capacity_milli,
            retry_cost_milli,
            timeout_cost_milli,
            no_retry_increment_milli,
        } = BudgetConfig::AWS_DEFAULT
        else {
            return Err(budget_error(BudgetError::Capacity));
        };
        let config = BudgetConfig::aws_quota(
            pick(0, capacity, capacity_milli),
            pick(1, retry_cost, retry_cost_milli),
            pick(2, timeout_cost, timeout_cost_milli),
            pick(3, no_retry_increment, no_retry_increment_milli),
        )
        .map_err(budget_error)?;
        Ok(BudgetState {
            budget: RetryBudget::new(config),
        })
    }

    /// Records a failed attempt.
    #[wasm_bindgen(js_name = recordFailure)]
    pub fn record_failure(&self, timeout: bool) {
        self.budget.record_failure(kind(timeout));
    }

    /// Asks for a retry; `false` means give up.
    #[wasm_bindgen(js_name = tryAcquire)]
    pub fn try_acquire(&self, timeout: bool) -> bool {
        self.budget.try_acquire(kind(timeout))
    }

    /// Records a success; `retried` is one of the `RETRIED_*` codes.
    #[wasm_bindgen(js_name = recordSuccess)]
    pub fn record_success(&self, retried: u32) {
        self.budget.record_success(match retried {
            RETRIED_ERROR => Some(FailureKind::Error),
            RETRIED_TIMEOUT => Some(FailureKind::Timeout),
            _ => None,
        });
    }

    /// Tokens left, in thousandths.
    #[wasm_bindgen(js_name = tokensMilli)]
    pub fn tokens_milli(&self) -> u32 {
        self.budget.tokens_milli()
    }
}

impl BudgetState {
    /// The budget as the core's step takes it.
    pub fn gate(&self) -> &dyn RetryGate {
        &self.budget
    }
}
