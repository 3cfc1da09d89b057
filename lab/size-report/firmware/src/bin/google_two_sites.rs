//! Google's preset stepped from two places (a first failure and the later ones), as real
//! firmware often does: what `next_delay` being inlined at both call sites costs in flash.
#![no_std]
#![no_main]

use seeded_backoff::{Backoff, Policy, Step};

/// The linker's entry (`--entry=entry`).
#[no_mangle]
pub extern "C" fn entry(seed: u64, out: &mut [u32; 11]) -> u32 {
    let policy = Policy::google();
    let mut backoff = Backoff::new(&policy, seed);
    let Step::Retry { delay_ms, .. } = backoff.next_delay(&policy) else {
        return 0;
    };
    out[0] = delay_ms;
    for slot in out.iter_mut().skip(1) {
        *slot = backoff.next_delay(&policy).delay_ms().unwrap_or(0);
    }
    backoff.retries()
}

// The core never panics, but a no_std program must name a handler.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
