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

With `send_rate=` (a `SendRate` shared by every call to one server), `seeded` also gives a
`before`: tenacity runs it before every attempt, the first included, and it sleeps (with the
`sleep` tenacity sleeps with) until the send rate lets the attempt go; the `retry` it gives tells
the rate each outcome's answer (a 429, or a 503 with a hint, is a throttle). Each call is then
a paced run from its first attempt: call i in the order the calls start takes `call_seed(seed, i)`.
For `AsyncRetrying` (an `async def`), pass `is_async=True`: its `before` awaits tenacity's sleep.
A fail-fast rate's refusal raises `seeded_backoff.RetryError` (reason 'throttled') from `before`.

>>> from seeded_backoff.send_rate import SendRate
>>> rate = SendRate(fail_fast=True)
>>> rate.answer(None, "throttled", hint_ms=60_000)  # the server said: not for a minute
>>> @tenacity.retry(**seeded(Policy("google"), seed=42, send_rate=rate))
... def fetch():
...     raise AssertionError("never called: the rate refuses first")
>>> fetch()
Traceback (most recent call last):
seeded_backoff.RetryError: gave up after 0 attempts (throttled); last: None
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Iterator, Optional, Tuple, Type, TypedDict, Union

import tenacity
from tenacity.retry import retry_base
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ._adapt import Seeds, report, turns
from ._call import Call
from ._check import boolean
from ._outcome import exceptions, hint_of, should_retry
from ._policy import Policy
from ._run import Action
from .send_rate import SendRate

__all__ = ["seeded", "wait_seeded", "SeededArguments"]


class wait_seeded(wait_base):  # noqa: N801 (tenacity's naming)
    """A tenacity `wait`: each call's delays from its own seeded run of the core, in seconds. Its
    `.stop` stops the call once the run has given up; `.action(retry_state)` is the run's last
    answer for the call (`kind` 'retry' or 'give_up', with `attempt`, `delay_ms`, `reason`; None
    before its first failure). With a `send_rate`, its `.before` (`.before_async` for
    AsyncRetrying) gates every attempt, and `.told(retry_state, worth)` reports an outcome to the rate
    (the `retry` of `seeded` calls it)."""

    def __init__(self, policy: Policy, seed: Optional[int] = None, *,
                 send_rate: Optional[SendRate] = None) -> None:
        self._seeds = Seeds(policy, seed, send_rate)
        # Keyed by the call's RetryCallState, so a finished call's run goes with it.
        self._calls: "weakref.WeakKeyDictionary[tenacity.RetryCallState, Call]" = weakref.WeakKeyDictionary()
        self.stop = _stop_gave_up(self)
        self.before = _before(self)
        self.before_async = _before_async(self)

    def _turns(self, retry_state: tenacity.RetryCallState) -> Iterator[float]:
        if self._seeds.send_rate is None:
            return iter(())
        call = self._calls.get(retry_state)
        if call is None:
            call = self._calls[retry_state] = self._seeds.call()
        return turns(call)

    def told(self, retry_state: tenacity.RetryCallState, worth: bool) -> None:
        """Behind a send rate, reports the outcome of the attempt (worth a retry or not) to the
        call's run, which tells the rate its answer; once per attempt, nothing without a rate."""
        call = self._calls.get(retry_state)
        outcome = retry_state.outcome
        if call is None or outcome is None:
            return
        if call.action.kind != "attempt" or call.action.attempt != retry_state.attempt_number:
            return
        raised = outcome.failed
        report(call, outcome.exception() if raised else outcome.result(), raised, worth)

    def action(self, retry_state: tenacity.RetryCallState) -> Optional[Action]:
        call = self._calls.get(retry_state)
        return None if call is None else call.action

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        call = self._calls.get(retry_state)
        if call is None:
            if self._seeds.send_rate is not None:
                # Its run starts at the first attempt, gated: only `before` sees that.
                raise TypeError("wait_seeded(send_rate=...) needs its .before as tenacity's before")
            call = self._calls[retry_state] = self._seeds.call()
        action = call.action
        # Asked again for the same attempt (a combined wait): the same answer.
        if action.kind != "retry" or action.attempt != retry_state.attempt_number:
            outcome = retry_state.outcome
            raised = outcome is not None and outcome.failed
            value = None if outcome is None else outcome.exception() if raised else outcome.result()
            stamp = retry_state.outcome_timestamp
            # Behind a send rate, the run reads its own clock, on the rate's scale.
            paced = self._seeds.send_rate is not None
            now = None if stamp is None or paced else max(0, int((stamp - retry_state.start_time) * 1000))
            action = call.failed(hint_of(value, raised), now)
        return 0.0 if action.delay_ms is None else action.delay_ms / 1000


