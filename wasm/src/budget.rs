//! Retry budgets behind the JS `RetryBudget`, held in a table and named by a `u32` id.
//!
//! Ids rather than wasm-bindgen objects, so that a step can take "no budget" as id 0 and the JS
//! glue of a `retry()` that never uses a budget stays small (a class would be pulled in whole).

use std::cell::RefCell;

use seeded_backoff::{BudgetConfig, BudgetError, FailureKind, RetryBudget, RetryGate};
use wasm_bindgen::prelude::*;

use crate::errors::range_error;

/// `budget_record_success`'s `retried`: a first-try success.
pub const RETRIED_NONE: u32 = 0;
/// `budget_record_success`'s `retried`: success after a retry of an error.
pub const RETRIED_ERROR: u32 = 1;
/// `budget_record_success`'s `retried`: success after a retry of a timeout.
pub const RETRIED_TIMEOUT: u32 = 2;

/// Live budgets; slot `id - 1` holds budget `id`, freed slots are reused.
#[derive(Default)]
struct Table {
    slots: Vec<Option<RetryBudget>>,
    free: Vec<usize>,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
}

fn insert(budget: RetryBudget) -> u32 {
    TABLE.with_borrow_mut(|t| {
        let slot = match t.free.pop() {
            Some(slot) => slot,
            None => {
                t.slots.push(None);
                t.slots.len() - 1
            }
        };
        t.slots[slot] = Some(budget);
        u32::try_from(slot + 1).unwrap_or(0)
    })
}

/// Runs `f` with budget `id` (`None` for 0 or an id that is not live).
pub fn with_budget<R>(id: u32, f: impl FnOnce(Option<&RetryBudget>) -> R) -> R {
    TABLE.with_borrow(|t| {
        let slot = (id as usize).checked_sub(1);
        f(slot.and_then(|s| t.slots.get(s)).and_then(Option::as_ref))
    })
}

fn budget_error(e: BudgetError) -> JsValue {
    range_error(match e {
        BudgetError::MaxTokens => "maxTokens must be in 1..=1000",
        BudgetError::TokenRatio => "tokenRatio must be in 0.001..=maxTokens",
        BudgetError::Capacity => "capacity must be in 1..=1000000",
        BudgetError::Cost => "retryCost and timeoutCost must be in 1..=capacity",
        BudgetError::NoRetryIncrement => "noRetryIncrement must be in 0..=capacity",
        _ => e.message(),
    })
}

/// The failure kind for the `timeout` flag JS passes.
pub fn kind(timeout: bool) -> FailureKind {
    if timeout {
        FailureKind::Timeout
    } else {
        FailureKind::Error
    }
}

/// A full gRFC A6 budget: `max_tokens` tokens, each success refunds `token_ratio_milli` / 1000.
/// Returns its id.
#[wasm_bindgen(js_name = budgetGrpc)]
pub fn budget_grpc(max_tokens: u32, token_ratio_milli: u32) -> Result<u32, JsValue> {
    let config = BudgetConfig::grpc(max_tokens, token_ratio_milli).map_err(budget_error)?;
    Ok(insert(RetryBudget::new(config)))
}

/// A full AWS retry quota, in whole tokens; returns its id. `present` has bit 0 for `capacity`,
/// 1 for `retry_cost`, 2 for `timeout_cost`, 3 for `no_retry_increment`; absent ones are the SDKs'
/// defaults ([`BudgetConfig::AWS_DEFAULT`]).
#[wasm_bindgen(js_name = budgetAwsQuota)]
pub fn budget_aws_quota(
    present: u32,
    capacity: u32,
    retry_cost: u32,
    timeout_cost: u32,
    no_retry_increment: u32,
) -> Result<u32, JsValue> {
    let BudgetConfig::AwsQuota {
        capacity_milli,
        retry_cost_milli,
        timeout_cost_milli,
        no_retry_increment_milli,
    } = BudgetConfig::AWS_DEFAULT
    else {
        return Err(budget_error(BudgetError::Capacity));
    };
    let pick = |bit: u32, given: u32, default_milli: u32| {
        if present & (1 << bit) != 0 {
            given
        } else {
            default_milli / 1000
        }
    };
    let config = BudgetConfig::aws_quota(
        pick(0, capacity, capacity_milli),
        pick(1, retry_cost, retry_cost_milli),
        pick(2, timeout_cost, timeout_cost_milli),
        pick(3, no_retry_increment, no_retry_increment_milli),
    )
    .map_err(budget_error)?;
    Ok(insert(RetryBudget::new(config)))
}

/// Records a failed attempt.
#[wasm_bindgen(js_name = budgetRecordFailure)]
pub fn budget_record_failure(id: u32, timeout: bool) {
    with_budget(id, |b| b.map(|b| b.record_failure(kind(timeout))));
}

/// Asks for a retry; `false` means give up (also for an id that is not live).
#[wasm_bindgen(js_name = budgetTryAcquire)]
pub fn budget_try_acquire(id: u32, timeout: bool) -> bool {
    with_budget(id, |b| b.is_some_and(|b| b.try_acquire(kind(timeout))))
}

/// Records a success; `retried` is one of the `RETRIED_*` codes.
#[wasm_bindgen(js_name = budgetRecordSuccess)]
pub fn budget_record_success(id: u32, retried: u32) {
    let retried = match retried {
        RETRIED_ERROR => Some(FailureKind::Error),
        RETRIED_TIMEOUT => Some(FailureKind::Timeout),
        _ => None,
    };
    with_budget(id, |b| b.map(|b| b.record_success(retried)));
}

/// Tokens left, in thousandths (0 for an id that is not live).
#[wasm_bindgen(js_name = budgetTokensMilli)]
pub fn budget_tokens_milli(id: u32) -> u32 {
    with_budget(id, |b| b.map_or(0, RetryBudget::tokens_milli))
}

/// Frees budget `id`; its slot is reused. Freeing an id that is not live does nothing.
#[wasm_bindgen(js_name = budgetFree)]
pub fn budget_free(id: u32) {
    TABLE.with_borrow_mut(|t| {
        if let Some(slot) = (id as usize).checked_sub(1) {
            if let Some(entry @ Some(_)) = t.slots.get_mut(slot) {
                *entry = None;
                t.free.push(slot);
            }
        }
    });
}

/// The budget as the core's step takes it.
pub fn gate(budget: &RetryBudget) -> &dyn RetryGate {
    budget
}
