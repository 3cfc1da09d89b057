//! Fleet helpers (SPEC.md §12): distinct, reproducible seeds for devices without a hardware random
//! number generator, and a spread-out first connection after a fleet-wide power restore.

use crate::error_enum::error_enum;
use crate::invalid::Invalid;
use crate::policy::MAX_DELAY_MS;
use crate::rng::{splitmix64, SpecRng};

#[cfg(feature = "std")]
pub use crate::std_support::random_seed;

/// FNV-1a (64-bit) of the device id: its offset basis and prime.
const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

/// The startup delay's generator is seeded with `seed` XOR this (the ASCII bytes of `startup!`),
/// so its draw is not the first jitter draw of a [`Backoff`](crate::Backoff) with the same seed.
const STARTUP_DOMAIN: u64 = 0x7374_6172_7475_7021;

/// A seed from a device's unique id (serial number, MAC address, chip UID: any bytes) and a
/// counter it keeps across reboots: `splitmix64(fnv1a64(id) ^ splitmix64(boot_counter))`.
///
/// Equal inputs give equal seeds on every platform, so a device's schedule can be replayed; for
/// one id, every boot counter gives a different seed (both steps are bijections), so a device
/// does not repeat its jitter after a reboot; and different ids collide only as two random 64-bit
/// numbers would.
///
/// ```
/// use seeded_backoff::fleet::seed_from_device;
/// use seeded_backoff::{Backoff, Policy};
/// let uid = [0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6];
/// let seed = seed_from_device(&uid, 7);
/// assert_eq!(seed, seed_from_device(&uid, 7));
/// assert_ne!(seed, seed_from_device(&uid, 8));
/// let backoff = Backoff::new(&Policy::google(), seed);
/// # let _ = backoff;
/// ```
pub fn seed_from_device(id: &[u8], boot_counter: u32) -> u64 {
    let mut hash = FNV_OFFSET;
    for &byte in id {
        hash = (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
    }
    splitmix64(hash ^ splitmix64(u64::from(boot_counter)))
}

error_enum! {
    /// Why [`startup_delay_ms`] refused its input.
    pub enum FleetError {
        /// `window_ms` is above [`MAX_DELAY_MS`].
        WindowMs => "window_ms", "window_ms must be in 0..=2147483647";
    }
}

/// How long a device waits before its first connection after power returns to the whole fleet:
/// a uniform draw in `0..=window_ms` (SPEC.md §12.2), so that a fleet spreads its reconnections
/// over the window instead of arriving at once. Use the device's seed
/// ([`seed_from_device`]): the draw is independent of the jitter of a [`Backoff`](crate::Backoff)
/// with the same seed.
///
/// ```
/// use seeded_backoff::fleet::{seed_from_device, startup_delay_ms, FleetError};
/// let seed = seed_from_device(b"sensor-0042", 3);
/// let wait = startup_delay_ms(seed, 60_000).unwrap();
/// assert!(wait <= 60_000);
/// let err = startup_delay_ms(seed, 1 << 31).unwrap_err();
/// assert_eq!(err.error, FleetError::WindowMs);
/// assert_eq!(err.to_string(), "window_ms must be in 0..=2147483647, got 2147483648");
/// ```
pub fn startup_delay_ms(seed: u64, window_ms: u32) -> Result<u32, Invalid<FleetError>> {
    if window_ms > MAX_DELAY_MS {
        return Err(Invalid::new(FleetError::WindowMs, window_ms));
    }
    Ok(SpecRng::from_seed_u64(seed ^ STARTUP_DOMAIN).uniform(window_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_is_the_seeders_first_output() {
        // SPEC.md §3.1's first SplitMix64 output for seed 0, from the reference implementation
        // (https://prng.di.unimi.it/splitmix64.c).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn empty_id_is_the_fnv_offset_basis() {
        assert_eq!(
            seed_from_device(&[], 0),
            splitmix64(FNV_OFFSET ^ splitmix64(0))
        );
    }

    #[test]
    fn window_zero_and_the_largest_window() {
        assert_eq!(startup_delay_ms(1, 0), Ok(0));
        assert!(startup_delay_ms(1, MAX_DELAY_MS).unwrap() <= MAX_DELAY_MS);
        assert_eq!(
            startup_delay_ms(1, u32::MAX),
            Err(Invalid::new(FleetError::WindowMs, u32::MAX))
        );
    }
}
