//! The only `unsafe` of the binding: the no-std runtime of the npm build, and the memory shared
//! with JS.
//!
//! The module is single-threaded wasm (no `atomics` target feature) and no export calls another
//! export, so at most one `&mut` to each static exists at a time: each access below is a short
//! closure that cannot re-enter. Host builds (tests) use thread-locals instead.

use seeded_backoff::{Backoff, Policy, RawBackoff};

/// Numbers and bytes JS writes before a call and reads after it: 32 words, then 256 bytes.
#[repr(C)]
pub struct Io {
    /// A policy's options: a word of presence bits, then one word per option (`io::option`).
    pub options: [u32; 12],
    /// A `Backoff`'s state.
    pub state: RawBackoff,
    /// A budget: kind (0 gRFC A6, 1 AWS), four config values and the tokens, in thousandths.
    pub budget: [u32; 6],
    /// Unused: the bytes start at a round offset.
    pub pad: [u32; 6],
    /// A header value or a snapshot.
    pub bytes: [u8; 256],
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
    options: [0; 12],
    state: RawBackoff {
        rng: [0; 4],
        retries: 0,
        level: 0,
        elapsed_ms: 0,
        gave_up: 0,
    },
    budget: [0; 6],
    pad: [0; 6],
    bytes: [0; 256],
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

/// The address JS reads and writes `Io` at.
#[cfg(target_arch = "wasm32")]
pub fn io_address() -> u32 {
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
    use core::alloc::{GlobalAlloc, Layout};

    /// Nothing in the module allocates; a wasm-bindgen path that tried would get null and trap.
    struct NoAlloc;

    // SAFETY: returning null is GlobalAlloc's documented way to report failure; `dealloc` is only
    // ever given pointers `alloc` returned, and it returned none.
    unsafe impl GlobalAlloc for NoAlloc {
        unsafe fn alloc(&self, _: Layout) -> *mut u8 {
            core::ptr::null_mut()
        }
        unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
    }

    #[global_allocator]
    static ALLOCATOR: NoAlloc = NoAlloc;

    // The core has no panicking path (its build proofs); this is for the binding's own code.
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}
