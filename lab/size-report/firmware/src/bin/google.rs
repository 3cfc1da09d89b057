//! The smallest real use: Google's preset and one delay per call.
#![no_std]
#![no_main]

use seeded_backoff::{Backoff, Policy};

/// The linker's entry (`--entry=entry`): everything it reaches is what a Google-only user ships.
#[no_mangle]
pub extern "C" fn entry(seed: u64, out: &mut [u32; 11]) -> u32 {
    let policy = Policy::google();
    let mut backoff = Backoff::new(&policy, seed);
    for slot in out.iter_mut() {
        *slot = backoff.next_delay(&policy).delay_ms().unwrap_or(0);
    }
    backoff.retries()
}

// The core never panics, but a no_std program must name a handler.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
