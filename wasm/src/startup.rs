//! The core's startup delay (SPEC.md §12.2): the fleet part's `startupDelay()`. (The run's re-drawn
//! waits use the same core function inside the run; no part exports it for that.)

/// The startup delay in ms for the seed `hi:lo` and `window_ms`, or −1 for a window above the
/// core's maximum delay (the core's one `FleetError`).
#[export_name = "startupDelay"]
pub extern "C" fn startup_delay(lo: u32, hi: u32, window_ms: u32) -> f64 {
    let seed = u64::from(hi) << 32 | u64::from(lo);
    seeded_backoff::fleet::startup_delay_ms(seed, window_ms).map_or(-1.0, f64::from)
}
