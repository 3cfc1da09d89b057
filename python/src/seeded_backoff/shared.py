"""One retry budget, pacer or send rate for a whole fleet, kept in Valkey or Redis (SPEC.md
section 19). Each shared part wraps a local one of the same configuration (its state is the cold
start) and one key: every decision is the local part's own (the C library's), made on the state
the store holds at the store's TIME and written back by the library's compare-and-set script; a
decision waits for the store at most 50 ms, all round trips included, and is then made at once
from this process's own copy; one late reply costs that decision only, while a failure (a
refused or lost connection), LATE_LIMIT late decisions in a row or another configuration's value
make the process local: it decides alone and asks the store again REJOIN_MS (200 ms) later (it
then rejoins, with no burst, what it decided alone carried into the fleet's state). One decision of a part goes to the store at a time per process; another
waits its turn within the bound, else is made alone.

`SharedSendRate`, `SharedBudget` and `SharedPacer` take a sync client (`valkey.Valkey`,
`redis.Redis`) and answer as the local parts do, so `retry(send_rate=..., budget=...)` and
`Run`'s events take them as they take local ones. `AsyncSharedSendRate`, `AsyncSharedBudget` and
`AsyncSharedPacer` take an asyncio client (`valkey.asyncio.Valkey`) and their methods are
coroutines: `retry` around an `async def` awaits their decisions within its run's events (a plain
function refuses them by name; an `async def` also takes the sync ones, which hold the event loop
at most the bound per decision). Make the client with `decode_responses=False` (the default):
stored values are bytes.

    import valkey
    from seeded_backoff import retry
    from seeded_backoff.budget import RetryBudget
    from seeded_backoff.send_rate import SendRate
    from seeded_backoff.shared import SharedSendRate, SharedBudget

    store = valkey.Valkey(host="valkey.internal", socket_timeout=0.05)
    rate = SharedSendRate(store, "sb:send-rate:api.example.com", SendRate())
    budget = SharedBudget(store, "sb:budget:api.example.com", RetryBudget.aws_default())

    @retry(send_rate=rate, budget=budget)
    def call_api(): ...

`clock` (ms, monotonic; default time.monotonic) is the caller's clock a part reads when a method
is given no reading; `store_clock=False` decides at the caller's readings as given (a test's
virtual clock, or a clock the fleet already shares) instead of the store's TIME. `bound_ms`
(default 50, SPEC.md's bound) is the longest a decision waits for the store.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from ._check import show
from ._store_io import Shared
from ._store_link import LATE_LIMIT, MAX_TRIES, REJOIN_MS, STORE_BOUND_MS
from ._store_link import SCRIPT as CAS_SCRIPT
from .budget import RetryBudget
from .pacer import Pacer, PacerSlot
from .send_rate import Pace, SendRate

__all__ = ["SharedSendRate", "SharedBudget", "SharedPacer", "AsyncSharedSendRate", "AsyncSharedBudget",
           "AsyncSharedPacer", "CAS_SCRIPT", "STORE_BOUND_MS", "REJOIN_MS", "MAX_TRIES", "LATE_LIMIT"]

Clock = Optional[Callable[[], int]]
# What a retry loop's `send_rate` and `budget` take: local or shared parts (an asyncio shared one
# under an asyncio loop only).
AnySendRate = Union[SendRate, "SharedSendRate", "AsyncSharedSendRate"]
AnyBudget = Union[RetryBudget, "SharedBudget", "AsyncSharedBudget"]


def _part(name: str, value: Any, cls: type) -> Any:
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be a {cls.__name__}, got {show(value)} ({type(value).__name__})")
    return value


class _SendRateBase(Shared):
    _ctype = "sb_send_rate"

    def __init__(self, client: Any, key: str, send_rate: SendRate, *, clock: Clock = None,
                 store_clock: bool = True, bound_ms: Optional[int] = None) -> None:
        part = _part("send_rate", send_rate, SendRate)
        super().__init__(client, key, part, clock or part._clock, store_clock, bound_ms, self._asynchronous)

    _asynchronous = False

    def _sent(self, sent_ms: Optional[int]) -> Optional[int]:
        # A send time is on the caller's clock: moved onto the fleet's with the reading (§19.3).
        return None if sent_ms is None else self._link.fleet_ms(self._caller(sent_ms))

    @property
    def rate_milli(self) -> int:
        """The allowed rate in thousandths of a request per second, as this process last saw it."""
        return int(self._view(lambda r: r.rate_milli))


class SharedSendRate(_SendRateBase):
    """A send rate (SPEC.md section 17) shared by a fleet through `key` of a sync client.

    >>> import valkey
    >>> rate = SharedSendRate(valkey.Valkey(port=1), "sb:send-rate:doc", SendRate())
    >>> rate.ask(0)  # no store there: decided alone, at once
    Pace(kind='send', ms=0)
    >>> rate.link_state
    'local'
    """

    def ask(self, now_ms: Optional[int] = None) -> Pace:
        """`SendRate.ask`, on the fleet's state."""
        return self._decide(now_ms, lambda r, now: r.ask(now))  # type: ignore[no-any-return]

    def answer(self, now_ms: Optional[int], kind: str, hint_ms: int = 0, *, sent_ms: Optional[int] = None) -> None:
        """`SendRate.answer`, on the fleet's state."""
        sent = self._sent(sent_ms)
        self._decide(now_ms, lambda r, now: r.answer(now, kind, hint_ms, sent_ms=sent))


