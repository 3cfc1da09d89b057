//! The per-request state with its policy, as one wasm-bindgen object behind the JS `Backoff`.

use seeded_backoff::{Backoff, Policy, ServerHint, SnapshotError, Step, StepInput};
use wasm_bindgen::prelude::*;

use crate::budget::{gate, kind, with_budget};
use crate::errors::{index_of, name_and_message, SNAPSHOT_ERRORS};
use crate::options::PolicyFields;

/// `hint_kind` of [`BackoffState::step`]: no hint.
pub const HINT_NONE: u32 = 0;
/// `hint_kind` of [`BackoffState::step`]: `Retry-After`, `hint_ms` milliseconds.
pub const HINT_RETRY_AFTER: u32 = 1;
/// `hint_kind` of [`BackoffState::step`]: the server said not to retry.
pub const HINT_DO_NOT_RETRY: u32 = 2;

/// A core [`Backoff`] and the [`Policy`] it runs under.
///
/// Steps return an `i32`: the delay in ms (≤ 2^31 − 1, so it always fits) or, when giving up,
/// minus the give-up code (−1 … −4). A plain number crosses the wasm boundary without allocating.
#[wasm_bindgen]
pub struct BackoffState {
    policy: Policy,
    state: Backoff,
}

/// Joins the halves the JS side split a u64 into (a JS number cannot hold every u64, and a BigInt
/// at the boundary costs an allocation per call).
pub fn join_u64(lo: u32, hi: u32) -> u64 {
    (u64::from(hi) << 32) | u64::from(lo)
}

fn encode(step: Step) -> i32 {
    match step {
        Step::Retry { delay_ms, .. } => i32::try_from(delay_ms).unwrap_or(i32::MAX),
        Step::GiveUp(reason) => -i32::from(reason.code()),
    }
}

fn step_input(
    hint_kind: u32,
    hint_ms: u32,
    has_elapsed: bool,
    elapsed_lo: u32,
    elapsed_hi: u32,
) -> StepInput<'static> {
    StepInput {
        hint: match hint_kind {
            HINT_RETRY_AFTER => Some(ServerHint::RetryAfterMs(hint_ms)),
            HINT_DO_NOT_RETRY => Some(ServerHint::DoNotRetry),
            _ => None,
        },
        elapsed_ms: has_elapsed.then(|| join_u64(elapsed_lo, elapsed_hi)),
        budget: None,
    }
}

#[wasm_bindgen]
impl BackoffState {
    /// A fresh state from the option fields (see [`PolicyFields`]) and a seed split in halves.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        preset: u32,
        present: u32,
        initial_ms: u32,
        multiplier_milli: u32,
        max_backoff_ms: u32,
        max_retries: u32,
        jitter: u32,
        jitter_ms: u32,
        spread_per_mille: u32,
        max_hint_ms: u32,
        max_elapsed_ms: u32,
        deadline: u32,
        seed_lo: u32,
        seed_hi: u32,
    ) -> Result<BackoffState, JsValue> {
        let policy = PolicyFields {
            preset,
            present,
            initial_ms,
            multiplier_milli,
            max_backoff_ms,
            max_retries,
            jitter,
            jitter_ms,
            spread_per_mille,
            max_hint_ms,
            max_elapsed_ms,
            deadline,
        }
        .to_policy()?;
        Ok(BackoffState {
            policy,
            state: Backoff::new(&policy, join_u64(seed_lo, seed_hi)),
        })
    }

    /// The plain step: the delay, or minus the give-up code.
    #[wasm_bindgen(js_name = nextDelay)]
    pub fn next_delay(&mut self) -> i32 {
        encode(self.state.next_delay(&self.policy))
    }

    /// The general step (SPEC.md §5): a hint (`HINT_*` with `hint_ms`), the caller's elapsed ms
    /// since the first attempt (as u64 halves, if `has_elapsed`), and a budget id (0: none) with
    /// the kind of the failure.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        hint_kind: u32,
        hint_ms: u32,
        has_elapsed: bool,
        elapsed_lo: u32,
        elapsed_hi: u32,
        budget: u32,
        timeout: bool,
    ) -> i32 {
        let input = step_input(hint_kind, hint_ms, has_elapsed, elapsed_lo, elapsed_hi);
        with_budget(budget, |b| {
            let input = StepInput {
                budget: b.map(|b| (gate(b), kind(timeout))),
                ..input
            };
            encode(self.state.next_delay_with(&self.policy, input))
        })
    }

    /// The give-up reason's code (1–4, SPEC.md §5), 0 if not given up.
    #[wasm_bindgen(js_name = giveUpCode)]
    pub fn give_up_code(&self) -> u32 {
        self.state.gave_up().map_or(0, |r| u32::from(r.code()))
    }

    /// Retries issued since creation or the last reset.
    pub fn retries(&self) -> u32 {
        self.state.retries()
    }
}

// Free functions rather than methods: a bundler drops the ones a program does not use, while a
// class keeps every method.

/// Back to retry 0 after a success; the random stream continues.
#[wasm_bindgen(js_name = backoffReset)]
pub fn backoff_reset(b: &mut BackoffState) {
    b.state.reset(&b.policy);
}

/// The sum of issued delays (or the caller's clock plus the last delay), saturating.
#[wasm_bindgen(js_name = backoffElapsedMs)]
pub fn backoff_elapsed_ms(b: &BackoffState) -> u32 {
    b.state.elapsed_ms()
}

/// The 40-byte snapshot of SPEC.md §9.
#[wasm_bindgen(js_name = backoffSnapshot)]
pub fn backoff_snapshot(b: &BackoffState) -> Vec<u8> {
    b.state.snapshot(&b.policy).to_vec()
}

/// A state restored from a 40-byte snapshot under the policy of the option fields. A refused
/// snapshot throws a number: the index of the core's error in [`SNAPSHOT_ERRORS`].
#[wasm_bindgen(js_name = backoffRestore)]
#[allow(clippy::too_many_arguments)]
pub fn backoff_restore(
    preset: u32,
    present: u32,
    initial_ms: u32,
    multiplier_milli: u32,
    max_backoff_ms: u32,
    max_retries: u32,
    jitter: u32,
    jitter_ms: u32,
    spread_per_mille: u32,
    max_hint_ms: u32,
    max_elapsed_ms: u32,
    deadline: u32,
    bytes: &[u8],
) -> Result<BackoffState, JsValue> {
    let mut restored = BackoffState::new(
        preset,
        present,
        initial_ms,
        multiplier_milli,
        max_backoff_ms,
        max_retries,
        jitter,
        jitter_ms,
        spread_per_mille,
        max_hint_ms,
        max_elapsed_ms,
        deadline,
        0,
        0,
    )?;
    restored.state = Backoff::restore(&restored.policy, bytes)
        .map_err(|e| JsValue::from(index_of(&SNAPSHOT_ERRORS, &e)))?;
    Ok(restored)
}

/// `"name message"` of the snapshot error with index `i`.
#[wasm_bindgen(js_name = snapshotError)]
pub fn snapshot_error(i: u32) -> String {
    let e = SNAPSHOT_ERRORS
        .get(i as usize)
        .copied()
        .unwrap_or(SnapshotError::InvalidState);
    name_and_message(e.name(), e.message())
}
