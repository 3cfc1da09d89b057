"""What the tenacity and stamina adapters share: one seed per call (call i runs with
`call_seed(seed, i)`, SPEC.md section 14, as every loop of every binding does), the checks of
their arguments, and reading an attempt's outcome as the core's classification and hint."""

from __future__ import annotations

import time
from typing import Any, Optional, Tuple, Type

from ._check import show
from .backoff import Backoff
from .http import is_retryable_status
from .policy import Policy
from .retry import _hint
from .seeds import CallSeeds


def exceptions(name, value) -> Tuple[Type[BaseException], ...]:
    """An exception class or a tuple of them, as `except` takes."""
    classes = value if isinstance(value, tuple) else (value,)
    if not classes or not all(isinstance(c, type) and issubclass(c, BaseException) for c in classes):
        raise TypeError(f"{name} must be an exception class or a tuple of them, got {show(value)}")
    return classes


class Seeds:
    """The seeded Backoffs of successive calls. Thread-safe: calls on several threads take
    distinct seeds."""

    def __init__(self, policy: Policy, seed: Optional[int]) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        self.policy = policy
        # Omitted, the loop's seed is a random one: never a constant, or clients retry in step.
        self._seeds = CallSeeds(seed)

    def backoff(self) -> Backoff:
        return Backoff(self.policy, self._seeds.next_seed())


def status_of(response: Any) -> Optional[int]:
    """The HTTP status of a requests or httpx response (duck-typed `status_code`), else None."""
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def response_of(outcome: Any, raised: bool) -> Any:
    """The response an attempt gave: its result, or the `response` its error carries (requests'
    HTTPError and httpx's HTTPStatusError do)."""
    return getattr(outcome, "response", None) if raised else outcome


def should_retry(outcome: Any, raised: bool, retry_on: Tuple[Type[BaseException], ...]) -> bool:
    """A response with a status the core retries (429, 5xx) is retried, one with any other status is
    not, even when raised; an error without a response is retried if it is one of `retry_on`."""
    status = status_of(response_of(outcome, raised))
    if status is not None:
        return is_retryable_status(status)
    return raised and isinstance(outcome, retry_on)


def next_delay(backoff: Backoff, outcome: Any, raised: bool, elapsed_s: Optional[float]) -> Optional[int]:
    """The core's next delay in ms (None: give up) for an attempt's outcome, with the server hint
    of a retryable response (Retry-After, or a 429's rate-limit headers) and the time spent."""
    response = response_of(outcome, raised)
    status = status_of(response)
    hint = _hint(response, status, time.time()) if status is not None and is_retryable_status(status) else {}
    elapsed = None if elapsed_s is None else max(0, int(elapsed_s * 1000))
    return backoff.next_delay(elapsed_ms=elapsed, **hint)
