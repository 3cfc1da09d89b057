"""tenacity 9 with this package's schedules: `seeded(policy, seed)` gives the `wait`, `stop` and
`retry` arguments of `tenacity.retry` / `Retrying` / `AsyncRetrying`.

tenacity asks its `wait` for each delay with the call's `RetryCallState` (one per call), so each
call is its own run of the core (`seeded_backoff.Run`), seeded: call i (in the order the calls
first fail) uses `call_seed(seed, i)` (SPEC.md section 14), so calls made together retry apart. The run numbers the attempts and decides each delay, with the
`Retry-After` (or a 429's rate-limit headers) of the response the attempt returned or its error
carries (`requests.HTTPError`, `httpx.HTTPStatusError`), and the time since the call started (by
tenacity's clock) counted against `max_elapsed_ms`. tenacity runs `wait` before `stop`, so when
the run gives up, `stop` ends the loop (tenacity raises its `RetryError`, or the last error with
`reraise=True`).

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
from typing import Any, Optional, Tuple, Type, TypedDict, Union

import tenacity
from tenacity.retry import retry_base
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ._adapt import Seeds
from ._call import Call
from ._outcome import exceptions, hint_of, should_retry
from .policy import Policy
from .run import Action

__all__ = ["seeded", "wait_seeded", "SeededArguments"]


class wait_seeded(wait_base):  # noqa: N801 (tenacity's naming)
    """A tenacity `wait`: each call's delays from its own seeded run of the core, in seconds. Its
    `.stop` stops the call once the run has given up; `.action(retry_state)` is the run's last
    answer for the call (`kind` 'retry' or 'give_up', with `attempt`, `delay_ms`, `reason`; None
    before its first failure)."""

    def __init__(self, policy: Policy, seed: Optional[int] = None) -> None:
        self._seeds = Seeds(policy, seed)
        # Keyed by the call's RetryCallState, so a finished call's run goes with it.
        self._calls: "weakref.WeakKeyDictionary[tenacity.RetryCallState, Call]" = weakref.WeakKeyDictionary()
        self.stop = _stop_gave_up(self)

    def action(self, retry_state: tenacity.RetryCallState) -> Optional[Action]:
        call = self._calls.get(retry_state)
        return None if call is None else call.action

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        call = self._calls.get(retry_state)
        if call is None:
            call = self._calls[retry_state] = self._seeds.call()
        action = call.action
        # Asked again for the same attempt (a combined wait): the same answer.
        if action.kind != "retry" or action.attempt != retry_state.attempt_number:
            outcome = retry_state.outcome
            raised = outcome is not None and outcome.failed
            value = None if outcome is None else outcome.exception() if raised else outcome.result()
            stamp = retry_state.outcome_timestamp
            now = None if stamp is None else max(0, int((stamp - retry_state.start_time) * 1000))
            action = call.failed(hint_of(value, raised), now)
        return 0.0 if action.delay_ms is None else action.delay_ms / 1000


class _stop_gave_up(stop_base):  # noqa: N801
    def __init__(self, wait: wait_seeded) -> None:
        self._wait = wait

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        action = self._wait.action(retry_state)
        return action is not None and action.kind == "give_up"


class _retry_classified(retry_base):  # noqa: N801
    def __init__(self, retry_on: Optional[Tuple[Type[BaseException], ...]]) -> None:
        self._retry_on = retry_on

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        outcome = retry_state.outcome
        if outcome is None:
            return False
        if outcome.failed:
            return should_retry(outcome.exception(), True, self._retry_on)
        return should_retry(outcome.result(), False, self._retry_on)


class SeededArguments(TypedDict):
    """What `seeded` returns: tenacity's `wait`, `stop` and `retry` keywords."""

    wait: wait_seeded
    stop: stop_base
    retry: retry_base


def seeded(policy: Policy, seed: Optional[int] = None, *,
           retry_on: Union[Type[BaseException], Tuple[Type[BaseException], ...], None] = None) -> SeededArguments:
    """`wait`, `stop` and `retry` for tenacity: retry responses with a status the core retries
    (429, 5xx, returned or carried by the error), never another status, and errors without a
    response that are transport errors (`seeded_backoff.is_transport_error`: a refused, reset or
    timed-out connection), or those of `retry_on` when given; wait the core's delays; stop when
    it gives up. Pass them as `tenacity.retry(**seeded(...))`, or take `wait_seeded` alone and
    its `.stop` to combine with your own."""
    classes = exceptions("retry_on", retry_on)
    wait = wait_seeded(policy, seed)
    return {"wait": wait, "stop": wait.stop, "retry": _retry_classified(classes)}
