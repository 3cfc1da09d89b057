//! The exponential base (SPEC.md §4.2 `grow`, §4.3 `base_n`): exact for any rational multiplier,
//! with a one-multiply path for the whole-number ones every preset but gRPC's uses.

use super::{Policy, MAX_DELAY_MS};

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
        if cfg!(all(target_arch = "arm", not(target_has_atomic = "32"))) {
            return grow_by_shifts(level, num, den, cap);
        }
        // A whole-number multiplier's one multiply, where code size matters less than the
        // division it saves; on bare metal the 32-bit steps below give the same value with
        // `den = 1` and are the only copy (the reconnect step: 32 B smaller on thumbv7m).
        if den == 1 && !cfg!(target_os = "none") {
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

/// `grow` with neither a division nor a 64-bit multiply, for ARM cores without
/// either instruction (ARMv6-M, told apart by its lack of 32-bit compare-and-swap): their helper
/// calls (40 B and 36 B of stack on thumbv6m) sat on the deepest path of `sb_backoff_next`. The
/// same exact values as the 32-bit steps in [`Policy::grow`] for every valid policy (`cap` and
/// `r · num` below 2^31).
#[inline(never)]
fn grow_by_shifts(level: u32, num: u32, den: u32, cap: u32) -> u32 {
    match den {
        0 => return cap,
        1 => return mul_at_most(level, num, cap).unwrap_or(cap),
        _ => {}
    }
    let (q, r) = shift_div_rem(level, den);
    match (mul_at_most(q, num, cap), mul_at_most(r, num, MAX_DELAY_MS)) {
        (Some(whole), Some(r_num)) => whole.saturating_add(shift_div_rem(r_num, den).0).min(cap),
        _ => cap,
    }
}

/// `a · b` if it is at most `limit` (below 2^31), by shift and add. The running product is at
/// most `limit` before each doubling, and an addition is made only if it stays at most `limit`,
/// so nothing wraps; it never shrinks, so once past `limit` the product is too.
#[inline(always)]
const fn mul_at_most(a: u32, b: u32, limit: u32) -> Option<u32> {
    let (mut acc, mut bit) = (0u32, 32u32);
    while bit > 0 {
        bit -= 1;
        acc <<= 1;
        if acc > limit {
            return None;
        }
        if (b >> bit) & 1 != 0 {
            if a > limit - acc {
                return None;
            }
            acc += a;
        }
    }
    Some(acc)
}

/// Restoring binary long division of `n` by a non-zero `d`, one quotient bit per round; the
/// remainder's carry out of bit 31 covers divisors above 2^31.
#[inline(always)]
const fn shift_div_rem(n: u32, d: u32) -> (u32, u32) {
    let (mut q, mut r, mut bit) = (0u32, 0u32, 32u32);
    while bit > 0 {
        bit -= 1;
        let carry = r >> 31;
        r = (r << 1) | ((n >> bit) & 1);
        if carry != 0 || r >= d {
            r = r.wrapping_sub(d);
            q |= 1 << bit;
        }
    }
    (q, r)
}

#[cfg(test)]
mod tests {
    use super::{grow_by_shifts, mul_at_most, shift_div_rem};

    /// The firmware that takes this path (thumbv6m) is linked but not run: its results are
    /// checked here against SPEC.md §4.2's `min(cap, ⌊level · num / den⌋)` in 64 bits.
    #[test]
    fn growth_by_shifts_is_the_rational_rule() {
        let levels = [
            1,
            2,
            999,
            1000,
            1001,
            32_000,
            1_000_000,
            2_000_000_000,
            2_147_483_647,
        ];
        let multipliers = [
            (1, 1),
            (2, 1),
            (3, 2),
            (8, 5),
            (1000, 1),
            (1_000_000, 1000),
            (1001, 1000),
        ];
        for &cap in &[1, 1000, 32_000, 2_147_483_647] {
            for &(num, den) in &multipliers {
                for &level in levels.iter().filter(|&&level| level <= cap) {
                    let exact = u64::from(level) * u64::from(num) / u64::from(den);
                    let expected = exact.min(u64::from(cap)) as u32;
                    assert_eq!(
                        grow_by_shifts(level, num, den, cap),
                        expected,
                        "{level} {num}/{den}"
                    );
                }
            }
        }
    }

    #[test]
    fn shift_division_is_exact_division() {
        let values = [
            0,
            1,
            2,
            3,
            7,
            999,
            1000,
            1001,
            65_535,
            1 << 31,
            (1 << 31) + 1,
            3_000_000_000,
            u32::MAX - 1,
            u32::MAX,
        ];
        for &n in &values {
            for &d in values.iter().filter(|&&d| d != 0) {
                assert_eq!(shift_div_rem(n, d), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn shift_multiplication_is_the_product_up_to_its_limit() {
        let values = [
            0,
            1,
            2,
            3,
            999,
            1000,
            65_535,
            65_536,
            1_000_000,
            1 << 30,
            (1 << 31) - 1,
        ];
        for &a in &values {
            for &b in &values {
                for &limit in &[0, 1, 1000, 1_000_000, (1 << 31) - 1] {
                    let product = u64::from(a) * u64::from(b);
                    let expected = (product <= u64::from(limit)).then_some(product as u32);
                    assert_eq!(mul_at_most(a, b, limit), expected, "{a} * {b} <= {limit}");
                }
            }
        }
    }
}
