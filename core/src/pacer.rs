//! Server pacing (SPEC.md §16): a server that turns a request away tells it when to come back, in
//! a schedule drained at the server's capacity, so that a refused fleet returns at that capacity
//! instead of all at once.
//!
//! The schedule is kept per whole second of the server's monotonic clock, and a refused request
//! gets the earliest second after the current one with room. The first second of a schedule that
//! starts empty holds `retry_rate` returns (the capacity less the share kept for first attempts:
//! the late arrivals of the burst that started it land there); every later second holds the whole
//! capacity, since the first attempts of a burst are over by then, and a reserve kept there would
//! only slow the drain. `Retry-After` is whole
//! seconds (RFC 9110), and `now + Retry-After · 1000` falls in the assigned second whatever the
//! sub-second phase of `now`, so a client of any library that honours `Retry-After` lands in its
//! second; the millisecond reset additionally spreads the returns evenly inside it. Only the
//! earliest second with room and the second that keeps the reserve are stored (the schedule fills
//! in order), so the state is fixed size and every call is O(1).

use crate::error_enum::error_enum;
use crate::invalid::Invalid;
use core::num::NonZeroU64;

use crate::rng::SpecRng;

mod headers;
pub use headers::{PacerHeaders, PACER_HEADER_NAMES};

/// The pacer's generator is seeded with `seed` XOR this (the ASCII bytes of `pacing!!`), so its
/// draws are not those of a [`Backoff`](crate::Backoff) or a startup delay with the same seed.
const PACER_DOMAIN: u64 = 0x7061_6369_6E67_2121;

/// The clock reads no later than this (2^63 ms, 292 million years), so that the schedule's sums
/// cannot overflow.
const MAX_NOW_MS: u64 = 1 << 63;

/// The largest `capacity_per_s`.
pub const MAX_PACER_CAPACITY: u32 = 1_000_000;
/// The largest `max_wait_s` (one day).
pub const MAX_PACER_WAIT_S: u32 = 86_400;

error_enum! {
    /// Why [`Pacer::new`] refused its configuration. Each names the field and its range.
    pub enum PacerError {
        /// `capacity_per_s` outside 1..=1_000_000.
        CapacityPerS => "capacity_per_s", "capacity_per_s must be in 1..=1000000";
        /// `reserve_per_mille` above 999.
        ReservePerMille => "reserve_per_mille", "reserve_per_mille must be in 0..=999";
        /// `max_wait_s` outside 1..=86_400.
        MaxWaitS => "max_wait_s", "max_wait_s must be in 1..=86400";
    }
}

/// Where a refused request is told to come back (SPEC.md §16.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacerSlot {
    /// The `Retry-After` value, whole seconds, in `1..=max_wait_s`.
    pub retry_after_s: u32,
    /// The return time in milliseconds from `now`, inside the same second of the server's clock
    /// as `now + retry_after_s · 1000`: `1..=max_wait_s · 1000 + 999`.
    pub reset_ms: u32,
    /// The schedule was full up to `max_wait_s`: this slot is past the second's share.
    pub full: bool,
}

