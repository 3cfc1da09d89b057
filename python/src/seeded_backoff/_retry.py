"""retry: a decorator that retries a function (plain or `async def`) with a seeded backoff.

It retries transport errors (a refused, reset or timed-out connection: `is_transport_error`), or
the exceptions named by `retry_on`, and responses with a retryable HTTP status (429 or 5xx, read
duck-typed from `status_code`, as requests and httpx give it, returned or carried by a raised
error) whose `Retry-After` header is a lower bound on the next delay; a 429 without a valid one is
read for the rate-limit headers (SPEC.md section 8.3). Every decision comes from the core's Run,
which numbers the attempts, counts the time spent in the calls against `max_elapsed_ms`, charges
and refunds a shared budget and decides each delay; behind a shared SendRate it also gates every
attempt and is told every answer (SPEC.md section 15.2). This module calls, sleeps and reads outcomes.
"""

from __future__ import annotations

import asyncio
import difflib
import functools
import inspect
import time
from typing import (TYPE_CHECKING, Any, Awaitable, Callable, Dict, Optional, Tuple, Type, TypeVar, Union, cast,
                    overload)

from ._call import Answer, Call, Clock, answer_of, any_rate
from ._check import show, u64
from ._outcome import Exceptions, exceptions, hint_of, response_of, should_retry, status_of
from .budget import RetryBudget
from ._events import RetryEvent
from .http import is_retryable_http
from ._policy import Policy, PolicyOptions
from ._run import Run
from ._errors import RetryError
from .shared import AnyBudget, AnySendRate, AsyncSharedBudget, SharedBudget
from ._store_event import Steps, async_parts, drive, drive_async, sync_part
from ._transport import failure_of

R = TypeVar("R")

if TYPE_CHECKING:
    from typing_extensions import ParamSpec, Protocol, Unpack

    P = ParamSpec("P")

    class _Decorator(Protocol):
        """What `retry(...)` with options returns: a decorator that keeps the signature."""

        def __call__(self, fn: Callable[P, R], /) -> Callable[P, R]: ...
from ._seeds import CallSeeds

__all__ = ["retry"]

RetryOn = Union[Type[BaseException], Tuple[Type[BaseException], ...], None]

class _Attempts:
    """One call's retry loop, shared by the sync and async wrappers: a shell over the core's Run
    (SPEC.md section 15) that classifies each outcome and reads its hint."""

    def __init__(self, options: "_Options", start: bool = True) -> None:
        self.o = options
        self.call = Call(Run(options.policy, options.seeds.next_seed()), options.clock, options.send_rate, start)

    def returned(self, result: Any) -> "Steps[Optional[int]]":
        """The delay in ms before retrying the returned `result`, None when it is final (a
        success, recorded); raises RetryError when the run gives up. Steps (`drive`)."""
        status = status_of(result)
        if status is not None and is_retryable_http(status):
            hint = hint_of(result, False)
            return (yield from self._delay(result, hint, answer_of(status, hint)))
        if self.o.retry_if_result is not None and self.o.retry_if_result(result):
            return (yield from self._delay(result, {}, answer_of(status, {})))
        yield from self.call._succeeded(None, self.o.budget, answer_of(status, {}))
        return None

    def raised(self, error: BaseException) -> "Steps[Optional[int]]":
        """The delay in ms before retrying after `error`, None when it is not worth a retry (the
        caller re-raises it); raises RetryError when the run gives up. Steps (`drive`)."""
        status = status_of(response_of(error, True))
        if not should_retry(error, True, self.o.retry_on):
            if self.o.send_rate is not None:
                # Not retried, but the answer still tells the send rate what the server took.
                yield from self.call._failed(None, None, None, "error", answer_of(status, {}), None)
            return None
        hint = hint_of(error, True)
        return (yield from self._delay(error, hint, answer_of(status, hint)))

    def _delay(self, last: Any, hint: Dict[str, Any], answer: Answer) -> "Steps[int]":
        return (yield from self.call._next_delay(hint, last, self.o.budget, failure_of(last), self.o.on_retry,
                                                 RetryError, answer))

    def turn(self) -> Optional[int]:
        """None when the attempt may go, else the send rate's wait in ms; raises RetryError when
        the run gave up before the attempt."""
        return self.call.turn()


