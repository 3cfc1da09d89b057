//! # seeded-backoff
//!
//! One verified exponential-backoff engine: Google Cloud's algorithm exactly
//! (`min(2^n s + U[0, 1000] ms, maximum_backoff)`), five more jitter strategies, `Retry-After`
//! and rate-limit header hints, time and retry budgets, and 40-byte snapshots, with **bit-identical schedules for the
//! same seed** on servers, in browsers (the npm package) and on microcontrollers (the C library).
//!
//! The core is `no_std`, allocation-free, integer-only and panic-free; the build proves each of
//! these. Every formula is in `SPEC.md`, precise enough to port.
//!
//! ## Quick start
//!
//! ```
//! use seeded_backoff::{classify_http, Backoff, Classification, Policy, Step};
//!
//! let policy = Policy::google(); // shared: one per service, may live in a `const`
//! let mut backoff = Backoff::new(&policy, 0x5eed); // one per request: 32 bytes
//! for status in [503, 429, 200] {
//!     match classify_http(status) {
//!         Classification::Retry => match backoff.next_delay(&policy) {
//!             Step::Retry { delay_ms, retry } => {
//!                 assert!(delay_ms >= 1000 << retry);
//!                 // sleep(delay_ms), then send again
//!             }
//!             Step::GiveUp(reason) => panic!("gave up: {reason}"),
//!         },
//!         _ => break,
//!     }
//! }
//! assert_eq!(backoff.retries(), 2);
//! ```
//!
//! The same with an iterator of [`core::time::Duration`]s: [`Schedule`].
//!
//! A whole retry loop, on any async runtime or none: [`retry_async`], [`Retry`]. Every loop of
//! every binding is a shell over [`Run`], the sans-I/O state machine of one call's run (SPEC.md
//! §15): it performs the [`Action`] the run answers and reports each [`Outcome`].
//!
//! ## Where things are
//!
//! The root holds what a request's everyday path uses: the policy, the backoff and its steps, the
//! server's hint, the retry loops and the run. The rest lives in the module of its concern:
//! - [`policy`]: the limits, presets and errors of a policy.
//! - [`http`]: which HTTP statuses and gRPC codes are retried, which methods may be resent, and
//!   the parsers of `Retry-After`, the rate-limit headers and gRPC's pushback.
//! - [`budget`]: retry budgets shared by every request to one server (SPEC.md §10).
//! - [`send_rate`]: the adaptive send rate that paces first attempts too (SPEC.md §17).
//! - [`pacer`]: on the server, telling refused requests when to come back at its capacity
//!   (SPEC.md §16).
//! - [`fleet`]: seeds for devices and a fleet's spread-out start (SPEC.md §12).
//! - [`reconnect`]: a long-lived connection's reconnect loop, which may never give up.
//! - [`snapshot`]: the sizes and errors of a state saved across a restart (SPEC.md §9).
//! - [`run`] and [`retry`]: the run's and the retry loop's less common parts.
//! - `tower` and `retry_policies`: the integrations, under their features.
//!
//! ## Cargo features
//!
//! None is on by default: the crate is `no_std`, allocation-free and depends only on itself.
//! - `std`: `Backoff::from_entropy` (OS seeding) and `retry_blocking` (sleeps the thread).
//! - `tokio`: `retry_tokio`, the async loop on Tokio's timer and clock, a fresh OS seed per call
//!   (implies `std`).
//! - `tower`: `TowerPolicy`, a `tower::retry::Policy` (tower 0.5; implies `tokio`), and
//!   `SendRateLayer`, which paces every call of a service, retries included, through a shared
//!   [`AtomicSendRate`](send_rate::AtomicSendRate).
//! - `retry-policies`: `SeededRetryPolicy`, a `retry_policies::RetryPolicy` (retry-policies 0.5,
//!   what `reqwest-retry` takes; implies `std`).
//! - `http`: `Verdict::from_http`, the verdict and hint of an `http::Response` (http 1; implies
//!   `std`); with `tower`, `mark_exhausted` marks a response whose retries ran out, and
//!   `PaceLayer` sets a [`Pacer`](pacer::Pacer)'s headers on the 429 and 503 responses of a server.
//! - `reqwest`: `retry_reqwest`, a request sent with retries that honour `Retry-After`, and
//!   `Verdict::from_reqwest`, the verdict and hint of a `reqwest::Response` (reqwest 0.13; implies
//!   `http` and `tokio`).
//! - `rand_core`: `Backoff::from_rng`, seeding from any `rand_core` 0.10 generator, such as a
//!   HAL's hardware RNG (no_std).
//! - `valkey`: [`shared`]'s `SharedSendRate`, `SharedBudget` and `SharedPacer`, one part for a
//!   whole fleet kept in Valkey or Redis (SPEC.md §19; implies `tokio`).
//!
//! Every error type implements `core::error::Error` and `Display` with or without `std`. A
//! constructor that checks its arguments refuses with [`Invalid`], whose message names the field,
//! its allowed range and the value given.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod backoff;
// What the npm package, the C ABI and the CLI build on (options coded as numbers, raw state for
// memory a binding owns): behind the `bindings` feature, which those crates enable, so a Rust
// program's build has no such module at all; hidden from the documentation too, since an
// all-features build (docs.rs) turns the feature on.
#[cfg(feature = "bindings")]
#[doc(hidden)]
pub mod bindings;
pub mod budget;
mod call_seed;
mod classify;
mod coded_enum;
mod crc32;
mod decimal;
mod error_enum;
pub mod fleet;
mod hint;
#[cfg(feature = "http")]
mod http_support;
mod httpdate;
mod invalid;
mod jitter;
#[cfg(all(feature = "http", feature = "tower"))]
mod pace_layer;
pub mod pacer;
mod parse_error;
pub mod policy;
mod preset;
#[cfg(feature = "rand_core")]
mod rand_support;
mod rate_limit;
pub mod reconnect;
#[cfg(feature = "reqwest")]
mod reqwest_support;
pub mod retry;
mod retry_event;
#[cfg(feature = "retry-policies")]
mod retry_policies_support;
mod retry_rate;
mod rng;
pub mod run;
mod schedule;
pub mod send_rate;
pub mod shared;
pub mod snapshot;
#[cfg(feature = "std")]
mod std_support;
#[cfg(feature = "tokio")]
mod tokio_support;
#[cfg(feature = "tower")]
mod tower_send_rate;
#[cfg(feature = "tower")]
mod tower_support;

