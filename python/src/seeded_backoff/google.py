"""Retry objects for Google Cloud's Python client libraries (GAPIC clients over google-api-core).

A GAPIC method's `retry=` is typed as google-api-core's `Retry` (`AsyncRetry` for the async
clients) and used as a callable: it calls `retry(func)` once and then the wrapped function with the
request, `metadata=` and, inside each attempt, `timeout=`. This module's `Retry` and `AsyncRetry`
subclass those, and their delays and decisions come from the core: by default
Google's published backoff (1 s, 2 s, 4 s ... up to 32 s, plus up to 1 s of random, 10 retries),
where the libraries' own default retries only 503 with full jitter and never a 429.

Which errors are retried is the core's answer too: an exception's HTTP status (`exc.code`: 429,
5xx) when it has one, else its gRPC code (`exc.grpc_status_code`: UNAVAILABLE, RESOURCE_EXHAUSTED).
A REST error carries the HTTP response (`exc.response`), whose `Retry-After` (or, on a 429, the
first rate-limit header that parses) bounds the next delay from below.

Giving up raises `seeded_backoff.google.RetryError`, which is both `google.api_core.exceptions.RetryError`
(what code written for the libraries' own retries catches, with its `cause`) and this package's
`RetryError` (`attempts`, `reason`). By default the errors worth a retry are retried: the
retryable statuses and codes above and transport errors (`seeded_backoff.is_transport_error`:
over REST, requests' ConnectionError, Timeout and ChunkedEncodingError; google-auth's
TransportError); any other exception (a 404, a KeyError in your code) is raised as it is.

Deadlines: `deadline` (seconds since the first attempt) is the policy's `max_elapsed_ms`, so a delay
that would end past it gives up instead (raising RetryError with reason 'deadline'). The GAPIC
`timeout=` is separate and is applied by the client inside each attempt, not by this object: it is
each request's own timeout, counted down from the first attempt (google-api-core's
TimeToDeadlineTimeout: attempt n gets what is left of `timeout` since attempt 1, and the whole
`timeout` again once less than 1 s is left), so it never ends the retries by itself. Give the call
the same `timeout=` as `deadline`. A request that times out over REST raises the transport's
exception (requests' Timeout): a transport error, retried, and charged to a budget as a timeout.

>>> from seeded_backoff import Policy
>>> from seeded_backoff.google import Retry
>>> waits = []
>>> r = Retry(Policy("google", max_retries=3), seed=42, sleep=waits.append)
>>> r  # doctest: +ELLIPSIS
<seeded_backoff.google.Retry policy=Policy(initial_ms=1000, ... seed=42>
"""

from __future__ import annotations

import copy
import functools
import inspect
import math
import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, Optional, Tuple, Type, TypeVar, Union, cast

from google.api_core import exceptions as api_exceptions
from google.api_core import retry as retries

from . import _errors as errors
from ._call import Call, Clock, answer_of, checked_rate
from ._check import show, u64
from ._outcome import response_hint
from .budget import RetryBudget
from ._events import RetryEvent
from .http import classify_grpc, classify_http
from ._policy import Policy
from ._run import Run
from .send_rate import SendRate
from .shared import SharedSendRate
from ._transport import failure_of, is_transport_error
from ._seeds import CallSeeds

__all__ = ["Retry", "AsyncRetry", "RetryError", "classify", "server_hint"]

R = TypeVar("R")
if TYPE_CHECKING:
    from typing_extensions import ParamSpec, Self

    P = ParamSpec("P")

# The core's max_elapsed_ms is a u32 of milliseconds.
_MAX_DEADLINE_S = (2**32 - 1) // 1000


class RetryError(errors.RetryError, api_exceptions.RetryError):
    """The give-up of `Retry`: a `google.api_core.exceptions.RetryError` (its `message` and
    `cause`, the last exception) that is also `seeded_backoff.RetryError` (`attempts`, `reason`)."""

    def __init__(self, attempts: int, reason: Optional[str], cause: Any) -> None:
        errors.RetryError.__init__(self, attempts, reason, cause)
        self.message = str(self)


