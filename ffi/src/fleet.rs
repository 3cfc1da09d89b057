//! Fleet helpers (SPEC.md section 12): per-device seeds, and the startup delay that spreads a
//! fleet's first connections after a power restore.

use seeded_backoff::{
    call_seed,
    fleet::{seed_from_device, startup_delay_ms},
};

use crate::ptr;
use crate::status::{require_feature, sb_status};

/// The seed of call `index` (0, 1, 2, … in the order the calls start) of a loop seeded with `seed`
/// (SPEC.md section 14): `seed` itself for call 0, and a different seed for every other index, so
/// that calls made together retry apart. A loop written over `sb_run_*` that serves many calls
/// seeds call `i`'s run with it, counting its calls from 0.
///
/// ```c
/// static uint64_t calls; // this loop's call counter
/// sb_run_init(&run, &policy, sb_call_seed(device_seed, calls++), 0);
/// ```
#[no_mangle]
pub extern "C" fn sb_call_seed(seed: u64, index: u64) -> u64 {
    call_seed(seed, index)
}

/// Writes to `*seed` a seed for `sb_backoff_init` made from the device's unique id (`len` bytes at
/// `id`: a serial number, MAC address or chip UID) and a counter the device increments on every
/// boot and keeps (e.g. in flash): the same inputs give the same seed on every platform, and each
/// boot counter a different one. Returns `SB_OK` or `SB_ERR_NULL` (`SB_ERR_UNSUPPORTED` in a
/// build without the `fleet` feature).
///
/// ```c
/// uint64_t seed;
/// sb_seed_from_device(chip_uid, sizeof chip_uid, boot_count, &seed);
/// sb_backoff_init(&b, &policy, seed);
/// ```
///
/// # Safety
/// `id` is NULL or valid for reads of `len` bytes; `seed` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_seed_from_device(
    id: *const u8,
    len: usize,
    boot_counter: u32,
    seed: *mut u64,
) -> sb_status {
    require_feature!("fleet");
    ptr::status((|| {
        if seed.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let id = unsafe { ptr::bytes(id, len) }?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(seed, seed_from_device(id, boot_counter)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Writes to `*delay_ms` how long to wait before the first connection after power returns to the
/// whole fleet: a uniform draw in `0..=window_ms` from `seed` (use the device's seed), so the
/// fleet's reconnections spread over the window. Returns `SB_OK`, `SB_ERR_NULL` or
/// `SB_ERR_FLEET_WINDOW_MS` (`SB_ERR_UNSUPPORTED` in a build without the `fleet` feature).
///
/// ```c
/// uint32_t wait_ms;
/// if (sb_startup_delay(seed, 60000, &wait_ms) == SB_OK)
///     sleep_ms(wait_ms); // then connect
/// ```
///
/// # Safety
/// `delay_ms` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_startup_delay(
    seed: u64,
    window_ms: u32,
    delay_ms: *mut u32,
) -> sb_status {
    require_feature!("fleet");
    ptr::status((|| {
        if delay_ms.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let ms = startup_delay_ms(seed, window_ms)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(delay_ms, ms) }?;
        Ok(sb_status::SB_OK)
    })())
}