impl PacerSlot {
    /// The `RateLimit-Reset` value: `reset_ms` as seconds with three decimals (`"2.350"`), the
    /// form SPEC.md §8.3 step 2 reads to the millisecond. Written into `buf`, returned as text.
    ///
    /// ```
    /// use seeded_backoff::pacer::PacerSlot;
    /// let slot = PacerSlot { retry_after_s: 3, reset_ms: 2350, full: false };
    /// let mut buf = [0; 12];
    /// assert_eq!(slot.reset_seconds(&mut buf), "2.350");
    /// ```
    pub fn reset_seconds(self, buf: &mut [u8; 12]) -> &str {
        // Written from the right: three decimals, the dot, then at least one integer digit. A u32
        // of milliseconds has at most 7 integer digits, so 11 bytes always suffice.
        let mut at = buf.len();
        let mut n = self.reset_ms;
        let mut put = |at: &mut usize, byte: u8| {
            *at = at.saturating_sub(1);
            if let Some(b) = buf.get_mut(*at) {
                *b = byte;
            }
        };
        for _ in 0..3 {
            put(&mut at, b'0' + (n % 10) as u8);
            n /= 10;
        }
        put(&mut at, b'.');
        loop {
            put(&mut at, b'0' + (n % 10) as u8);
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // Only ASCII digits and a dot were written.
        buf.get(at..)
            .and_then(|text| core::str::from_utf8(text).ok())
            .unwrap_or("")
    }
}

/// A server's schedule of returns (SPEC.md §16). One per server (or per quota), fed the server's
/// monotonic clock in milliseconds. 56 bytes, no allocation.
///
/// ```
/// use seeded_backoff::pacer::Pacer;
/// // 100 requests/s, a tenth of it kept for first attempts in the schedule's first second: 90
/// // returns there, the whole capacity in every later second.
/// let mut pacer = Pacer::new(100, 100, 60, 7).unwrap();
/// let slots: Vec<_> = (0..200).map(|_| pacer.assign(5_000)).collect();
/// assert!(slots[..90].iter().all(|s| s.retry_after_s == 1));
/// assert!(slots[90..190].iter().all(|s| s.retry_after_s == 2));
/// assert_eq!(slots[190].retry_after_s, 3);
/// assert!(slots.iter().all(|s| !s.full && s.reset_ms >= 1000));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pacer {
    rng: SpecRng,
    /// Returns the reserve second holds, nonzero by construction (the divisions by it cannot fail).
    rate: NonZeroU64,
    /// Returns every other second holds, at least `rate`.
    capacity: NonZeroU64,
    max_wait_s: u32,
    /// The latest `now` seen, in ms: an earlier one is read as this.
    latest_ms: u64,
    /// The earliest second (of the server's clock) that may still have room.
    tail_s: u64,
    /// Returns already assigned to `tail_s`.
    tail_count: u32,
    /// The first second of the latest schedule that started empty: the one second that keeps the
    /// reserve.
    reserve_s: u64,
}

impl Pacer {
    /// A pacer for a server of `capacity_per_s` requests a second that keeps `reserve_per_mille`
    /// thousandths of it for first attempts and tells no request to wait longer than `max_wait_s`.
    /// The seed makes the spread inside each second reproducible (SPEC.md §16.1).
    ///
    /// ```
    /// use seeded_backoff::pacer::{Pacer, PacerError};
    /// assert_eq!(Pacer::new(0, 0, 60, 1).unwrap_err().error, PacerError::CapacityPerS);
    /// assert_eq!(Pacer::new(1, 1000, 60, 1).unwrap_err().error, PacerError::ReservePerMille);
    /// let err = Pacer::new(100, 0, 0, 1).unwrap_err();
    /// assert_eq!(err.to_string(), "max_wait_s must be in 1..=86400, got 0");
    /// assert_eq!(Pacer::new(100, 250, 60, 1).unwrap().retry_rate(), 75);
    /// ```
    pub fn new(
        capacity_per_s: u32,
        reserve_per_mille: u32,
        max_wait_s: u32,
        seed: u64,
    ) -> Result<Self, Invalid<PacerError>> {
        if !(1..=MAX_PACER_CAPACITY).contains(&capacity_per_s) {
            return Err(Invalid::new(PacerError::CapacityPerS, capacity_per_s));
        }
        if reserve_per_mille > 999 {
            return Err(Invalid::new(PacerError::ReservePerMille, reserve_per_mille));
        }
        let kept = u64::from(capacity_per_s) * u64::from(reserve_per_mille) / 1000;
        // `kept < capacity_per_s` since `reserve_per_mille < 1000`: never `None`.
        let (Some(rate), Some(capacity)) = (
            NonZeroU64::new(u64::from(capacity_per_s) - kept),
            NonZeroU64::new(u64::from(capacity_per_s)),
        ) else {
            return Err(Invalid::new(PacerError::ReservePerMille, reserve_per_mille));
        };
        if !(1..=MAX_PACER_WAIT_S).contains(&max_wait_s) {
            return Err(Invalid::new(PacerError::MaxWaitS, max_wait_s));
        }
        Ok(Pacer {
            rng: SpecRng::from_seed_u64(seed ^ PACER_DOMAIN),
            rate,
            capacity,
            max_wait_s,
            latest_ms: 0,
            tail_s: 0,
            tail_count: 0,
            reserve_s: 0,
        })
    }

