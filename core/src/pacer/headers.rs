//! The headers of a paced refusal (SPEC.md §16.4), formatted without allocation.

use super::PacerSlot;

/// The names of a paced refusal's headers (SPEC.md §16.4), in the order of
/// [`PacerHeaders::pairs`].
pub const PACER_HEADER_NAMES: [&str; 3] = ["retry-after", "ratelimit-reset", "ratelimit"];

/// The values of a paced refusal's headers (SPEC.md §16.4), formatted in place from a [`PacerSlot`]:
/// no allocation, so a C or wasm binding hands out the same text as the Rust API.
///
/// ```
/// use seeded_backoff::pacer::PacerSlot;
/// let headers = PacerSlot { retry_after_s: 3, reset_ms: 2350, full: false }.headers();
/// assert_eq!(headers.retry_after(), "3");
/// assert_eq!(headers.ratelimit_reset(), "2.350");
/// assert_eq!(headers.ratelimit(), "\"pacer\";r=0;t=3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacerHeaders {
    /// The three values one after the other: at most 10 + 11 + 24 bytes.
    text: [u8; 48],
    /// Where each value ends in `text`.
    ends: [u8; 3],
}

impl PacerHeaders {
    /// `retry-after`: `retry_after_s` in decimal (RFC 9110 delta-seconds).
    pub fn retry_after(&self) -> &str {
        self.value(0)
    }

    /// `ratelimit-reset`: `reset_ms` as seconds with three decimals.
    pub fn ratelimit_reset(&self) -> &str {
        self.value(1)
    }

    /// `ratelimit`: `"pacer";r=0;t=<retry_after_s>`.
    pub fn ratelimit(&self) -> &str {
        self.value(2)
    }

    /// Each header's name ([`PACER_HEADER_NAMES`]) and value.
    pub fn pairs(&self) -> [(&'static str, &str); 3] {
        let [a, b, c] = PACER_HEADER_NAMES;
        [
            (a, self.retry_after()),
            (b, self.ratelimit_reset()),
            (c, self.ratelimit()),
        ]
    }

    fn value(&self, which: usize) -> &str {
        let start = match which.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.ends.get(which).copied().unwrap_or(0);
        // Only ASCII was written.
        self.text
            .get(usize::from(start)..usize::from(end))
            .and_then(|text| core::str::from_utf8(text).ok())
            .unwrap_or("")
    }

    fn push(&mut self, len: &mut usize, bytes: &[u8]) {
        for &b in bytes {
            if let Some(slot) = self.text.get_mut(*len) {
                *slot = b;
                *len += 1;
            }
        }
    }

    /// Appends `n` in decimal, at least `min_digits` digits (zero-padded).
    fn push_decimal(&mut self, len: &mut usize, mut n: u32, min_digits: usize) {
        let mut digits = [0u8; 10];
        let mut count = 0;
        while (n > 0 || count < min_digits.max(1)) && count < digits.len() {
            if let Some(d) = digits.get_mut(count) {
                *d = b'0' + (n % 10) as u8;
            }
            n /= 10;
            count += 1;
        }
        let mut reversed = [0u8; 10];
        for (to, from) in reversed
            .iter_mut()
            .zip(digits.get(..count).unwrap_or(&[]).iter().rev())
        {
            *to = *from;
        }
        self.push(len, reversed.get(..count).unwrap_or(&[]));
    }

    fn end(&mut self, which: usize, len: usize) {
        if let Some(end) = self.ends.get_mut(which) {
            // At most 45 bytes are written.
            *end = len as u8;
        }
    }
}

impl PacerSlot {
    /// The headers this slot gives a 429 or 503 (SPEC.md §16.4).
    pub fn headers(self) -> PacerHeaders {
        let mut h = PacerHeaders {
            text: [0; 48],
            ends: [0; 3],
        };
        let mut len = 0;
        h.push_decimal(&mut len, self.retry_after_s, 1);
        h.end(0, len);
        h.push_decimal(&mut len, self.reset_ms / 1000, 1);
        h.push(&mut len, b".");
        h.push_decimal(&mut len, self.reset_ms % 1000, 3);
        h.end(1, len);
        h.push(&mut len, b"\"pacer\";r=0;t=");
        h.push_decimal(&mut len, self.retry_after_s, 1);
        h.end(2, len);
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_widest_headers_fit() {
        let slot = PacerSlot {
            retry_after_s: u32::MAX,
            reset_ms: u32::MAX,
            full: true,
        };
        let h = slot.headers();
        assert_eq!(h.retry_after(), "4294967295");
        assert_eq!(h.ratelimit_reset(), "4294967.295");
        assert_eq!(h.ratelimit(), "\"pacer\";r=0;t=4294967295");
        let h = PacerSlot {
            retry_after_s: 1,
            reset_ms: 7,
            full: false,
        }
        .headers();
        assert_eq!((h.retry_after(), h.ratelimit_reset()), ("1", "0.007"));
    }
}
