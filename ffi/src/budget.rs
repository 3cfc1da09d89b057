//! `sb_budget`: a retry budget (token bucket, SPEC.md section 10) in caller-owned memory.

use seeded_backoff::bindings::BudgetMode;
use seeded_backoff::{
    budget::{BudgetConfig, RetryBudget, RetryGate},
    FailureKind,
};

use crate::ptr;
use crate::status::{require_feature, sb_status};

/// `sb_budget.mode` of a gRFC A6 retry-throttling budget.
pub const SB_BUDGET_GRPC: u32 = 1;
/// `sb_budget.mode` of an AWS SDK retry quota.
pub const SB_BUDGET_AWS_QUOTA: u32 = 2;

/// The failure was an error response or a connection failure.
pub const SB_FAILURE_ERROR: u32 = 0;
/// The failure was a timeout (the AWS quota charges it more).
pub const SB_FAILURE_TIMEOUT: u32 = 1;

// The header's numbers are literals (cbindgen cannot evaluate paths); these pin them to the core.
const _: () = {
    assert!(SB_BUDGET_GRPC == BudgetMode::Grpc.code() as u32);
    assert!(SB_BUDGET_AWS_QUOTA == BudgetMode::AwsQuota.code() as u32);
    assert!(SB_FAILURE_ERROR == FailureKind::Error.code() as u32);
    assert!(SB_FAILURE_TIMEOUT == FailureKind::Timeout.code() as u32);
};

/// A retry budget shared by every request to one server. Allocate it anywhere, set it up with an
/// `sb_budget_init_*` function, and treat the fields as private: every call validates them and
/// returns `SB_ERR_BAD_STATE` if they were corrupted. Not thread-safe: guard it with a lock if
/// several threads share it. In a build without the `budget` feature every `sb_budget_*` function
/// and every step or run given a budget return `SB_ERR_UNSUPPORTED`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_budget {
    /// `SB_BUDGET_GRPC` or `SB_BUDGET_AWS_QUOTA`.
    pub mode: u32,
    /// gRPC: `max_tokens`, `token_ratio_milli`, 0, 0. AWS: `capacity`, `retry_cost`,
    /// `timeout_cost`, `no_retry_increment` (whole tokens).
    pub params: [u32; 4],
    /// Tokens left, in thousandths.
    pub tokens_milli: u32,
}

impl sb_budget {
    fn config(mode: u32, params: [u32; 4]) -> Result<BudgetConfig, sb_status> {
        let [a, b, c, d] = params;
        let config = match mode {
            SB_BUDGET_GRPC if c == 0 && d == 0 => BudgetConfig::grpc(a, b),
            SB_BUDGET_AWS_QUOTA => BudgetConfig::aws_quota(a, b, c, d),
            _ => return Err(sb_status::SB_ERR_BAD_STATE),
        };
        config.map_err(sb_status::from)
    }

    /// The core budget with this struct's parameters and tokens; any inconsistency is
    /// `SB_ERR_BAD_STATE` (the parameters were valid at init).
    // By reference, against the convention for `Copy` types: `sb_run_outcome` checks the budget
    // where it lies in the caller's memory, not in a copy on its own stack.
    #[allow(clippy::wrong_self_convention)]
    pub(crate) fn to_core(&self) -> Result<RetryBudget, sb_status> {
        let config =
            Self::config(self.mode, self.params).map_err(|_| sb_status::SB_ERR_BAD_STATE)?;
        let budget = RetryBudget::new(config);
        budget
            .set_tokens_milli(self.tokens_milli)
            .ok_or(sb_status::SB_ERR_BAD_STATE)?;
        Ok(budget)
    }

    /// This struct with the core budget's current tokens.
    pub(crate) fn with_tokens(self, budget: &RetryBudget) -> sb_budget {
        sb_budget {
            tokens_milli: budget.tokens_milli(),
            ..self
        }
    }
}

/// The core's failure kind for an `SB_FAILURE_*` code.
pub(crate) fn failure_kind(kind: u32) -> Result<FailureKind, sb_status> {
    u8::try_from(kind)
        .ok()
        .and_then(FailureKind::from_code)
        .ok_or(sb_status::SB_ERR_FAILURE_KIND)
}