def _status_and_code(exc: BaseException) -> Tuple[Optional[int], Optional[int]]:
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
        return classify_http(status)
    if code is not None:
        return classify_grpc(code)
    return "invalid"


def server_hint(exc: BaseException, now_s: Optional[float] = None) -> Dict[str, Any]:
    """The server's hint on a failed call as `Backoff.next_delay` keywords, read from the HTTP
    response a REST error carries (`exc.response`): `retry_after_ms`, or `rate_limit_ms` for a 429
    without a valid Retry-After, or nothing. Invalid header values are ignored. The one place that
    reads headers here."""
    response = getattr(exc, "response", None)
    status, _ = _status_and_code(exc)
    if response is None or status is None:
        return {}
    return response_hint(response, status, time.time() if now_s is None else now_s)


class _Run:
    """One call's loop state: a shell over the core's Run (SPEC.md section 15), which numbers the
    attempts, counts the clock, charges and refunds the budget and decides each delay; this reads
    the error's class and hint."""

    def __init__(self, retry: "_Seeded") -> None:
        self.r = retry
        self.call = Call(Run(retry.policy, retry._seeds.next_seed()), retry.clock, retry.send_rate)

    @staticmethod
    def worth(r: "_Seeded", exc: BaseException) -> Optional[Dict[str, Any]]:
        """The hint to retry `exc` with, None when it is not worth a retry: `retry_on`, the API
        error's class, or a transport error; or the caller's `with_predicate`."""
        retryable = classify(exc) == "retry"
        if r._user_predicate is not None:
            worth = isinstance(exc, Exception) and r._user_predicate(exc)
        else:
            worth = isinstance(exc, r.retry_on) or retryable or is_transport_error(exc)
        if not worth:
            return None
        return server_hint(exc) if retryable else {}

    def delay_after(self, exc: Exception, on_error: Optional[Callable[[Exception], Any]] = None) -> Optional[int]:
        """The delay in ms before the next attempt, None when `exc` is not worth a retry; raises
        RetryError when the run gives up."""
        hint = self.worth(self.r, exc)
        answer = answer_of(_status_and_code(exc)[0], hint)
        if hint is None:
            if self.r.send_rate is not None:
                self.call.failed(None, answer=answer)
            return None
        if on_error is not None:
            on_error(exc)
        return self.call.next_delay(hint, exc, budget=self.r.budget, failure_kind=failure_of(exc),
                                    on_retry=self.r.on_retry, give_up=RetryError, answer=answer)

    def turn(self) -> Optional[int]:
        """None when the attempt may go, else the send rate's wait in ms; raises RetryError when
        the run gave up before the attempt."""
        return self.call.turn(give_up=RetryError)

    def woke(self) -> None:
        self.call.woke()

    def succeeded(self) -> None:
        self.call.succeeded(budget=self.r.budget)


def _with_deadline(policy: Policy, deadline_ms: int) -> Policy:
    """`policy` with max_elapsed_ms at most `deadline_ms`."""
    if policy.max_elapsed_ms and policy.max_elapsed_ms <= deadline_ms:
        return policy
    return policy.replace(max_elapsed_ms=deadline_ms)


def _callable(name: str, value: Any) -> Any:
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable, got {show(value)}")
    return value