class AsyncSharedSendRate(_SendRateBase):
    """A send rate shared through `key` of an asyncio client: `await rate.ask()`."""

    _asynchronous = True

    async def ask(self, now_ms: Optional[int] = None) -> Pace:
        """`SendRate.ask`, on the fleet's state."""
        return await self._adecide(now_ms, lambda r, now: r.ask(now))  # type: ignore[no-any-return]

    async def answer(self, now_ms: Optional[int], kind: str, hint_ms: int = 0, *,
                     sent_ms: Optional[int] = None) -> None:
        """`SendRate.answer`, on the fleet's state."""
        sent = self._sent(sent_ms)
        await self._adecide(now_ms, lambda r, now: r.answer(now, kind, hint_ms, sent_ms=sent))


class _BudgetBase(Shared):
    _ctype = "sb_budget"
    _asynchronous = False

    def __init__(self, client: Any, key: str, budget: RetryBudget, *, clock: Clock = None,
                 bound_ms: Optional[int] = None) -> None:
        super().__init__(client, key, _part("budget", budget, RetryBudget), clock, False, bound_ms, self._asynchronous)

    @property
    def tokens_milli(self) -> int:
        """Tokens left, in thousandths, as this process last saw them."""
        return int(self._view(lambda b: b.tokens_milli))

    @property
    def tokens(self) -> float:
        """Tokens left, as this process last saw them."""
        return self.tokens_milli / 1000


class SharedBudget(_BudgetBase):
    """A retry budget (SPEC.md section 10) shared by a fleet through `key` of a sync client: a
    token is spent once across the fleet. A budget reads no time: `clock` only times the rejoin."""

    def record_failure(self, kind: str = "error") -> None:
        """`RetryBudget.record_failure`, on the fleet's state."""
        self._decide(None, lambda b, _: b.record_failure(kind))

    def try_acquire(self, kind: str = "error") -> bool:
        """`RetryBudget.try_acquire`, on the fleet's state."""
        return bool(self._decide(None, lambda b, _: b.try_acquire(kind)))

    def record_success(self, retried: bool = False, kind: str = "error") -> None:
        """`RetryBudget.record_success`, on the fleet's state."""
        self._decide(None, lambda b, _: b.record_success(retried, kind))


class AsyncSharedBudget(_BudgetBase):
    """A retry budget shared through `key` of an asyncio client."""

    _asynchronous = True

    async def record_failure(self, kind: str = "error") -> None:
        await self._adecide(None, lambda b, _: b.record_failure(kind))

    async def try_acquire(self, kind: str = "error") -> bool:
        return bool(await self._adecide(None, lambda b, _: b.try_acquire(kind)))

    async def record_success(self, retried: bool = False, kind: str = "error") -> None:
        await self._adecide(None, lambda b, _: b.record_success(retried, kind))


class _PacerBase(Shared):
    _ctype = "sb_pacer"
    _asynchronous = False

    def __init__(self, client: Any, key: str, pacer: Pacer, *, clock: Clock = None,
                 store_clock: bool = True, bound_ms: Optional[int] = None) -> None:
        super().__init__(client, key, _part("pacer", pacer, Pacer), clock, store_clock, bound_ms, self._asynchronous)


class SharedPacer(_PacerBase):
    """A server pacer (SPEC.md section 16) shared by a service's replicas through `key` of a sync
    client: one schedule, distinct slots. Replicas give the same configuration; the seed of the
    one that publishes first is the schedule's."""

    def assign(self, now_ms: Optional[int] = None) -> PacerSlot:
        """`Pacer.assign`, on the fleet's schedule."""
        return self._decide(now_ms, lambda p, now: p.assign(now))  # type: ignore[no-any-return]

    def pending(self, now_ms: Optional[int] = None) -> int:
        """`Pacer.pending`, on the fleet's schedule."""
        return int(self._decide(now_ms, lambda p, now: p.pending(now)))


class AsyncSharedPacer(_PacerBase):
    """A server pacer shared through `key` of an asyncio client."""

    _asynchronous = True

    async def assign(self, now_ms: Optional[int] = None) -> PacerSlot:
        return await self._adecide(now_ms, lambda p, now: p.assign(now))  # type: ignore[no-any-return]

    async def pending(self, now_ms: Optional[int] = None) -> int:
        return int(await self._adecide(now_ms, lambda p, now: p.pending(now)))
