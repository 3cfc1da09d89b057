//! The stored value of a shared part (SPEC.md §19.2): a header (format tag, version, the part's
//! kind, a fingerprint of its configuration) and the part's raw state words, little-endian, in
//! fixed-size byte arrays. Defined once here; every binding encodes and decodes through it.

use crate::budget::BudgetConfig;
use crate::budget::RetryBudget;
use crate::crc32::crc32;
use crate::error_enum::error_enum;
use crate::pacer::{Pacer, RawPacer};
use crate::send_rate::{SendRate, SEND_RATE_WORDS};

/// The first two bytes of every stored value (ASCII `sb`).
pub const STORE_TAG: [u8; 2] = *b"sb";
/// The format version, the value's third byte.
pub const STORE_VERSION: u8 = 1;
/// The header's length: tag (2), version (1), kind (1), configuration fingerprint (4, LE).
pub const STORE_HEADER_SIZE: usize = 8;

/// The kind byte of a retry budget (SPEC.md §10).
pub const KIND_BUDGET: u8 = 1;
/// The kind byte of a pacer (SPEC.md §16).
pub const KIND_PACER: u8 = 2;
/// The kind byte of a send rate (SPEC.md §17).
pub const KIND_SEND_RATE: u8 = 3;

/// A budget's stored value: the header and its tokens (u32).
pub const BUDGET_VALUE_SIZE: usize = STORE_HEADER_SIZE + 4;
/// A pacer's stored value: the header, `latest_ms`, `tail_s`, `reserve_s` (u64), the generator's
/// four words, `rate`, `max_wait_s`, `tail_count`, `capacity` (u32): [`RawPacer`]'s fields in order.
pub const PACER_VALUE_SIZE: usize = STORE_HEADER_SIZE + 3 * 8 + 8 * 4;
/// A send rate's stored value: the header and the state's [`SEND_RATE_WORDS`] u64 words.
pub const SEND_RATE_VALUE_SIZE: usize = STORE_HEADER_SIZE + SEND_RATE_WORDS * 8;

error_enum! {
    /// Why a stored value is no state of this part: the process keeps deciding from its own state
    /// and never overwrites the value (SPEC.md §19.5).
    pub enum StoreError {
        /// Not the tag and version of this format, or not the kind's length.
        Format => "format", "the stored value is not a seeded-backoff shared state of format version 1";
        /// The value of another kind of part (a pacer's where a send rate's is expected).
        Kind => "kind", "the stored value is another kind of part's state";
        /// Written under another configuration: its fingerprint differs from this process's.
        Config => "config", "the stored value was written under another configuration";
        /// Words no state of this configuration reaches.
        State => "state", "the stored words are no state this part reaches";
    }
}

/// A part whose state a fleet shares through a store: its kind, its configuration's fingerprint,
/// and the encoding of its state. Implemented by [`RetryBudget`], [`Pacer`] and [`SendRate`].
///
/// ```
/// use seeded_backoff::shared::SharedPart;
/// use seeded_backoff::send_rate::{Answer, SendRate, SendRateConfig};
/// let mut rate = SendRate::new(SendRateConfig::DEFAULT).unwrap();
/// rate.on_answer(10, Answer::Throttled { hint_ms: 0 });
/// let value = rate.encode();
/// assert_eq!(&value[..4], b"sb\x01\x03");
/// assert_eq!(rate.decode(&value), Ok(rate));
/// ```
pub trait SharedPart: Clone {
    /// The kind byte ([`KIND_BUDGET`], [`KIND_PACER`], [`KIND_SEND_RATE`]).
    const KIND: u8;
    /// The stored value, a fixed-size byte array.
    type Value: Copy + AsRef<[u8]> + AsMut<[u8]> + core::fmt::Debug + PartialEq;
    /// CRC-32 of the configuration's words (SPEC.md §19.2), so a process of another
    /// configuration notices.
    fn fingerprint(&self) -> u32;
    /// The stored value of this state.
    fn encode(&self) -> Self::Value;
    /// The state `bytes` hold, under this part's configuration (`self` gives it; its own state is
    /// not read).
    fn decode(&self, bytes: &[u8]) -> Result<Self, StoreError>;
    /// This state (the fleet's, as read) with what `alone` counted beyond `since` added: the
    /// decisions a process made alone from `since` on, carried into the fleet's state when it is
    /// back in step (SPEC.md §19.6). A part whose decisions do not add up (a pacer's slots) keeps
    /// the fleet's state.
    fn with_alone(&self, since: &Self, alone: &Self) -> Self {
        let _ = (since, alone);
        self.clone()
    }
}