class _Seeded:
    """What `Retry` and `AsyncRetry` share: their checked options, and google-api-core's `with_*`
    copies (a GAPIC client takes only google-api-core's classes as `retry=`, so these subclass
    them; their own delay fields are replaced by the policy)."""

    policy: Policy
    seed: Optional[int]
    budget: Optional[RetryBudget]
    on_retry: Optional[Callable[[RetryEvent], Any]]
    sleep: Callable[[float], Any]
    clock: Clock
    retry_on: Tuple[Type[BaseException], ...]
    send_rate: Optional[Union[SendRate, SharedSendRate]]
    _user_predicate: Optional[Callable[[Exception], bool]]
    _default_sleep: Callable[[float], Any]

    def __init__(self, policy: Optional[Policy] = None, *, seed: Optional[int] = None,
                 deadline: Optional[float] = None, budget: Optional[RetryBudget] = None,
                 on_retry: Optional[Callable[[RetryEvent], Any]] = None,
                 sleep: Optional[Callable[[float], Any]] = None, clock: Clock = time.monotonic,
                 retry_on: Tuple[Type[BaseException], ...] = (), send_rate: Optional[Union[SendRate, SharedSendRate]] = None) -> None:
        self.send_rate = checked_rate(send_rate)
        base = self._options(policy, seed, deadline, budget, on_retry, sleep, clock, retry_on)
        # google-api-core's Retry or AsyncRetry, next in the subclass's order.
        cast(Any, super()).__init__(**base)

    def _options(self, policy: Optional[Policy], seed: Optional[int], deadline: Optional[float],
                 budget: Optional[RetryBudget], on_retry: Optional[Callable[[RetryEvent], Any]],
                 sleep: Optional[Callable[[float], Any]], clock: Clock,
                 retry_on: Tuple[Type[BaseException], ...]) -> Dict[str, Any]:
        """Checks and keeps the options; returns google-api-core's constructor arguments."""
        if policy is None:
            policy = Policy("google")
        elif not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        if deadline is not None:
            policy = _with_deadline(policy, _deadline_ms(deadline))
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
        self.sleep = _callable("sleep", sleep) or self._default_sleep
        self.clock = clock
        self.retry_on = retry_on
        self._user_predicate = None
        # google-api-core's view of the policy, for its __str__ and attributes (never run).
        return dict(predicate=self._worth_retrying, initial=policy.initial_ms / 1000,
                    maximum=policy.max_backoff_ms / 1000, multiplier=float(policy.multiplier),
                    timeout=None if deadline is None else float(deadline))

    def _worth_retrying(self, exc: Exception) -> bool:
        """google-api-core's `predicate`: whether this object retries `exc`."""
        return _Run.worth(self, exc) is not None

    def _copy(self, **changes: Any) -> Self:
        new = copy.copy(self)
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def with_timeout(self, timeout: Optional[float]) -> Self:
        """A copy whose deadline is `timeout` seconds (None: the policy's own max_elapsed_ms)."""
        policy = self.policy if timeout is None else _with_deadline(self.policy, _deadline_ms(timeout))
        return self._copy(policy=policy, _timeout=timeout, _deadline=timeout)

    def with_deadline(self, deadline: Optional[float]) -> Self:
        return self.with_timeout(deadline)

    def with_predicate(self, predicate: Callable[[Exception], bool]) -> Self:
        """A copy that retries what `predicate(exc)` says instead of its own classification (a
        response's Retry-After still bounds the delay)."""
        if not callable(predicate):
            raise TypeError(f"predicate must be callable, got {show(predicate)}")
        return self._copy(_user_predicate=predicate, _predicate=predicate)

    def with_delay(self, initial: Optional[float] = None, maximum: Optional[float] = None,
                   multiplier: Optional[float] = None) -> Self:
        """A copy whose policy has these `initial` and `maximum` delays (seconds) and `multiplier`."""
        policy = self.policy.replace(
            initial_ms=None if initial is None else _ms("initial", initial),
            max_backoff_ms=None if maximum is None else _ms("maximum", maximum), multiplier=multiplier)
        return self._copy(policy=policy, _initial=policy.initial_ms / 1000,
                          _maximum=policy.max_backoff_ms / 1000, _multiplier=float(policy.multiplier))

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} policy={self.policy!r} seed={self.seed}>"

    __str__ = __repr__


def _ms(name: str, seconds: Any) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{name} must be seconds (an int or float), got {show(seconds)}")
    if not (math.isfinite(seconds) and 0 <= seconds <= _MAX_DEADLINE_S):
        raise ValueError(f"{name} must be seconds in 0..={_MAX_DEADLINE_S}, got {show(seconds)}")
    return round(seconds * 1000)


def _deadline_ms(deadline: Any) -> int:
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)):
        raise TypeError(f"deadline must be seconds (an int or float), got {show(deadline)}")
    if not (math.isfinite(deadline) and 0.001 <= deadline <= _MAX_DEADLINE_S):
        raise ValueError(f"deadline must be seconds in 0.001..={_MAX_DEADLINE_S}, got {show(deadline)}")
    return round(deadline * 1000)


