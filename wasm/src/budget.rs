//! The budget part: retry budgets whose words live in the JS `RetryBudget`. A step or a run asks
//! a budget through its methods (`crate::gate`), so only `RetryBudget` itself loads this part.

use seeded_backoff::{
    budget::{BudgetConfig, BudgetError, RetryBudget},
    FailureKind,
};

use crate::rt::{io as shared, Io};

fn kind(timeout: bool) -> FailureKind {
    if timeout {
        FailureKind::Timeout
    } else {
        FailureKind::Error
    }
}

fn write(io: &mut Io, config: BudgetConfig, tokens_milli: u32) {
    let (k, v) = match config {
        BudgetConfig::Grpc {
            max_milli,
            ratio_milli,
        } => (0, [max_milli, ratio_milli, 0, 0]),
        BudgetConfig::AwsQuota {
            capacity_milli,
            retry_cost_milli,
            timeout_cost_milli,
            no_retry_increment_milli,
        } => (
            1,
            [
                capacity_milli,
                retry_cost_milli,
                timeout_cost_milli,
                no_retry_increment_milli,
            ],
        ),
    };
    let [a, b, c, d] = v;
    io.budget = [k, a, b, c, d, tokens_milli];
}

fn read(io: &Io) -> RetryBudget {
    let w = io.budget;
    let config = if w[0] == 0 {
        BudgetConfig::Grpc {
            max_milli: w[1],
            ratio_milli: w[2],
        }
    } else {
        BudgetConfig::AwsQuota {
            capacity_milli: w[1],
            retry_cost_milli: w[2],
            timeout_cost_milli: w[3],
            no_retry_increment_milli: w[4],
        }
    };
    let budget = RetryBudget::new(config);
    // The words came from `budget_new` and later operations, so the count is within the maximum;
    // were it not, the budget keeps its full count.
    let _ = budget.set_tokens_milli(w[5]);
    budget
}

/// A new budget's words at the shared budget words: gRFC A6 (`aws` false: `a` max tokens, `b` token ratio in
/// thousandths) or the AWS quota (`aws` true: whole tokens `a`..`d` for capacity, retry cost,
/// timeout cost, no-retry increment; bit `i` of `present` says value `i` was given, the others are
/// the SDKs' defaults). Returns 0, or 1 + the error's index in [`crate::errors::BUDGET`].
#[export_name = "budgetNew"]
pub extern "C" fn budget_new(aws: bool, present: u32, a: u32, b: u32, c: u32, d: u32) -> u32 {
    let config = if aws {
        let given = |i: u32, v: u32| (present >> i & 1 == 1).then_some(v);
        BudgetConfig::aws_quota_or_default(given(0, a), given(1, b), given(2, c), given(3, d))
    } else {
        BudgetConfig::grpc(a, b)
    };
    match config {
        Ok(config) => {
            shared(|io| write(io, config, config.max_milli()));
            0
        }
        Err(e) => 1 + budget_error_index(e.error),
    }
}

fn budget_error_index(e: BudgetError) -> u32 {
    crate::errors::index(&crate::errors::BUDGET, &e)
}

/// The `op` of [`budget_op`].
pub mod op {
    /// `RetryBudget::record_failure`.
    pub const RECORD_FAILURE: u32 = 0;
    /// `RetryBudget::try_acquire`: answers 1 for yes.
    pub const TRY_ACQUIRE: u32 = 1;
    /// `RetryBudget::record_success` (`timeout` says the retried failure's kind, `retried` whether
    /// there was one).
    pub const RECORD_SUCCESS: u32 = 2;
}

/// One of the budget operations ([`op`]) on the shared budget words, which it updates.
#[export_name = "budgetOp"]
pub extern "C" fn budget_op(op: u32, timeout: bool, retried: bool) -> u32 {
    use seeded_backoff::budget::RetryGate;
    shared(|io| {
        let budget = read(io);
        let answer = match op {
            op::RECORD_FAILURE => {
                budget.record_failure(kind(timeout));
                0
            }
            op::TRY_ACQUIRE => u32::from(budget.try_acquire(kind(timeout))),
            _ => {
                budget.record_success(retried.then(|| kind(timeout)));
                0
            }
        };
        io.budget[5] = budget.tokens_milli();
        answer
    })
}

/// The shared budget words' stored value (SPEC.md §19.2) to the shared bytes at
/// [`crate::store::VALUE_AT`]; returns its length.
#[cfg(feature = "store")]
#[export_name = "budgetEncode"]
pub extern "C" fn budget_encode() -> u32 {
    shared(|io| {
        let budget = read(io);
        crate::store::put(io, &budget);
        seeded_backoff::shared::BUDGET_VALUE_SIZE as u32
    })
}

/// The tokens of the `len` bytes at [`crate::store::VALUE_AT`], a stored value of the shared
/// budget words' configuration, into those words. Returns 0, or 1 + the error's index in
/// [`crate::errors::STORE`] (the words unchanged).
#[cfg(feature = "store")]
#[export_name = "budgetDecode"]
pub extern "C" fn budget_decode(len: u32) -> u32 {
    shared(|io| match crate::store::take(io, &read(io), len) {
        Ok(budget) => {
            io.budget[5] = budget.tokens_milli();
            0
        }
        Err(code) => code,
    })
}

#[cfg(feature = "store")]
impl crate::store_link::Area for RetryBudget {
    fn load(io: &Io) -> Option<Self> {
        Some(read(io))
    }
    fn save(&self, io: &mut Io) {
        io.budget[5] = self.tokens_milli();
    }
}
