//! A run as 100 durable bytes (SPEC.md §15.1): its raw words under the policy's fingerprint and a
//! CRC-32, for a run that outlives its process (the npm outbox keeps one per request in
//! IndexedDB; a firmware may keep one in flash). [`Run::to_raw`] never leaves the process; this
//! form is read back by another page load, tab or boot, so it is checked as a backoff snapshot is.

use super::{RawRun, Run};
use crate::crc32::crc32;
use crate::policy::Policy;
use crate::snapshot::{read_u32, write_u32, SnapshotError};

/// The length of a run snapshot in bytes.
pub const RUN_SNAPSHOT_SIZE: usize = 100;

/// The run snapshot format version this crate writes and reads.
pub const RUN_SNAPSHOT_VERSION: u8 = 1;

const WORDS_AT: usize = 4;
const FINGERPRINT_AT: usize = WORDS_AT + 88;
const CRC_AT: usize = FINGERPRINT_AT + 4;

impl Run {
    /// The run as 100 bytes: version, three reserved bytes, [`RawRun::to_words`] (LE), the
    /// policy's fingerprint and a CRC-32 of what precedes it.
    ///
    /// ```
    /// use seeded_backoff::{Action, FailureKind, Outcome, Policy, Run};
    /// let p = Policy::google();
    /// let mut run = Run::new(&p, 9);
    /// run.start(Some(0)).unwrap();
    /// let failed = Outcome::Retryable { hint: None, failure_kind: FailureKind::Error };
    /// run.outcome(&p, failed, Some(40), None).unwrap();
    /// let saved = run.snapshot(&p); // e.g. into IndexedDB before the page closes
    /// let mut resumed = Run::restore(&p, &saved).unwrap();
    /// assert_eq!(resumed.wake(Some(2_000)), Ok(Action::Attempt { attempt: 2 }));
    /// ```
    pub fn snapshot(&self, policy: &Policy) -> [u8; RUN_SNAPSHOT_SIZE] {
        let mut out = [0u8; RUN_SNAPSHOT_SIZE];
        out[0] = RUN_SNAPSHOT_VERSION;
        for (i, w) in self.to_raw().to_words().into_iter().enumerate() {
            write_u32(&mut out, WORDS_AT + 4 * i, w);
        }
        write_u32(&mut out, FINGERPRINT_AT, policy.fingerprint());
        let crc = crc32(out.get(..CRC_AT).unwrap_or(&[]));
        write_u32(&mut out, CRC_AT, crc);
        out
    }

    /// Rebuilds a run from [`Run::snapshot`]'s bytes, refusing anything damaged, foreign or
    /// unreachable under `policy`, in SPEC.md §15.1's order (length, version, checksum, policy,
    /// then [`Run::from_raw`]'s checks and the reserved bytes).
    ///
    /// ```
    /// use seeded_backoff::snapshot::SnapshotError;
    /// use seeded_backoff::{Policy, Run};
    /// let p = Policy::google();
    /// let mut saved = Run::new(&p, 9).snapshot(&p);
    /// saved[50] ^= 1;
    /// assert_eq!(Run::restore(&p, &saved), Err(SnapshotError::BadChecksum));
    /// ```
    pub fn restore(policy: &Policy, bytes: &[u8]) -> Result<Run, SnapshotError> {
        if bytes.len() != RUN_SNAPSHOT_SIZE {
            return Err(SnapshotError::WrongLength);
        }
        if bytes.first() != Some(&RUN_SNAPSHOT_VERSION) {
            return Err(SnapshotError::UnknownVersion);
        }
        if crc32(bytes.get(..CRC_AT).unwrap_or(&[])) != read_u32(bytes, CRC_AT) {
            return Err(SnapshotError::BadChecksum);
        }
        if read_u32(bytes, FINGERPRINT_AT) != policy.fingerprint() {
            return Err(SnapshotError::PolicyMismatch);
        }
        let mut words = [0u32; 22];
        for (i, w) in words.iter_mut().enumerate() {
            *w = read_u32(bytes, WORDS_AT + 4 * i);
        }
        let run = Run::from_raw(policy, RawRun::from_words(words))?;
        // After `from_raw`, so an all-zero random state is reported first, as for a backoff.
        if bytes.get(1..WORDS_AT) != Some(&[0, 0, 0][..]) {
            return Err(SnapshotError::InvalidState);
        }
        Ok(run)
    }
}