class Retry(_Seeded, retries.Retry):
    """A `retry=` for a synchronous GAPIC method (or any function): `client.get_instance(name=...,
    retry=Retry(seed=7))`. A `google.api_core.retry.Retry`, whose delays and decisions are the core's.

    - `policy`: a Policy (default: Google's preset, `Policy("google")`).
    - `seed`: call i through this Retry (in the order the calls start) runs with
      `call_seed(seed, i)` (SPEC.md section 14): each call its own delays, the same calls in the
      same order the same delays (tests); omitted, the seed is drawn once.
    - `deadline`: seconds since the first attempt within which a retry must start (see the module's
      notes on `timeout=`); it lowers the policy's max_elapsed_ms.
    - `budget`: a RetryBudget shared by the calls to one service.
    - `on_retry(event)`: told of each retry before its sleep, with a `RetryEvent` (`attempt`, the
      one that just failed, from 1; `delay_ms`; `error`), as `retry` tells it.
    - `sleep(seconds)`, `clock()`: time.sleep and time.monotonic by default.
    - `retry_on`: exception classes retried whatever they carry, beside the retryable API errors
      and the transport errors retried by default.
    - `send_rate`: a SendRate shared by every call to one service: each attempt, the first
      included, waits for it, and each answer is told to it (a 429 is a throttle), as `retry`'s.

    Giving up raises `RetryError` (this module's: a `google.api_core.exceptions.RetryError` with
    `attempts`, `reason` and `cause`), chained to the last exception; an error that is not worth a
    retry (a 404, a 400, a bug) is raised as it is.
    """

    _default_sleep: Callable[[float], Any] = staticmethod(time.sleep)

    def __call__(self, func: Callable[P, R], on_error: Optional[Callable[[Exception], Any]] = None) -> Callable[P, R]:
        if not callable(func):
            raise TypeError(f"the wrapped function must be callable, got {show(func)}")
        on_error = self._on_error or on_error

        @functools.wraps(func)
        def attempts(*args: P.args, **kwargs: P.kwargs) -> R:
            run = _Run(self)
            while True:
                wait = run.turn()
                if wait is not None:
                    self.sleep(wait / 1000)
                    run.woke()
                    continue
                try:
                    result = func(*args, **kwargs)
                except Exception as exc:  # noqa: BLE001 (classified; others re-raised)
                    delay = run.delay_after(exc, on_error)
                    if delay is None:
                        raise
                    self.sleep(delay / 1000)
                    run.woke()
                else:
                    run.succeeded()
                    return result

        return attempts


class AsyncRetry(_Seeded, retries.AsyncRetry):
    """`Retry` for the async GAPIC clients (`...AsyncClient`), a `google.api_core.retry.AsyncRetry`:
    the wrapped coroutine function is awaited, `sleep` is asyncio.sleep by default (a sleep
    returning an awaitable is awaited)."""

    @staticmethod
    def _default_sleep(seconds: float) -> Any:
        import asyncio
        return asyncio.sleep(seconds)

    def __call__(self, func: Callable[..., Awaitable[R]],
                 on_error: Optional[Callable[[Exception], Any]] = None) -> Callable[P, Awaitable[R]]:
        if not callable(func):
            raise TypeError(f"the wrapped function must be callable, got {show(func)}")
        on_error = self._on_error or on_error

        @functools.wraps(func)
        async def attempts(*args: P.args, **kwargs: P.kwargs) -> R:
            run = _Run(self)
            while True:
                wait = run.turn()
                if wait is not None:
                    pending = self.sleep(wait / 1000)
                    if inspect.isawaitable(pending):
                        await pending
                    run.woke()
                    continue
                try:
                    # A GAPIC async method may return an awaitable that is no coroutine (a gRPC call).
                    result: Any = func(*args, **kwargs)
                    if inspect.isawaitable(result):
                        result = await result
                except Exception as exc:  # noqa: BLE001 (classified; others re-raised)
                    delay = run.delay_after(exc, on_error)
                    if delay is None:
                        raise
                    pending = self.sleep(delay / 1000)
                    if inspect.isawaitable(pending):
                        await pending
                    run.woke()
                else:
                    run.succeeded()
                    return cast(R, result)

        return attempts
