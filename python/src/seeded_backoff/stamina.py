"""stamina 26 with this package's schedules, through the one place stamina takes a custom
backoff: its `on=` hook, which may return the next wait (a float in seconds) instead of True.

stamina's own `wait_initial`/`wait_max`/`wait_jitter`/`wait_exp_base` cannot express a seeded
schedule: stamina draws the jitter from the `random` module's global generator
(`random.uniform(0, wait_jitter)` in `_compute_backoff`, stamina 26.1.0) and adds it before the
cap, which is Google's formula with a generator nobody can seed per call. The `on=` hook is
called with the exception alone (no attempt number, no call state), so a hook holds one call's
run of the core (`seeded_backoff.Run`, which numbers the attempts, counts the time since the hook
was made against `max_elapsed_ms` and decides each delay): make one per call, with `stamina.retry_context` (a hook given to the `@stamina.retry`
decorator is shared by every call of the function, whose schedules then run on from each other),
seeded with `CallSeeds(seed).next_seed()`, so that call i runs with `call_seed(seed, i)` (SPEC.md
section 14) and calls made together retry apart.
Pass `attempts=None, timeout=None` to let the policy decide when to give up (stamina otherwise
also stops after 10 attempts or 45 s). stamina's test mode (`stamina.set_testing`) turns every
wait, this one included, into 0.

>>> from seeded_backoff import Policy
>>> hook = backoff_hook(Policy("google", max_retries=2), seed=42)
>>> hook(ConnectionError("reset")), hook(ConnectionError("reset")), hook(ConnectionError("reset"))
(1.616, 2.41, False)

With `send_rate=` (a `SendRate` shared by every call to one server), make each attempt through
the hook: `hook.attempt(fn, *args, **kwargs)` inside stamina's `with attempt:` (`await
hook.attempt_async(...)` in an `async for`). stamina has no hook before an attempt (its `on=`
sees only the exception, after it), so the wrapper is the gate: it sleeps (time.sleep, or
asyncio.sleep) until the rate lets the attempt go, the first included, then calls, and tells
the rate the answer of what it returned or raised (a 429, or a 503 with a hint, is a throttle;
any other response is accepted; an error without one is no answer); `on=` then answers from that
outcome. A fail-fast rate's refusal raises `seeded_backoff.RetryError` (reason 'throttled'),
which stamina does not retry. The hook's run starts paced when the hook is made: make it just
before the call.

>>> import stamina
>>> from seeded_backoff.send_rate import SendRate
>>> rate = SendRate()  # one per process and server
>>> hook = backoff_hook(Policy("google"), seed=42, send_rate=rate)
>>> for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None):
...     with attempt:
...         result = hook.attempt(lambda: "ok")
>>> result, rate.rate_milli  # accepted; the rate stays off until a throttle
('ok', 0)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Optional, Tuple, Type, TypeVar, Union

from ._adapt import Seeds, report, turns
from ._call import Call
from ._outcome import exceptions, should_retry
from ._policy import Policy
from ._run import Action
from .send_rate import SendRate

__all__ = ["backoff_hook", "BackoffHook"]

RetryOn = Union[Type[BaseException], Tuple[Type[BaseException], ...], None]
R = TypeVar("R")


class BackoffHook:
    """An `on=` hook for stamina: False (stop) for an error not worth retrying or once the run
    gives up, else the run's next delay in seconds. Its `.action` is the run's last answer
    (`kind` 'retry' or 'give_up', with `attempt`, `delay_ms`, `reason`; 'attempt' before the
    first failure). With a send rate, `attempt` and `attempt_async` gate each attempt and tell
    the rate its answer."""

    __slots__ = ("_retry_on", "_call", "_told")

    def __init__(self, policy: Policy, seed: Optional[int] = None, *, retry_on: RetryOn = None,
                 send_rate: Optional[SendRate] = None) -> None:
        self._retry_on = exceptions("retry_on", retry_on)
        # The hook is made when the call starts; the time since counts against max_elapsed_ms.
        self._call: Call = Seeds(policy, seed, send_rate).call()
        # Whether `attempt` has told the run the outcome `on=` is about to be asked of.
        self._told = False

    @property
    def action(self) -> Action:
        return self._call.action

    def __call__(self, exc: BaseException) -> Union[bool, float]:
        if self._told:
            self._told = False
            action = self._call.action
        else:
            action = report(self._call, exc, True, should_retry(exc, True, self._retry_on))
        return False if action.delay_ms is None else action.delay_ms / 1000

    def _reported(self, value: Any, raised: bool) -> None:
        report(self._call, value, raised, should_retry(value, raised, self._retry_on))
        self._told = True

    def attempt(self, fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        """One attempt: waits (time.sleep) for the send rate, calls `fn(*args, **kwargs)` and tells
        the run what it returned or raised (re-raised, for stamina's `on=`). Without a send rate,
        only the call and the report. Raises RetryError when the run gives up before it."""
        self._told = False
        for seconds in turns(self._call):
            time.sleep(seconds)
        try:
            result = fn(*args, **kwargs)
        except BaseException as e:
            self._reported(e, True)
            raise
        self._reported(result, False)
        return result

    async def attempt_async(self, fn: Callable[..., Awaitable[R]], *args: Any, **kwargs: Any) -> R:
        """`attempt` for a coroutine function: awaits asyncio.sleep for the send rate, then `fn`."""
        self._told = False
        for seconds in turns(self._call):
            await asyncio.sleep(seconds)
        try:
            result = await fn(*args, **kwargs)
        except BaseException as e:
            self._reported(e, True)
            raise
        self._reported(result, False)
        return result


def backoff_hook(policy: Policy, seed: Optional[int] = None, *, retry_on: RetryOn = None,
                 send_rate: Optional[SendRate] = None) -> BackoffHook:
    """A `BackoffHook` for one call (`seed`: the call's, from a `CallSeeds` shared by the calls):
    retries errors carrying a response with a status the core retries (429, 5xx; never another
    status), waiting the core's delays with the response's Retry-After or rate-limit hint, and
    errors without a response that are transport errors (`seeded_backoff.is_transport_error`), or
    those of `retry_on` when given. `send_rate`: a SendRate shared by the calls to one server,
    then make each attempt through `BackoffHook.attempt` (see the module's notes)."""
    return BackoffHook(policy, seed, retry_on=retry_on, send_rate=send_rate)
