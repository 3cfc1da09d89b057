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
"""

from __future__ import annotations

import copy
import secrets
import sys
from typing import Any, Callable, Dict, Optional

from ._adapt import Seeds
from ._call import Call
from ._check import integer, show
from .events import RetryEvent
from .policy import Policy

__all__ = ["ReconnectBackoff"]


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
    """

    def __init__(self, policy: Optional[Policy] = None, *, seed: Optional[int] = None,
                 on_retry: Optional[Callable[[RetryEvent], Any]] = None) -> None:
        if policy is None:
            policy = Policy("google")
        if on_retry is not None and not callable(on_retry):
            raise TypeError(f"on_retry must be callable, got {show(on_retry)}")
        self._seed = secrets.randbits(64) if seed is None else seed
        self._seeds = Seeds(policy, self._seed)
        self._call: Optional[Call] = None
        self._on_retry = on_retry

    @property
    def seed(self) -> int:
        """The seed of this backoff's outages (its copies' too)."""
        return self._seed

    @property
    def policy(self) -> Policy:
        return self._seeds.policy

    def reset(self) -> None:
        """Called by Retry at the start of every operation, nested ones included: nothing to do
        (a run starts at the first failure, see the module's notes)."""

    def compute(self, failures: int) -> float:
        """Seconds to wait before retry number `failures` (1, 2, ...): the run's next delay, a new
        run starting at `failures == 1`. Raises RetryError (reason 'max_retries' or 'deadline')
        when the run gives up."""
        failures = integer("failures", failures, 0, 2**32 - 1)
        # Retry calls compute inside its `except` clause: the error handled there is this failure's.
        error = sys.exc_info()[1]
        if failures == 1 or self._call is None:
            self._call = self._seeds.call()
        return self._call.next_delay({}, error, on_retry=self._on_retry) / 1000

    def __deepcopy__(self, memo: Dict[int, Any]) -> "ReconnectBackoff":
        # No outage under way; the outage counter, the callbacks (and a subclass's attributes) are
        # shared, not copied: the copies are one loop with the original (SPEC.md section 14).
        new = copy.copy(self)
        new._call = None
        return new

    def __repr__(self) -> str:
        attempts = 0 if self._call is None else self._call.run.attempts
        return f"<ReconnectBackoff seed={self.seed} attempts={attempts}>"
