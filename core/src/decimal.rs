//! Decimal digits to numbers, saturating, for the header parsers (SPEC.md §8).
//!
//! Every bound is a constant per call site, so no 128-bit multiply (a wasm libcall) is needed to
//! detect overflow.

/// Milliseconds as a `u32`, saturating.
pub(crate) fn sat32(ms: u64) -> u32 {
    u32::try_from(ms).unwrap_or(u32::MAX)
}

/// `n · k`, saturating.
#[inline(always)]
pub(crate) fn times(n: u64, k: u64) -> u64 {
    if n > u64::MAX / k {
        u64::MAX
    } else {
        n * k
    }
}

/// `n · 10 + digit`, saturating.
#[inline(always)]
pub(crate) fn push_digit(n: u64, digit: u8) -> u64 {
    times(n, 10).saturating_add(u64::from(digit))
}

/// Digits to a number, saturating at `u64::MAX`, or `None` if empty or not all digits.
pub(crate) fn digits(bytes: &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for &b in bytes {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = push_digit(n, d);
    }
    (!bytes.is_empty()).then_some(n)
}

/// Whole seconds as milliseconds, saturating at `u32::MAX`.
pub(crate) fn seconds_to_ms(seconds: u64) -> u32 {
    sat32(times(seconds, 1000))
}