// The root is what the README's examples and a request's everyday path use; the rest lives in the
// module of its concern. An item whose module is public is also shown here (`doc(inline)`), so
// the root's page reads whole.
pub use backoff::{Backoff, GiveUpReason, Step, StepInput};
#[doc(inline)]
pub use budget::FailureKind;
pub use call_seed::call_seed;
#[cfg(target_has_atomic = "64")]
pub use call_seed::CallSeeds;
pub use classify::{classify_http, Classification};
pub use hint::{parse_retry_after, ServerHint};
pub use invalid::Invalid;
#[doc(inline)]
pub use policy::{Jitter, Policy, PolicyBuilder};
#[cfg(feature = "reqwest")]
pub use reqwest_support::{retry_reqwest, ReqwestFailure};
#[doc(inline)]
pub use retry::{retry_async, Retry, RetryError, Verdict};
pub use retry_event::RetryEvent;
#[doc(inline)]
pub use run::{Action, Outcome, Run};
pub use schedule::Schedule;
#[cfg(feature = "std")]
pub use std_support::retry_blocking;
#[cfg(feature = "tokio")]
pub use tokio_support::retry_tokio;

/// HTTP and gRPC: which statuses and codes are worth a retry, which requests may be sent again,
/// and the parsers of the headers a server's hint comes in (`Retry-After`, the rate-limit headers,
/// gRPC's pushback). [`classify_http`], [`parse_retry_after`] and [`ServerHint`] are at the root.
pub mod http {
    pub use crate::classify::{
        classify_grpc, is_idempotent_method, is_retryable_http, normalize_method,
        request_may_retry, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS, NORMALIZED_METHODS,
    };
    pub use crate::hint::{parse_grpc_pushback, MAX_HEADER_VALUE_LEN};
    pub use crate::parse_error::ParseError;
    pub use crate::rate_limit::{
        parse_rate_limit, rate_limit_applies, RateLimitHeader, RATE_LIMIT_HEADERS, RETRY_AFTER,
    };
}

/// Tower 0.5 (feature `tower`): [`TowerPolicy`](tower::TowerPolicy), a `tower::retry::Policy`;
/// [`SendRateLayer`](tower::SendRateLayer), which paces every call of a service through a shared
/// [`AtomicSendRate`](send_rate::AtomicSendRate); with feature `http`, a server's
/// [`PaceLayer`](tower::PaceLayer), which sets a [`Pacer`](pacer::Pacer)'s headers on its 429 and
/// 503 responses.
#[cfg(feature = "tower")]
pub mod tower {
    #[cfg(feature = "http")]
    pub use crate::http_support::mark_exhausted;
    #[cfg(feature = "http")]
    pub use crate::pace_layer::{pace_headers, PaceLayer, PaceSource, PacedService};
    pub use crate::tower_send_rate::{SendRateLayer, SendRateService, SendRefused};
    pub use crate::tower_support::{
        ByClone, CloneRequest, GaveUp, GiveUpAsError, NoGiveUpHook, OnGiveUp, RetriesExhausted,
        TowerPolicy,
    };
}

/// retry-policies 0.5 (feature `retry-policies`): [`SeededRetryPolicy`](retry_policies::SeededRetryPolicy),
/// the policy `reqwest-retry`'s middleware takes.
#[cfg(feature = "retry-policies")]
pub mod retry_policies {
    pub use crate::retry_policies_support::SeededRetryPolicy;
}

// Every Rust block of the crate's README.md and of the repository's compiles and runs as a doc test
// (the blocks use the tokio, tower and retry-policies features and the dev-dependencies).
#[cfg(all(
    doctest,
    feature = "tower",
    feature = "retry-policies",
    feature = "reqwest"
))]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
#[cfg(all(doctest, feature = "tower"))]
#[doc = include_str!("../../README.md")]
struct RepositoryReadmeDoctests;

/// The crate's version, as in `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The per-request state fits in 32 bytes on every target: checked here at compile time, so a
// build for x86_64, wasm32 or thumbv6m fails if it grows.
const _: () = assert!(core::mem::size_of::<Backoff>() <= 32);
