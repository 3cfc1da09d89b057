"""Type checks for Python values, run before anything reaches the library, so that a refused call
changes nothing. Ranges beyond "fits the C type" are the core's, and so are their messages."""

import operator
from typing import Any, Optional, Sequence

from ._ffi import U32_MAX, U64_MAX


def show(value: Any) -> str:
    """A short description of a value for a message."""
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."


def integer(name: str, value: Any, lo: float = 0, hi: float = U32_MAX, rule: Optional[str] = None) -> int:
    """`value` as an int in lo..=hi. bool and float are refused (TypeError) even when integral:
    `True` or `3.0` where a count is expected is most likely a mistake."""
    rule = rule or f"{name} must be an integer in {lo}..={hi}"
    if isinstance(value, (bool, float)):
        raise TypeError(f"{rule}, got {show(value)} ({type(value).__name__})")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{rule}, got {show(value)} ({type(value).__name__})") from None
    if not lo <= v <= hi:
        raise ValueError(f"{rule}, got {show(value)}")
    return v


def u64(name: str, value: Any) -> int:
    return integer(name, value, 0, U64_MAX)


def one_of(name: str, value: Any, names: Sequence[str]) -> int:
    """The index of `value` in `names` (a table read from the library)."""
    rule = f"{name} must be one of {', '.join(repr(n) for n in names)}"
    if not isinstance(value, str):
        raise TypeError(f"{rule}, got {show(value)} ({type(value).__name__})")
    try:
        return names.index(value)
    except ValueError:
        raise ValueError(f"{rule}, got {show(value)}") from None


def boolean(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {show(value)} ({type(value).__name__})")
    return value
