//! A shared part's stored value (SPEC.md §19.2) in the shared bytes: the store part (the budget,
//! pacer and send-rate modules with their `*Encode` and `*Decode` exports) encodes and decodes
//! their words through the core's `SharedPart`, so the npm package keeps the core's bytes in a
//! store and only does the I/O; the budget, pacer and send-rate parts themselves carry none of
//! it. The value sits at [`VALUE_AT`] in `Io::bytes`, after the send rate's words.

use seeded_backoff::shared::{SharedPart, StoreError};

use crate::rt::Io;

/// Where a stored value starts in `Io::bytes`: past the send rate's words, with room for the
/// largest value (a send rate's, 184 bytes).
pub const VALUE_AT: usize = 1024;

/// `part`'s stored value at [`VALUE_AT`].
pub fn put<P: SharedPart>(io: &mut Io, part: &P) {
    let value = part.encode();
    for (to, from) in io.bytes.iter_mut().skip(VALUE_AT).zip(value.as_ref()) {
        *to = *from;
    }
}

/// The state the `len` bytes at [`VALUE_AT`] hold under `part`'s configuration, or 1 + the
/// error's index in [`crate::errors::STORE`] (a length past the bytes is a `format` error).
pub fn take<P: SharedPart>(io: &Io, part: &P, len: u32) -> Result<P, u32> {
    let code = |e: StoreError| 1 + crate::errors::index(&crate::errors::STORE, &e);
    let end = VALUE_AT.saturating_add(len as usize);
    let bytes = io
        .bytes
        .get(VALUE_AT..end)
        .ok_or(code(StoreError::Format))?;
    part.decode(bytes).map_err(code)
}
