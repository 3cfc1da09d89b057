//! `sb_pacer`: a server's schedule of returns (SPEC.md section 16) in caller-owned memory.

use core::ffi::c_char;

use seeded_backoff::bindings::RawPacer;
use seeded_backoff::pacer::{Pacer, PacerSlot, PACER_HEADER_NAMES};

use crate::cstr::c_str;
use crate::ptr;
use crate::status::{require_feature, sb_status};

/// A server's pacer: one per server (or per quota), fed the server's monotonic clock in
/// milliseconds. Allocate it anywhere, set it up with `sb_pacer_init`, and treat the fields as
/// private: every call validates them and returns `SB_ERR_BAD_STATE` if they were corrupted. Not
/// thread-safe: guard it with a lock if several threads share it. In a build without the `pacer`
/// feature every `sb_pacer_*` function returns `SB_ERR_UNSUPPORTED`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_pacer {
    /// The latest clock reading seen, in ms.
    pub latest_ms: u64,
    /// The earliest second of the schedule that may still have room.
    pub tail_s: u64,
    /// The second that keeps the reserve (the first of the latest schedule that started empty).
    pub reserve_s: u64,
    /// Random generator state (xoshiro128++ words s0..s3).
    pub rng: [u32; 4],
    /// Returns the reserve second holds.
    pub rate: u32,
    /// The longest wait the pacer tells, in seconds.
    pub max_wait_s: u32,
    /// Returns already assigned to `tail_s`.
    pub tail_count: u32,
    /// Returns every other second holds.
    pub capacity: u32,
}

// `sb_pacer` is the core's `RawPacer`, field for field, and neither has padding, so every byte of
// it is set (a copy compares equal).
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(sb_pacer, latest_ms) == offset_of!(RawPacer, latest_ms));
    assert!(offset_of!(sb_pacer, tail_s) == offset_of!(RawPacer, tail_s));
    assert!(offset_of!(sb_pacer, reserve_s) == offset_of!(RawPacer, reserve_s));
    assert!(offset_of!(sb_pacer, rng) == offset_of!(RawPacer, rng));
    assert!(offset_of!(sb_pacer, rate) == offset_of!(RawPacer, rate));
    assert!(offset_of!(sb_pacer, max_wait_s) == offset_of!(RawPacer, max_wait_s));
    assert!(offset_of!(sb_pacer, tail_count) == offset_of!(RawPacer, tail_count));
    assert!(offset_of!(sb_pacer, capacity) == offset_of!(RawPacer, capacity));
    assert!(size_of::<sb_pacer>() == offset_of!(sb_pacer, capacity) + 4);
    assert!(size_of::<sb_pacer>() == size_of::<RawPacer>());
};

impl sb_pacer {
    pub(crate) fn new(pacer: &Pacer) -> sb_pacer {
        let raw = pacer.to_raw();
        sb_pacer {
            latest_ms: raw.latest_ms,
            tail_s: raw.tail_s,
            reserve_s: raw.reserve_s,
            rng: raw.rng,
            rate: raw.rate,
            max_wait_s: raw.max_wait_s,
            tail_count: raw.tail_count,
            capacity: raw.capacity,
        }
    }

    pub(crate) fn to_core(self) -> Result<Pacer, sb_status> {
        Pacer::from_raw(RawPacer {
            latest_ms: self.latest_ms,
            tail_s: self.tail_s,
            reserve_s: self.reserve_s,
            rng: self.rng,
            rate: self.rate,
            max_wait_s: self.max_wait_s,
            tail_count: self.tail_count,
            capacity: self.capacity,
        })
        .ok_or(sb_status::SB_ERR_BAD_STATE)
    }
}

/// Where a refused request is told to come back (SPEC.md section 16.2), with the text of the
/// headers to send with the 429 or 503 (section 16.4), each NUL-terminated: `retry-after`,
/// `ratelimit-reset` and `ratelimit`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct sb_pacer_slot {
    /// The `Retry-After` value, whole seconds, in 1..=max_wait_s.
    pub retry_after_s: u32,
    /// The return time in ms from now, in 1..=max_wait_s*1000+999.
    pub reset_ms: u32,
    /// The schedule was full up to `max_wait_s`: the server may answer something else instead.
    pub full: bool,
    /// The `retry-after` header's value (`"2"`).
    pub retry_after: [c_char; 12],
    /// The `ratelimit-reset` header's value (`"1.350"`).
    pub ratelimit_reset: [c_char; 12],
    /// The `ratelimit` header's value (`"\"pacer\";r=0;t=2"`).
    pub ratelimit: [c_char; 28],
}

/// `text` as a NUL-terminated C array (each value fits with room for the NUL).
fn c_text<const N: usize>(text: &str) -> [c_char; N] {
    let mut out = [0; N];
    for (to, &b) in out
        .iter_mut()
        .take(N.saturating_sub(1))
        .zip(text.as_bytes())
    {
        *to = b as c_char;
    }
    out
}

