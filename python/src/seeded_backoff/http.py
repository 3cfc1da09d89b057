"""HTTP and gRPC helpers: Retry-After parsing (RFC 9110: delta-seconds and the three HTTP-date
forms), the rate-limit headers of a 429 (SPEC.md section 8.3) and status classification, all
decided by the core."""

from __future__ import annotations

import datetime
import math
import time
from typing import Any, Dict, List, Tuple, Type, Union

from ._check import integer, show
from ._ffi import U32_MAX, U64_MAX, ffi, lib, table, text
from ._errors import CoreError, RateLimitError, RetryAfterError

__all__ = ["parse_retry_after", "parse_rate_limit", "rate_limit_applies", "RATE_LIMIT_HEADERS",
           "is_retryable_http", "classify_http", "classify_grpc", "hint_from_headers",
           "request_may_retry", "RetryAfterError", "RateLimitError"]

RetryAfterError.__module__ = RateLimitError.__module__ = __name__

CLASSES = table(lib.sb_class_name)

RATE_LIMIT_HEADERS = table(lib.sb_rate_limit_name)
"""The rate-limit headers' names in lower case, in the order a 429 is searched (the core's)."""


def _now_s(now: Union[datetime.datetime, int, float, None]) -> int:
    if now is None:
        return int(time.time())
    if isinstance(now, datetime.datetime):
        if now.tzinfo is None:
            raise ValueError("now must be a timezone-aware datetime (e.g. datetime.now(timezone.utc)), got a naive one")
        return max(0, math.floor(now.timestamp()))
    if isinstance(now, bool) or not isinstance(now, (int, float)):
        raise TypeError(f"now must be a datetime or Unix seconds (an int or float), got {show(now)}")
    if not (isinstance(now, int) or math.isfinite(now)) or not 0 <= now <= U64_MAX:
        raise ValueError(f"now must be Unix seconds in 0..=18446744073709551615, got {show(now)}")
    return math.floor(now)


def _value_bytes(value: Any, error: Type[CoreError]) -> bytes:
    """The header value's bytes. A str that UTF-8 cannot encode (a lone surrogate) is no header
    value: refused as `error` with the core's 'invalid_format', as any non-ASCII byte would be."""
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:
            raise error(lib.SB_ERR_PARSE_INVALID_FORMAT, f" (not encodable as UTF-8), got {show(value)}") from None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"value must be a str or bytes, got {show(value)} ({type(value).__name__})")


def parse_retry_after(value: Union[str, bytes, bytearray, memoryview],
                      now: Union[datetime.datetime, int, float, None] = None) -> int:
    """A Retry-After header value as milliseconds from `now` (a datetime, or Unix seconds; default:
    the system clock): delta-seconds ("120") or an HTTP-date in any of its three forms; a past date
    gives 0. Raises RetryAfterError (a ValueError, with `.code` such as 'bad_month') otherwise.

    >>> parse_retry_after("120")
    120000
    >>> parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now=784111777 - 30)
    30000
    """
    data = _value_bytes(value, RetryAfterError)
    now_s = _now_s(now)
    out = ffi.new("uint32_t *")
    status = lib.sb_parse_retry_after(data, len(data), now_s, out)
    if status != lib.SB_OK:
        raise RetryAfterError(status, f", got {show(value)}")
    return int(out[0])


def _rate_limit_kind(header: Any) -> int:
    """The `SB_RATE_LIMIT_*` code of a header name, any ASCII case."""
    rule = f"header must be one of {', '.join(repr(n) for n in RATE_LIMIT_HEADERS)} (any case)"
    if not isinstance(header, str):
        raise TypeError(f"{rule}, got {show(header)} ({type(header).__name__})")
    folded = header.lower() if header.isascii() else None
    if folded not in RATE_LIMIT_HEADERS:
        raise ValueError(f"{rule}, got {show(header)}")
    return RATE_LIMIT_HEADERS.index(folded)


def parse_rate_limit(header: str, value: Union[str, bytes, bytearray, memoryview],
                     now: Union[datetime.datetime, int, float, None] = None) -> int:
    """A rate-limit header's value as milliseconds until the quota resets, from `now` (as for
    parse_retry_after). `header` is one of RATE_LIMIT_HEADERS in any case: 'RateLimit' (the IETF
    structured field), 'RateLimit-Reset', 'X-RateLimit-Retry-After' or 'X-RateLimit-Reset'
    (seconds, fractions allowed; above 10**9 a Unix time). Raises RateLimitError (a ValueError,
    with `.code` 'empty', 'negative' or 'invalid_format') for a value that does not parse. Read
    these headers only for a 429 without a valid Retry-After (`rate_limit_applies`), in the order
    of RATE_LIMIT_HEADERS, and pass the first that parses as `next_delay(rate_limit_ms=...)`.

    >>> parse_rate_limit("RateLimit", '"default";r=0;t=30')
    30000
    >>> parse_rate_limit("X-RateLimit-Reset", "1700000060", now=1700000000)
    60000
    """
    kind = _rate_limit_kind(header)
    data = _value_bytes(value, RateLimitError)
    now_s = _now_s(now)
    out = ffi.new("uint32_t *")
    status = lib.sb_parse_rate_limit(kind, data, len(data), now_s, out)
    if status != lib.SB_OK:
        raise RateLimitError(status, f", got {show(value)} for {RATE_LIMIT_HEADERS[kind]}")
    return int(out[0])


