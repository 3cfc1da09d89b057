//! Snapshot and restore: 40 bytes that let a device deep-sleep, or a page reload, and resume the
//! very same schedule (SPEC.md §9).

use crate::backoff::{Backoff, GiveUpReason};
use crate::crc32::crc32;
use crate::error_enum::error_enum;
use crate::policy::Policy;
use crate::rng::SpecRng;

/// The length of a snapshot in bytes.
pub const SNAPSHOT_SIZE: usize = 40;

/// The snapshot format version this crate writes and reads.
pub const SNAPSHOT_VERSION: u8 = 1;

pub use crate::run::snapshot::{RUN_SNAPSHOT_SIZE, RUN_SNAPSHOT_VERSION};

error_enum! {
    /// Why a snapshot was refused. Each check of SPEC.md §9 has its own variant.
    pub enum SnapshotError {
        /// Not exactly [`SNAPSHOT_SIZE`] bytes (a run snapshot: [`RUN_SNAPSHOT_SIZE`]).
        WrongLength => "wrong_length", "snapshot must be exactly 40 bytes (a run snapshot 100)";
        /// A format version this crate does not know.
        UnknownVersion => "unknown_version", "snapshot format version must be 1";
        /// The CRC-32 does not match: the bytes were damaged.
        BadChecksum => "bad_checksum", "snapshot checksum does not match its contents";
        /// Taken under another policy (e.g. the firmware's policy changed since).
        PolicyMismatch => "policy_mismatch", "snapshot was taken under a different policy";
        /// The random state is all zero, which xoshiro can never reach.
        ZeroRngState => "zero_rng_state", "snapshot random state is all zero";
        /// Fields the policy could never produce (retries above the limit, a level outside the
        /// policy's range, an unknown give-up code, non-zero reserved bytes).
        InvalidState => "invalid_state", "snapshot holds a state the policy cannot reach";
    }
}

pub(crate) fn read_u32(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// Copies `src` to the start of `dst`, byte by byte: unlike `copy_from_slice` it has no length
/// check that could panic where the optimiser does not inline (size-optimised firmware).
pub(crate) fn copy_bytes(dst: &mut [u8], src: impl IntoIterator<Item = u8>) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = s;
    }
}

pub(crate) fn write_u32(bytes: &mut [u8], at: usize, value: u32) {
    if let Some(dst) = bytes.get_mut(at..at + 4) {
        copy_bytes(dst, value.to_le_bytes());
    }
}

impl Backoff {
    /// The state as 40 bytes: version, give-up code, random state, retries, level, elapsed, the
    /// policy's fingerprint and a CRC-32.
    ///
    /// ```
    /// use seeded_backoff::{Backoff, Policy};
    /// let p = Policy::google();
    /// let mut live = Backoff::new(&p, 9);
    /// live.next_delay(&p);
    /// let saved = live.snapshot(&p); // e.g. into RTC memory before deep sleep
    /// let mut resumed = Backoff::restore(&p, &saved).unwrap();
    /// assert_eq!(resumed.next_delay(&p), live.next_delay(&p));
    /// ```
    pub fn snapshot(&self, policy: &Policy) -> [u8; SNAPSHOT_SIZE] {
        let mut out = [0u8; SNAPSHOT_SIZE];
        out[0] = SNAPSHOT_VERSION;
        out[1] = self.gave_up().map_or(0, GiveUpReason::code);
        if let Some(dst) = out.get_mut(4..20) {
            copy_bytes(dst, self.rng().state());
        }
        write_u32(&mut out, 20, self.retries());
        write_u32(&mut out, 24, self.level());
        write_u32(&mut out, 28, self.elapsed_ms());
        write_u32(&mut out, 32, policy.fingerprint());
        let crc = crc32(out.get(..36).unwrap_or(&[]));
        write_u32(&mut out, 36, crc);
        out
    }

    /// Rebuilds a state from [`Backoff::snapshot`]'s bytes, refusing anything damaged, foreign or
    /// unreachable under `policy`. The restored state continues exactly where the snapshot left off.
    pub fn restore(policy: &Policy, bytes: &[u8]) -> Result<Backoff, SnapshotError> {
        let bytes: &[u8; SNAPSHOT_SIZE] =
            bytes.try_into().map_err(|_| SnapshotError::WrongLength)?;
        if bytes[0] != SNAPSHOT_VERSION {
            return Err(SnapshotError::UnknownVersion);
        }
        if crc32(bytes.get(..36).unwrap_or(&[])) != read_u32(bytes, 36) {
            return Err(SnapshotError::BadChecksum);
        }
        if read_u32(bytes, 32) != policy.fingerprint() {
            return Err(SnapshotError::PolicyMismatch);
        }
        let raw = RawBackoff {
            rng: [
                read_u32(bytes, 4),
                read_u32(bytes, 8),
                read_u32(bytes, 12),
                read_u32(bytes, 16),
            ],
            retries: read_u32(bytes, 20),
            level: read_u32(bytes, 24),
            elapsed_ms: read_u32(bytes, 28),
            gave_up: bytes[1] as u32,
        };
        let backoff = Backoff::from_raw(policy, raw)?;
        // After `from_raw`, so an all-zero random state is reported first, as SPEC.md §9 orders it.
        if bytes[2] != 0 || bytes[3] != 0 {
            return Err(SnapshotError::InvalidState);
        }
        Ok(backoff)
    }

    /// The state as plain integers, for bindings that keep it in caller-owned memory (the C ABI).
    pub fn to_raw(&self) -> RawBackoff {
        RawBackoff {
            rng: self.rng().words(),
            retries: self.retries(),
            level: self.level(),
            elapsed_ms: self.elapsed_ms(),
            gave_up: self.gave_up().map_or(0, GiveUpReason::code) as u32,
        }
    }

    /// Rebuilds a state from [`Backoff::to_raw`], with the same checks as [`Backoff::restore`]
    /// except the checksum and fingerprint (raw state never leaves the process).
    #[inline]
    pub fn from_raw(policy: &Policy, raw: RawBackoff) -> Result<Backoff, SnapshotError> {
        let rng = SpecRng::from_words(raw.rng).ok_or(SnapshotError::ZeroRngState)?;
        let gave_up = match raw.gave_up {
            0 => None,
            code => Some(
                u8::try_from(code)
                    .ok()
                    .and_then(GiveUpReason::from_code)
                    // The run's reason, never the step's: no backoff reaches it.
                    .filter(|r| *r != GiveUpReason::Throttled)
                    .ok_or(SnapshotError::InvalidState)?,
            ),
        };
        let reachable = raw.retries <= policy.max_retries()
            && (policy.initial_ms()..=policy.max_backoff_ms()).contains(&raw.level);
        if !reachable {
            return Err(SnapshotError::InvalidState);
        }
        Ok(Backoff::from_parts(
            rng,
            raw.retries,
            raw.level,
            raw.elapsed_ms,
            gave_up,
        ))
    }
}

/// A [`Backoff`]'s fields as plain integers (32 bytes, `#[repr(C)]`), for caller-allocated state in
/// the C ABI. Only [`Backoff::from_raw`] turns it back into a state, after validating it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RawBackoff {
    /// The xoshiro128++ state words s0..s3.
    pub rng: [u32; 4],
    /// Retries issued.
    pub retries: u32,
    /// `base_n`, or the previous delay for decorrelated jitter.
    pub level: u32,
    /// Sum of issued delays (or the caller's clock plus the last delay), saturating.
    pub elapsed_ms: u32,
    /// Give-up code: 0 none, 1–4 as [`GiveUpReason::code`].
    pub gave_up: u32,
}
