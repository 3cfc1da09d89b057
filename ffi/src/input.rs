//! `sb_backoff_next_with`: one step with any combination of a server hint, the caller's clock and
//! a shared budget, as the core's `StepInput` takes them: the bare step of a caller that keeps its
//! own loop (a whole loop is `sb_run_*`, which takes the same hints and budgets).

use seeded_backoff::bindings::one_hint;
use seeded_backoff::{
    budget::{RetryBudget, RetryGate},
    StepInput,
};

use crate::backoff::{sb_backoff, sb_backoff_next, step};
use crate::budget::{failure_kind, sb_budget};
use crate::ptr;
use crate::status::sb_status;

/// `sb_step_input.flags` bit: `retry_after_ms` is a server hint (a lower bound on the delay).
pub const SB_INPUT_RETRY_AFTER: u32 = 1;
/// `sb_step_input.flags` bit: the server said not to retry.
pub const SB_INPUT_DO_NOT_RETRY: u32 = 2;
/// `sb_step_input.flags` bit: `elapsed_ms` is the caller's clock since the first attempt.
pub const SB_INPUT_ELAPSED: u32 = 4;
/// `sb_step_input.flags` bit: charge `*budget` with a failure of kind `failure_kind`.
pub const SB_INPUT_BUDGET: u32 = 8;
/// `sb_step_input.flags` bit: `rate_limit_ms` is a 429's rate-limit reset (see
/// `sb_parse_rate_limit`): the delay is at least `rate_limit_ms` plus an upward jitter of up to
/// 1 s + 10 % of it, so clients told the same reset do not return together; a reset beyond
/// `policy.max_hint_ms` gives up with `SB_GIVE_UP_HINT_EXCEEDS_MAX`. A step takes at most one of `SB_INPUT_RETRY_AFTER`, `SB_INPUT_DO_NOT_RETRY` and
/// `SB_INPUT_RATE_LIMIT` (SPEC.md section 5); `sb_hint_from_headers` picks the one a response
/// gives.
pub const SB_INPUT_RATE_LIMIT: u32 = 16;

/// The inputs of one `sb_backoff_next_with` step. Fields whose flag is not set are not read.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_step_input {
    /// `SB_INPUT_*` bits: which of the fields below are given.
    pub flags: u32,
    /// With `SB_INPUT_RETRY_AFTER`: the server's Retry-After, ms (see `sb_parse_retry_after`).
    pub retry_after_ms: u32,
    /// With `SB_INPUT_ELAPSED`: ms since the first attempt by the caller's monotonic clock.
    pub elapsed_ms: u64,
    /// With `SB_INPUT_BUDGET`: `SB_FAILURE_ERROR` or `SB_FAILURE_TIMEOUT`.
    pub failure_kind: u32,
    /// With `SB_INPUT_RATE_LIMIT`: ms until the rate-limit quota resets. Last, so an initialiser
    /// that lists the first four fields leaves it 0.
    pub rate_limit_ms: u32,
}

