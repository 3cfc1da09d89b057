//! The library's version, as in the workspace `Cargo.toml`.

use core::ffi::c_char;

use crate::cstr::c_str;

/// The major version of this header; `sb_version()` reports the library's.
pub const SB_VERSION_MAJOR: u32 = 0;
/// The minor version of this header.
pub const SB_VERSION_MINOR: u32 = 1;
/// The patch version of this header.
pub const SB_VERSION_PATCH: u32 = 0;

const fn parse(s: &str) -> u32 {
    let bytes = s.as_bytes();
    let mut n = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        n = n * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    n
}

// The header's literals must follow Cargo.toml: a version bump that forgets them fails to build.
const _: () = {
    assert!(SB_VERSION_MAJOR == parse(env!("CARGO_PKG_VERSION_MAJOR")));
    assert!(SB_VERSION_MINOR == parse(env!("CARGO_PKG_VERSION_MINOR")));
    assert!(SB_VERSION_PATCH == parse(env!("CARGO_PKG_VERSION_PATCH")));
};

/// The library's version as a static string, e.g. "0.1.0". Compare with `SB_VERSION_*` to detect
/// a header that does not match the linked library.
#[no_mangle]
pub extern "C" fn sb_version() -> *const c_char {
    c_str!(env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_matches_cargo_toml() {
        // SAFETY: `sb_version` returns a static NUL-terminated string.
        let text = unsafe { core::ffi::CStr::from_ptr(sb_version()) };
        let expected = std::format!("{SB_VERSION_MAJOR}.{SB_VERSION_MINOR}.{SB_VERSION_PATCH}");
        assert_eq!(text.to_str().unwrap(), expected);
        assert_eq!(expected, env!("CARGO_PKG_VERSION"));
    }
}
