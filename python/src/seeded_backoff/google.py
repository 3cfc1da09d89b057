"""Retry objects for Google Cloud's Python client libraries (GAPIC clients over google-api-core).

A GAPIC method takes any callable as `retry=`: it calls `retry(func)` once and then the wrapped
function with the request, `metadata=` and, inside each attempt, `timeout=`. `Retry` (and
`AsyncRetry` for the async clients) is such a callable whose delays come from the core: by default
Google's published backoff (1 s, 2 s, 4 s ... up to 32 s, plus up to 1 s of random, 10 retries),
where the libraries' own default retries only 503 with full jitter and never a 429.

Which errors are retried is the core's answer too: an exception's HTTP status (`exc.code`: 429,
5xx) when it has one, else its gRPC code (`exc.grpc_status_code`: UNAVAILABLE, RESOURCE_EXHAUSTED).
A REST error carries the HTTP response (`exc.response`), whose `Retry-After` (or, on a 429, the
first rate-limit header that parses) bounds the next delay from below.

Deadlines: `deadline` (seconds since the first attempt) is the policy's `max_elapsed_ms`, so a delay
that would end past it gives up instead (raising RetryError with reason 'deadline'). The GAPIC
`timeout=` is separate and is applied by the client inside each attempt, not by this object: it is
each request's own timeout, counted down from the first attempt (google-api-core's
TimeToDeadlineTimeout: attempt n gets what is left of `timeout` since attempt 1, and the whole
`timeout` again once less than 1 s is left), so it never ends the retries by itself. Give the call
the same `timeout=` as `deadline`. A request that times out over REST raises the transport's
exception (requests' Timeout), which is not an API error: list it in `retry_on` to retry it.

>>> from seeded_backoff import Policy
>>> from seeded_backoff.google import Retry
>>> waits = []
>>> r = Retry(Policy("google", max_retries=3), seed=42, sleep=waits.append)
>>> r  # doctest: +ELLIPSIS
<seeded_backoff.google.Retry policy=Policy(initial_ms=1000, ... seed=42>
"""

from __future__ import annotations

import functools
import inspect
import math
import time
from typing import Any, Callable, Optional, Tuple, Type

from ._check import show, u64
from ._ffi import U64_MAX
from .budget import RetryBudget
from .errors import RetryError
from .events import RetryEvent
from .http import classify_grpc_code, classify_status
from .policy import Policy
from .retry import _hint
from .run import Run
from .seeds import CallSeeds

__all__ = ["Retry", "AsyncRetry", "classify", "server_hint"]

# The core's max_elapsed_ms is a u32 of milliseconds.
_MAX_DEADLINE_S = (2**32 - 1) // 1000


def _status_and_code(exc):
    """(HTTP status, gRPC code) of a google.api_core exception, each None when absent."""
    status = getattr(exc, "code", None)
    if isinstance(status, bool) or not isinstance(status, int):
        status = None
    grpc = getattr(exc, "grpc_status_code", None)
    # grpc.StatusCode members are (int, name) pairs; without grpcio installed it is None.
    value = getattr(grpc, "value", None)
    code = value[0] if isinstance(value, tuple) and value and isinstance(value[0], int) else None
    return status, code


def classify(exc: BaseException) -> str:
    """'retry', 'do_not_retry', 'success' or 'invalid' for an exception, by the core: its HTTP
    status when it carries one, else its gRPC code; 'invalid' when it has neither.

    >>> from google.api_core import exceptions
    >>> classify(exceptions.TooManyRequests("slow down")), classify(exceptions.NotFound("no"))
    ('retry', 'do_not_retry')
    """
    status, code = _status_and_code(exc)
    if status is not None:
        return classify_status(status)
    if code is not None:
        return classify_grpc_code(code)
    return "invalid"


def server_hint(exc: BaseException, now_s: Optional[float] = None) -> dict:
    """The server's hint on a failed call as `Backoff.next_delay` keywords, read from the HTTP
    response a REST error carries (`exc.response`): `retry_after_ms`, or `rate_limit_ms` for a 429
    without a valid Retry-After, or nothing. Invalid header values are ignored. The one place that
    reads headers here."""
    response = getattr(exc, "response", None)
    status, _ = _status_and_code(exc)
    if response is None or status is None:
        return {}
    return _hint(response, status, time.time() if now_s is None else now_s)


class _Run:
    """One call's loop state: a shell over the core's Run (SPEC.md section 15), which numbers the
    attempts, counts the clock and charges and refunds the budget; this reads the error's class
    and hint."""

    def __init__(self, retry: "Retry") -> None:
        self.r = retry
        self.run = Run(retry.policy, retry._seeds.next_seed())
        self.start = retry.clock()
        self.run.start(0)

    def now_ms(self) -> int:
        return min(U64_MAX - 1, max(0, int((self.r.clock() - self.start) * 1000)))

    def delay_after(self, exc: BaseException) -> Optional[int]:
        """The delay in ms before the next attempt, None when `exc` is not retryable; raises
        RetryError when the core gives up."""
        if isinstance(exc, self.r.retry_on):
            hint = {}
        elif classify(exc) == "retry":
            hint = server_hint(exc)
        else:
            return None
        action = self.run.outcome("retryable", self.now_ms(), budget=self.r.budget, **hint)
        if action.kind != "retry":
            raise RetryError(action.attempt, action.reason, exc) from exc
        if self.r.on_retry is not None:
            self.r.on_retry(RetryEvent(attempt=action.attempt, delay_ms=action.delay_ms, error=exc))
        return action.delay_ms

    def woke(self) -> None:
        self.run.wake(self.now_ms())

    def succeeded(self) -> None:
        self.run.outcome("success", self.now_ms(), budget=self.r.budget)