class _stop_gave_up(stop_base):  # noqa: N801
    def __init__(self, wait: wait_seeded) -> None:
        self._wait = wait

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        action = self._wait.action(retry_state)
        return action is not None and action.kind == "give_up"


class _before:  # noqa: N801
    """tenacity's `before` for Retrying: sleeps tenacity's sleep until the send rate says send."""

    def __init__(self, wait: wait_seeded) -> None:
        self._wait = wait

    def __call__(self, retry_state: tenacity.RetryCallState) -> None:
        retrying = retry_state.retry_object
        if isinstance(retrying, tenacity.AsyncRetrying):
            raise TypeError("seeded(..., send_rate=...) for AsyncRetrying (an async def) needs is_async=True")
        for seconds in self._wait._turns(retry_state):
            retrying.sleep(seconds)


class _before_async:  # noqa: N801
    """tenacity's `before` for AsyncRetrying: awaits tenacity's sleep until the send rate says send."""

    def __init__(self, wait: wait_seeded) -> None:
        self._wait = wait

    async def __call__(self, retry_state: tenacity.RetryCallState) -> None:
        for seconds in self._wait._turns(retry_state):
            await retry_state.retry_object.sleep(seconds)  # type: ignore[misc]


class _retry_classified(retry_base):  # noqa: N801
    def __init__(self, retry_on: Optional[Tuple[Type[BaseException], ...]], wait: wait_seeded) -> None:
        self._retry_on = retry_on
        self._wait = wait

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        outcome = retry_state.outcome
        if outcome is None:
            return False
        if outcome.failed:
            worth = should_retry(outcome.exception(), True, self._retry_on)
        else:
            worth = should_retry(outcome.result(), False, self._retry_on)
        self._wait.told(retry_state, worth)
        return worth


class _Arguments(TypedDict):
    wait: wait_seeded
    stop: stop_base
    retry: retry_base


class SeededArguments(_Arguments, total=False):
    """What `seeded` returns: tenacity's `wait`, `stop` and `retry` keywords, and with a send rate
    its `before`."""

    before: Callable[[tenacity.RetryCallState], Any]


def seeded(policy: Policy, seed: Optional[int] = None, *,
           retry_on: Union[Type[BaseException], Tuple[Type[BaseException], ...], None] = None,
           send_rate: Optional[SendRate] = None, is_async: bool = False) -> SeededArguments:
    """`wait`, `stop` and `retry` for tenacity: retry responses with a status the core retries
    (429, 5xx, returned or carried by the error), never another status, and errors without a
    response that are transport errors (`seeded_backoff.is_transport_error`: a refused, reset or
    timed-out connection), or those of `retry_on` when given; wait the core's delays; stop when
    it gives up. Pass them as `tenacity.retry(**seeded(...))`, or take `wait_seeded` alone and
    its `.stop` to combine with your own.

    `send_rate`: a SendRate shared by every call to one server (threads and asyncio tasks alike);
    then `before` gates every attempt and `retry` tells the rate each answer (see the module's
    notes); `is_async=True` for AsyncRetrying. A `before` of your own calls this one in turn."""
    classes = exceptions("retry_on", retry_on)
    boolean("is_async", is_async)
    wait = wait_seeded(policy, seed, send_rate=send_rate)
    out: SeededArguments = {"wait": wait, "stop": wait.stop, "retry": _retry_classified(classes, wait)}
    if send_rate is not None:
        out["before"] = wait.before_async if is_async else wait.before
    return out
