//! Snapshots: the 40 bytes of SPEC.md section 9, for deep sleep, RTC memory or persistence.

use seeded_backoff::snapshot::SNAPSHOT_SIZE;
use seeded_backoff::Backoff;

use crate::backoff::sb_backoff;
use crate::policy::sb_policy;
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// The length of a snapshot in bytes.
pub const SB_SNAPSHOT_SIZE: usize = 40;

const _: () = assert!(SB_SNAPSHOT_SIZE == SNAPSHOT_SIZE);

/// Writes the state's snapshot (`SB_SNAPSHOT_SIZE` bytes, versioned and CRC-protected) to `out`.
/// Both snapshot functions return `SB_ERR_UNSUPPORTED` in a build without the `snapshot` feature.
///
/// ```c
/// static uint8_t rtc_memory[SB_SNAPSHOT_SIZE];
/// sb_backoff_snapshot(&b, rtc_memory); // before deep sleep
/// ```
///
/// # Safety
/// `b` is NULL or readable; `out` is NULL or valid for writes of `SB_SNAPSHOT_SIZE` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_snapshot(b: *const sb_backoff, out: *mut u8) -> sb_status {
    require_feature!("snapshot");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let (policy, state) = unsafe { crate::backoff::load(b) }?;
        let bytes = state.snapshot(&policy);
        // SAFETY: forwarded from this function's contract; `out` has room for the whole array,
        // and `ptr::write` of a byte array needs no alignment beyond 1.
        unsafe { ptr::write(out.cast::<[u8; SNAPSHOT_SIZE]>(), bytes) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Rebuilds a state in `*b` from `len` snapshot bytes taken under `policy`. Returns `SB_OK`,
/// `SB_ERR_NULL`, the policy's `SB_ERR_POLICY_*` code, or the `SB_ERR_SNAPSHOT_*` code of the first
/// failed check (length, version, checksum, policy fingerprint, random state, reachability).
/// `*b` is written only on `SB_OK`; the restored state continues exactly where the snapshot left
/// off.
///
/// ```c
/// sb_backoff b;
/// if (sb_backoff_restore(&b, &policy, rtc_memory, SB_SNAPSHOT_SIZE) != SB_OK)
///     sb_backoff_init(&b, &policy, seed); // nothing valid saved: start over
/// ```
///
/// # Safety
/// `b` is NULL or writable; `policy` is NULL or readable; `bytes` is NULL or valid for reads of
/// `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_backoff_restore(
    b: *mut sb_backoff,
    policy: *const sb_policy,
    bytes: *const u8,
    len: usize,
) -> sb_status {
    require_feature!("snapshot");
    ptr::status((|| {
        if b.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let c_policy = unsafe { ptr::read(policy) }?;
        // SAFETY: forwarded from this function's contract.
        let bytes = unsafe { ptr::bytes(bytes, len) }?;
        let core_policy = c_policy.to_core()?;
        let state = Backoff::restore(&core_policy, bytes)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(b, sb_backoff::new(c_policy, &state)) }?;
        Ok(sb_status::SB_OK)
    })())
}
