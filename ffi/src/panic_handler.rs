//! The panic handler for bare-metal builds (`target_os = "none"`), where no std provides one.
//!
//! The core has no panic path, so this handler is dead code in an optimised build. With the
//! `panic-link-check` feature it calls a symbol that exists nowhere: a firmware then links only if
//! the optimiser removed every call to it, which is the link-time proof of panic-freedom.

use core::panic::PanicInfo;

#[cfg(not(feature = "panic-link-check"))]
#[panic_handler]
fn panic(_info: &PanicInfo) -> ! {
    // Unreachable (see above); spinning keeps a watchdog able to reset the device if it ever is.
    loop {
        core::hint::spin_loop();
    }
}

#[cfg(feature = "panic-link-check")]
#[panic_handler]
fn panic(_info: &PanicInfo) -> ! {
    extern "C" {
        fn seeded_backoff_ffi_has_a_reachable_panic_path() -> !;
    }
    // SAFETY: the symbol is deliberately undefined; if this call survives optimisation the link
    // fails, so it never runs.
    unsafe { seeded_backoff_ffi_has_a_reachable_panic_path() }
}
