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

/// Strings packed at compile time into one blob, each followed by a NUL, with where each begins
/// (`u16::MAX` for a row without one): a table lookup is an index and a load, not a branch and an
/// address per row, so a table of 60 messages costs its bytes and a few instructions.
pub(crate) struct Packed<const N: usize, const K: usize> {
    blob: [u8; N],
    starts: [u16; K],
}

/// The blob's length for `rows`: each string and its NUL.
pub(crate) const fn packed_len(rows: &[Option<&str>]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < rows.len() {
        if let Some(s) = rows[i] {
            n += s.len() + 1;
        }
        i += 1;
    }
    n
}

impl<const N: usize, const K: usize> Packed<N, K> {
    /// Packs `rows`; `N` must be [`packed_len`] of them. Only evaluated in `static` initialisers:
    /// a size mistake is a compile error, never a runtime panic.
    pub(crate) const fn new(rows: [Option<&str>; K]) -> Self {
        let mut blob = [0u8; N];
        let mut starts = [u16::MAX; K];
        let (mut at, mut i) = (0, 0);
        while i < K {
            if let Some(s) = rows[i] {
                starts[i] = at as u16;
                let bytes = s.as_bytes();
                let mut j = 0;
                while j < bytes.len() {
                    blob[at + j] = bytes[j];
                    j += 1;
                }
                at += bytes.len() + 1;
            }
            i += 1;
        }
        assert!(at == N && N < u16::MAX as usize);
        Packed { blob, starts }
    }

    /// Row `i`'s string, or NULL for a row without one or an index past the table.
    pub(crate) fn get(&'static self, i: usize) -> *const core::ffi::c_char {
        let start = self.starts.get(i).map(|&s| usize::from(s));
        start
            .and_then(|s| self.blob.get(s..))
            .map_or(core::ptr::null(), |tail| tail.as_ptr().cast())
    }
}
