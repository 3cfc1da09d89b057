//! The fleet part: a seed from a device id and a boot counter, and the startup delay after a
//! fleet-wide power restore (SPEC.md §12).

use wasm_bindgen::prelude::*;

use crate::rt::io as shared;

/// The address of the shared numbers and bytes.
#[wasm_bindgen(js_name = fleetIo)]
pub fn fleet_io() -> u32 {
    crate::rt::io_address()
}

/// The seed for the device id in the first `len` shared bytes and `boot_counter`, written as u32
/// halves (low, high) to the first two option words.
#[wasm_bindgen(js_name = fleetSeed)]
pub fn fleet_seed(len: u32, boot_counter: u32) {
    shared(|io| {
        let id = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        let seed = seeded_backoff::seed_from_device(id, boot_counter);
        io.options[0] = seed as u32;
        io.options[1] = (seed >> 32) as u32;
    });
}

/// The startup delay in ms for the seed `hi:lo` and `window_ms`, or −1 for a window above the
/// core's maximum delay (the core's one `FleetError`).
#[wasm_bindgen(js_name = fleetStartupDelay)]
pub fn fleet_startup_delay(lo: u32, hi: u32, window_ms: u32) -> f64 {
    let seed = u64::from(hi) << 32 | u64::from(lo);
    seeded_backoff::startup_delay_ms(seed, window_ms).map_or(-1.0, f64::from)
}
