"""Reading an attempt's outcome, the one rule every loop of this package shares: a response (the
result returned, or the `response` a raised error carries, as requests' HTTPError and httpx's
HTTPStatusError do) is classified by its HTTP status, its server hint read by the core
(`hint_from_headers`); an error without one is retried when it is one of the caller's exception
classes, or, by default, a transport error (`is_transport_error`)."""

from __future__ import annotations

import time
from typing import Any, Dict, Optional, Tuple, Type

from ._check import show
from .http import _occurrences
from .http import hint_from_headers, is_retryable_http
from ._transport import is_transport_error

Exceptions = Tuple[Type[BaseException], ...]


def exceptions(name: str, value: Any) -> Optional[Exceptions]:
    """An exception class or a tuple of them, as `except` takes; None stays None (the default:
    transport errors, `is_transport_error`)."""
    if value is None:
        return None
    classes = value if isinstance(value, tuple) else (value,)
    if not classes or not all(isinstance(c, type) and issubclass(c, BaseException) for c in classes):
        raise TypeError(f"{name} must be an exception class or a tuple of them, got {show(value)}")
    return classes


def response_hint(result: Any, status: int, now_s: float) -> Dict[str, Any]:
    """The response's server hint as `Run.outcome` keywords: the core's rule
    (`hint_from_headers`) over its headers; none without headers."""
    headers = getattr(result, "headers", None)
    if headers is None or not hasattr(headers, "items"):
        return {}
    # One pair per occurrence (httpx's `items()` joins a repeated name), as hint_from_headers reads
    # them; a response object may carry values of any type, and only text can be a header.
    text = (str, bytes)
    pairs = [(k, v) for k, v in _occurrences(headers) if isinstance(k, text) and isinstance(v, text)]
    return hint_from_headers(status, pairs, now=now_s)


def status_of(response: Any) -> Optional[int]:
    """The HTTP status of a requests or httpx response (duck-typed `status_code`), else None."""
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def response_of(outcome: Any, raised: bool) -> Any:
    """The response an attempt gave: its result, or the `response` its error carries."""
    return getattr(outcome, "response", None) if raised else outcome


def should_retry(outcome: Any, raised: bool, retry_on: Optional[Exceptions]) -> bool:
    """A response with a status the core retries (429, 5xx) is retried, one with any other status is
    not, even when raised; an error without a response is retried if it is one of `retry_on`, or
    by default (None) a transport error."""
    status = status_of(response_of(outcome, raised))
    if status is not None:
        return is_retryable_http(status)
    if not raised:
        return False
    return is_transport_error(outcome) if retry_on is None else isinstance(outcome, retry_on)


def hint_of(outcome: Any, raised: bool) -> Dict[str, Any]:
    """The server hint of a retryable response the attempt returned or its error carries
    (Retry-After, or a 429's rate-limit headers) as `Run.outcome` keywords; else none."""
    response = response_of(outcome, raised)
    status = status_of(response)
    if status is None or not is_retryable_http(status):
        return {}
    return response_hint(response, status, time.time())
