//! The run's startup window (SPEC.md section 15.3): a run that follows a give-up or an outage
//! begins with a wait rather than an attempt.

use seeded_backoff::Run;

use crate::ptr;
use crate::run_types::sb_run;
use crate::status::{require_feature, sb_status};

/// Gives a run not yet started a startup window: `sb_run_start` then answers `SB_ACTION_WAIT`
/// with the run's own draw in `0..=window_ms` (`sb_startup_delay` of its seed), and the
/// `sb_run_wake` after it makes attempt 1, so devices whose runs begin together (after an outage,
/// or after their last runs gave up together) spread their first attempts over the window. 0
/// (the default) starts with the attempt; a started run keeps its own window. Returns `SB_OK`,
/// `SB_ERR_NULL`, `SB_ERR_BAD_STATE`, or `SB_ERR_FLEET_WINDOW_MS` above 2147483647; `*r` is
/// written only on `SB_OK`.
///
/// ```c
/// sb_run_init(&run, &RECONNECT, sb_call_seed(device_seed, outage), 0);
/// sb_run_startup_window(&run, RECONNECT.max_backoff_ms); // not all at once after an outage
/// sb_run_start(&run, now_ms(), &act); // SB_ACTION_WAIT: sleep act.delay_ms, then sb_run_wake
/// ```
///
/// # Safety
/// `r` is NULL or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn sb_run_startup_window(r: *mut sb_run, window_ms: u32) -> sb_status {
    require_feature!("run");
    ptr::status((|| {
        let set = |_: &_, run: &mut Run| {
            // Changed where `with_run` checked it, not in a copy.
            run.set_startup_window_ms(window_ms)?;
            // SAFETY: forwarded from this function's contract; `sb_run` begins with a `RawRun`'s
            // bytes.
            unsafe { ptr::write_prefix(r, run.to_raw()) }
        };
        // SAFETY: forwarded from this function's contract; only the state is written.
        unsafe { crate::run_apply::with_run(r, set) }?;
        Ok(sb_status::SB_OK)
    })())
}
