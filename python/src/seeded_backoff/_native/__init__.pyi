# The package maturin generates from ffi/include/seeded_backoff.h (cffi, ABI mode): `lib` holds the
# header's functions and constants, loaded from the library beside it. Dynamic: the modules that
# use it turn what it returns into typed Python values.
from typing import Any

lib: Any