/// Validates the parameters and writes a full budget to `*b`.
///
/// # Safety
/// `b` is NULL or valid for writes of an `sb_budget`.
unsafe fn init(b: *mut sb_budget, mode: u32, params: [u32; 4]) -> sb_status {
    require_feature!("budget");
    ptr::status((|| {
        if b.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let config = sb_budget::config(mode, params)?;
        let budget = sb_budget {
            mode,
            params,
            tokens_milli: config.max_milli(),
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(b, budget) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// A full gRFC A6 retry-throttling budget: `max_tokens` 1..=1000, `token_ratio_milli`
/// 1..=1000*max_tokens (the ratio times 1000). Returns `SB_OK`, `SB_ERR_NULL`,
/// `SB_ERR_BUDGET_MAX_TOKENS` or `SB_ERR_BUDGET_TOKEN_RATIO`.
///
/// ```c
/// static sb_budget budget; // shared by every request to one server
/// sb_budget_init_grpc(&budget, 10, 100); // 10 tokens, each success refunds 0.1
/// ```
///
/// # Safety
/// `b` is NULL or valid for writes of an `sb_budget`.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_init_grpc(
    b: *mut sb_budget,
    max_tokens: u32,
    token_ratio_milli: u32,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { init(b, SB_BUDGET_GRPC, [max_tokens, token_ratio_milli, 0, 0]) }
}

/// A full AWS retry quota (whole tokens): `capacity` 1..=1000000, `retry_cost` and `timeout_cost`
/// 1..=capacity, `no_retry_increment` 0..=capacity.
///
/// # Safety
/// `b` is NULL or valid for writes of an `sb_budget`.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_init_aws_quota(
    b: *mut sb_budget,
    capacity: u32,
    retry_cost: u32,
    timeout_cost: u32,
    no_retry_increment: u32,
) -> sb_status {
    let params = [capacity, retry_cost, timeout_cost, no_retry_increment];
    // SAFETY: forwarded from this function's contract.
    unsafe { init(b, SB_BUDGET_AWS_QUOTA, params) }
}

/// The AWS SDKs' default quota: 500 tokens, a retry costs 5, a timeout 10, a first-try success
/// adds 1.
///
/// # Safety
/// `b` is NULL or valid for writes of an `sb_budget`.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_init_aws_default(b: *mut sb_budget) -> sb_status {
    let params = match BudgetConfig::AWS_DEFAULT {
        BudgetConfig::AwsQuota {
            capacity_milli,
            retry_cost_milli,
            timeout_cost_milli,
            no_retry_increment_milli,
        } => [
            capacity_milli / 1000,
            retry_cost_milli / 1000,
            timeout_cost_milli / 1000,
            no_retry_increment_milli / 1000,
        ],
        BudgetConfig::Grpc { .. } => return sb_status::SB_ERR_OTHER,
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { init(b, SB_BUDGET_AWS_QUOTA, params) }
}

/// Loads `*b`, applies `f` to the core budget, stores the tokens back.
///
/// # Safety
/// `b` is NULL or valid for reads and writes of an `sb_budget`.
unsafe fn update(
    b: *mut sb_budget,
    f: impl FnOnce(&RetryBudget) -> Result<sb_status, sb_status>,
) -> sb_status {
    require_feature!("budget");
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let c_budget = unsafe { ptr::read(b) }?;
        let budget = c_budget.to_core()?;
        let status = f(&budget)?;
        // SAFETY: as above.
        unsafe { ptr::write(b, c_budget.with_tokens(&budget)) }?;
        Ok(status)
    })())
}

/// Records a failed attempt (gRPC mode spends a token). `sb_run_outcome` and
/// `sb_backoff_next_with` (`SB_INPUT_BUDGET`) do this themselves; call it directly only without
/// them.
///
/// # Safety
/// `b` is NULL or valid for reads and writes of an `sb_budget`.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_record_failure(b: *mut sb_budget, kind: u32) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        update(b, |budget| {
            budget.record_failure(failure_kind(kind)?);
            Ok(sb_status::SB_OK)
        })
    }
}

/// Asks to retry: `*allowed` becomes true or false (the AWS quota spends the retry's cost when
/// true). `sb_run_outcome` and `sb_backoff_next_with` (`SB_INPUT_BUDGET`) do this themselves.
///
/// # Safety
/// `b` is NULL or valid for reads and writes; `allowed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_try_acquire(
    b: *mut sb_budget,
    kind: u32,
    allowed: *mut bool,
) -> sb_status {
    if allowed.is_null() {
        return sb_status::SB_ERR_NULL;
    }
    // SAFETY: forwarded from this function's contract.
    unsafe {
        update(b, |budget| {
            let granted = budget.try_acquire(failure_kind(kind)?);
            // SAFETY: checked non-NULL above; writable by this function's contract.
            ptr::write(allowed, granted)?;
            Ok(sb_status::SB_OK)
        })
    }
}

/// Records a success. `retried` is false for a first-try success; when true, `kind` is the kind of
/// failure the successful retry followed (the AWS quota refunds its cost).
///
/// # Safety
/// `b` is NULL or valid for reads and writes of an `sb_budget`.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_record_success(
    b: *mut sb_budget,
    retried: bool,
    kind: u32,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        update(b, |budget| {
            let retried = if retried {
                Some(failure_kind(kind)?)
            } else {
                None
            };
            budget.record_success(retried);
            Ok(sb_status::SB_OK)
        })
    }
}

/// Stores the tokens left, in thousandths, in `*out`.
///
/// # Safety
/// `b` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_tokens_milli(b: *const sb_budget, out: *mut u32) -> sb_status {
    require_feature!("budget");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let budget = unsafe { ptr::read(b) }?.to_core()?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(out, budget.tokens_milli()) }?;
        Ok(sb_status::SB_OK)
    })())
}
