//! The CRC-32 (IEEE) and the policy fingerprint computed with it, also used by snapshots (SPEC.md §9):
//! its own module, so the policy and the snapshot code each depend on it rather than on each other.

use crate::policy::Policy;

/// CRC-32 (IEEE 802.3, reflected, as zlib). Bitwise rather than table-driven: a snapshot is 36
/// bytes, and 1 KiB of table would double the core's flash footprint.
///
/// ```
/// assert_eq!(seeded_backoff::bindings::crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

impl Policy {
    /// The canonical 34-byte encoding that the fingerprint covers (SPEC.md §9).
    pub fn canonical_bytes(&self) -> [u8; 34] {
        let (num, den) = self.multiplier();
        let words = [
            self.initial_ms(),
            num,
            den,
            self.max_backoff_ms(),
            self.max_retries(),
            self.jitter().param(),
            self.max_hint_ms(),
            self.max_elapsed_ms(),
        ];
        let mut out = [0u8; 34];
        // Byte-wise zip rather than chunks + copy_from_slice: no length check to panic on, even
        // where the optimiser does not inline (size-optimised firmware).
        for (dst, src) in out
            .iter_mut()
            .zip(words.into_iter().flat_map(u32::to_le_bytes))
        {
            *dst = src;
        }
        out[32] = self.jitter().code();
        // The paced flag is bit 1 of the deadline byte, so every policy without it encodes (and
        // fingerprints) as a policy of SPEC.md §9 without it.
        out[33] = self.deadline().code() | (self.paced() as u8) << 1;
        out
    }

    /// CRC-32 of [`Policy::canonical_bytes`]: a snapshot taken under one policy is refused by
    /// another, e.g. after a firmware update changed it.
    pub fn fingerprint(&self) -> u32 {
        crc32(&self.canonical_bytes())
    }
}