/// Writes little-endian words into a byte array, never past its end.
struct Put<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl Put<'_> {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if let Some(slot) = self.buf.get_mut(self.at) {
                *slot = b;
            }
            self.at = self.at.saturating_add(1);
        }
    }
    fn u32(&mut self, w: u32) {
        self.bytes(&w.to_le_bytes());
    }
    fn u64(&mut self, w: u64) {
        self.bytes(&w.to_le_bytes());
    }
}

/// Reads little-endian words from a slice whose length was checked (a read past it gives zeros).
struct Take<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Take<'_> {
    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for (to, from) in out.iter_mut().zip(self.buf.iter().skip(self.at)) {
            *to = *from;
        }
        self.at = self.at.saturating_add(N);
        out
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }
}

/// CRC-32 of `words` as little-endian u32s.
fn fingerprint_of(words: &[u32]) -> u32 {
    let mut buf = [0u8; 4 * 10];
    let mut put = Put {
        buf: &mut buf,
        at: 0,
    };
    for &w in words {
        put.u32(w);
    }
    let len = put.at;
    crc32(buf.get(..len).unwrap_or(&[]))
}

/// A value of `size` bytes with the header written, and the writer placed after it.
fn header<const N: usize>(kind: u8, fingerprint: u32, body: impl FnOnce(&mut Put<'_>)) -> [u8; N] {
    let mut out = [0u8; N];
    let mut put = Put {
        buf: &mut out,
        at: 0,
    };
    put.bytes(&STORE_TAG);
    put.bytes(&[STORE_VERSION, kind]);
    put.u32(fingerprint);
    body(&mut put);
    out
}

/// The words after a header that is this kind's, of this fingerprint, at this length.
fn body(bytes: &[u8], kind: u8, fingerprint: u32, size: usize) -> Result<Take<'_>, StoreError> {
    let mut take = Take { buf: bytes, at: 0 };
    let [t0, t1, version, k] = take.array::<4>();
    if [t0, t1] != STORE_TAG || version != STORE_VERSION {
        return Err(StoreError::Format);
    }
    if k != kind {
        return Err(StoreError::Kind);
    }
    if bytes.len() != size {
        return Err(StoreError::Format);
    }
    if take.u32() != fingerprint {
        return Err(StoreError::Config);
    }
    Ok(take)
}

impl SharedPart for RetryBudget {
    const KIND: u8 = KIND_BUDGET;
    type Value = [u8; BUDGET_VALUE_SIZE];

    fn fingerprint(&self) -> u32 {
        match self.config() {
            BudgetConfig::Grpc {
                max_milli,
                ratio_milli,
            } => fingerprint_of(&[1, max_milli, ratio_milli]),
            BudgetConfig::AwsQuota {
                capacity_milli,
                retry_cost_milli,
                timeout_cost_milli,
                no_retry_increment_milli,
            } => fingerprint_of(&[
                2,
                capacity_milli,
                retry_cost_milli,
                timeout_cost_milli,
                no_retry_increment_milli,
            ]),
        }
    }

    fn encode(&self) -> Self::Value {
        header(KIND_BUDGET, self.fingerprint(), |p| {
            p.u32(self.tokens_milli())
        })
    }

