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
//! On the server, telling refused requests when to come back at the server's capacity: [`Pacer`].
//!
//! ## Cargo features
//!
//! None is on by default: the crate is `no_std`, allocation-free and depends only on itself.
//! - `std`: `Backoff::from_entropy` (OS seeding) and `retry_blocking` (sleeps the thread).
//! - `tokio`: `retry_tokio`, the async loop on Tokio's timer and clock, a fresh OS seed per call
//!   (implies `std`).
//! - `tower`: `TowerPolicy`, a `tower::retry::Policy` (tower 0.5; implies `tokio`), and
//!   `SendRateLayer`, which paces every call of a service, retries included, through a shared
//!   [`AtomicSendRate`].
//! - `retry-policies`: `SeededRetryPolicy`, a `retry_policies::RetryPolicy` (retry-policies 0.5,
//!   what `reqwest-retry` takes; implies `std`).
//! - `http`: `Verdict::from_http`, the verdict and hint of an `http::Response` (http 1; implies
//!   `std`); with `tower`, `mark_exhausted` marks a response whose retries ran out, and
//!   `PaceLayer` sets a [`Pacer`]'s headers on the 429 and 503 responses of a server.
//! - `reqwest`: `retry_reqwest`, a request sent with retries that honour `Retry-After`, and
//!   `Verdict::from_reqwest`, the verdict and hint of a `reqwest::Response` (reqwest 0.13; implies
//!   `http` and `tokio`).
//! - `rand_core`: `Backoff::from_rng`, seeding from any `rand_core` 0.10 generator, such as a
//!   HAL's hardware RNG (no_std).
//! - `valkey`: [`shared`]'s `SharedSendRate`, `SharedBudget` and `SharedPacer`, one part for a
//!   whole fleet kept in Valkey or Redis (SPEC.md §19; implies `tokio`).
//!
//! Every error type implements `core::error::Error` and `Display` with or without `std`.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod backoff;
pub mod bindings;
mod budget;
mod call_seed;
mod classify;
mod coded_enum;
mod crc32;
mod decimal;
mod error_enum;
mod fleet;
mod hint;
#[cfg(feature = "http")]
mod http_support;
mod httpdate;
mod jitter;
#[cfg(all(feature = "http", feature = "tower"))]
mod pace_layer;
mod pacer;
mod parse_error;
mod policy;
mod preset;
#[cfg(feature = "rand_core")]
mod rand_support;
mod rate_limit;
mod reconnect;
#[cfg(feature = "reqwest")]
mod reqwest_support;
mod retry;
mod retry_event;
#[cfg(feature = "retry-policies")]
mod retry_policies_support;
mod retry_rate;
mod rng;
mod run;
mod schedule;
mod send_rate;
pub mod shared;
mod snapshot;
#[cfg(feature = "std")]
mod std_support;
#[cfg(feature = "tokio")]
mod tokio_support;
#[cfg(feature = "tower")]
mod tower_send_rate;
#[cfg(feature = "tower")]
mod tower_support;

pub use backoff::{Backoff, GiveUpReason, Step, StepInput};
#[cfg(target_has_atomic = "32")]
pub use budget::AtomicRetryBudget;
pub use budget::{BudgetConfig, BudgetError, FailureKind, RetryBudget, RetryGate};
pub use call_seed::call_seed;
#[cfg(target_has_atomic = "64")]
pub use call_seed::CallSeeds;
pub use classify::{
    classify_grpc, classify_http, is_idempotent_method, is_retryable_http, normalize_method,
    request_may_retry, Classification, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS,
    NORMALIZED_METHODS,
};
pub use fleet::{seed_from_device, startup_delay_ms, FleetError};
pub use hint::{parse_grpc_pushback, parse_retry_after, ServerHint, MAX_HEADER_VALUE_LEN};
#[cfg(all(feature = "http", feature = "tower"))]
pub use http_support::mark_exhausted;
pub use jitter::jitter_bounds;
#[cfg(all(feature = "http", feature = "tower"))]
pub use pace_layer::{pace_headers, PaceLayer, PacedService};
pub use pacer::{
    Pacer, PacerError, PacerHeaders, PacerSlot, MAX_PACER_CAPACITY, MAX_PACER_WAIT_S,
    PACER_HEADER_NAMES,
};
pub use parse_error::ParseError;
pub use policy::{
    DeadlineMode, InvalidPolicy, Jitter, Policy, PolicyBuilder, PolicyError, DEFAULT_MAX_HINT_MS,
    MAX_DELAY_MS, MAX_MULTIPLIER, MAX_MULTIPLIER_DEN,
};
pub use preset::Preset;
pub use rate_limit::{
    parse_rate_limit, rate_limit_applies, RateLimitHeader, RATE_LIMIT_HEADERS, RETRY_AFTER,
};
pub use reconnect::{Reconnect, ReconnectError, RETRY_FOREVER};
#[cfg(feature = "reqwest")]
pub use reqwest_support::{retry_reqwest, ReqwestFailure};
pub use retry::{retry_async, NoBudget, Retry, RetryError, Verdict};
pub use retry_event::{NoCallback, OnRetry, RetryEvent};
#[cfg(feature = "retry-policies")]
pub use retry_policies_support::SeededRetryPolicy;
pub use retry_rate::{LoopSendRate, NoSendRate, NotSent};
pub use run::{
    answer_of, Action, Outcome, PauseReason, Run, RunError, SendGate, RUN_SNAPSHOT_SIZE,
    RUN_SNAPSHOT_VERSION,
};
pub use schedule::Schedule;
#[cfg(target_has_atomic = "64")]
pub use send_rate::AtomicSendRate;
pub use send_rate::{
    Answer, Pace, SendRate, SendRateConfig, SendRateError, MAX_RATE_MILLI, SPAN_FLOOR_MS,
};
pub use snapshot::{SnapshotError, SNAPSHOT_SIZE, SNAPSHOT_VERSION};
#[cfg(feature = "std")]
pub use std_support::{random_seed, retry_blocking};
#[cfg(feature = "tokio")]
pub use tokio_support::retry_tokio;
#[cfg(feature = "tower")]
pub use tower_send_rate::{SendRateLayer, SendRateService, SendRefused};
#[cfg(feature = "tower")]
pub use tower_support::{
    ByClone, CloneRequest, GaveUp, GiveUpAsError, NoGiveUpHook, OnGiveUp, RetriesExhausted,
    TowerPolicy,
};

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