/// `sb_backoff_next` with any combination of inputs (`*input`): a hint, the caller's clock, and
/// `*budget` (read only with `SB_INPUT_BUDGET`; otherwise it may be NULL). The hint takes no
/// random draw (a rate-limit reset takes one) and does not change later delays' growth. Returns
/// `SB_RETRY` with `*delay_ms` set, an `SB_GIVE_UP_*` reason, or an error (`SB_ERR_NULL`,
/// `SB_ERR_BAD_STATE`, `SB_ERR_FAILURE_KIND`, `SB_ERR_TWO_HINTS` for more than one hint flag,
/// `SB_ERR_UNSUPPORTED` for an input whose feature, `hints`, `time-budget` or `budget`, this build
/// leaves out) that changes neither struct.
///
/// ```c
/// sb_step_input in = {SB_INPUT_RETRY_AFTER | SB_INPUT_ELAPSED, 5000, now_ms() - start_ms, 0};
/// if (sb_backoff_next_with(&b, &in, NULL, &delay_ms) == SB_RETRY) sleep_ms(delay_ms);
/// in.flags = SB_INPUT_DO_NOT_RETRY; // e.g. an unparseable gRPC pushback
/// sb_backoff_next_with(&b, &in, NULL, &delay_ms); // SB_GIVE_UP_SERVER_STOP
/// ```
///
/// # Safety
/// `b` and `delay_ms` are NULL or valid for reads and writes; `input` is NULL or readable;
/// with `SB_INPUT_BUDGET`, `budget` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_next_with(
    b: *mut sb_backoff,
    input: *const sb_step_input,
    budget: *mut sb_budget,
    delay_ms: *mut u32,
) -> sb_status {
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let input = unsafe { ptr::read(input) }?;
        let has = |bit: u32| input.flags & bit != 0;
        // A wrong input is named before a part this build leaves out.
        let hint = one_hint(
            has(SB_INPUT_RETRY_AFTER).then_some(input.retry_after_ms),
            has(SB_INPUT_RATE_LIMIT).then_some(input.rate_limit_ms),
            has(SB_INPUT_DO_NOT_RETRY),
        )?;
        // Each check sits next to the part it guards, so a build without the part drops its code.
        if (hint.is_some() && !cfg!(feature = "hints"))
            || (has(SB_INPUT_ELAPSED) && !cfg!(feature = "time-budget"))
            || (has(SB_INPUT_BUDGET) && !cfg!(feature = "budget"))
        {
            return Err(sb_status::SB_ERR_UNSUPPORTED);
        }
        if !cfg!(any(
            feature = "hints",
            feature = "time-budget",
            feature = "budget"
        )) {
            // Only the plain step is left: `sb_backoff_next`'s, so the two share one copy.
            // SAFETY: forwarded from this function's contract.
            return Ok(unsafe { sb_backoff_next(b, delay_ms) });
        }
        let elapsed_ms = has(SB_INPUT_ELAPSED).then_some(input.elapsed_ms);
        if !has(SB_INPUT_BUDGET) {
            let step_input = StepInput {
                hint,
                elapsed_ms,
                budget: None,
            };
            // SAFETY: forwarded from this function's contract.
            return Ok(unsafe { step(b, delay_ms, &step_input) });
        }
        // The step works on a copy of the budget, stored back only if the step itself succeeded.
        // SAFETY: forwarded from this function's contract.
        let c_budget = unsafe { ptr::read(budget) }?;
        let core_budget: RetryBudget = c_budget.to_core()?;
        let kind = failure_kind(input.failure_kind)?;
        let step_input = StepInput {
            hint,
            elapsed_ms,
            budget: Some((&core_budget as &dyn RetryGate, kind)),
        };
        // SAFETY: forwarded from this function's contract.
        let status = unsafe { step(b, delay_ms, &step_input) };
        if status.is_error() {
            return Err(status);
        }
        // SAFETY: read above, so non-NULL and valid by this function's contract.
        unsafe { ptr::write(budget, c_budget.with_tokens(&core_budget)) }?;
        Ok(status)
    })())
}

#[cfg(all(
    test,
    feature = "runtime-policy",
    feature = "time-budget",
    feature = "hints",
    feature = "budget"
))]
mod tests {
    use super::*;
    use crate::backoff::sb_backoff_init;
    use crate::budget::sb_budget_init_grpc;
    use crate::policy::sb_policy_google;
    use seeded_backoff::{Backoff, ServerHint, Step};

    /// The core's own step with `input`, from the same policy and seed as [`fresh`]'s state.
    fn core_step(core: &mut Backoff, input: StepInput<'_>) -> (sb_status, u32) {
        let policy = sb_policy_google_60s().to_core().unwrap();
        match core.next_delay_with(&policy, input) {
            Step::Retry { delay_ms, .. } => (sb_status::SB_RETRY, delay_ms),
            Step::GiveUp(reason) => (reason.into(), 0),
        }
    }

    fn sb_policy_google_60s() -> crate::policy::sb_policy {
        let mut p = sb_policy_google();
        p.max_elapsed_ms = 60_000;
        p
    }

    fn fresh() -> sb_backoff {
        let p = sb_policy_google_60s();
        // SAFETY: the struct is zeroed plain integers, then initialised.
        let mut b: sb_backoff = unsafe { core::mem::zeroed() };
        // SAFETY: pointers to live locals.
        assert_eq!(unsafe { sb_backoff_init(&mut b, &p, 7) }, sb_status::SB_OK);
        b
    }

    fn with(b: &mut sb_backoff, input: sb_step_input, budget: *mut sb_budget) -> (sb_status, u32) {
        let mut d = 0;
        // SAFETY: pointers to live locals (or NULL, which the contract allows).
        (
            unsafe { sb_backoff_next_with(b, &input, budget, &mut d) },
            d,
        )
    }

