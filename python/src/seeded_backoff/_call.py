"""Call: one call's run of the core (SPEC.md section 15) as every loop of this package holds it.

The loops (`retry`, the Google `Retry`, the tenacity, stamina and Valkey adapters) differ in who
calls and sleeps; each reads the outcome of an attempt (its class and server hint) and reports it
here, and the run decides the rest: attempt numbers, the time since the call began, the budget's
charge and refund, each delay, the give-up. This only turns the loop's clock into the run's
monotonic milliseconds and keeps the run's last answer.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Dict, Optional, Type

from ._check import show
from ._ffi import U64_MAX
from .budget import RetryBudget
from .errors import RetryError
from .events import RetryEvent
from .run import Action, Run

Clock = Callable[[], float]


class Call:
    """The run of one call, begun now by `clock` (monotonic seconds). `action` is the run's last
    answer: 'attempt', then after each failure 'retry' or 'give_up', after a success 'done'."""

    __slots__ = ("run", "action", "_clock", "_origin")

    def __init__(self, run: Run, clock: Clock = time.monotonic) -> None:
        self.run = run
        self._clock = clock
        self._origin = self._read()
        self.action: Action = run.start(0)

    def _read(self) -> float:
        now = self._clock()
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            raise TypeError(f"clock() must return seconds (an int or float), got {show(now)}")
        return now

    def now_ms(self) -> int:
        """Milliseconds since the call began. The core saturates a clock that ran past u64 ms; a
        clock without a finite reading is refused by name rather than left to overflow in int()."""
        now = self._read()
        ms = (now - self._origin) * 1000
        if isinstance(ms, float) and not math.isfinite(ms):
            raise ValueError(f"clock() must return finite seconds, got {show(now)} after {show(self._origin)}")
        return min(U64_MAX - 1, max(0, int(ms)))

    def woke(self, now_ms: Optional[int] = None) -> None:
        """The sleep of a retry has ended: the next attempt begins."""
        self.action = self.run.wake(self.now_ms() if now_ms is None else now_ms)

    def _in_flight(self, now_ms: Optional[int]) -> Optional[int]:
        """The clock reading for an outcome, after the wake a loop that does not sleep itself (an
        adapter: the library sleeps) did not report; None once the run has finished."""
        now = self.now_ms() if now_ms is None else now_ms
        if self.action.kind == "retry":
            self.woke(now)
        return now if self.action.kind == "attempt" else None

    def failed(self, hint: Optional[Dict[str, Any]], now_ms: Optional[int] = None, *,
               budget: Optional[RetryBudget] = None, failure: str = "error") -> Action:
        """The attempt in flight failed: worth a retry, with `hint` (`Run.outcome`'s hint keywords,
        {} for none), or not worth one (None). Returns the run's 'retry' or 'give_up' (once given
        up, the same answer again)."""
        now = self._in_flight(now_ms)
        if now is None:
            return self.action
        if hint is None:
            self.action = self.run.outcome("permanent", now)
        else:
            self.action = self.run.outcome("retryable", now, budget=budget, failure=failure, **hint)
        return self.action

    def succeeded(self, now_ms: Optional[int] = None, *, budget: Optional[RetryBudget] = None) -> Action:
        """The attempt in flight succeeded: the budget's success is recorded by the run's rules."""
        now = self._in_flight(now_ms)
        if now is not None:
            self.action = self.run.outcome("success", now, budget=budget)
        return self.action

    def next_delay(self, hint: Dict[str, Any], error: Any, *, budget: Optional[RetryBudget] = None,
                   failure: str = "error", on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                   give_up: Type[RetryError] = RetryError) -> int:
        """The attempt in flight failed with `error` (raised or returned), worth a retry with
        `hint`: the delay in ms before the next attempt, after telling `on_retry` of it (SPEC.md
        section 14's event); when the run gives up, raises `give_up(attempts, reason, error)`,
        from `error` when it is an exception."""
        action = self.failed(hint, budget=budget, failure=failure)
        if action.kind != "retry" or action.delay_ms is None:
            stop = give_up(action.attempt, action.reason, error)
            if isinstance(error, BaseException):
                raise stop from error
            raise stop
        if on_retry is not None:
            on_retry(RetryEvent(attempt=action.attempt, delay_ms=action.delay_ms, error=error))
        return action.delay_ms
