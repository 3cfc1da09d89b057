//! The vector op language of SPEC.md §11 lives in the `seeded-backoff-test-support` crate, shared
//! with the core's tests that replay the vectors this CLI records.

pub use seeded_backoff_test_support::{budget_config_json, policy_json, run_budget_op, run_op};
