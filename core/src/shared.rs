//! One retry budget (SPEC.md §10), one pacer (§16) or one send rate (§17) for a whole fleet, kept
//! in a store such as Valkey (SPEC.md §19).
//!
//! The core decides; the store keeps and orders. A part's stored value is its raw state in the
//! encoding of [`SharedPart`]; an update is the core's decision applied by a compare-and-set on
//! those bytes, decided again on a conflict. [`StoreLink`] and [`Exchange`] are the sans-I/O
//! machine every binding drives: they say [`Step::Read`], [`Step::CompareAndSet`] or
//! [`Step::Decide`] (from the store's value, or from the process's own state when the store is
//! down or slower than [`STORE_BOUND_MS`]), and the binding performs the I/O. With the `valkey`
//! feature, [`SharedBudget`], [`SharedPacer`] and [`SharedSendRate`] do it over the `redis` crate.

mod encode;
mod exchange;
mod link;
#[cfg(feature = "valkey")]
mod valkey;

#[cfg(all(feature = "http", feature = "tower"))]
pub use crate::pace_layer::PaceSource;
pub use encode::{
    SharedPart, StoreError, BUDGET_VALUE_SIZE, KIND_BUDGET, KIND_PACER, KIND_SEND_RATE,
    PACER_VALUE_SIZE, SEND_RATE_VALUE_SIZE, STORE_HEADER_SIZE, STORE_TAG, STORE_VERSION,
};
pub use exchange::{Exchange, Phase, RawExchange, Reply, Step};
pub use link::{
    FleetClock, LinkState, RawLink, StoreLink, CAS_SCRIPT, LATE_LIMIT, MAX_TRIES, REJOIN_MS,
    STORE_BOUND_MS,
};
#[cfg(feature = "valkey")]
pub use valkey::{SharedBudget, SharedPacer, SharedSendRate, Store, StoreStats};

#[cfg(test)]
mod alone_tests;
#[cfg(test)]
mod raw_tests;
#[cfg(test)]
mod tests;
