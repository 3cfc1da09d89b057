"""Call: one call's run of the core (SPEC.md section 15) as every loop of this package holds it.

The loops (`retry`, the Google `Retry`, the tenacity, stamina and Valkey adapters) differ in who
calls and sleeps; each reads the outcome of an attempt (its class and server hint) and reports it
here, and the run decides the rest: attempt numbers, the time since the call began, the budget's
charge and refund, each delay, the give-up. This only turns the loop's clock into the run's
monotonic milliseconds and keeps the run's last answer. With a shared send rate (SPEC.md section
15.2) the run gates every attempt, the first included, and is told every answer; the loop only
sleeps the waits it answers.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Dict, NoReturn, Optional, Tuple, Type, Union, cast

from ._check import show
from ._ffi import U64_MAX, ffi, lib
from ._errors import CoreError, RetryError
from ._events import RetryEvent
from ._run import Action, Run
from ._store_event import Steps, drive, drive_async, sync_part
from .send_rate import ANSWERS, SendRate
from .shared import AnyBudget, AnySendRate, AsyncSharedSendRate, SharedSendRate

Clock = Callable[[], float]
# What the loop knows of a response, for the send rate: ('accepted' | 'throttled', hint_ms).
Answer = Optional[Tuple[str, int]]


def answer_of(status: Optional[int], hint: Optional[Dict[str, Any]]) -> Answer:
    """The send rate's answer a response of HTTP `status` with the server hint `hint` (Run.outcome's
    keywords) denotes, as the core reads it (SPEC.md section 17.3, `sb_answer_from_http`). None
    without an HTTP status (an error that is no response): the run then tells the outcome's own
    answer."""
    if status is None or not 0 <= status <= 0xFFFF:
        return None
    hint = hint or {}
    flag, ms = 0, 0
    if hint.get("retry_after_ms") is not None:
        flag, ms = lib.SB_INPUT_RETRY_AFTER, hint["retry_after_ms"]
    elif hint.get("rate_limit_ms") is not None:
        flag, ms = lib.SB_INPUT_RATE_LIMIT, hint["rate_limit_ms"]
    elif hint.get("do_not_retry"):
        flag = lib.SB_INPUT_DO_NOT_RETRY
    kind, hint_ms = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    code = lib.sb_answer_from_http(status, flag, ms, kind, hint_ms)
    if code != lib.SB_OK:
        raise CoreError(code)
    return (_ANSWER_NAMES[kind[0]], hint_ms[0])


_ANSWER_NAMES = {code: name for name, code in ANSWERS.items()}


def any_rate(send_rate: Any) -> Optional[AnySendRate]:
    """`send_rate` when it is a SendRate, a shared one or None; anything else is a TypeError
    naming it."""
    if send_rate is not None and not isinstance(send_rate, (SendRate, SharedSendRate, AsyncSharedSendRate)):
        raise TypeError(f"send_rate must be a SendRate, got {show(send_rate)} ({type(send_rate).__name__})")
    return send_rate


def checked_rate(send_rate: Any) -> Optional[Union[SendRate, SharedSendRate]]:
    """`any_rate` for a sync loop: one over an asyncio client is a TypeError naming it."""
    sync_part("send_rate", any_rate(send_rate))
    return cast(Optional[Union[SendRate, SharedSendRate]], send_rate)


class Call:
    """The run of one call, begun now by `clock` (monotonic seconds). `action` is the run's last
    answer: 'attempt', then after each failure 'retry' or 'give_up', after a success 'done'; behind
    a `send_rate`, also 'wait' (or 'give_up') before an attempt: see `turn`.

    Each event is written once as steps (`Steps`): the sync methods make them with `drive`, an
    asyncio loop with `drive_async` (`astart`, `awoke`, `afailed`, `asucceeded`, `anext_delay`),
    which awaits the decisions of shared parts over an asyncio client. `start=False` leaves the
    run unbegun for `astart`."""

    __slots__ = ("run", "action", "_clock", "_origin", "_rate", "_last")

    def __init__(self, run: Run, clock: Clock = time.monotonic, send_rate: Optional[AnySendRate] = None,
                 start: bool = True) -> None:
        if start:
            checked_rate(send_rate)
        else:  # an asyncio loop's call (`astart`): it awaits a part over an asyncio client
            any_rate(send_rate)
        self.run = run
        self._clock = clock
        self._rate = send_rate
        self._last: Any = None
        # One send rate serves many calls, so their readings share one scale: the clock's own ms
        # (time.monotonic's, as the SendRate's default clock), not ms since this call began.
        self._origin = 0.0 if send_rate is not None else self._read()
        self.action: Action = drive(self._start()) if start else Action("attempt")

    def _start(self) -> "Steps[Action]":
        self.action = yield from self.run._start(0 if self._rate is None else self.now_ms(), self._rate)
        return self.action

    async def astart(self) -> Action:
        """Begins the run of a Call made with start=False, in an asyncio loop."""
        return await drive_async(self._start())

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
        return min(U64_MAX, max(0, int(ms)))

    def woke(self, now_ms: Optional[int] = None) -> None:
        """The sleep of a retry or a wait has ended: the next attempt begins, or behind the send
        rate a 'wait' or a 'give_up' (`turn`)."""
        drive(self._woke(now_ms))

    async def awoke(self, now_ms: Optional[int] = None) -> None:
        """`woke` in an asyncio loop."""
        await drive_async(self._woke(now_ms))

    def _woke(self, now_ms: Optional[int]) -> "Steps[None]":
        self.action = yield from self.run._wake(self.now_ms() if now_ms is None else now_ms, self._rate)

    def turn(self, give_up: Type[RetryError] = RetryError) -> Optional[int]:
        """Before an attempt: None when it may go, else the ms the send rate says to wait (sleep
        them, then `woke`). Raises `give_up(attempts, reason, last error)` when the run gave up
        before the attempt ('throttled' with a fail-fast send rate, or 'deadline': the wait would
        pass max_elapsed_ms); its cause is None when no attempt was made."""
        if self.action.kind == "wait" and self.action.delay_ms is not None:
            return self.action.delay_ms
        if self.action.kind == "give_up":
            _stop(give_up, self.action, self._last)
        return None

    def _told(self, answer: Answer) -> Dict[str, Any]:
        """Run.outcome's send-rate keywords: the rate, and the loop's answer when it has one."""
        if self._rate is None:
            return {}
        if answer is None:
            return {"send_rate": self._rate}
        return {"send_rate": self._rate, "answer": answer[0], "answer_hint_ms": answer[1]}

    def _in_flight(self, now_ms: Optional[int]) -> "Steps[Optional[int]]":
        """The clock reading for an outcome, after the wake a loop that does not sleep itself (an
        adapter: the library sleeps) did not report; None once the run has finished."""
        now = self.now_ms() if now_ms is None else now_ms
        if self.action.kind == "retry":
            yield from self._woke(now)
        return now if self.action.kind == "attempt" else None

    def _outcome(self, outcome: str, now: int, budget: Optional[AnyBudget], answer: Answer,
                 **hint: Any) -> "Steps[Action]":
        self.action = yield from self.run._outcome(outcome, now, budget=budget, **hint, **self._told(answer))
        return self.action

    def failed(self, hint: Optional[Dict[str, Any]], now_ms: Optional[int] = None, *,
               budget: Optional[AnyBudget] = None, failure_kind: str = "error", answer: Answer = None,
               error: Any = None) -> Action:
        """The attempt in flight failed: worth a retry, with `hint` (`Run.outcome`'s hint keywords,
        {} for none), or not worth one (None). `answer` is the send rate's (`answer_of`), None
        for the outcome's own; `error` (what the attempt raised or returned, when given) is the
        cause of a give-up before the next attempt (`turn`). Returns the run's 'retry' or
        'give_up' (once given up, the same answer again)."""
        return drive(self._failed(hint, now_ms, budget, failure_kind, answer, error))

    async def afailed(self, hint: Optional[Dict[str, Any]], now_ms: Optional[int] = None, *,
                      budget: Optional[AnyBudget] = None, failure_kind: str = "error", answer: Answer = None,
                      error: Any = None) -> Action:
        """`failed` in an asyncio loop."""
        return await drive_async(self._failed(hint, now_ms, budget, failure_kind, answer, error))

    def _failed(self, hint: Optional[Dict[str, Any]], now_ms: Optional[int], budget: Optional[AnyBudget],
                failure_kind: str, answer: Answer, error: Any) -> "Steps[Action]":
        if error is not None:
            self._last = error
        now = yield from self._in_flight(now_ms)
        if now is None:
            return self.action
        if hint is None:
            return (yield from self._outcome("permanent", now, None, answer))
        return (yield from self._outcome("retryable", now, budget, answer, failure_kind=failure_kind, **hint))

    def succeeded(self, now_ms: Optional[int] = None, *, budget: Optional[AnyBudget] = None,
                  answer: Answer = None) -> Action:
        """The attempt in flight succeeded: the budget's success is recorded by the run's rules,
        the send rate told `answer` (None: the outcome's own, 'accepted')."""
        return drive(self._succeeded(now_ms, budget, answer))

    async def asucceeded(self, now_ms: Optional[int] = None, *, budget: Optional[AnyBudget] = None,
                         answer: Answer = None) -> Action:
        """`succeeded` in an asyncio loop."""
        return await drive_async(self._succeeded(now_ms, budget, answer))

    def _succeeded(self, now_ms: Optional[int], budget: Optional[AnyBudget], answer: Answer) -> "Steps[Action]":
        now = yield from self._in_flight(now_ms)
        if now is not None:
            yield from self._outcome("success", now, budget, answer)
        return self.action

    def next_delay(self, hint: Dict[str, Any], error: Any, *, budget: Optional[AnyBudget] = None,
                   failure_kind: str = "error", on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                   give_up: Type[RetryError] = RetryError, answer: Answer = None) -> int:
        """The attempt in flight failed with `error` (raised or returned), worth a retry with
        `hint`: the delay in ms before the next attempt, after telling `on_retry` of it (SPEC.md
        section 14's event); when the run gives up, raises `give_up(attempts, reason, error)`,
        from `error` when it is an exception."""
        return drive(self._next_delay(hint, error, budget, failure_kind, on_retry, give_up, answer))

    async def anext_delay(self, hint: Dict[str, Any], error: Any, *, budget: Optional[AnyBudget] = None,
                          failure_kind: str = "error", on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                          give_up: Type[RetryError] = RetryError, answer: Answer = None) -> int:
        """`next_delay` in an asyncio loop."""
        return await drive_async(self._next_delay(hint, error, budget, failure_kind, on_retry, give_up, answer))

    def _next_delay(self, hint: Dict[str, Any], error: Any, budget: Optional[AnyBudget], failure_kind: str,
                    on_retry: Optional[Callable[[RetryEvent], Any]], give_up: Type[RetryError],
                    answer: Answer) -> "Steps[int]":
        self._last = error
        action = yield from self._failed(hint, None, budget, failure_kind, answer, None)
        if action.kind != "retry" or action.delay_ms is None:
            _stop(give_up, action, error)
        if on_retry is not None:
            on_retry(RetryEvent(attempt=action.attempt, delay_ms=action.delay_ms, error=error))
        return action.delay_ms


def _stop(give_up: Type[RetryError], action: Action, error: Any) -> NoReturn:
    """Raises the give-up error of `action`, from `error` when it is an exception."""
    stop = give_up(action.attempt, action.reason, error)
    if isinstance(error, BaseException):
        raise stop from error
    raise stop
