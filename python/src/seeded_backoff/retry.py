"""retry: a decorator that retries a function (plain or `async def`) with a seeded backoff.

It retries the exceptions named by `retry_on`, and responses with a retryable HTTP status (429 or
5xx, read duck-typed from `status_code`, as requests and httpx give it) whose `Retry-After` header
is a lower bound on the next delay; a 429 without a valid one is read for the rate-limit headers
(SPEC.md section 8.3). Every delay comes from the core (the core's Run), which also counts
the time spent in the calls against `max_elapsed_ms` and charges a shared budget.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import math
import time
from typing import Any, Callable, Optional, Tuple, Type, TypeVar, Union

from ._check import show, u64
from ._ffi import U64_MAX
from .budget import RetryBudget
from .errors import RetryError
from .events import RetryEvent
from .http import _occurrences as _pairs
from .http import hint_from_headers, is_retryable_status
from .policy import Policy
from .run import Run
from .seeds import CallSeeds

__all__ = ["retry"]

F = TypeVar("F", bound=Callable[..., Any])
Exceptions = Union[Type[BaseException], Tuple[Type[BaseException], ...]]


def _hint(result, status, now_s):
    """The response's server hint as `next_delay` arguments: the core's rule
    (`hint_from_headers`) over its headers; none without headers."""
    headers = getattr(result, "headers", None)
    if headers is None or not hasattr(headers, "items"):
        return {}
    # One pair per occurrence (httpx's `items()` joins a repeated name), as hint_from_headers reads
    # them; a response object may carry values of any type, and only text can be a header.
    text = (str, bytes)
    pairs = [(k, v) for k, v in _pairs(headers) if isinstance(k, text) and isinstance(v, text)]
    return hint_from_headers(status, pairs, now=now_s)


class _Attempts:
    """One call's retry loop, shared by the sync and async wrappers: a shell over the core's Run
    (SPEC.md section 15), which numbers the attempts, counts the clock, charges and refunds the
    budget and decides each delay; this classifies each outcome and reads its hint."""

    def __init__(self, options):
        self.o = options
        self.run = Run(options.policy, options.seeds.next_seed())
        self.start = options.clock()
        self.run.start(0)

    @property
    def attempts(self):
        return self.run.attempts

    def outcome(self, result):
        """False when `result` is final; to retry it, its server hint (`_hint`)."""
        status = getattr(result, "status_code", None)
        if isinstance(status, int) and not isinstance(status, bool) and is_retryable_status(status):
            return _hint(result, status, time.time())
        if self.o.retry_if_result is not None and self.o.retry_if_result(result):
            return {}
        return False

    def delay_after(self, last, hint):
        """The delay in ms before the next attempt; raises RetryError when the run gives up."""
        action = self.run.outcome("retryable", self.elapsed_ms(), budget=self.o.budget, **hint)
        if action.kind != "retry":
            error = RetryError(action.attempt, action.reason, last)
            if isinstance(last, BaseException):
                raise error from last
            raise error
        if self.o.on_retry is not None:
            self.o.on_retry(RetryEvent(attempt=action.attempt, delay_ms=action.delay_ms, error=last))
        return action.delay_ms

    def woke(self):
        self.run.wake(self.elapsed_ms())

    def elapsed_ms(self):
        # The core saturates a clock that ran past u64 ms; a clock without a finite reading is
        # refused by name rather than left to overflow in int().
        now = self.o.clock()
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            raise TypeError(f"clock() must return seconds (an int or float), got {show(now)}")
        ms = (now - self.start) * 1000
        if isinstance(ms, float) and not math.isfinite(ms):
            raise ValueError(f"clock() must return finite seconds, got {show(now)} after {show(self.start)}")
        return min(U64_MAX - 1, max(0, int(ms)))

    def succeeded(self):
        self.run.outcome("success", self.elapsed_ms(), budget=self.o.budget)


class _Options:
    """The decorator's checked arguments."""

    policy: Policy
    seed: Optional[int]
    seeds: CallSeeds
    retry_on: Tuple[Type[BaseException], ...]
    retry_if_result: Optional[Callable[[Any], bool]]
    budget: Optional[RetryBudget]
    sleep: Optional[Callable[[float], Any]]
    clock: Callable[[], float]
    on_retry: Optional[Callable[[RetryEvent], Any]]


def _callable(name, value, required=False):
    if value is None and not required:
        return None
    if not callable(value):
        raise TypeError(f"{name} must be callable, got {show(value)}")
    return value