    /// Whether a response with HTTP status `status` is a refusal a pacer paces (SPEC.md §16.4):
    /// 429 (Too Many Requests) or 503 (Service Unavailable). Every server binding asks this,
    /// rather than keeping its own list.
    ///
    /// ```
    /// use seeded_backoff::pacer::Pacer;
    ///
    /// assert!(Pacer::paces(429) && Pacer::paces(503));
    /// assert!(!Pacer::paces(500) && !Pacer::paces(200));
    /// ```
    pub const fn paces(status: u16) -> bool {
        matches!(status, 429 | 503)
    }

    /// Returns the first second of a schedule that starts empty holds:
    /// `capacity_per_s − capacity_per_s · reserve_per_mille / 1000`.
    pub fn retry_rate(&self) -> u32 {
        // At most `capacity_per_s`, a u32.
        self.rate.get() as u32
    }

    /// Returns every later second holds: `capacity_per_s`.
    pub fn capacity(&self) -> u32 {
        // At most `MAX_PACER_CAPACITY`, a u32.
        self.capacity.get() as u32
    }

    /// Returns second `s` holds: the reserve second `rate`, any other the capacity.
    fn holds(&self, s: u64) -> NonZeroU64 {
        if s == self.reserve_s {
            self.rate
        } else {
            self.capacity
        }
    }

    /// Returns already scheduled after `now_ms` (read as the latest `now` if it is earlier):
    /// what a server can report as its queue, or use to refuse first attempts while it drains.
    ///
    /// ```
    /// use seeded_backoff::pacer::Pacer;
    /// // 10/s, a fifth kept in the first second: 8 there, then 10 a second.
    /// let mut pacer = Pacer::new(10, 200, 60, 1).unwrap();
    /// for _ in 0..25 { pacer.assign(0); }
    /// assert_eq!(pacer.pending(0), 25);
    /// assert_eq!(pacer.pending(1_500), 17);
    /// assert_eq!(pacer.pending(2_000), 7);
    /// assert_eq!(pacer.pending(3_000), 0);
    /// ```
    pub fn pending(&self, now_ms: u64) -> u64 {
        let next_s = now_ms.max(self.latest_ms).min(MAX_NOW_MS) / 1000 + 1;
        if self.tail_s < next_s {
            return 0;
        }
        let whole = (self.tail_s - next_s) * self.capacity.get() + u64::from(self.tail_count);
        // The reserve second, if it is among the full seconds counted: it holds `rate`.
        if (next_s..self.tail_s).contains(&self.reserve_s) {
            whole - (self.capacity.get() - self.rate.get())
        } else {
            whole
        }
    }

