//! Run snapshots: SPEC.md section 15's 100 bytes, for a run that outlives its process (a retry
//! loop carried across a reboot or a deep sleep, kept in flash or RTC memory).

use seeded_backoff::snapshot::RUN_SNAPSHOT_SIZE;
use seeded_backoff::{Policy, Run};

use crate::policy::sb_policy;
use crate::ptr;
use crate::run_types::sb_run;
use crate::status::{require_feature, sb_status};

/// The length of a run snapshot in bytes.
pub const SB_RUN_SNAPSHOT_SIZE: usize = 100;

const _: () = assert!(SB_RUN_SNAPSHOT_SIZE == RUN_SNAPSHOT_SIZE);

/// Writes the run's snapshot (`SB_RUN_SNAPSHOT_SIZE` bytes, versioned, under its policy's
/// fingerprint and a CRC-32) to `out`. Returns `SB_OK`, `SB_ERR_NULL` or `SB_ERR_BAD_STATE`;
/// both run snapshot functions return `SB_ERR_UNSUPPORTED` in a build without the `run` and
/// `snapshot` features.
///
/// ```c
/// static uint8_t flash_page[SB_RUN_SNAPSHOT_SIZE];
/// sb_run_snapshot(&run, flash_page); // before the reboot, in the middle of a retry's sleep
/// ```
///
/// # Safety
/// `r` is NULL or readable; `out` is NULL or valid for writes of `SB_RUN_SNAPSHOT_SIZE` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_run_snapshot(r: *const sb_run, out: *mut u8) -> sb_status {
    require_feature!("run");
    require_feature!("snapshot");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let write = |policy: &Policy, run: &mut Run| {
            // SAFETY: forwarded from this function's contract; a byte array needs no alignment.
            unsafe { ptr::write(out.cast::<[u8; RUN_SNAPSHOT_SIZE]>(), run.snapshot(policy)) }
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { crate::run_apply::with_run(r, write) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Rebuilds a run in `*r` from `len` snapshot bytes taken under `policy`. Returns `SB_OK`,
/// `SB_ERR_NULL`, the policy's `SB_ERR_POLICY_*` code, or the `SB_ERR_SNAPSHOT_*` code of the first
/// failed check (length, version, checksum, policy fingerprint, random state, reachability).
/// `*r` is written only on `SB_OK`; the restored run answers every later event as the
/// snapshotted one would have.
///
/// ```c
/// sb_run run;
/// if (sb_run_restore(&run, &policy, flash_page, SB_RUN_SNAPSHOT_SIZE) != SB_OK)
///     sb_run_init(&run, &policy, seed, 0); // nothing valid saved: a new run
/// ```
///
/// # Safety
/// `r` is NULL or writable; `policy` is NULL or readable; `bytes` is NULL or valid for reads of
/// `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_run_restore(
    r: *mut sb_run,
    policy: *const sb_policy,
    bytes: *const u8,
    len: usize,
) -> sb_status {
    require_feature!("run");
    require_feature!("snapshot");
    ptr::status((|| {
        if r.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract; a copy, as `sb_run_init` reads it.
        let c_policy = unsafe { ptr::read(policy) }?;
        // SAFETY: forwarded from this function's contract.
        let bytes = unsafe { ptr::bytes(bytes, len) }?;
        let core_policy = c_policy.to_core()?;
        // Borrowed out of its `Result`, as `with_run` does: a move would copy the run.
        let run = match &Run::restore(&core_policy, bytes) {
            Ok(run) => run.to_raw(),
            Err(e) => return Err(sb_status::from(*e)),
        };
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(&raw mut (*r).policy, c_policy) }?;
        // SAFETY: as above; `sb_run` begins with a `RawRun`'s bytes.
        unsafe { ptr::write_prefix(r, run) }?;
        Ok(sb_status::SB_OK)
    })())
}
