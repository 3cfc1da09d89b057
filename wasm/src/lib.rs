//! The WebAssembly bindings of [`seeded_backoff`] for the npm package `seeded-backoff`.
//!
//! The bindings translate; the core decides. Only numbers cross the boundary: the JS layer writes
//! option values, raw states, budget words and header bytes into one fixed area of linear memory
//! ([`rt::Io`], layouts in [`io`]), calls an export, and reads the answer back. Nothing is
//! allocated, nothing is formatted, nothing is kept for JS to free: a `Backoff`'s 32-byte state and
//! a budget's words live in JS objects.
//!
//! The package is eight wasm modules, one per feature of this crate, each inlined in a JS module so
//! that a program carries only what it imports (and a JS build of each, by binaryen's wasm2js, for
//! pages whose Content-Security-Policy refuses WebAssembly). Exports are plain `extern "C"`
//! functions of numbers: [`step`] (policies, steps, classes, delta-seconds `Retry-After`), [`date`]
//! (HTTP-dates and the rate-limit headers), [`snapshot`], [`budget`], [`fleet`], [`pacer`] (a
//! server's schedule of returns), [`send_rate`] (an adaptive send rate) and [`store`] (their
//! values in a store shared by a fleet, SPEC.md §19); [`startup`] (the
//! core's startup delay) is the fleet part's. Errors cross as an index into
//! the core's list of them ([`errors`]); the JS layer holds the names and messages, generated from
//! the same lists by `examples/gen_js_tables.rs`.
//!
//! ```
//! use seeded_backoff::bindings::PolicyOption;
//! use seeded_backoff_wasm::io::option;
//! use seeded_backoff_wasm::step::policy_resolve;
//!
//! let initial_ms = PolicyOption::InitialMs.code() as usize;
//! seeded_backoff_wasm::rt::io(|io| {
//!     io.options[option::PRESENT] = 1 << initial_ms;
//!     io.options[option::FIRST + initial_ms] = 0;
//! });
//! // 0 is success; otherwise 1 + the index of the core's PolicyError (InitialMs is the first).
//! assert_eq!(policy_resolve(), 1);
//! ```
#![cfg_attr(all(feature = "rt", target_arch = "wasm32"), no_std)]
#![deny(missing_docs)]

pub mod errors;
pub mod io;
pub mod rt;

#[cfg(feature = "budget")]
pub mod budget;
#[cfg(feature = "date")]
pub mod date;
#[cfg(feature = "fleet")]
pub mod fleet;
#[cfg(any(feature = "main", feature = "send_rate"))]
pub mod gate;
#[cfg(feature = "pacer")]
pub mod pacer;
#[cfg(any(feature = "main", feature = "send_rate"))]
pub mod run;
#[cfg(feature = "send_rate")]
pub mod send_rate;
#[cfg(feature = "snapshot")]
pub mod snapshot;
#[cfg(feature = "fleet")]
pub mod startup;
#[cfg(feature = "main")]
pub mod step;
#[cfg(feature = "store")]
pub mod store;
#[cfg(feature = "store")]
pub mod store_any;
#[cfg(feature = "store")]
pub mod store_link;