class _Options:
    """The decorator's checked arguments."""

    policy: Policy
    seed: Optional[int]
    seeds: CallSeeds
    retry_on: Optional[Exceptions]
    retry_if_result: Optional[Callable[[Any], bool]]
    budget: Optional[AnyBudget]
    sleep: Optional[Callable[[float], Any]]
    clock: Clock
    on_retry: Optional[Callable[[RetryEvent], Any]]
    send_rate: Optional[AnySendRate]


def _callable(name: str, value: Any, required: bool = False) -> Any:
    if value is None and not required:
        return None
    if not callable(value):
        raise TypeError(f"{name} must be callable, got {show(value)}")
    return value


@overload
def retry(fn: Callable[P, R], /) -> Callable[P, R]: ...


@overload
def retry(fn: None = None, /, *, policy: Optional[Policy] = None, seed: Optional[int] = None,
          retry_on: RetryOn = None, retry_if_result: Optional[Callable[[Any], bool]] = None,
          budget: Optional[AnyBudget] = None, sleep: Optional[Callable[[float], Any]] = None,
          clock: Clock = time.monotonic, on_retry: Optional[Callable[[RetryEvent], Any]] = None,
          send_rate: Optional[AnySendRate] = None, **policy_options: Unpack[PolicyOptions]) -> _Decorator: ...


def retry(fn: Optional[Callable[..., Any]] = None, /, *, policy: Optional[Policy] = None,
          seed: Optional[int] = None, retry_on: RetryOn = None,
          retry_if_result: Optional[Callable[[Any], bool]] = None, budget: Optional[AnyBudget] = None,
          sleep: Optional[Callable[[float], Any]] = None, clock: Clock = time.monotonic,
          on_retry: Optional[Callable[[RetryEvent], Any]] = None, send_rate: Optional[AnySendRate] = None,
          **policy_options: Any) -> Any:
    """Retries `fn` by `policy` (or a Policy built from `policy_options`, e.g. `preset='aws_standard',
    max_retries=5`; default: Google's). The decorated function keeps its signature (for type
    checkers too), plain or `async def`.

    - What is retried: a raised transport error (`is_transport_error`: a refused, reset or
      timed-out connection, in Python's terms or requests', httpx's, aiohttp's), or, when
      `retry_on` is given, the exception class(es) it names instead; other exceptions propagate
      at once, so a bug (a KeyError) is not retried.
    - A response with a retryable `status_code` (429, 5xx), returned or carried by a raised error
      (`raise_for_status()`), is retried, its `Retry-After` header honoured; a 429 without a
      valid one waits for the first rate-limit header of RATE_LIMIT_HEADERS that parses (a 5xx's
      are not read). A raised error carrying any other status is not retried.
      `retry_if_result(result)` may ask to retry other results.
    - `seed`: call i of the decorated function runs with `call_seed(seed, i)` (SPEC.md section 14):
      each call its own delays, and the same calls in the same order the same delays (tests);
      omitted, the seed is drawn from the OS.
    - `sleep(seconds)`: time.sleep or asyncio.sleep by default; an async function's `sleep` may
      return an awaitable. `clock()`: monotonic seconds (time spent in calls counts against
      max_elapsed_ms).
    - `budget`: a RetryBudget shared between calls; `on_retry(event)` is told of each retry with a
      RetryEvent (`attempt`, counted from 1, `delay_ms`, `error`).
    - `send_rate`: a SendRate shared by every call to one server (threads and asyncio tasks alike):
      the run asks it before every attempt, the first included, sleeps the wait it tells, and
      answers it each response (a 429, or a 503 with a hint, is a throttle). With it, `clock` must
      read the SendRate's clock (time.monotonic, the default, does).
    - A fleet shares both through a store (`seeded_backoff.shared`): a plain function takes a
      SharedBudget and a SharedSendRate (over a sync client), an `async def` those or an
      AsyncSharedBudget and an AsyncSharedSendRate (over an asyncio client), whose decisions it
      awaits; an asyncio part given for a plain function is a TypeError naming it.

    Giving up raises RetryError (`attempts`, `reason`, `cause`), raised from the last exception
    (reason 'throttled', no cause, when a fail-fast send rate refused the first attempt).

    >>> calls = []
    >>> @retry(seed=42, sleep=calls.append)
    ... def flaky():
    ...     if len(calls) < 2:
    ...         raise ConnectionError("refused")
    ...     return "ok"
    >>> flaky(), calls
    ('ok', [1.616, 2.41])
    """
    _known_keywords(policy_options)
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
    o.retry_on = exceptions("retry_on", retry_on)
    o.retry_if_result = _callable("retry_if_result", retry_if_result)
    if budget is not None and not isinstance(budget, (RetryBudget, SharedBudget, AsyncSharedBudget)):
        raise TypeError(f"budget must be a RetryBudget, got {show(budget)}")
    o.budget = budget
    o.sleep = _callable("sleep", sleep)
    o.clock = _callable("clock", clock, required=True)
    o.on_retry = _callable("on_retry", on_retry)
    o.send_rate = any_rate(send_rate)
    async_parts(o.budget, o.send_rate)

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        _callable("the decorated function", f, required=True)
        # A generator function returns at its first call, before its body runs: a retry around
        # that call would retry nothing, so it is refused rather than silently not retried.
        if inspect.isgeneratorfunction(f) or inspect.isasyncgenfunction(f):
            raise TypeError(f"retry() cannot retry the generator function {f.__qualname__}: calling it "
                            "runs none of its body; decorate a function that consumes it")
        if inspect.iscoroutinefunction(f):
            return _async_wrapper(f, o)
        # A shared part over an asyncio client decides in coroutines: only an async def awaits them.
        sync_part("budget", o.budget)
        sync_part("send_rate", o.send_rate)
        return _sync_wrapper(f, o)

    return decorate if fn is None else decorate(fn)


