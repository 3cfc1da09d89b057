//! The core's errors in the order their indexes cross to JS: the core's own `ALL` lists. The JS
//! tables are generated from the same lists (`examples/gen_js_tables.rs`), so an index means the same
//! error on both sides.

#[cfg(feature = "store")]
use seeded_backoff::shared::StoreError;
use seeded_backoff::{
    budget::BudgetError, http::ParseError, pacer::PacerError, policy::PolicyError,
    send_rate::SendRateError, snapshot::SnapshotError,
};

/// `Retry-After` errors.
pub const PARSE: [ParseError; ParseError::ALL.len()] = ParseError::ALL;

/// Snapshot errors.
pub const SNAPSHOT: [SnapshotError; SnapshotError::ALL.len()] = SnapshotError::ALL;

/// Budget errors.
pub const BUDGET: [BudgetError; BudgetError::ALL.len()] = BudgetError::ALL;

/// Pacer configuration errors.
pub const PACER: [PacerError; PacerError::ALL.len()] = PacerError::ALL;

/// Send-rate configuration errors, in the order the core checks the fields.
pub const SEND_RATE: [SendRateError; SendRateError::ALL.len()] = SendRateError::ALL;

/// Why a stored value is no state of a part (SPEC.md §19.2).
#[cfg(feature = "store")]
pub const STORE: [StoreError; StoreError::ALL.len()] = StoreError::ALL;

/// Policy errors.
pub const POLICY: [PolicyError; PolicyError::ALL.len()] = PolicyError::ALL;

/// `e`'s index in `all` (the last index for a kind the list lacks, which a test rules out).
pub fn index<E: PartialEq>(all: &[E], e: &E) -> u32 {
    let i = all
        .iter()
        .position(|x| x == e)
        .unwrap_or(all.len().saturating_sub(1));
    i as u32
}
