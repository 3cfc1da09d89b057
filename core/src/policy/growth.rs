//! The exponential base (SPEC.md §4.2 `grow`, §4.3 `base_n`): exact for any rational multiplier,
//! with a one-multiply path for the whole-number ones every preset but gRPC's uses.

use super::Policy;

impl Policy {
    /// The multiplier when it is a whole number (`den` 1, as Google's 2), else `None`.
    #[inline]
    pub(crate) const fn integer_multiplier(&self) -> Option<u32> {
        if self.multiplier_den == 1 {
            Some(self.multiplier_num)
        } else {
            None
        }
    }

    /// One step of the exponential base: `min(cap, level · num / den)` (SPEC.md §4.2 `grow`).
    #[inline]
    pub(crate) fn grow(&self, level: u32) -> u32 {
        let cap = self.max_backoff_ms;
        let (num, den) = (self.multiplier_num, self.multiplier_den);
        if den == 1 {
            return grow_by_integer(level, num, cap);
        }
        // level·num/den in 32-bit steps, exactly: with level = q·den + r it is q·num + r·num/den, and
        // r·num < den·num ≤ 10^9. A 64-bit product would pull a 1 KiB 64-bit division helper into
        // firmware for cores without one.
        let (Some(q), Some(r)) = (level.checked_div(den), level.checked_rem(den)) else {
            return cap;
        };
        match (
            q.checked_mul(num),
            r.checked_mul(num).and_then(|x| x.checked_div(den)),
        ) {
            (Some(whole), Some(part)) => whole.saturating_add(part).min(cap),
            _ => cap,
        }
    }

    /// The un-jittered base of retry `n` (0-based), `min(cap, initial · mult^n)` rounded down at every
    /// step. Any `n` is safe: it stops iterating once the base stops changing.
    ///
    /// ```
    /// use seeded_backoff::Policy;
    /// let p = Policy::google();
    /// assert_eq!(p.base_delay_ms(0), 1000);
    /// assert_eq!(p.base_delay_ms(4), 16_000);
    /// assert_eq!(p.base_delay_ms(u32::MAX), 32_000);
    /// ```
    pub fn base_delay_ms(&self, n: u32) -> u32 {
        let mut level = self.initial_ms;
        for _ in 0..n {
            let next = self.grow(level);
            if next == level {
                break;
            }
            level = next;
        }
        level
    }
}

/// `grow` for a whole-number multiplier: one widening multiply, no overflow check, as both
/// factors are below 2^32.
#[inline(always)]
pub(crate) fn grow_by_integer(level: u32, num: u32, cap: u32) -> u32 {
    (u64::from(level) * u64::from(num)).min(u64::from(cap)) as u32
}
