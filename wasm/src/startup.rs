//! The core's startup delay (SPEC.md §12.2), in both the fleet part (`startupDelay()`) and the main
//! part, where `retry()` draws the wait after a pause from it (SPEC.md §13): one export, built
//! into each part that needs it.

/// The startup delay in ms for the seed `hi:lo` and `window_ms`, or −1 for a window above the
/// core's maximum delay (the core's one `FleetError`).
#[export_name = "startupDelay"]
pub extern "C" fn startup_delay(lo: u32, hi: u32, window_ms: u32) -> f64 {
    let seed = u64::from(hi) << 32 | u64::from(lo);
    seeded_backoff::startup_delay_ms(seed, window_ms).map_or(-1.0, f64::from)
}
