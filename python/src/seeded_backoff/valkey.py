"""Reconnect backoff for valkey-py and redis-py: `Retry(ReconnectBackoff(seed=...), -1)`.

Both libraries retry a failed connection or command through `Retry(backoff, retries)`, which calls
`backoff.reset()` at the start of each operation and `backoff.compute(failures)` before each retry
for the seconds to wait. Their default backoffs draw from Python's shared `random` module, so a
fleet of clients that lost the same server cannot be replayed, and some (NoBackoff, constant
backoffs) come back all at once. `ReconnectBackoff` steps one seeded Backoff of the core per
connection: the same seed gives the same waits as in every other language, and when the policy
gives up (by default after Google's 10 retries), `compute` raises RetryError, ending the
operation with it (chained to the connection error). Give `Retry` `retries=-1` so that the policy,
not the library's count, decides.

>>> b = ReconnectBackoff(seed=42)
>>> b.reset(); [b.compute(n) for n in (1, 2, 3)]
[1.616, 2.41, 4.38]
"""

from __future__ import annotations

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
        """A new operation: the schedule starts over (the random stream continues)."""
        self._backoff.reset()

    def compute(self, failures: int) -> float:
        """Seconds to wait before retry number `failures` (1, 2, ...): the core's next delay. Raises
        RetryError (reason 'max_retries' or 'deadline') when the policy gives up."""
        failures = integer("failures", failures, 0, 2**32 - 1)
        delay = self._backoff.next_delay()
        if delay is None:
            raise RetryError(failures, self._backoff.give_up_reason, None)
        if self._on_retry is not None:
            self._on_retry(failures, delay)
        return delay / 1000

    def __deepcopy__(self, memo: dict) -> "ReconnectBackoff":
        seed = self.seed if self._seeded else secrets.randbits(64)
        return ReconnectBackoff(self.policy, seed=seed, on_retry=self._on_retry)

    def __repr__(self) -> str:
        return f"<ReconnectBackoff seed={self.seed} retries={self._backoff.retries}>"
