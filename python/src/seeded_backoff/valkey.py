"""Reconnect backoff for valkey-py and redis-py: `Retry(ReconnectBackoff(seed=...), -1)`.

Both libraries retry a failed command through `Retry(backoff, retries)`, which calls
`backoff.reset()` at the start of each operation and, inside its `except` clause, `backoff.compute(failures)`
before each retry for the seconds to wait. A command's retry reconnects through `connect()`, which
runs its own `call_with_retry` on the same Retry and so resets it in the middle of the outage: a
backoff that restarted there would never grow past its first delay. `ReconnectBackoff` therefore
starts a run of the core (`seeded_backoff.Run`) at an operation's first failure (`failures == 1`),
and `reset()` changes nothing; the run numbers the attempts, counts the time since that failure
against `max_elapsed_ms` and decides each wait. Their default backoffs draw from Python's shared
`random` module, so a fleet of clients that lost the same server cannot be replayed, and some
(NoBackoff, constant backoffs) come back all at once. `ReconnectBackoff`'s runs are seeded per
connection: outage i of a connection runs with `call_seed(seed, i)` (SPEC.md section 14, as the
tenacity adapter's calls do), the same waits as in every other language; when the run gives up
(by default after Google's 10 retries), `compute` raises RetryError, ending the operation with it
(chained to the connection error). Give `Retry` `retries=-1` so that the policy, not the library's count,
decides, and make the client with `single_connection_client=True`: a pooled client reconnects in
`ConnectionPool.get_connection`, outside any Retry, so a refused reconnect there is raised to the
caller at once.

>>> b = ReconnectBackoff(seed=42)
>>> [b.compute(n) for n in (1, 2, 3)]
[1.616, 2.41, 4.38]

With `send_rate=` (a `SendRate` shared by the clients of one server), every attempt of every
command waits for the rate, the first included, through `paced_retry(Retry(backoff, -1))`: a
backoff only hears of failures (Retry asks `compute` after one), so the gate is the Retry's own
loop, a subclass of the library's class (`valkey.retry.Retry`, `valkey.asyncio.retry.Retry`,
redis-py's) that sleeps time.sleep (asyncio.sleep) for the rate before each attempt and tells it
each answer: a reply, even an error reply, is accepted; a connection error or timeout (a refused
connect too) is no answer. Redis has no throttle reply: such a rate paces what the other loops
sharing it (HTTP ones) learnt. Each command is then a run from its first attempt: command i,
counted over the connections copied from one backoff, runs with `call_seed(seed, i)` (the
connect a client makes outside a command counts as one). The connection a retry re-opens is part
of that attempt; the retries of the connect itself (the library runs it on the same Retry) are
paced too. A fail-fast rate's refusal raises RetryError (reason 'throttled').

>>> from seeded_backoff.send_rate import SendRate
>>> class Retry:  # a stand-in for valkey.retry.Retry: what its loop reads
...     def __init__(self, backoff, retries):
...         self._backoff, self._retries, self._supported_errors = backoff, retries, (ConnectionError,)
...     def call_with_retry(self, do, fail):  # replaced by paced_retry's loop
...         raise NotImplementedError
>>> rate = SendRate(fail_fast=True)
>>> retry = paced_retry(Retry(ReconnectBackoff(seed=42, send_rate=rate), -1))
>>> retry.call_with_retry(lambda: "PONG", lambda error: None)
'PONG'
>>> rate.answer(None, "throttled", hint_ms=60_000)  # the next minute is refused
>>> retry.call_with_retry(lambda: "PONG", lambda error: None)
Traceback (most recent call last):
seeded_backoff.RetryError: gave up after 0 attempts (throttled); last: None
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import secrets
import sys
import time
from typing import Any, Callable, Dict, Iterator, Optional, Type, TypeVar, Union, cast

from ._adapt import Seeds, report, turns
from ._call import Call
from ._check import integer, show
from ._events import RetryEvent
from ._policy import Policy
from .send_rate import SendRate
from .shared import SharedSendRate
from ._transport import is_transport_error

__all__ = ["ReconnectBackoff", "paced_retry"]

R = TypeVar("R")
_UNPACED = "ReconnectBackoff(send_rate=...) paces only a Retry made by paced_retry(Retry(backoff, -1))"


class ReconnectBackoff:
    """A backoff for `valkey.retry.Retry` / `redis.retry.Retry` (`compute(failures)` and `reset()`).

    - `policy`: a Policy (default: Google's preset).
    - `seed`: the seed of this backoff's outages (outage i runs with `call_seed(seed, i)`);
      omitted, one is drawn. A client copies the Retry it is given into each of its connections
      (copy.deepcopy): the copies number their outages with the original, in the order the
      outages start, so connections made from one backoff never retry in step, and replay when
      their outages start in the same order.
    - `on_retry(event)`: told of each wait before it, with a `RetryEvent` (SPEC.md section 14:
      `attempt`, the failure's number in the operation, from 1; `delay_ms`; `error`, the
      connection error the library is handling).
    - `send_rate`: a SendRate shared by the clients of one server; give the client
      `paced_retry(Retry(backoff, -1))` (see the module's notes).
    """

    def __init__(self, policy: Optional[Policy] = None, *, seed: Optional[int] = None,
                 on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                 send_rate: Optional[Union[SendRate, SharedSendRate]] = None) -> None:
        if policy is None:
            policy = Policy("google")
        if on_retry is not None and not callable(on_retry):
            raise TypeError(f"on_retry must be callable, got {show(on_retry)}")
        self._seed = secrets.randbits(64) if seed is None else seed
        self._seeds = Seeds(policy, self._seed, send_rate)
        self._call: Optional[Call] = None
        self._on_retry = on_retry
        # paced_retry's loops under way on this connection: a nested one is a connect's.
        self._depth = 0

    @property
    def seed(self) -> int:
        """The seed of this backoff's outages (its copies' too)."""
        return self._seed

    @property
    def policy(self) -> Policy:
        return self._seeds.policy

    @property
    def send_rate(self) -> Optional[Union[SendRate, SharedSendRate]]:
        return self._seeds.send_rate

    def reset(self) -> None:
        """Called by Retry at the start of every operation, nested ones included: nothing to do
        (a run starts at the first failure, see the module's notes). Behind a send rate, only
        `paced_retry`'s loop may run this backoff: the library's own would skip the gate."""
        if self._seeds.send_rate is not None:
            raise TypeError(_UNPACED)

    def _command(self) -> Call:
        """Behind a send rate: the run of a command, begun now (its first attempt asks the rate)."""
        self._call = self._seeds.call()
        return self._call

    def compute(self, failures: int) -> float:
        """Seconds to wait before retry number `failures` (1, 2, ...): the run's next delay, a new
        run starting at `failures == 1`. Raises RetryError (reason 'max_retries' or 'deadline')
        when the run gives up."""
        failures = integer("failures", failures, 0, 2**32 - 1)
        # Retry calls compute inside its `except` clause: the error handled there is this failure's.
        error = sys.exc_info()[1]
        if self._seeds.send_rate is not None:
            # The command's run, begun by paced_retry's loop: a connect's failures are its attempt's.
            if self._call is None:
                raise TypeError(_UNPACED)
        elif failures == 1 or self._call is None:
            self._call = self._seeds.call()
        return self._call.next_delay({}, error, on_retry=self._on_retry) / 1000

    def __deepcopy__(self, memo: Dict[int, Any]) -> "ReconnectBackoff":
        # No outage under way; the outage counter, the callbacks (and a subclass's attributes) are
        # shared, not copied: the copies are one loop with the original (SPEC.md section 14).
        new = copy.copy(self)
        new._call = None
        new._depth = 0
        return new

    def __repr__(self) -> str:
        attempts = 0 if self._call is None else self._call.run.attempts
        return f"<ReconnectBackoff seed={self.seed} attempts={attempts}>"


class _Loop:
    """One `call_with_retry` of a paced Retry, as a context: what its sync and asyncio loops share.
    A nested loop (the connect a command's attempt makes; the backoff, one per connection, counts
    them) is part of the attempt: its first try is not gated, and the outcome is the command's."""

    __slots__ = ("backoff", "retries", "supported", "outer", "call", "failures")

    def __init__(self, retry: Any) -> None:
        self.backoff: ReconnectBackoff = retry._backoff
        self.retries: int = retry._retries
        self.supported: Any = retry._supported_errors
        self.outer = self.backoff._depth == 0
        self.call = self.backoff._command() if self.outer else self.backoff._call
        self.failures = 0

    def __enter__(self) -> "_Loop":
        self.backoff._depth += 1
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        """An error ends the command: a reply (an error reply too) is accepted; a connection error
        (the Retry's own, spent, or a refused connect, which valkey-py does not retry) is no answer,
        as a retryable failure without a hint."""
        self.backoff._depth -= 1
        if error is not None and self.outer and self.call is not None:
            report(self.call, error, True, isinstance(error, self.supported) or is_transport_error(error))

    def turns(self) -> Iterator[float]:
        """The sleeps before the next try: the send rate's, for an attempt."""
        if self.call is not None and (self.outer or self.failures):
            yield from turns(self.call)

    def done(self, result: R) -> R:
        """The command's reply: accepted."""
        if self.outer and self.call is not None:
            report(self.call, result, False, False)
        return result

    def delay(self) -> float:
        """Inside the `except` clause of a supported error (compute reads it there): the seconds
        before the retry; the error again once the Retry's own count is spent."""
        self.failures += 1
        if 0 <= self.retries < self.failures:
            raise  # noqa: PLE0704 (the error being handled)
        return self.backoff.compute(self.failures)


class _Paced:
    """The loop of `Retry.call_with_retry` (valkey-py 6.2, redis-py: its `_backoff`, `_retries`
    and `_supported_errors`) with the send rate's gate before each attempt."""

    __slots__ = ()
    _supported_errors: Any

    def call_with_retry(self, do: Callable[[], R], fail: Callable[[Exception], Any]) -> R:
        with _Loop(self) as loop:
            while True:
                for seconds in loop.turns():
                    time.sleep(seconds)
                try:
                    return loop.done(do())
                except self._supported_errors as error:
                    fail(error)
                    time.sleep(loop.delay())


class _PacedAsync:
    """`_Paced` for the asyncio Retry (`await do()`, `await fail(error)`, asyncio.sleep)."""

    __slots__ = ()
    _supported_errors: Any

    async def call_with_retry(self, do: Callable[[], Any], fail: Callable[[Exception], Any]) -> Any:
        with _Loop(self) as loop:
            while True:
                for seconds in loop.turns():
                    await asyncio.sleep(seconds)
                try:
                    return loop.done(await do())
                except self._supported_errors as error:
                    await fail(error)
                    await asyncio.sleep(loop.delay())


_PACED_CLASSES: Dict[type, type] = {}


def paced_retry(retry: R) -> R:
    """A copy of `retry` (a `valkey.retry.Retry`, `valkey.asyncio.retry.Retry` or redis-py's, over
    a `ReconnectBackoff` with a `send_rate`) whose loop waits for the rate before every attempt and
    tells it each answer (see the module's notes); an instance of a subclass of its class, so a
    client copies it into each connection as it copies any Retry. Anything else is a TypeError."""
    backoff = getattr(retry, "_backoff", None)
    if not isinstance(backoff, ReconnectBackoff) or backoff.send_rate is None:
        raise TypeError("paced_retry takes a Retry over a ReconnectBackoff with a send_rate, "
                        f"got {show(retry)}")
    base: Type[Any] = type(retry)
    if issubclass(base, (_Paced, _PacedAsync)):
        return retry
    cls = _PACED_CLASSES.get(base)
    if cls is None:
        mixin = _PacedAsync if inspect.iscoroutinefunction(base.call_with_retry) else _Paced
        cls = _PACED_CLASSES[base] = type(f"Paced{base.__name__}", (mixin, base), {"__module__": __name__})
    # A copy of its state (attributes and slots: the asyncio Retry has slots) in the subclass.
    paced: Any = object.__new__(cls)
    slots = [n for k in base.__mro__ for n in getattr(k, "__slots__", ())]
    names = list(getattr(retry, "__dict__", ())) + slots
    for name in names:
        if hasattr(retry, name):
            setattr(paced, name, getattr(retry, name))
    return cast(R, paced)