    fn with_alone(&self, since: &Self, alone: &Self) -> Self {
        // Tokens spent alone are spent from the fleet's bucket, tokens earned alone earned into
        // it, within the bucket.
        let delta = i64::from(alone.tokens_milli()) - i64::from(since.tokens_milli());
        let tokens =
            (i64::from(self.tokens_milli()) + delta).clamp(0, i64::from(self.config().max_milli()));
        let merged = self.clone();
        let _ = merged.set_tokens_milli(u32::try_from(tokens).unwrap_or(0));
        merged
    }

    fn decode(&self, bytes: &[u8]) -> Result<Self, StoreError> {
        let tokens = body(bytes, KIND_BUDGET, self.fingerprint(), BUDGET_VALUE_SIZE)?.u32();
        let budget = RetryBudget::new(self.config());
        budget.set_tokens_milli(tokens).ok_or(StoreError::State)?;
        Ok(budget)
    }
}

impl SharedPart for Pacer {
    const KIND: u8 = KIND_PACER;
    type Value = [u8; PACER_VALUE_SIZE];

    fn fingerprint(&self) -> u32 {
        let raw = self.to_raw();
        fingerprint_of(&[raw.capacity, raw.rate, raw.max_wait_s])
    }

    fn encode(&self) -> Self::Value {
        let raw = self.to_raw();
        header(KIND_PACER, self.fingerprint(), |p| {
            p.u64(raw.latest_ms);
            p.u64(raw.tail_s);
            p.u64(raw.reserve_s);
            for w in raw.rng {
                p.u32(w);
            }
            p.u32(raw.rate);
            p.u32(raw.max_wait_s);
            p.u32(raw.tail_count);
            p.u32(raw.capacity);
        })
    }

    fn decode(&self, bytes: &[u8]) -> Result<Self, StoreError> {
        let mut t = body(bytes, KIND_PACER, self.fingerprint(), PACER_VALUE_SIZE)?;
        let raw = RawPacer {
            latest_ms: t.u64(),
            tail_s: t.u64(),
            reserve_s: t.u64(),
            rng: [t.u32(), t.u32(), t.u32(), t.u32()],
            rate: t.u32(),
            max_wait_s: t.u32(),
            tail_count: t.u32(),
            capacity: t.u32(),
        };
        let mine = self.to_raw();
        if (raw.capacity, raw.rate, raw.max_wait_s) != (mine.capacity, mine.rate, mine.max_wait_s) {
            return Err(StoreError::Config);
        }
        Pacer::from_raw(raw).ok_or(StoreError::State)
    }
}

impl SharedPart for SendRate {
    const KIND: u8 = KIND_SEND_RATE;
    type Value = [u8; SEND_RATE_VALUE_SIZE];

    fn fingerprint(&self) -> u32 {
        let c = self.config();
        fingerprint_of(&[
            c.min_rate_milli,
            c.max_rate_milli,
            c.margin_permille,
            c.probe_ms,
            c.probe_first_permille,
            c.probe_max_permille,
            c.guard_ms,
            c.burst,
            c.max_hold_ms,
            u32::from(c.fail_fast),
        ])
    }

    fn with_alone(&self, since: &Self, alone: &Self) -> Self {
        self.with_counts_beyond(since, alone)
    }

    fn encode(&self) -> Self::Value {
        header(KIND_SEND_RATE, self.fingerprint(), |p| {
            for w in self.to_words() {
                p.u64(w);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> Result<Self, StoreError> {
        let mut t = body(
            bytes,
            KIND_SEND_RATE,
            self.fingerprint(),
            SEND_RATE_VALUE_SIZE,
        )?;
        let mut words = [0u64; SEND_RATE_WORDS];
        for w in words.iter_mut() {
            *w = t.u64();
        }
        SendRate::from_words(self.config(), &words).ok_or(StoreError::State)
    }
}