    #[test]
    fn single_inputs_are_the_core_steps() {
        let mut b = fresh();
        let mut core = Backoff::new(&sb_policy_google_60s().to_core().unwrap(), 7);
        let input = sb_step_input {
            flags: SB_INPUT_RETRY_AFTER,
            retry_after_ms: 9000,
            elapsed_ms: 0,
            failure_kind: 0,
            rate_limit_ms: 0,
        };
        let hinted = StepInput {
            hint: Some(ServerHint::RetryAfterMs(9000)),
            ..StepInput::default()
        };
        let (rc, d) = with(&mut b, input, core::ptr::null_mut());
        assert_eq!((rc, d), core_step(&mut core, hinted));
        assert!(rc == sb_status::SB_RETRY && d >= 9000);
        let input = sb_step_input {
            flags: SB_INPUT_ELAPSED,
            retry_after_ms: 0,
            elapsed_ms: 59_000,
            failure_kind: 0,
            rate_limit_ms: 0,
        };
        let clocked = StepInput {
            elapsed_ms: Some(59_000),
            ..StepInput::default()
        };
        assert_eq!(
            with(&mut b, input, core::ptr::null_mut()).0,
            core_step(&mut core, clocked).0
        );
        // SAFETY: a pointer to a live local.
        assert_eq!(unsafe { crate::backoff::load(&b) }.unwrap().1, core);
    }

    #[test]
    fn combined_inputs_and_errors() {
        let mut b = fresh();
        // A hint and the clock together: the hint is a lower bound, the clock counts.
        let input = sb_step_input {
            flags: SB_INPUT_RETRY_AFTER | SB_INPUT_ELAPSED,
            retry_after_ms: 5000,
            elapsed_ms: 56_000,
            failure_kind: 0,
            rate_limit_ms: 0,
        };
        assert_eq!(
            with(&mut b, input, core::ptr::null_mut()).0,
            sb_status::SB_GIVE_UP_DEADLINE
        );
        let mut b = fresh();
        let before = b;
        let input = sb_step_input {
            flags: SB_INPUT_BUDGET,
            retry_after_ms: 0,
            elapsed_ms: 0,
            failure_kind: 0,
            rate_limit_ms: 0,
        };
        assert_eq!(
            with(&mut b, input, core::ptr::null_mut()).0,
            sb_status::SB_ERR_NULL
        );
        // SAFETY: zeroed plain integers, then initialised.
        let mut budget: sb_budget = unsafe { core::mem::zeroed() };
        // SAFETY: pointer to a live local.
        assert_eq!(
            unsafe { sb_budget_init_grpc(&mut budget, 10, 100) },
            sb_status::SB_OK
        );
        let bad = sb_step_input {
            failure_kind: 9,
            ..input
        };
        assert_eq!(
            with(&mut b, bad, &mut budget).0,
            sb_status::SB_ERR_FAILURE_KIND
        );
        assert_eq!(b, before);
        assert_eq!(with(&mut b, input, &mut budget).0, sb_status::SB_RETRY);
        assert_eq!(budget.tokens_milli, 9000);
        let before = b;
        for flags in [
            SB_INPUT_DO_NOT_RETRY | SB_INPUT_RETRY_AFTER,
            SB_INPUT_DO_NOT_RETRY | SB_INPUT_RATE_LIMIT,
            SB_INPUT_RETRY_AFTER | SB_INPUT_RATE_LIMIT,
        ] {
            let two = sb_step_input { flags, ..input };
            assert_eq!(
                with(&mut b, two, core::ptr::null_mut()).0,
                sb_status::SB_ERR_TWO_HINTS
            );
            assert_eq!(b, before);
        }
        let stop = sb_step_input {
            flags: SB_INPUT_DO_NOT_RETRY,
            ..input
        };
        assert_eq!(
            with(&mut b, stop, core::ptr::null_mut()).0,
            sb_status::SB_GIVE_UP_SERVER_STOP
        );
    }

    #[test]
    fn rate_limit_input_is_the_core_rate_limit_step() {
        let mut b = fresh();
        let mut core = Backoff::new(&sb_policy_google_60s().to_core().unwrap(), 7);
        let input = sb_step_input {
            flags: SB_INPUT_RATE_LIMIT,
            retry_after_ms: 0,
            elapsed_ms: 0,
            failure_kind: 0,
            rate_limit_ms: 12_000,
        };
        let reset = StepInput {
            hint: Some(ServerHint::RateLimitResetMs(12_000)),
            ..StepInput::default()
        };
        assert_eq!(
            with(&mut b, input, core::ptr::null_mut()),
            core_step(&mut core, reset)
        );
        // SAFETY: a pointer to a live local.
        assert_eq!(unsafe { crate::backoff::load(&b) }.unwrap().1, core);
        // With the clock: a hinted delay past the time budget gives up.
        let late = sb_step_input {
            flags: SB_INPUT_RATE_LIMIT | SB_INPUT_ELAPSED,
            elapsed_ms: 50_000,
            ..input
        };
        assert_eq!(
            with(&mut b, late, core::ptr::null_mut()).0,
            sb_status::SB_GIVE_UP_DEADLINE
        );
    }
}
