"""The C ABI, loaded once, and the readers every module shares.

`_native` is what maturin generates from the library's header (cffi, ABI mode): `lib` holds the
functions and constants of ffi/include/seeded_backoff.h. Tables of names and messages are read from
the library here, never typed again in Python, so the package and the C library cannot disagree.
"""

from typing import Any, Callable, Dict, Optional, Tuple

from ._native import lib
from ._native.ffi import ffi

__all__ = ["ffi", "lib", "text", "table", "message", "status_name", "STATUS", "U32_MAX", "U64_MAX"]

U32_MAX = 0xFFFF_FFFF
U64_MAX = 0xFFFF_FFFF_FFFF_FFFF


def text(ptr: Any) -> Optional[str]:
    """A static C string from the library as `str`, or None for NULL."""
    if ptr == ffi.NULL:
        return None
    raw: bytes = ffi.string(ptr)
    return raw.decode("utf-8")


def table(name_of: Callable[[int], Any]) -> Tuple[str, ...]:
    """A name table (`sb_jitter_name` etc.): the names for codes 0, 1, ... up to the first NULL."""
    names: list[str] = []
    while True:
        name = text(name_of(len(names)))
        if name is None:
            return tuple(names)
        names.append(name)


def message(status: int) -> str:
    """`sb_strerror`: the core's message for a status, naming the field and its range."""
    # Never NULL: an unknown code has a message too.
    return text(lib.sb_strerror(status)) or ""


def status_name(status: int) -> Optional[str]:
    """The core's snake_case name for the give-up reason or error a status stands for."""
    return text(lib.sb_status_name(status))


# Every status of the header's `enum sb_status`, by name ("SB_ERR_POLICY_INITIAL_MS": 110).
STATUS: Dict[str, int] = dict(ffi.typeof("enum sb_status").relements)

PRESETS = table(lib.sb_preset_name)
JITTERS = table(lib.sb_jitter_name)
DEADLINES = table(lib.sb_deadline_name)
