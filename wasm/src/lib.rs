//! wasm-bindgen bindings of [`seeded_backoff`] for the npm package `seeded-backoff`.
//!
//! This crate only translates: JS option values to a core [`Policy`](seeded_backoff::Policy) (the
//! ranges and cross-field rules are the core's, reported under the JS option names), seeds split
//! into two `u32` halves, delays and give-ups as one `i32`, option errors as a JS `RangeError`,
//! header and snapshot errors as numbers the wrapper turns into errors (see [`errors`]). Every
//! delay, token count, parsed header and snapshot byte is computed by the core. Types and bad values are rejected earlier, by the package's JS wrapper (`wasm/js/`),
//! which is the public API; the exports here are its internals.
//!
//! ```
//! use seeded_backoff_wasm::options::{field, PolicyFields};
//! let policy = PolicyFields { preset: 1, ..PolicyFields::default() }.to_policy().unwrap();
//! assert_eq!(policy, seeded_backoff::Policy::google());
//! let err = PolicyFields { present: field::INITIAL_MS, ..PolicyFields::default() }.to_policy();
//! assert_eq!(err.unwrap_err().0, "initialMs must be in 1..=2147483647");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod backoff;
pub mod budget;
pub mod errors;
pub mod headers;
pub mod options;

pub use backoff::BackoffState;
