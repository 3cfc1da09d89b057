"""stamina 26 with this package's schedules, through the one place stamina takes a custom
backoff: its `on=` hook, which may return the next wait (a float in seconds) instead of True.

stamina's own `wait_initial`/`wait_max`/`wait_jitter`/`wait_exp_base` cannot express a seeded
schedule: stamina draws the jitter from the `random` module's global generator
(`random.uniform(0, wait_jitter)` in `_compute_backoff`, stamina 26.1.0) and adds it before the
cap, which is Google's formula with a generator nobody can seed per call. The `on=` hook is
called with the exception alone (no attempt number, no call state), so a hook holds one call's
schedule: make one per call, with `stamina.retry_context` (a hook given to the `@stamina.retry`
decorator is shared by every call of the function, whose schedules then run on from each other).
Pass `attempts=None, timeout=None` to let the policy decide when to give up (stamina otherwise
also stops after 10 attempts or 45 s). stamina's test mode (`stamina.set_testing`) turns every
wait, this one included, into 0.

>>> from seeded_backoff import Policy
>>> hook = backoff_hook(Policy("google", max_retries=2), seed=42)
>>> hook(ConnectionError("reset")), hook(ConnectionError("reset")), hook(ConnectionError("reset"))
(1.616, 2.41, False)
"""

from __future__ import annotations

import time
from typing import Optional, Union

from ._adapt import Seeds, exceptions, next_delay, should_retry
from .backoff import Backoff
from .policy import Policy

__all__ = ["backoff_hook", "BackoffHook"]


class BackoffHook:
    """An `on=` hook for stamina: False (stop) for an error not worth retrying or once the core
    gives up, else the core's next delay in seconds. Its `.backoff` is the schedule's state."""

    __slots__ = ("_retry_on", "_start", "backoff")

    def __init__(self, policy: Policy, seed: Optional[int] = None, *, retry_on=Exception) -> None:
        self._retry_on = exceptions("retry_on", retry_on)
        self.backoff: Backoff = Seeds(policy, seed).backoff()
        # The hook is made when the call starts; the time since counts against max_elapsed_ms.
        self._start = time.monotonic()

    def __call__(self, exc: BaseException) -> Union[bool, float]:
        if not should_retry(exc, True, self._retry_on):
            return False
        delay = next_delay(self.backoff, exc, True, time.monotonic() - self._start)
        return False if delay is None else delay / 1000


def backoff_hook(policy: Policy, seed: Optional[int] = None, *, retry_on=Exception) -> BackoffHook:
    """A `BackoffHook` for one call: retries the errors of `retry_on` and errors carrying a response
    with a status the core retries (429, 5xx; never another status), waiting the core's delays
    with the response's Retry-After or rate-limit hint."""
    return BackoffHook(policy, seed, retry_on=retry_on)
