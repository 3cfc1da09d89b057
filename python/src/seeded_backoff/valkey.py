"""Reconnect backoff for valkey-py and redis-py: `Retry(ReconnectBackoff(seed=...), -1)`.

Both libraries retry a failed command through `Retry(backoff, retries)`, which calls
`backoff.reset()` at the start of each operation and `backoff.compute(failures)` before each retry
for the seconds to wait. A command's retry reconnects through `connect()`, which runs its own
`call_with_retry` on the same Retry and so resets it in the middle of the outage: a backoff that
restarted there would never grow past its first delay. `ReconnectBackoff` therefore restarts its
schedule at an operation's first failure (`failures == 1`), and `reset()` changes nothing. Their default backoffs draw from Python's shared `random` module, so a
fleet of clients that lost the same server cannot be replayed, and some (NoBackoff, constant
backoffs) come back all at once. `ReconnectBackoff` steps one seeded Backoff of the core per
connection: the same seed gives the same waits as in every other language, and when the policy
gives up (by default after Google's 10 retries), `compute` raises RetryError, ending the
operation with it (chained to the connection error). Give `Retry` `retries=-1` so that the policy,
not the library's count, decides, and make the client with `single_connection_client=True`: a
pooled client reconnects in `ConnectionPool.get_connection`, outside any Retry, so a refused
reconnect there is raised to the caller at once.

>>> b = ReconnectBackoff(seed=42)
>>> [b.compute(n) for n in (1, 2, 3)]
[1.616, 2.41, 4.38]
"""

from __future__ import annotations

import copy
import secrets
from typing import Any, Callable, Optional

from ._check import integer, show
from .backoff import Backoff
from .errors import RetryError
from .policy import Policy

__all__ = ["ReconnectBackoff"]


class ReconnectBackoff:
    """A backoff for `valkey.retry.Retry` / `redis.retry.Retry` (`compute(failures)` and `reset()`).

    - `policy`: a Policy (default: Google's preset).
    - `seed`: the connection's seed; omitted, one is drawn. A connection pool copies its
      connections' Retry (copy.deepcopy): a copy starts over with the same seed when one was given
      (replayable), with a newly drawn one when not (so the pool's connections do not retry in step).
    - `on_retry(failures, delay_ms)`: told of each wait.
    """

    def __init__(self, policy: Optional[Policy] = None, *, seed: Optional[int] = None,
                 on_retry: Optional[Callable[[int, int], Any]] = None) -> None:
        if policy is None:
            policy = Policy("google")
        if on_retry is not None and not callable(on_retry):
            raise TypeError(f"on_retry must be callable, got {show(on_retry)}")
        self._seeded = seed is not None
        self._backoff = Backoff(policy, seed)
        self._on_retry = on_retry

    @property
    def seed(self) -> int:
        """This connection's seed."""
        return self._backoff.seed  # type: ignore[return-value]

    @property
    def policy(self) -> Policy:
        return self._backoff.policy

    def reset(self) -> None:
        """Called by Retry at the start of every operation, nested ones included: nothing to do
        (the schedule restarts at the first failure, see the module's notes)."""

    def compute(self, failures: int) -> float:
        """Seconds to wait before retry number `failures` (1, 2, ...): the core's next delay, the
        schedule starting over at `failures == 1` (the random stream continues). Raises RetryError
        (reason 'max_retries' or 'deadline') when the policy gives up."""
        failures = integer("failures", failures, 0, 2**32 - 1)
        if failures == 1:
            self._backoff.reset()
        delay = self._backoff.next_delay()
        if delay is None:
            raise RetryError(failures, self._backoff.give_up_reason, None)
        if self._on_retry is not None:
            self._on_retry(failures, delay)
        return delay / 1000

    def __deepcopy__(self, memo: dict) -> "ReconnectBackoff":
        # A fresh schedule; the callbacks (and a subclass's attributes) are shared, not copied.
        new = copy.copy(self)
        new._backoff = Backoff(self.policy, self.seed if self._seeded else secrets.randbits(64))
        return new

    def __repr__(self) -> str:
        return f"<ReconnectBackoff seed={self.seed} retries={self._backoff.retries}>"
