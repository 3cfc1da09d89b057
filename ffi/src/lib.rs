//! C ABI (issue 5): filled in by the C library work.
