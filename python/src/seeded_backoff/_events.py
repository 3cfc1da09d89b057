"""RetryEvent: what `retry(on_retry=...)` is told before each sleep, one object with the field names
every binding uses (SPEC.md section 14): `attempt` (the number of the attempt that just failed, the
first attempt being 1), `delay_ms` (the wait before the next attempt) and `error` (the exception
raised or the response returned)."""

from dataclasses import dataclass
from typing import Any

__all__ = ["RetryEvent"]


@dataclass(frozen=True)
class RetryEvent:
    """One retry: attempt `attempt` failed with `error`; the next comes after `delay_ms` ms."""

    attempt: int
    delay_ms: int
    error: Any
