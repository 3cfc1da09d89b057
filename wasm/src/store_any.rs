//! The three parts a link holds, as one type (SPEC.md §19.2's kinds): the link's machine is
//! built once for [`AnyPart`] in the store part, not once per kind.

use seeded_backoff::budget::RetryBudget;
use seeded_backoff::pacer::Pacer;
use seeded_backoff::send_rate::SendRate;
use seeded_backoff::shared::{SharedPart, StoreError, KIND_BUDGET, KIND_PACER, KIND_SEND_RATE};

use crate::rt::Io;
use crate::store_link::ROOM;

/// A part the link holds, read from and written to its kind's words in `Io`.
pub trait Area: Sized {
    /// The part the kind's words hold, if they are one.
    fn load(io: &Io) -> Option<Self>;
    /// Writes the part's state to the kind's words (its configuration stays).
    fn save(&self, io: &mut Io);
}

/// A part of any of the three kinds: the link's machine is built once for it, not once per kind
/// (each would add its own copy of the core's link to the part).
#[derive(Clone)]
pub enum AnyPart {
    /// A retry budget.
    Budget(RetryBudget),
    /// A pacer.
    Pacer(Pacer),
    /// A send rate.
    SendRate(SendRate),
}

/// A stored value of any kind: its bytes, at most [`ROOM`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnyValue {
    bytes: [u8; ROOM],
    len: usize,
}

impl AsRef<[u8]> for AnyValue {
    fn as_ref(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&self.bytes)
    }
}

impl AsMut<[u8]> for AnyValue {
    fn as_mut(&mut self) -> &mut [u8] {
        let len = self.len.min(ROOM);
        self.bytes.get_mut(..len).unwrap_or(&mut [])
    }
}

fn any(value: impl AsRef<[u8]>) -> AnyValue {
    let mut out = AnyValue {
        bytes: [0; ROOM],
        len: value.as_ref().len(),
    };
    for (to, b) in out.bytes.iter_mut().zip(value.as_ref()) {
        *to = *b;
    }
    out
}

impl SharedPart for AnyPart {
    // Each variant's value carries its own kind; the link's machine reads none.
    const KIND: u8 = 0;
    type Value = AnyValue;
    fn fingerprint(&self) -> u32 {
        match self {
            AnyPart::Budget(p) => p.fingerprint(),
            AnyPart::Pacer(p) => p.fingerprint(),
            AnyPart::SendRate(p) => p.fingerprint(),
        }
    }
    fn encode(&self) -> AnyValue {
        match self {
            AnyPart::Budget(p) => any(p.encode()),
            AnyPart::Pacer(p) => any(p.encode()),
            AnyPart::SendRate(p) => any(p.encode()),
        }
    }
    fn decode(&self, bytes: &[u8]) -> Result<Self, StoreError> {
        Ok(match self {
            AnyPart::Budget(p) => AnyPart::Budget(p.decode(bytes)?),
            AnyPart::Pacer(p) => AnyPart::Pacer(p.decode(bytes)?),
            AnyPart::SendRate(p) => AnyPart::SendRate(p.decode(bytes)?),
        })
    }
}

impl AnyPart {
    /// The part of `kind` (SPEC.md §19.2's kind byte) the kind's words hold.
    pub(crate) fn load(io: &Io, kind: u32) -> Option<Self> {
        match u8::try_from(kind) {
            Ok(KIND_BUDGET) => RetryBudget::load(io).map(AnyPart::Budget),
            Ok(KIND_PACER) => Pacer::load(io).map(AnyPart::Pacer),
            Ok(KIND_SEND_RATE) => SendRate::load(io).map(AnyPart::SendRate),
            _ => None,
        }
    }

    /// Writes the part's state to its kind's words.
    pub(crate) fn save(&self, io: &mut Io) {
        match self {
            AnyPart::Budget(p) => p.save(io),
            AnyPart::Pacer(p) => p.save(io),
            AnyPart::SendRate(p) => p.save(io),
        }
    }
}
