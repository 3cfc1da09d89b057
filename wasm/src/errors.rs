//! The core's errors in the order their indexes cross to JS. The JS tables are generated from
//! these lists (`examples/js_tables.rs`), so an index means the same error on both sides.

use seeded_backoff::{BudgetError, ParseError, PolicyError, SnapshotError};

/// `Retry-After` errors.
pub const PARSE: [ParseError; 10] = [
    ParseError::Empty,
    ParseError::Negative,
    ParseError::InvalidFormat,
    ParseError::BadDayName,
    ParseError::BadMonth,
    ParseError::BadDay,
    ParseError::BadHour,
    ParseError::BadMinute,
    ParseError::BadSecond,
    ParseError::BadYear,
];

/// Snapshot errors.
pub const SNAPSHOT: [SnapshotError; 6] = [
    SnapshotError::WrongLength,
    SnapshotError::UnknownVersion,
    SnapshotError::BadChecksum,
    SnapshotError::PolicyMismatch,
    SnapshotError::ZeroRngState,
    SnapshotError::InvalidState,
];

/// Budget errors.
pub const BUDGET: [BudgetError; 5] = [
    BudgetError::MaxTokens,
    BudgetError::TokenRatio,
    BudgetError::Capacity,
    BudgetError::Cost,
    BudgetError::NoRetryIncrement,
];

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
