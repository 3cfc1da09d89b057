//! NUL-terminated copies of the core's `&'static str` messages, built at compile time, so
//! `sb_strerror` and `sb_version` return C strings without allocating.

/// `s` followed by a NUL byte, in an array of exactly `s.len() + 1` bytes. Only evaluated in
/// `static` initialisers: a size mistake is a compile error, never a runtime panic.
pub(crate) const fn with_nul<const N: usize>(s: &str) -> [u8; N] {
    let bytes = s.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < bytes.len() {
        out[i] = bytes[i];
        i += 1;
    }
    out
}

/// A `*const c_char` to a static, NUL-terminated copy of a constant string expression.
macro_rules! c_str {
    ($s:expr) => {{
        const TEXT: &str = $s;
        static BYTES: [u8; TEXT.len() + 1] = $crate::cstr::with_nul(TEXT);
        BYTES.as_ptr().cast::<core::ffi::c_char>()
    }};
}
pub(crate) use c_str;