def _known_keywords(given: "dict[str, Any]") -> None:
    """Refuses a keyword that is neither retry()'s nor a policy option, naming retry() (the
    function the caller called, not Policy) and the nearest name."""
    for name in given:
        if name not in PolicyOptions.__annotations__:
            known = [*inspect.signature(retry).parameters, *PolicyOptions.__annotations__]
            near = difflib.get_close_matches(name, [k for k in known if k not in ("fn", "policy_options")], n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise TypeError(f"retry() got an unexpected keyword argument {name!r}{hint}")


def _sync_wrapper(f: Callable[..., Any], o: _Options) -> Callable[..., Any]:
    sleep = o.sleep or time.sleep

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        run = _Attempts(o)
        while True:
            wait = run.turn()
            if wait is not None:
                sleep(wait / 1000)
                run.call.woke()
                continue
            try:
                result = f(*args, **kwargs)
            except BaseException as e:
                delay = drive(run.raised(e))
                if delay is None:
                    raise
            else:
                delay = drive(run.returned(result))
                if delay is None:
                    return result
            sleep(delay / 1000)
            run.call.woke()

    return wrapper


def _async_wrapper(f: Callable[..., Awaitable[Any]], o: _Options) -> Callable[..., Any]:
    sleep = o.sleep or asyncio.sleep

    @functools.wraps(f)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        # The run's events are awaited: a shared part over an asyncio client decides in them.
        run = _Attempts(o, start=False)
        await run.call.astart()
        while True:
            wait = run.turn()
            if wait is not None:
                await _slept(sleep, wait)
                await run.call.awoke()
                continue
            try:
                result = await f(*args, **kwargs)
            except BaseException as e:
                delay = await drive_async(run.raised(e))
                if delay is None:
                    raise
            else:
                delay = await drive_async(run.returned(result))
                if delay is None:
                    return result
            await _slept(sleep, delay)
            await run.call.awoke()

    return cast(Callable[..., Any], wrapper)


async def _slept(sleep: Callable[[float], Any], ms: int) -> None:
    """Sleeps `ms` with an async loop's `sleep`, which may return an awaitable."""
    pending = sleep(ms / 1000)
    if inspect.isawaitable(pending):
        await pending
