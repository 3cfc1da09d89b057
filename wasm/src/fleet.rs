//! The fleet part: a seed from a device id and a boot counter, and the startup delay after a
//! fleet-wide power restore (SPEC.md §12; the delay is [`crate::startup`]).

use crate::rt::io as shared;

/// The seed for the device id in the first `len` shared bytes and `boot_counter`, written as u32
/// halves (low, high) to the first two option words.
#[export_name = "fleetSeed"]
pub extern "C" fn fleet_seed(len: u32, boot_counter: u32) {
    shared(|io| {
        let id = io.bytes.get(..len as usize).unwrap_or(&io.bytes);
        let seed = seeded_backoff::fleet::seed_from_device(id, boot_counter);
        io.options[0] = seed as u32;
        io.options[1] = (seed >> 32) as u32;
    });
}
