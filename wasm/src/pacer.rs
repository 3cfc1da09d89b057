//! The pacer part: a server's schedule of returns (SPEC.md §16) whose words live in the JS
//! `Pacer`. A server-side helper, its own small wasm file, so that no client carries it.
//!
//! The pacer's 14 words sit at the start of the shared run words (no run is stepped in this
//! part): `latest_ms`, `tail_s` and `reserve_s` as (low, high) halves, the generator's four
//! words, `rate`, `max_wait_s`, `tail_count`, `capacity` ([`RawPacer`]'s fields in order).

use seeded_backoff::bindings::RawPacer;
use seeded_backoff::pacer::{Pacer, PacerError};
#[cfg(feature = "store")]
use seeded_backoff::shared::StoreError;

use crate::rt::{io as shared, Io};

/// The words of a pacer.
pub const PACER_WORDS: usize = 14;

fn u64_of(lo: u32, hi: u32) -> u64 {
    u64::from(hi) << 32 | u64::from(lo)
}

fn write(io: &mut Io, pacer: &Pacer) {
    let r = pacer.to_raw();
    let [a, b, c, d] = r.rng;
    let words = [
        r.latest_ms as u32,
        (r.latest_ms >> 32) as u32,
        r.tail_s as u32,
        (r.tail_s >> 32) as u32,
        r.reserve_s as u32,
        (r.reserve_s >> 32) as u32,
        a,
        b,
        c,
        d,
        r.rate,
        r.max_wait_s,
        r.tail_count,
        r.capacity,
    ];
    for (to, from) in io.run.iter_mut().zip(words) {
        *to = from;
    }
}

fn read(io: &Io) -> Option<Pacer> {
    let w = |i: usize| io.run.get(i).copied().unwrap_or(0);
    Pacer::from_raw(RawPacer {
        latest_ms: u64_of(w(0), w(1)),
        tail_s: u64_of(w(2), w(3)),
        reserve_s: u64_of(w(4), w(5)),
        rng: [w(6), w(7), w(8), w(9)],
        rate: w(10),
        max_wait_s: w(11),
        tail_count: w(12),
        capacity: w(13),
    })
}

/// A new pacer's words at the shared run words. Returns 0, or 1 + the error's index in
/// [`crate::errors::PACER`].
#[export_name = "pacerNew"]
pub extern "C" fn pacer_new(
    capacity_per_s: u32,
    reserve_per_mille: u32,
    max_wait_s: u32,
    seed_lo: u32,
    seed_hi: u32,
) -> u32 {
    match Pacer::new(
        capacity_per_s,
        reserve_per_mille,
        max_wait_s,
        u64_of(seed_lo, seed_hi),
    ) {
        Ok(pacer) => {
            shared(|io| write(io, &pacer));
            0
        }
        Err(e) => 1 + pacer_error_index(e.error),
    }
}

fn pacer_error_index(e: PacerError) -> u32 {
    crate::errors::index(&crate::errors::PACER, &e)
}

/// Assigns a request refused at `now_ms` (u32 halves) its return, updating the shared pacer words:
/// `retry_after_s`, `reset_ms` and `full` (0 or 1) to the first three action words, the three
/// header values (SPEC.md §16.4, the core's text) to the shared bytes with their lengths in the
/// first three `lens`. Returns 0, or 1 for words no pacer has (unchanged).
#[export_name = "pacerAssign"]
pub extern "C" fn pacer_assign(now_lo: u32, now_hi: u32) -> u32 {
    shared(|io| {
        let Some(mut pacer) = read(io) else {
            return 1;
        };
        let slot = pacer.assign(u64_of(now_lo, now_hi));
        write(io, &pacer);
        io.action[0] = slot.retry_after_s;
        io.action[1] = slot.reset_ms;
        io.action[2] = u32::from(slot.full);
        let headers = slot.headers();
        let mut at = 0usize;
        for (i, (_, value)) in headers.pairs().into_iter().enumerate() {
            for (to, from) in io.bytes.iter_mut().skip(at).zip(value.bytes()) {
                *to = from;
            }
            at += value.len();
            if let Some(len) = io.lens.get_mut(i) {
                *len = value.len() as u32;
            }
        }
        0
    })
}

/// Whether a response with HTTP status `status` is one a pacer paces (the core's
/// `Pacer::paces`): false for a number beyond HTTP's u16.
#[export_name = "pacerPaces"]
pub extern "C" fn pacer_paces(status: u32) -> bool {
    u16::try_from(status).is_ok_and(seeded_backoff::pacer::Pacer::paces)
}

/// The returns still scheduled after `now_ms` (u32 halves) of the shared pacer words (at most
/// `rate · (max_wait_s + 1)`, exact in an f64), or −1 for words no pacer has.
#[export_name = "pacerPending"]
pub extern "C" fn pacer_pending(now_lo: u32, now_hi: u32) -> f64 {
    shared(|io| match read(io) {
        Some(pacer) => pacer.pending(u64_of(now_lo, now_hi)) as f64,
        None => -1.0,
    })
}

/// The shared pacer words' stored value (SPEC.md §19.2) to the shared bytes at
/// [`crate::store::VALUE_AT`]; returns its length, or 0 for words no pacer has.
#[cfg(feature = "store")]
#[export_name = "pacerEncode"]
pub extern "C" fn pacer_encode() -> u32 {
    shared(|io| match read(io) {
        Some(pacer) => {
            crate::store::put(io, &pacer);
            seeded_backoff::shared::PACER_VALUE_SIZE as u32
        }
        None => 0,
    })
}

/// The state of the `len` bytes at [`crate::store::VALUE_AT`], a stored value of the shared
/// pacer words' configuration, into those words. Returns 0, or 1 + the error's index in
/// [`crate::errors::STORE`] (the words unchanged; `state` for words no pacer has).
#[cfg(feature = "store")]
#[export_name = "pacerDecode"]
pub extern "C" fn pacer_decode(len: u32) -> u32 {
    shared(|io| {
        let Some(pacer) = read(io) else {
            return 1 + crate::errors::index(&crate::errors::STORE, &StoreError::State);
        };
        match crate::store::take(io, &pacer, len) {
            Ok(stored) => {
                write(io, &stored);
                0
            }
            Err(code) => code,
        }
    })
}

#[cfg(feature = "store")]
impl crate::store_link::Area for Pacer {
    fn load(io: &Io) -> Option<Self> {
        read(io)
    }
    fn save(&self, io: &mut Io) {
        write(io, self);
    }
}
