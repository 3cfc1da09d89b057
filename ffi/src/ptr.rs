//! The only place raw pointers are dereferenced. Each helper turns NULL into `SB_ERR_NULL`. Most
//! copy values in or out; the few that hand out a shared reference (`borrow`, `bytes`, `slice`) do
//! so for input the exported function only reads, and the reference ends with that function, so
//! no reference ever aliases memory that is written while it lives.

use crate::status::sb_status;

/// Copies the value behind `p`, or `SB_ERR_NULL`.
///
/// # Safety
/// A non-NULL `p` must be valid for reads of one properly aligned, initialised `T`.
pub(crate) unsafe fn read<T: Copy>(p: *const T) -> Result<T, sb_status> {
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL, and the caller guarantees it is valid and aligned for a `T`.
    Ok(unsafe { p.read() })
}

/// Stores `value` behind `p`, or returns `SB_ERR_NULL` without writing.
///
/// # Safety
/// A non-NULL `p` must be valid for writes of one properly aligned `T`.
pub(crate) unsafe fn write<T>(p: *mut T, value: T) -> Result<(), sb_status> {
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL, and the caller guarantees it is valid and aligned for a `T`.
    unsafe { p.write(value) };
    Ok(())
}

/// Borrows the value behind `p` for one call, or `SB_ERR_NULL`: a large value (a policy) is then
/// read where it is, instead of copied onto the stack first.
///
/// # Safety
/// A non-NULL `p` must be valid for reads of one properly aligned, initialised `T` that nothing
/// writes to while the reference lives (it does not outlive the exported function that made it).
pub(crate) unsafe fn borrow<'a, T>(p: *const T) -> Result<&'a T, sb_status> {
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL, and the caller guarantees it is valid, aligned and unchanged
    // while the reference lives.
    Ok(unsafe { &*p })
}

/// Copies the `P` that the first `size_of::<P>()` bytes of `*p` hold, or `SB_ERR_NULL`.
///
/// # Safety
/// A non-NULL `p` must be valid for reads of one properly aligned, initialised `T`, `T` must be
/// at least as large and as aligned as `P`, and every bit pattern of those bytes must be a valid
/// `P` (plain integers).
pub(crate) unsafe fn read_prefix<T, P: Copy>(p: *const T) -> Result<P, sb_status> {
    const { assert!(size_of::<P>() <= size_of::<T>() && align_of::<P>() <= align_of::<T>()) };
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL, valid and aligned for a `T`, so its first bytes are initialised,
    // aligned for a `P` and (caller's contract) a valid `P`.
    Ok(unsafe { p.cast::<P>().read() })
}

/// Stores `value` over the first `size_of::<P>()` bytes of `*p`, leaving the rest of `*p` as it
/// is, or returns `SB_ERR_NULL` without writing.
///
/// # Safety
/// A non-NULL `p` must be valid for writes of one properly aligned `T`, and `T` must begin with a
/// `P` (the same fields at the same offsets, as a `#[repr(C)]` prefix), aligned at least as `P`.
pub(crate) unsafe fn write_prefix<T, P>(p: *mut T, value: P) -> Result<(), sb_status> {
    const { assert!(size_of::<P>() <= size_of::<T>() && align_of::<P>() <= align_of::<T>()) };
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL and valid for a `T`, whose first bytes are a `P` (caller's contract),
    // so they are valid and aligned for one `P`.
    unsafe { p.cast::<P>().write(value) };
    Ok(())
}

/// Borrows `len` bytes at `p`, or `SB_ERR_NULL` (also for a NULL `p` with `len == 0`).
///
/// # Safety
/// A non-NULL `p` must be valid for reads of `len` bytes that nothing writes to during the call.
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: usize) -> Result<&'a [u8], sb_status> {
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL and the caller guarantees `len` readable bytes, unchanged while the
    // slice lives (it does not outlive the exported function that created it).
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// Borrows `len` values of `T` at `p`, or `SB_ERR_NULL` (also for a NULL `p` with `len == 0`).
///
/// # Safety
/// A non-NULL `p` must be valid and aligned for reads of `len` initialised values of `T` that
/// nothing writes to during the call.
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize) -> Result<&'a [T], sb_status> {
    if p.is_null() {
        return Err(sb_status::SB_ERR_NULL);
    }
    // SAFETY: `p` is non-NULL and the caller guarantees `len` readable values, unchanged while the
    // slice lives (it does not outlive the exported function that created it).
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// Runs a fallible body and folds its error into the status it carries.
pub(crate) fn status(result: Result<sb_status, sb_status>) -> sb_status {
    match result {
        Ok(status) | Err(status) => status,
    }
}