def _with_deadline(policy: Policy, deadline_ms: int) -> Policy:
    """`policy` with max_elapsed_ms at most `deadline_ms` (the core validates it)."""
    if policy.max_elapsed_ms and policy.max_elapsed_ms <= deadline_ms:
        return policy
    fields = dict(initial_ms=policy.initial_ms, multiplier=policy.multiplier, max_backoff_ms=policy.max_backoff_ms,
                  max_retries=policy.max_retries, jitter=policy.jitter, max_hint_ms=policy.max_hint_ms,
                  max_elapsed_ms=deadline_ms, deadline=policy.deadline)
    if policy.jitter == "google":
        fields["jitter_ms"] = policy.jitter_ms
    if policy.jitter == "proportional":
        fields["spread_per_mille"] = policy.spread_per_mille
    return Policy(**fields)


def _callable(name, value):
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable, got {show(value)}")
    return value


class Retry:
    """A `retry=` for a synchronous GAPIC method (or any function): `client.get_instance(name=...,
    retry=Retry(seed=7))`.

    - `policy`: a Policy (default: Google's preset, `Policy("google")`).
    - `seed`: call i made through this Retry runs with `call_seed(seed, i)` (SPEC.md section 14):
      each call its own delays, the same calls in the same order the same delays (tests);
      omitted, the seed is drawn from the OS.
    - `deadline`: seconds since the first attempt within which a retry must start (see the module's
      notes on `timeout=`); it lowers the policy's max_elapsed_ms.
    - `budget`: a RetryBudget shared by the calls to one service.
    - `on_retry(event)`: told of each retry before its sleep, with a `RetryEvent` (`attempt`, the
      one that just failed, from 1; `delay_ms`; `error`), as `retry` tells it.
    - `sleep(seconds)`, `clock()`: time.sleep and time.monotonic by default.
    - `retry_on`: exception classes retried whatever they carry (e.g. a transport's ConnectionError).

    Giving up raises RetryError(attempts, reason, last), chained to the last exception; an error
    that is not retryable (a 404, a 400) is raised as it is.
    """

    _sleep_default: Callable[[float], Any] = staticmethod(time.sleep)

    def __init__(self, policy: Optional[Policy] = None, *, seed: Optional[int] = None,
                 deadline: Optional[float] = None, budget: Optional[RetryBudget] = None,
                 on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                 sleep: Optional[Callable[[float], Any]] = None, clock: Callable[[], float] = time.monotonic,
                 retry_on: Tuple[Type[BaseException], ...] = ()) -> None:
        if policy is None:
            policy = Policy("google")
        elif not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        if deadline is not None:
            if isinstance(deadline, bool) or not isinstance(deadline, (int, float)):
                raise TypeError(f"deadline must be seconds (an int or float), got {show(deadline)}")
            if not (math.isfinite(deadline) and 0.001 <= deadline <= _MAX_DEADLINE_S):
                raise ValueError(f"deadline must be seconds in 0.001..={_MAX_DEADLINE_S}, got {show(deadline)}")
            policy = _with_deadline(policy, round(deadline * 1000))
        if budget is not None and not isinstance(budget, RetryBudget):
            raise TypeError(f"budget must be a RetryBudget, got {show(budget)}")
        if not isinstance(retry_on, tuple) or not all(isinstance(c, type) and issubclass(c, BaseException)
                                                      for c in retry_on):
            raise TypeError(f"retry_on must be a tuple of exception classes, got {show(retry_on)}")
        if clock is None or not callable(clock):
            raise TypeError(f"clock must be callable, got {show(clock)}")
        self.policy = policy
        self.seed = None if seed is None else u64("seed", seed)
        self._seeds = CallSeeds(self.seed)
        self.budget = budget
        self.on_retry = _callable("on_retry", on_retry)
        self.sleep = _callable("sleep", sleep) or type(self)._sleep_default
        self.clock = clock
        self.retry_on = retry_on

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(func):
            raise TypeError(f"the wrapped function must be callable, got {show(func)}")

        @functools.wraps(func)
        def attempts(*args: Any, **kwargs: Any) -> Any:
            run = _Run(self)
            while True:
                try:
                    result = func(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 (classified; others re-raised)
                    delay = run.delay_after(exc)
                    if delay is None:
                        raise
                    self.sleep(delay / 1000)
                    run.woke()
                else:
                    run.succeeded()
                    return result

        return attempts

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} policy={self.policy!r} seed={self.seed}>"


class AsyncRetry(Retry):
    """`Retry` for the async GAPIC clients (`...AsyncClient`): the wrapped coroutine function is
    awaited, `sleep` is asyncio.sleep by default (a sleep returning an awaitable is awaited)."""

    @staticmethod
    def _sleep_default(seconds: float) -> Any:
        import asyncio
        return asyncio.sleep(seconds)

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(func):
            raise TypeError(f"the wrapped function must be callable, got {show(func)}")

        @functools.wraps(func)
        async def attempts(*args: Any, **kwargs: Any) -> Any:
            run = _Run(self)
            while True:
                try:
                    result = func(*args, **kwargs)
                    if inspect.isawaitable(result):
                        result = await result
                except Exception as exc:  # noqa: BLE001 (classified; others re-raised)
                    delay = run.delay_after(exc)
                    if delay is None:
                        raise
                    pending = self.sleep(delay / 1000)
                    if inspect.isawaitable(pending):
                        await pending
                    run.woke()
                else:
                    run.succeeded()
                    return result

        return attempts
