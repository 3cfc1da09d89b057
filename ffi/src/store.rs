//! A shared part's stored value (SPEC.md section 19.2): the bytes a binding keeps under the part's
//! key in a store such as Valkey, encoded and decoded here so every language uses the core's
//! encoding and only performs the I/O.

use seeded_backoff::shared::{
    SharedPart, BUDGET_VALUE_SIZE, PACER_VALUE_SIZE, SEND_RATE_VALUE_SIZE,
};

use crate::budget::sb_budget;
use crate::pacer::sb_pacer;
use crate::ptr;
use crate::send_rate::sb_send_rate;
use crate::status::{require_feature, sb_status};

/// The length of a retry budget's stored value in bytes.
pub const SB_BUDGET_VALUE_SIZE: usize = 12;
/// The length of a pacer's stored value in bytes.
pub const SB_PACER_VALUE_SIZE: usize = 64;
/// The length of a send rate's stored value in bytes.
pub const SB_SEND_RATE_VALUE_SIZE: usize = 184;

const _: () = {
    assert!(SB_BUDGET_VALUE_SIZE == BUDGET_VALUE_SIZE);
    assert!(SB_PACER_VALUE_SIZE == PACER_VALUE_SIZE);
    assert!(SB_SEND_RATE_VALUE_SIZE == SEND_RATE_VALUE_SIZE);
};

/// Writes the stored value of the part at `c` (read with `to_core`) to `out`.
///
/// # Safety
/// `c` is NULL or readable; `out` is NULL or valid for writes of the part's value's size.
unsafe fn encode<C: Copy, P: SharedPart>(
    c: *const C,
    out: *mut u8,
    to_core: impl FnOnce(&C) -> Result<P, sb_status>,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let part = to_core(unsafe { ptr::borrow(c) }?)?;
        // SAFETY: as above; the value is a byte array, which needs no alignment beyond 1.
        unsafe { ptr::write(out.cast::<P::Value>(), part.encode()) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Replaces the part at `c` with the state of the stored value (`len` bytes at `value`) under
/// its configuration: `to_core` reads it, `back` writes the decoded state into a copy.
///
/// # Safety
/// `c` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
unsafe fn decode<C: Copy, P: SharedPart>(
    c: *mut C,
    value: *const u8,
    len: usize,
    to_core: impl FnOnce(&C) -> Result<P, sb_status>,
    back: impl FnOnce(C, &P) -> C,
) -> sb_status {
    require_feature!("store");
    ptr::status((|| {
        // SAFETY: forwarded from this function's contract.
        let part = unsafe { ptr::read(c) }?;
        // SAFETY: as above.
        let bytes = unsafe { ptr::bytes(value, len) }?;
        let stored = to_core(&part)?.decode(bytes)?;
        // SAFETY: as above.
        unsafe { ptr::write(c, back(part, &stored)) }?;
        Ok(sb_status::SB_OK)
    })())
}

/// Writes the budget's stored value (`SB_BUDGET_VALUE_SIZE` bytes: SPEC.md section 19.2) to `out`.
/// Every `sb_*_encode` and `sb_*_decode` function returns `SB_ERR_UNSUPPORTED` in a build without
/// the `store` feature.
///
/// # Safety
/// `b` is NULL or readable; `out` is NULL or valid for writes of `SB_BUDGET_VALUE_SIZE` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_encode(b: *const sb_budget, out: *mut u8) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { encode(b, out, sb_budget::to_core) }
}

/// Replaces the budget's tokens with those of a stored value (`len` bytes at `value`), which must
/// be a budget's of the same configuration as `*b`: else `SB_ERR_STORE_*` and `*b` is unchanged.
///
/// ```c
/// sb_budget b;
/// sb_budget_init_aws_default(&b);
/// if (got_value && sb_budget_decode(&b, value, value_len) != SB_OK) decide_alone(&b);
/// ```
///
/// # Safety
/// `b` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_budget_decode(
    b: *mut sb_budget,
    value: *const u8,
    len: usize,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { decode(b, value, len, sb_budget::to_core, sb_budget::with_tokens) }
}

