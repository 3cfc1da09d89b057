"""tenacity 9 with this package's schedules: `seeded(policy, seed)` gives the `wait`, `stop` and
`retry` arguments of `tenacity.retry` / `Retrying` / `AsyncRetrying`.

tenacity asks its `wait` for each delay with the call's `RetryCallState` (one per call), so each
call steps its own seeded `Backoff`: call i (in the order the calls first fail) uses
`call_seed(seed, i)` (SPEC.md section 14), so calls made together retry apart.
The delay is the core's, with the `Retry-After` (or a 429's rate-limit headers) of the response
the attempt returned or its error carries (`requests.HTTPError`, `httpx.HTTPStatusError`), and the
time since the call started counted against `max_elapsed_ms`. tenacity runs `wait` before `stop`,
so when the core gives up, `stop` ends the loop (tenacity raises its `RetryError`, or the last
error with `reraise=True`).

>>> import tenacity
>>> from seeded_backoff import Policy
>>> calls = []
>>> @tenacity.retry(**seeded(Policy("google"), seed=42), sleep=calls.append)
... def flaky():
...     if len(calls) < 2:
...         raise ConnectionError("reset")
...     return "ok"
>>> flaky(), calls
('ok', [1.616, 2.41])
"""

from __future__ import annotations

import weakref
from typing import Any, Dict, Optional

import tenacity
from tenacity.retry import retry_base
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ._adapt import Seeds, exceptions, next_delay, should_retry
from .backoff import Backoff
from .policy import Policy

__all__ = ["seeded", "wait_seeded"]


class wait_seeded(wait_base):  # noqa: N801 (tenacity's naming)
    """A tenacity `wait`: each call's delays from its own seeded `Backoff`, in seconds. Its
    `.stop` stops the call once the core has given up; `.backoff(retry_state)` is the call's
    state (None before its first failure)."""

    def __init__(self, policy: Policy, seed: Optional[int] = None) -> None:
        self._seeds = Seeds(policy, seed)
        # Keyed by the call's RetryCallState, so a finished call's state goes with it.
        self._calls: "weakref.WeakKeyDictionary[Any, Backoff]" = weakref.WeakKeyDictionary()
        self.stop = _stop_gave_up(self)

    def backoff(self, retry_state: tenacity.RetryCallState) -> Optional[Backoff]:
        return self._calls.get(retry_state)

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        backoff = self._calls.get(retry_state)
        if backoff is None:
            backoff = self._calls[retry_state] = self._seeds.backoff()
        outcome = retry_state.outcome
        raised = outcome is not None and outcome.failed
        value = None if outcome is None else outcome.exception() if raised else outcome.result()
        elapsed = None
        if retry_state.outcome_timestamp is not None:
            elapsed = retry_state.outcome_timestamp - retry_state.start_time
        delay = next_delay(backoff, value, raised, elapsed)
        return 0.0 if delay is None else delay / 1000


class _stop_gave_up(stop_base):  # noqa: N801
    def __init__(self, wait: wait_seeded) -> None:
        self._wait = wait

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        backoff = self._wait.backoff(retry_state)
        return backoff is not None and backoff.give_up_reason is not None


class _retry_classified(retry_base):  # noqa: N801
    def __init__(self, retry_on) -> None:
        self._retry_on = exceptions("retry_on", retry_on)

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        outcome = retry_state.outcome
        if outcome is None:
            return False
        if outcome.failed:
            return should_retry(outcome.exception(), True, self._retry_on)
        return should_retry(outcome.result(), False, self._retry_on)


def seeded(policy: Policy, seed: Optional[int] = None, *, retry_on=Exception) -> Dict[str, Any]:
    """`wait`, `stop` and `retry` for tenacity: retry the errors of `retry_on` and responses with a
    status the core retries (429, 5xx, returned or carried by the error), never another status;
    wait the core's delays; stop when it gives up. Pass them as `tenacity.retry(**seeded(...))`,
    or take `wait_seeded` alone and its `.stop` to combine with your own."""
    wait = wait_seeded(policy, seed)
    return {"wait": wait, "stop": wait.stop, "retry": _retry_classified(retry_on)}