def rate_limit_applies(status: int) -> bool:
    """True for the HTTP statuses whose rate-limit headers are read: 429 only (on a 5xx the reset
    time describes a quota, not the server's recovery)."""
    return bool(lib.sb_rate_limit_applies(_code("status", status)))


def _code(name: str, value: Any) -> int:
    # Any int is a question with an answer: beyond u32, however large, it is no status at all
    # ('invalid'), so the range checked is none.
    v = integer(name, value, -math.inf, math.inf, rule=f"{name} must be an integer")
    return v if 0 <= v <= U32_MAX else U32_MAX


def is_retryable_http(status: int) -> bool:
    """True for the HTTP statuses worth retrying: 429 and 5xx."""
    return bool(lib.sb_is_retryable_http(_code("status", status)))


def classify_http(status: int) -> str:
    """'success' (2xx), 'retry' (429, 5xx), 'do_not_retry' (other 1xx-5xx) or 'invalid'."""
    return text(lib.sb_class_name(lib.sb_classify_http(_code("status", status)))) or "invalid"


def classify_grpc(code: int) -> str:
    """'success' (0), 'retry' (8, 14), 'do_not_retry' (other 1..=16) or 'invalid'."""
    return text(lib.sb_class_name(lib.sb_classify_grpc(_code("code", code)))) or "invalid"


def _occurrences(headers: Any) -> Any:
    """A mapping's (name, value) items, one per occurrence (httpx's `multi_items()`), or a list of
    pairs as given."""
    if callable(getattr(headers, "multi_items", None)):
        return headers.multi_items()
    return headers.items() if hasattr(headers, "items") else headers


def _header_items(headers: Any) -> List[Tuple[bytes, ...]]:
    """A response's headers as (name, value) byte pairs, in order, one per occurrence (SPEC.md
    section 8.3: of a name given twice the first counts). httpx's `items()` joins repeated names
    into one value, so its `multi_items()` is read; aiohttp's multidict, urllib3's HTTPHeaderDict
    and plain mappings yield each occurrence from `items()`; a list of pairs is taken as is."""
    items = _occurrences(headers)
    try:
        pairs = list(items)
    except TypeError:
        raise TypeError(f"headers must be a mapping or (name, value) pairs, got {show(headers)}") from None
    out: List[Tuple[bytes, ...]] = []
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise TypeError(f"headers must be a mapping or (name, value) pairs, got {show(pair)} among them")
        try:
            out.append(tuple(_value_bytes(x, RetryAfterError) for x in pair))
        except RetryAfterError:
            # Not encodable as UTF-8 (a lone surrogate): no header the core can read, so it is
            # passed over as an unparseable value would be.
            continue
    return out


def hint_from_headers(status: int, headers: Any,
                      now: Union[datetime.datetime, int, float, None] = None) -> Dict[str, int]:
    """The server hint a response's headers give, as `next_delay` arguments, by the core's rule
    (SPEC.md section 8.3 step 1): a valid Retry-After (any status) as `retry_after_ms`; else, for a 429,
    the first rate-limit header of RATE_LIMIT_HEADERS that is present and parses, as
    `rate_limit_ms`; else `{}`. Names match in any case; of a name given twice the first counts.

    >>> hint_from_headers(503, {"Retry-After": "120"})
    {'retry_after_ms': 120000}
    >>> hint_from_headers(429, {"X-RateLimit-Reset": "1700000060"}, now=1700000000)
    {'rate_limit_ms': 60000}
    >>> hint_from_headers(503, {"X-RateLimit-Reset": "30"})
    {}
    """
    pairs = _header_items(headers)
    now_s = _now_s(now)
    # cffi keeps each buffer alive as long as its owner object: hold them until the call returns.
    buffers = [(ffi.from_buffer(n), ffi.from_buffer(v)) for n, v in pairs]
    c_headers = ffi.new("sb_header[]", max(1, len(pairs)))
    for c, (n, v), (name, value) in zip(c_headers, buffers, pairs):
        c.name, c.name_len, c.value, c.value_len = n, len(name), v, len(value)
    flag, ms = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    status = lib.sb_hint_from_headers(_code("status", status), c_headers, len(pairs), now_s, flag, ms)
    if status != lib.SB_OK:
        raise CoreError(status)
    if flag[0] == lib.SB_INPUT_RETRY_AFTER:
        return {"retry_after_ms": ms[0]}
    if flag[0] == lib.SB_INPUT_RATE_LIMIT:
        return {"rate_limit_ms": ms[0]}
    return {}


def request_may_retry(method: str, has_idempotency_key: bool = False) -> bool:
    """True when a request may be sent again after a failure (SPEC.md section 7.1): its method is
    idempotent by RFC 9110 section 9.2.2 (GET, HEAD, OPTIONS, PUT, DELETE, TRACE; case-sensitive),
    or it carries an Idempotency-Key header. A POST without one is sent once.

    >>> request_may_retry("PUT"), request_may_retry("POST"), request_may_retry("POST", True)
    (True, False, True)
    """
    if not isinstance(method, str):
        raise TypeError(f"method must be a str such as 'GET', got {show(method)}")
    if not isinstance(has_idempotency_key, bool):
        raise TypeError(f"has_idempotency_key must be True or False, got {show(has_idempotency_key)}")
    data = method.encode("utf-8")
    return bool(lib.sb_request_may_retry(data, len(data), has_idempotency_key))