/// Writes the pacer's stored value (`SB_PACER_VALUE_SIZE` bytes) to `out`.
///
/// # Safety
/// `p` is NULL or readable; `out` is NULL or valid for writes of `SB_PACER_VALUE_SIZE` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_pacer_encode(p: *const sb_pacer, out: *mut u8) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { encode(p, out, |p| p.to_core()) }
}

/// Replaces the pacer's state with a stored value's (`len` bytes at `value`), which must be a
/// pacer's of the same capacity, reserve and longest wait as `*p`: else `SB_ERR_STORE_*` and `*p`
/// is unchanged.
///
/// # Safety
/// `p` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_pacer_decode(
    p: *mut sb_pacer,
    value: *const u8,
    len: usize,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        decode(
            p,
            value,
            len,
            |p| p.to_core(),
            |_, stored| sb_pacer::new(stored),
        )
    }
}

/// Writes the send rate's stored value (`SB_SEND_RATE_VALUE_SIZE` bytes) to `out`.
///
/// # Safety
/// `s` is NULL or readable; `out` is NULL or valid for writes of `SB_SEND_RATE_VALUE_SIZE` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_encode(s: *const sb_send_rate, out: *mut u8) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe { encode(s, out, sb_send_rate::to_core) }
}

/// Replaces the send rate's state with a stored value's (`len` bytes at `value`), which must be a
/// send rate's of the same configuration as `*s`: else `SB_ERR_STORE_*` and `*s` is unchanged.
///
/// # Safety
/// `s` is NULL or valid for reads and writes; `value` is NULL or valid for reads of `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sb_send_rate_decode(
    s: *mut sb_send_rate,
    value: *const u8,
    len: usize,
) -> sb_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        decode(
            s,
            value,
            len,
            sb_send_rate::to_core,
            sb_send_rate::with_state,
        )
    }
}

/// The longest a decision waits for the store, all round trips included, in ms, before the
/// process decides from its own state (SPEC.md section 19.5).
pub const SB_STORE_BOUND_MS: u32 = 50;
/// How long a process that fell back decides alone before it asks the store again, in ms
/// (SPEC.md section 19.6).
pub const SB_STORE_REJOIN_MS: u32 = 200;
/// Compare-and-set attempts per decision before it is made from the process's own state (SPEC.md
/// section 19.4).
pub const SB_STORE_MAX_TRIES: u32 = 32;
/// Decisions in a row past the bound before the process decides alone until it rejoins (SPEC.md
/// section 19.5): one late reply costs its decision only.
pub const SB_STORE_LATE_LIMIT: u32 = 3;

const _: () = {
    assert!(SB_STORE_BOUND_MS == seeded_backoff::shared::STORE_BOUND_MS);
    assert!(SB_STORE_REJOIN_MS == seeded_backoff::shared::REJOIN_MS);
    assert!(SB_STORE_MAX_TRIES == seeded_backoff::shared::MAX_TRIES);
    assert!(SB_STORE_LATE_LIMIT == seeded_backoff::shared::LATE_LIMIT);
};

/// The compare-and-set script (Lua, NUL-terminated) every binding runs on a part's key (SPEC.md
/// section 19.4): with the expected value (empty for absent) and the new one it sets the key if
/// it still holds the expected value; with no argument it reads. It answers `{1, nil, ms}` when
/// it set the value and `{0, value or nil, ms}` otherwise, `ms` being the store's `TIME` in ms.
/// The same text in every build, the `store` feature or not.
///
/// ```c
/// const char *script = sb_store_script(); // EVAL it on 1 key: with expected and new, or none
/// ```
#[no_mangle]
pub extern "C" fn sb_store_script() -> *const core::ffi::c_char {
    crate::cstr::c_str!(seeded_backoff::shared::CAS_SCRIPT)
}