impl sb_pacer_slot {
    fn new(slot: PacerSlot) -> sb_pacer_slot {
        let headers = slot.headers();
        sb_pacer_slot {
            retry_after_s: slot.retry_after_s,
            reset_ms: slot.reset_ms,
            full: slot.full,
            retry_after: c_text(headers.retry_after()),
            ratelimit_reset: c_text(headers.ratelimit_reset()),
            ratelimit: c_text(headers.ratelimit()),
        }
    }
}

/// Sets up `*p` for a server of `capacity_per_s` requests a second (1..=1000000) that keeps
/// `reserve_per_mille` thousandths of it for first attempts (0..=999) and tells no request to wait
/// longer than `max_wait_s` (1..=86400); `seed` makes the spread inside each second reproducible.
/// Returns `SB_OK`, `SB_ERR_NULL`, `SB_ERR_PACER_CAPACITY_PER_S`, `SB_ERR_PACER_RESERVE_PER_MILLE`
/// or `SB_ERR_PACER_MAX_WAIT_S` (checked in that order; `*p` is unchanged on error).
///
/// ```c
/// static sb_pacer pacer; // one per server
/// sb_pacer_init(&pacer, 100, 100, 60, seed); // 100 requests/s, a tenth kept for first attempts
/// ```
///
/// # Safety
/// `p` is NULL or valid for writes of an `sb_pacer`.
#[no_mangle]
pub unsafe extern "C" fn sb_pacer_init(
    p: *mut sb_pacer,
    capacity_per_s: u32,
    reserve_per_mille: u32,
    max_wait_s: u32,
    seed: u64,
) -> sb_status {
    require_feature!("pacer");
    ptr::status((|| {
        if p.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        let pacer = Pacer::new(capacity_per_s, reserve_per_mille, max_wait_s, seed)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { ptr::write(p, sb_pacer::new(&pacer)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Assigns a request refused at `now_ms` (the server's monotonic clock; an earlier reading than
/// one seen before counts as that one) its return, written to `*out` with its header text.
/// Returns `SB_OK`, `SB_ERR_NULL` or `SB_ERR_BAD_STATE`; on error neither struct is changed.
///
/// ```c
/// sb_pacer_slot slot;
/// sb_pacer_assign(&pacer, monotonic_ms(), &slot);
/// add_header("retry-after", slot.retry_after);
/// add_header("ratelimit-reset", slot.ratelimit_reset);
/// add_header("ratelimit", slot.ratelimit);
/// ```
///
/// # Safety
/// `p` is NULL or valid for reads and writes of an `sb_pacer`; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_pacer_assign(
    p: *mut sb_pacer,
    now_ms: u64,
    out: *mut sb_pacer_slot,
) -> sb_status {
    require_feature!("pacer");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let mut pacer = unsafe { ptr::read(p) }?.to_core()?;
        let slot = pacer.assign(now_ms);
        // SAFETY: `p` was just read, so it is non-NULL; writable by this function's contract.
        unsafe { ptr::write(p, sb_pacer::new(&pacer)) }?;
        // SAFETY: checked non-NULL above; writable by this function's contract.
        unsafe { ptr::write(out, sb_pacer_slot::new(slot)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Stores in `*out` the returns still scheduled after `now_ms` (a queue length a server may report,
/// or use to refuse first attempts while it drains). Changes nothing. Returns `SB_OK`,
/// `SB_ERR_NULL` or `SB_ERR_BAD_STATE`.
///
/// # Safety
/// `p` is NULL or readable; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sb_pacer_pending(
    p: *const sb_pacer,
    now_ms: u64,
    out: *mut u64,
) -> sb_status {
    require_feature!("pacer");
    ptr::status((|| {
        if out.is_null() {
            return Err(sb_status::SB_ERR_NULL);
        }
        // SAFETY: forwarded from this function's contract.
        let pacer = unsafe { ptr::read(p) }?.to_core()?;
        // SAFETY: checked non-NULL above; writable by this function's contract.
        unsafe { ptr::write(out, pacer.pending(now_ms)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// The name of header `index` of a paced refusal (SPEC.md section 16.4), in `sb_pacer_slot`'s
/// order: 0 `"retry-after"`, 1 `"ratelimit-reset"`, 2 `"ratelimit"`; NULL past the last. A static
/// string, never to be freed.
#[no_mangle]
pub extern "C" fn sb_pacer_header_name(index: u32) -> *const c_char {
    match index {
        0 => c_str!(PACER_HEADER_NAMES[0]),
        1 => c_str!(PACER_HEADER_NAMES[1]),
        2 => c_str!(PACER_HEADER_NAMES[2]),
        _ => core::ptr::null(),
    }
}
