"""SendRate: the adaptive send rate of SPEC.md section 17, one per process and server, shared by
every request to it. It learns the rate the server accepts from its answers and paces every
attempt, first attempts included, just under it. Held in the C ABI's `sb_send_rate`; a lock
guards it, so threads share one, and `wait_turn` paces asyncio tasks."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Callable, Dict, NamedTuple, Optional

from ._check import boolean, integer, show, u64
from ._ffi import ffi, lib, status_name
from ._errors import CoreError

__all__ = ["SendRate", "SendRateError", "Pace", "ANSWERS"]

# 'accepted', 'throttled', 'no_answer': the header's SB_ANSWER_* constants, by their names.
ANSWERS: Dict[str, int] = {n[len("SB_ANSWER_"):].lower(): getattr(lib, n) for n in dir(lib)
                          if n.startswith("SB_ANSWER_") and n != "SB_ANSWER_FROM_OUTCOME"}

# sb_send_rate_config's fields, in the order the core checks them (SPEC.md section 17.1).
FIELDS = ("max_rate_milli", "min_rate_milli", "margin_permille", "probe_ms", "probe_first_permille",
          "probe_max_permille", "guard_ms", "burst", "max_hold_ms")


class SendRateError(CoreError):
    """A send-rate parameter out of its range; `field` names it (as `code` does)."""

    field: Optional[str]

    def __init__(self, status: int, detail: str = "") -> None:
        super().__init__(status, detail)
        self.field = self.code


class Pace(NamedTuple):
    """What the send rate answers before an attempt: `kind` is 'send', 'wait' (ask again after
    `ms`) or, with `fail_fast`, 'refuse' (do not send; `ms` is the wait sending would take)."""

    kind: str
    ms: int


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class SendRate:
    """An adaptive send rate. Every parameter is keyword-only, in SPEC.md section 17.1's units,
    defaulting to the core's defaults; a value out of range raises `SendRateError` (a ValueError)
    naming the field.

    >>> rate = SendRate()
    >>> rate.ask(0)  # off until the first throttle
    Pace(kind='send', ms=0)
    >>> rate.answer(10, "throttled", hint_ms=1000)
    >>> rate.ask(10)
    Pace(kind='wait', ms=1000)
    """

    __slots__ = ("_c", "_lock", "_clock")
    _c: Any  # the sb_send_rate, owned by cffi
    _lock: threading.Lock
    _clock: Callable[[], int]

    def __init__(self, *, max_rate_milli: Optional[int] = None, min_rate_milli: Optional[int] = None,
                 margin_permille: Optional[int] = None, probe_ms: Optional[int] = None,
                 probe_first_permille: Optional[int] = None, probe_max_permille: Optional[int] = None,
                 guard_ms: Optional[int] = None, burst: Optional[int] = None,
                 max_hold_ms: Optional[int] = None, fail_fast: bool = False,
                 clock: Optional[Callable[[], int]] = None) -> None:
        given = {"max_rate_milli": max_rate_milli, "min_rate_milli": min_rate_milli,
                 "margin_permille": margin_permille, "probe_ms": probe_ms,
                 "probe_first_permille": probe_first_permille, "probe_max_permille": probe_max_permille,
                 "guard_ms": guard_ms, "burst": burst, "max_hold_ms": max_hold_ms}
        config = lib.sb_send_rate_config_default()
        for name in FIELDS:
            value = given[name]
            if value is not None:
                setattr(config, name, integer(name, value))
        config.fail_fast = 1 if boolean("fail_fast", fail_fast) else 0
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable returning ms, got {show(clock)}")
        self._c = ffi.new("sb_send_rate *")
        self._lock = threading.Lock()
        self._clock = clock or _monotonic_ms
        status = lib.sb_send_rate_init(self._c, ffi.new("sb_send_rate_config *", config))
        if status != lib.SB_OK:
            # The status names the refused field; the configuration holds its value, given or default.
            value = getattr(config, status_name(status) or "", None)
            raise SendRateError(status, "" if value is None else f", got {value}")

    def config(self) -> Dict[str, Any]:
        """The parameters, by field name."""
        with self._lock:
            c = self._c.config
            out: Dict[str, Any] = {name: int(getattr(c, name)) for name in FIELDS}
            out["fail_fast"] = bool(c.fail_fast)
        return out

    def _now(self, now_ms: Optional[int]) -> int:
        return u64("now_ms", self._clock() if now_ms is None else now_ms)

    def ask(self, now_ms: Optional[int] = None) -> Pace:
        """Before every attempt (SPEC.md section 17.4), at `now_ms` on a monotonic clock (default:
        the rate's clock). Nothing is reserved by a wait or a refusal: ask again."""
        now = self._now(now_ms)
        out = ffi.new("uint32_t *")
        with self._lock:
            status = lib.sb_send_rate_ask(self._c, now, out)
        if status == lib.SB_OK:
            return Pace("send", 0)
        if status == lib.SB_SEND_RATE_WAIT:
            return Pace("wait", int(out[0]))
        if status == lib.SB_SEND_RATE_REFUSE:
            return Pace("refuse", int(out[0]))
        raise CoreError(status)

    def answer(self, now_ms: Optional[int], kind: str, hint_ms: int = 0, *,
               sent_ms: Optional[int] = None) -> None:
        """Reports the server's answer to an attempt (SPEC.md section 17.5): `kind` is 'accepted'
        (any response but a throttle), 'throttled' (a 429, or a 503 with a hint; `hint_ms` is the
        hint, 0 for none) or 'no_answer' (a connection error or a timeout). `sent_ms` is the
        reading at which the attempt was sent (its `ask` said 'send'), None for "sent now": a
        throttle of an attempt sent before the rate's last cut cuts nothing again.

        >>> rate = SendRate()
        >>> for t in range(100):
        ...     rate.answer(t * 10, "accepted")
        >>> rate.answer(1000, "throttled")
        >>> rate.rate_milli
        98000
        >>> rate.answer(1010, "throttled", sent_ms=990)  # sent before the cut at 1000
        >>> rate.rate_milli
        98000
        """
        if not isinstance(kind, str) or kind not in ANSWERS:
            kinds = ", ".join(repr(k) for k in ANSWERS)
            err = TypeError if not isinstance(kind, str) else ValueError
            raise err(f"kind must be one of {kinds}, got {show(kind)}")
        hint = integer("hint_ms", hint_ms)
        now = self._now(now_ms)
        sent = ffi.NULL if sent_ms is None else ffi.new("uint64_t *", u64("sent_ms", sent_ms))
        with self._lock:
            status = lib.sb_send_rate_answer(self._c, now, sent, ANSWERS[kind], hint)
        if status != lib.SB_OK:
            raise CoreError(status)

    async def wait_turn(self) -> Pace:
        """Waits (with asyncio.sleep, on the rate's clock) until an attempt may go: returns
        Pace('send', 0), or with `fail_fast` the first Pace('refuse', ms) at once."""
        while True:
            pace = self.ask()
            if pace.kind != "wait":
                return pace
            await asyncio.sleep(pace.ms / 1000)

    @property
    def rate_milli(self) -> int:
        """The allowed rate in thousandths of a request per second; 0 while off (no throttle yet)."""
        out = ffi.new("uint32_t *")
        with self._lock:
            status = lib.sb_send_rate_rate_milli(self._c, out)
        if status != lib.SB_OK:
            raise CoreError(status)
        return int(out[0])

    def __repr__(self) -> str:
        return f"<SendRate rate_milli={self.rate_milli}>"
