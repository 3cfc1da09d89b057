"""The C run's events made as decisions of the shared parts they touch (SPEC.md section 19),
written once for sync and asyncio loops: a loop's step yields the `Event` it needs, `drive` makes
it by `run_event`, `drive_async` by `run_event_async`, which awaits an asyncio part's decisions."""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Generator, NamedTuple, Optional, TypeVar

from ._ffi import ffi
from ._store_io import Shared

__all__ = ["run_event", "run_event_async", "Event", "Steps", "drive", "drive_async", "sync_part", "async_parts"]


def sync_part(name: str, part: Any) -> None:
    """Refuses an asyncio shared part (its methods are coroutines) given to a sync loop."""
    if isinstance(part, Shared) and part._asynchronous:
        kind = type(part).__name__
        raise TypeError(f"{name} is an {kind}, over an asyncio client: a sync loop takes a "
                        f"{kind[len('Async'):]} (over a sync client); an asyncio loop (an async def under retry()) "
                        "takes this one")


def async_parts(budget: Any, rate: Any) -> None:
    """Refuses a sync shared send rate beside an asyncio shared budget: the budget's decision is
    made within the send rate's, which a sync client's cannot await."""
    if isinstance(rate, Shared) and not rate._asynchronous and isinstance(budget, Shared) and budget._asynchronous:
        raise TypeError(f"send_rate is a {type(rate).__name__} and budget an {type(budget).__name__}: "
                        "give both shared parts over clients of one kind (AsyncSharedSendRate with AsyncSharedBudget)")


class _Tries:
    """One C run event `fn(c_budget, c_rate, now_ms)` across its tries: each shared part it touches
    makes it as one of its decisions (made again on a conflict). Each try starts from the run's and
    the local parts' state before the event: the previous try's change is undone, unless another
    task moved the local part since (an asyncio event, whose locks are held only within a try: that
    move, and the earlier try in it, stand). With both parts shared, the budget's decision is made
    once, within the send rate's first try; a try after a conflict on the rate's key replays the
    event on the budget's state that decision was made on, and writes no budget again."""

    def __init__(self, run_c: Any, budget: Any, rate: Any, fn: Callable[[Any, Any, Optional[int]], int],
                 lock_each_try: bool) -> None:
        self.fn, self.budget = fn, budget
        parts = [p for p in (budget, rate) if p is not None and not isinstance(p, Shared)]
        self.local = [c for c in (run_c, *(p._c for p in parts)) if c is not None]
        self.locks = [p._lock for p in parts] if lock_each_try else []
        self.last: "dict[int, tuple[bytes, bytes]]" = {}
        self.made: Optional[bytes] = None
        self.trying = b""

    def once(self, c_budget: Any, c_rate: Any, rate_state: Optional[bytes], now: Optional[int]) -> int:
        with contextlib.ExitStack() as stack:
            for lock in self.locks:
                stack.enter_context(lock)
            before = []
            for i, c in enumerate(self.local):
                state = bytes(ffi.buffer(c))
                if i in self.last and state == self.last[i][1]:
                    ffi.memmove(c, self.last[i][0], len(state))
                    state = self.last[i][0]
                before.append(state)
            if rate_state is not None:
                ffi.memmove(c_rate, rate_state, len(rate_state))
            status = self.fn(c_budget, c_rate, now)
            self.last = {i: (before[i], bytes(ffi.buffer(c))) for i, c in enumerate(self.local)}
            return status

    def with_budget(self, c_rate: Any, rate_state: Optional[bytes], now: Optional[int]) -> Any:
        """A try on the send rate's state `c_rate`: its status, or an awaitable of it when the
        budget's asyncio decision is made in it."""
        budget = self.budget
        if budget is None:
            return self.once(ffi.NULL, c_rate, rate_state, now)
        if not isinstance(budget, Shared):
            return self.once(budget._c, c_rate, rate_state, now)
        if self.made is not None:
            return self.once(budget._link.kind.struct(self.made), c_rate, rate_state, now)

        def decide(c: Any, _now: Optional[int]) -> int:
            self.trying = bytes(ffi.buffer(c))
            return self.once(c, c_rate, rate_state, now)

        if not budget._asynchronous:
            status = int(budget._event(None, decide))
            self.made = self.trying
            return status

        async def nested() -> int:
            status = int(await budget._aevent(None, decide))
            self.made = self.trying
            return status
        return nested()


def run_event(run_c: Any, now_ms: Optional[int], budget: Any, rate: Any,
              fn: Callable[[Any, Any, Optional[int]], int]) -> int:
    """`fn(c_budget, c_rate, now_ms)`, a C run event, with each part local (under its lock, held
    for the whole event) or shared over a sync client (`_Tries`). With a shared send rate the
    event reads the fleet's clock."""
    sync_part("budget", budget)
    sync_part("send_rate", rate)
    tries = _Tries(run_c, budget, rate, fn, lock_each_try=False)
    with contextlib.ExitStack() as locks:
        for part in (budget, rate):
            if part is not None and not isinstance(part, Shared):
                locks.enter_context(part._lock)
        if rate is None:
            return int(tries.with_budget(ffi.NULL, None, now_ms))
        if isinstance(rate, Shared):
            return int(rate._event(now_ms, lambda c, now: tries.with_budget(c, bytes(ffi.buffer(c)), now)))
        return int(tries.with_budget(rate._c, None, now_ms))


async def run_event_async(run_c: Any, now_ms: Optional[int], budget: Any, rate: Any,
                          fn: Callable[[Any, Any, Optional[int]], int]) -> int:
    """`run_event` for an asyncio loop: an asyncio shared part's decisions are awaited, by the same
    rule (`_Tries`); a local part's lock is held within each try only (never across an await).
    Without an asyncio part it is `run_event` (a sync shared part holds the loop at most the bound
    per decision, as it does outside a retry loop)."""
    if not any(isinstance(p, Shared) and p._asynchronous for p in (budget, rate)):
        return run_event(run_c, now_ms, budget, rate, fn)
    async_parts(budget, rate)
    tries = _Tries(run_c, budget, rate, fn, lock_each_try=True)
    if isinstance(rate, Shared):
        return int(await rate._aevent(now_ms, lambda c, now: tries.with_budget(c, bytes(ffi.buffer(c)), now)))
    # Only the budget is an asyncio part: its decision is the event.
    status = tries.with_budget(ffi.NULL if rate is None else rate._c, None, now_ms)
    return int(await status)


class Event(NamedTuple):
    """A C run event a loop's step asks for: `run_event`'s arguments."""

    run_c: Any
    now_ms: Optional[int]
    budget: Any
    rate: Any
    fn: Callable[[Any, Any, Optional[int]], int]


T = TypeVar("T")
# A step of a loop written once for sync and asyncio loops: it yields the events it needs made and
# is sent each one's status.
Steps = Generator[Event, int, T]


def drive(steps: "Steps[T]") -> T:
    """Runs `steps` in a sync loop: each event by `run_event`."""
    try:
        event = next(steps)
        while True:
            event = steps.send(run_event(*event))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def drive_async(steps: "Steps[T]") -> T:
    """Runs `steps` in an asyncio loop: each event by `run_event_async`."""
    try:
        event = next(steps)
        while True:
            event = steps.send(await run_event_async(*event))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
