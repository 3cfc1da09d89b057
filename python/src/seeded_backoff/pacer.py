"""Pacer: a server's schedule of returns (SPEC.md §16), held in the C ABI's `sb_pacer`. Each request
the server turns away (429 or 503) gets its own return second, at most the server's capacity a second
(less the reserve in the first second of a schedule that starts empty), as `Retry-After` and rate-limit headers. Thread-safe: a lock guards it."""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Tuple

from ._check import integer, u64
from ._ffi import ffi, lib, status_name, table
from ._errors import PacerError

__all__ = ["Pacer", "PacerSlot", "PACER_HEADER_NAMES", "PacerError"]

PacerError.__module__ = __name__

# 'retry-after', 'ratelimit-reset', 'ratelimit': SPEC.md §16.4's names, read from the library.
PACER_HEADER_NAMES: Tuple[str, ...] = table(lib.sb_pacer_header_name)


@dataclass(frozen=True)
class PacerSlot:
    """Where a refused request is told to come back: `retry_after_s` whole seconds
    (1..=max_wait_s), `reset_ms` milliseconds from now (in the same second of the server's clock),
    and `full` when the schedule was full up to `max_wait_s` (the server may answer otherwise)."""

    retry_after_s: int
    reset_ms: int
    full: bool
    _values: Tuple[str, ...] = field(repr=False)

    def headers(self) -> dict[str, str]:
        """The headers to send with the 429 or 503 (SPEC.md §16.4).

        >>> PacerSlot(2, 1350, False, ("2", "1.350", '"pacer";r=0;t=2')).headers()["ratelimit-reset"]
        '1.350'
        """
        return dict(zip(PACER_HEADER_NAMES, self._values))


class Pacer:
    """A server's pacer: `capacity_per_s` requests a second (1..=1000000), `reserve_per_mille`
    thousandths of it kept for first attempts in the first second of a schedule that starts empty
    (0..=999), no wait told beyond `max_wait_s`
    (1..=86400); `seed` (0..=2**64-1; omitted, a random one) makes the spread inside each second
    reproducible. One per server, shared by its threads. The clock is the server's monotonic one
    in milliseconds: `now_ms` omitted, milliseconds since the pacer was made.

    >>> pacer = Pacer(100, reserve_per_mille=100, max_wait_s=60, seed=7)
    >>> [pacer.assign(now_ms=0).retry_after_s for _ in range(91)][-2:]
    [1, 2]
    >>> pacer.pending(now_ms=0)
    91
    """

    __slots__ = ("_c", "_lock", "_start_ns", "_seed")
    _c: Any  # the sb_pacer, owned by cffi
    _lock: threading.Lock
    _start_ns: int
    _seed: int

    def __init__(self, capacity_per_s: int, reserve_per_mille: int = 0, max_wait_s: int = 60,
                 seed: Optional[int] = None) -> None:
        args = [integer(n, v) for n, v in (("capacity_per_s", capacity_per_s),
                                            ("reserve_per_mille", reserve_per_mille),
                                            ("max_wait_s", max_wait_s))]
        # An omitted seed is drawn from the OS, as a Backoff's is.
        self._seed = secrets.randbits(64) if seed is None else u64("seed", seed)
        c = ffi.new("sb_pacer *")
        status = lib.sb_pacer_init(c, *args, self._seed)
        if status != lib.SB_OK:
            # The status names the refused field (its `code`): the message adds the value given.
            given = dict(zip(("capacity_per_s", "reserve_per_mille", "max_wait_s"), args))
            value = given.get(status_name(status) or "")
            raise PacerError(status, "" if value is None else f", got {value}")
        self._c = c
        self._lock = threading.Lock()
        self._start_ns = time.monotonic_ns()

    @property
    def seed(self) -> int:
        """The seed, given or drawn."""
        return self._seed

    def _now(self, now_ms: Optional[int]) -> int:
        if now_ms is None:
            return (time.monotonic_ns() - self._start_ns) // 1_000_000
        return u64("now_ms", now_ms)

    def assign(self, now_ms: Optional[int] = None) -> PacerSlot:
        """Assigns a request refused at `now_ms` its return (SPEC.md §16.2). An earlier clock
        reading than one seen before counts as that one."""
        now = self._now(now_ms)
        out = ffi.new("sb_pacer_slot *")
        with self._lock:
            status = lib.sb_pacer_assign(self._c, now, out)
        if status != lib.SB_OK:
            raise PacerError(status)
        values = tuple(ffi.string(v).decode("ascii") for v in (out.retry_after, out.ratelimit_reset, out.ratelimit))
        return PacerSlot(int(out.retry_after_s), int(out.reset_ms), bool(out.full), values)

    def pending(self, now_ms: Optional[int] = None) -> int:
        """The returns still scheduled after `now_ms`: a queue length to report, or to refuse
        first attempts by while it drains. Changes nothing."""
        now = self._now(now_ms)
        out = ffi.new("uint64_t *")
        with self._lock:
            status = lib.sb_pacer_pending(self._c, now, out)
        if status != lib.SB_OK:
            raise PacerError(status)
        return int(out[0])

    def __repr__(self) -> str:
        return f"<Pacer retry_rate={int(self._c.rate)} max_wait_s={int(self._c.max_wait_s)}>"
