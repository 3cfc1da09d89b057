//! The only `unsafe` of the binding: the memory shared with JS, and the no-std panic handler of
//! the npm build.
//!
//! The module is single-threaded wasm (no `atomics` target feature) and no export calls another
//! export, so at most one `&mut` to each static exists at a time: each access below is a short
//! closure that cannot re-enter. Host builds (tests) use thread-locals instead.

use seeded_backoff::bindings::RawBackoff;
use seeded_backoff::{Backoff, Policy};

/// The longest header value the parts read (SPEC.md §8): a longer one is too long for every binding.
pub const MAX_HEADER_VALUE: usize = seeded_backoff::MAX_HEADER_VALUE_LEN;

/// How many header values a call can pass at once: `Retry-After` and the rate-limit headers.
pub const HEADER_VALUES: usize = 1 + seeded_backoff::RATE_LIMIT_HEADERS.len();

/// The option words: a word of presence bits, then one word per core `PolicyOption`.
pub const OPTION_WORDS: usize = 1 + seeded_backoff::bindings::PolicyOption::NAMES.len();

/// Numbers and bytes JS writes before a call and reads after it: 32 words, then the bytes. Its
/// offsets reach JS through the generated tables (`examples/js_tables.rs`), not a copy.
#[repr(C)]
pub struct Io {
    /// A policy's options: a word of presence bits, then one word per option (`io::option`).
    pub options: [u32; OPTION_WORDS],
    /// A `Backoff`'s state.
    pub state: RawBackoff,
    /// A budget: kind (0 gRFC A6, 1 AWS), four config values and the tokens, in thousandths.
    pub budget: [u32; 6],
    /// The lengths of the header values in `bytes`, one after another: `Retry-After`, then the
    /// rate-limit headers in the core's order; `u32::MAX` for a header the response lacks.
    pub lens: [u32; HEADER_VALUES],
    /// Unused: the bytes start at a round offset.
    pub pad: [u32; 32 - OPTION_WORDS - 8 - 6 - HEADER_VALUES],
    /// Header values, a snapshot or a device id.
    pub bytes: [u8; HEADER_VALUES * MAX_HEADER_VALUE],
}

/// The policy and state the main part steps: JS loads a policy or a state here only when another
/// one was used since, so a long-lived `Backoff` steps with no copying.
pub struct Slot {
    /// The active policy.
    pub policy: Policy,
    /// The state of the `Backoff` JS last stepped (none before the first).
    pub state: Option<Backoff>,
}

const IO_INIT: Io = Io {
    options: [0; OPTION_WORDS],
    state: RawBackoff {
        rng: [0; 4],
        retries: 0,
        level: 0,
        elapsed_ms: 0,
        gave_up: 0,
    },
    budget: [0; 6],
    lens: [0; HEADER_VALUES],
    pad: [0; 32 - OPTION_WORDS - 8 - 6 - HEADER_VALUES],
    bytes: [0; HEADER_VALUES * MAX_HEADER_VALUE],
};

const SLOT_INIT: Slot = Slot {
    policy: Policy::google(),
    state: None,
};

#[cfg(target_arch = "wasm32")]
static mut IO: Io = IO_INIT;

#[cfg(target_arch = "wasm32")]
static mut SLOT: Slot = SLOT_INIT;

/// Runs `f` on the shared numbers and bytes.
#[cfg(target_arch = "wasm32")]
pub fn io<R>(f: impl FnOnce(&mut Io) -> R) -> R {
    // SAFETY: single-threaded, and no `f` in this crate calls `io` again, so this is the only
    // reference to IO while it lives.
    f(unsafe { &mut *(&raw mut IO) })
}

/// Runs `f` on the slot.
#[cfg(target_arch = "wasm32")]
pub fn slot<R>(f: impl FnOnce(&mut Slot) -> R) -> R {
    // SAFETY: as for `io`: no `f` calls `slot` again, so no other reference to SLOT exists.
    f(unsafe { &mut *(&raw mut SLOT) })
}

/// The address JS reads and writes `Io` at: every part exports it as `io`.
#[cfg(target_arch = "wasm32")]
#[export_name = "io"]
pub extern "C" fn io_address() -> u32 {
    (&raw const IO) as usize as u32
}

// On a host (the tests), where threads exist, each thread has its own area and slot.
#[cfg(not(target_arch = "wasm32"))]
std::thread_local! {
    static IO: core::cell::RefCell<Io> = const { core::cell::RefCell::new(IO_INIT) };
    static SLOT: core::cell::RefCell<Slot> = const { core::cell::RefCell::new(SLOT_INIT) };
}

/// Runs `f` on the shared numbers and bytes.
#[cfg(not(target_arch = "wasm32"))]
pub fn io<R>(f: impl FnOnce(&mut Io) -> R) -> R {
    IO.with_borrow_mut(f)
}

/// Runs `f` on the slot.
#[cfg(not(target_arch = "wasm32"))]
pub fn slot<R>(f: impl FnOnce(&mut Slot) -> R) -> R {
    SLOT.with_borrow_mut(f)
}

/// On a host there is no linear memory for JS to address.
#[cfg(not(target_arch = "wasm32"))]
pub fn io_address() -> u32 {
    0
}

#[cfg(all(feature = "rt", target_arch = "wasm32"))]
mod no_std_runtime {
    // The core has no panicking path (its build proofs); this is for the binding's own code.
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}
