//! Seeding from any random number generator that implements `rand_core`'s `Rng` (rand_core 0.10,
//! where it replaces the deprecated `RngCore`): most embedded HALs expose their hardware RNG so,
//! and so do `rand`'s generators.

use rand_core::Rng;

use crate::backoff::Backoff;
use crate::policy::Policy;

impl Backoff {
    /// A fresh state seeded with one `next_u64()` of `rng`: the same state as
    /// [`Backoff::new`]`(policy, seed)` with that number, so a schedule seen in the field can be
    /// replayed from its seed. Takes exactly one 64-bit draw, and neither allocates nor panics.
    ///
    /// ```
    /// use rand_core::{Infallible, TryRng};
    /// use seeded_backoff::{Backoff, Policy};
    ///
    /// // A stand-in for a HAL's hardware generator.
    /// struct Trng(u64);
    /// impl TryRng for Trng {
    ///     type Error = Infallible;
    ///     fn try_next_u32(&mut self) -> Result<u32, Infallible> { Ok(self.0 as u32) }
    ///     fn try_next_u64(&mut self) -> Result<u64, Infallible> { Ok(self.0) }
    ///     fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
    ///         dst.fill(0x5e);
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let policy = Policy::google();
    /// let backoff = Backoff::from_rng(&policy, &mut Trng(0x5eed));
    /// assert_eq!(backoff, Backoff::new(&policy, 0x5eed));
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "rand_core")))]
    pub fn from_rng<R: Rng + ?Sized>(policy: &Policy, rng: &mut R) -> Backoff {
        Backoff::new(policy, rng.next_u64())
    }
}