    /// Assigns a request turned away at `now_ms` its return (SPEC.md §16.2). Never fails; a clock
    /// that goes backwards is read as standing still, and a burst beyond `max_wait_s` seconds of
    /// returns gets `max_wait_s` with [`PacerSlot::full`] set.
    pub fn assign(&mut self, now_ms: u64) -> PacerSlot {
        let now = now_ms.max(self.latest_ms).min(MAX_NOW_MS);
        self.latest_ms = now;
        let now_s = now / 1000;
        let last_s = now_s + u64::from(self.max_wait_s);
        let mut second = self.tail_s.max(now_s + 1);
        let mut index = if second == self.tail_s {
            u64::from(self.tail_count)
        } else {
            0
        };
        if second == now_s + 1 && index == 0 {
            // Nothing is scheduled after this second: the schedule starts empty, and its first
            // second keeps the reserve for the late first attempts of the burst that starts it.
            self.reserve_s = second;
        }
        let full = second > last_s;
        if full {
            second = last_s;
        }
        let holds = self.holds(second);
        if full {
            index = holds.get() - 1;
        } else if index + 1 >= holds.get() {
            self.tail_s = second + 1;
            self.tail_count = 0;
        } else {
            self.tail_s = second;
            self.tail_count = index as u32 + 1;
        }
        let rate = holds;
        let width = (1000 / rate) as u32;
        let spread = u64::from(self.rng.uniform(width.saturating_sub(1)));
        let at_ms = second * 1000 + index * 1000 / rate + spread;
        PacerSlot {
            retry_after_s: (second - now_s) as u32,
            reset_ms: (at_ms - now) as u32,
            full,
        }
    }
}

/// A [`Pacer`]'s fields as plain integers (`#[repr(C)]`, 56 bytes, no padding), for
/// caller-allocated state in the C ABI. Only [`Pacer::from_raw`] turns it back into a pacer, after
/// validating it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RawPacer {
    /// The latest `now` seen, in ms.
    pub latest_ms: u64,
    /// The earliest second that may still have room.
    pub tail_s: u64,
    /// The second that keeps the reserve: the first of the latest schedule that started empty.
    pub reserve_s: u64,
    /// The xoshiro128++ state words s0..s3.
    pub rng: [u32; 4],
    /// Returns the reserve second holds ([`Pacer::retry_rate`]).
    pub rate: u32,
    /// The longest wait told, in seconds.
    pub max_wait_s: u32,
    /// Returns already assigned to `tail_s`.
    pub tail_count: u32,
    /// Returns every other second holds ([`Pacer::capacity`]).
    pub capacity: u32,
}

impl Pacer {
    /// This pacer as plain integers.
    pub fn to_raw(&self) -> RawPacer {
        RawPacer {
            latest_ms: self.latest_ms,
            tail_s: self.tail_s,
            reserve_s: self.reserve_s,
            rng: self.rng.words(),
            rate: self.retry_rate(),
            max_wait_s: self.max_wait_s,
            tail_count: self.tail_count,
            capacity: self.capacity(),
        }
    }

    /// Rebuilds a pacer from [`Pacer::to_raw`]; `None` for a state no pacer reaches (a zero
    /// generator, a rate, capacity or wait out of range, a tail past `latest_ms`'s schedule, a
    /// reserve second after the tail or the latest second's next).
    pub fn from_raw(raw: RawPacer) -> Option<Pacer> {
        let rng = SpecRng::from_words(raw.rng)?;
        let capacity = NonZeroU64::new(u64::from(raw.capacity))
            .filter(|c| c.get() <= u64::from(MAX_PACER_CAPACITY))?;
        let rate = NonZeroU64::new(u64::from(raw.rate)).filter(|r| r.get() <= capacity.get())?;
        let latest_s = raw.latest_ms / 1000;
        let pacer = Pacer {
            rng,
            rate,
            capacity,
            max_wait_s: raw.max_wait_s,
            latest_ms: raw.latest_ms,
            tail_s: raw.tail_s,
            tail_count: raw.tail_count,
            reserve_s: raw.reserve_s,
        };
        let reachable = (1..=MAX_PACER_WAIT_S).contains(&raw.max_wait_s)
            && raw.latest_ms <= MAX_NOW_MS
            && raw.tail_s <= latest_s + u64::from(raw.max_wait_s) + 1
            && raw.reserve_s <= raw.tail_s
            && raw.reserve_s <= latest_s + 1
            && u64::from(raw.tail_count) < pacer.holds(raw.tail_s).get();
        reachable.then_some(pacer)
    }
}

#[cfg(test)]
mod tests;