def _exceptions(value):
    classes = value if isinstance(value, tuple) else (value,)
    if not classes or not all(isinstance(c, type) and issubclass(c, BaseException) for c in classes):
        raise TypeError(f"retry_on must be an exception class or a tuple of them, got {show(value)}")
    return classes


def retry(fn: Optional[F] = None, *, policy: Optional[Policy] = None, seed: Optional[int] = None,
          retry_on: Exceptions = Exception, retry_if_result: Optional[Callable[[Any], bool]] = None,
          budget: Optional[RetryBudget] = None, sleep: Optional[Callable[[float], Any]] = None,
          clock: Callable[[], float] = time.monotonic,
          on_retry: Optional[Callable[[RetryEvent], Any]] = None, **policy_options: Any):
    """Retries `fn` by `policy` (or a Policy built from `policy_options`, e.g. `preset='aws_standard',
    max_retries=5`; default: Google's).

    - `retry_on`: the exception class(es) to retry; others propagate at once.
    - A returned object with a retryable `status_code` (429, 5xx) is retried, its `Retry-After`
      header honoured; a 429 without a valid one waits for the first rate-limit header of
      RATE_LIMIT_HEADERS that parses (a 5xx's are not read); `retry_if_result(result)` may ask
      to retry other results.
    - `seed`: call i of the decorated function runs with `call_seed(seed, i)` (SPEC.md section 14):
      each call its own delays, and the same calls in the same order the same delays (tests);
      omitted, the seed is drawn from the OS.
    - `sleep(seconds)`: time.sleep or asyncio.sleep by default; an async function's `sleep` may
      return an awaitable. `clock()`: monotonic seconds (time spent in calls counts against
      max_elapsed_ms).
    - `budget`: a RetryBudget shared between calls; `on_retry(event)` is told of each retry with a
      RetryEvent (`attempt`, counted from 1, `delay_ms`, `error`).

    Giving up raises RetryError (`attempts`, `reason`, `cause`), raised from the last exception.

    >>> calls = []
    >>> @retry(seed=42, sleep=calls.append, retry_on=ConnectionError)
    ... def flaky():
    ...     if len(calls) < 2:
    ...         raise ConnectionError("refused")
    ...     return "ok"
    >>> flaky(), calls
    ('ok', [1.616, 2.41])
    """
    if policy is not None and policy_options:
        raise TypeError("give either policy or policy options, not both")
    if policy is None:
        policy = Policy(**policy_options)
    elif not isinstance(policy, Policy):
        raise TypeError(f"policy must be a Policy, got {show(policy)}")
    o = _Options()
    o.policy = policy
    o.seed = None if seed is None else u64("seed", seed)
    o.seeds = CallSeeds(o.seed)
    o.retry_on = _exceptions(retry_on)
    o.retry_if_result = _callable("retry_if_result", retry_if_result)
    if budget is not None and not isinstance(budget, RetryBudget):
        raise TypeError(f"budget must be a RetryBudget, got {show(budget)}")
    o.budget = budget
    o.sleep = _callable("sleep", sleep)
    o.clock = _callable("clock", clock, required=True)
    o.on_retry = _callable("on_retry", on_retry)

    def decorate(f):
        _callable("the decorated function", f, required=True)
        if inspect.iscoroutinefunction(f):
            return _async_wrapper(f, o)
        return _sync_wrapper(f, o)

    return decorate if fn is None else decorate(fn)


def _sync_wrapper(f, o):
    sleep = o.sleep or time.sleep

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        run = _Attempts(o)
        while True:
            try:
                result = f(*args, **kwargs)
            except o.retry_on as e:
                delay = run.delay_after(e, {})
            else:
                hint = run.outcome(result)
                if hint is False:
                    run.succeeded()
                    return result
                delay = run.delay_after(result, hint)
            sleep(delay / 1000)
            run.woke()

    return wrapper


def _async_wrapper(f, o):
    sleep = o.sleep or asyncio.sleep

    @functools.wraps(f)
    async def wrapper(*args, **kwargs):
        run = _Attempts(o)
        while True:
            try:
                result = await f(*args, **kwargs)
            except o.retry_on as e:
                delay = run.delay_after(e, {})
            else:
                hint = run.outcome(result)
                if hint is False:
                    run.succeeded()
                    return result
                delay = run.delay_after(result, hint)
            pending = sleep(delay / 1000)
            if inspect.isawaitable(pending):
                await pending
            run.woke()

    return wrapper
