"""Transport errors: what the retry loops retry by default when the caller names no exceptions.

A transport error is a request that got no answer: the connection was refused, reset or timed
out, or the answer broke off. Retrying one is what backoff is for; retrying any other exception (a
`KeyError`, a `TypeError`) only repeats a bug, with sleeps in between. An answer with a status is
not a transport error: the loops classify it by its status (429 and 5xx are retried).

The classes: Python's `ConnectionError` (refused, reset, aborted, broken pipe) and `TimeoutError`
(`socket.timeout`, and `asyncio.TimeoutError`), and those of the HTTP clients people use, looked up
only when the client is already imported (an error of requests is raised only once requests is):
requests' `ConnectionError`, `Timeout` and `ChunkedEncodingError`; httpx's `TimeoutException`,
`NetworkError` and `RemoteProtocolError`; aiohttp's `ClientConnectionError` and
`ClientPayloadError`; urllib3's `ProtocolError`; google-auth's `TransportError`.
"""

from __future__ import annotations

import asyncio
import sys
from typing import List, Tuple, Type

__all__ = ["is_transport_error", "transport_errors", "failure_of"]

# (module, attribute path) of each HTTP client's transport errors.
_CLIENTS = (
    ("requests", ("exceptions.ConnectionError", "exceptions.Timeout", "exceptions.ChunkedEncodingError")),
    ("httpx", ("TimeoutException", "NetworkError", "RemoteProtocolError")),
    ("aiohttp", ("ClientConnectionError", "ClientPayloadError")),
    ("urllib3", ("exceptions.ProtocolError",)),
    ("google.auth", ("exceptions.TransportError",)),
)


# (module, attribute path) of each HTTP client's timeouts: an attempt that ran out of its time.
_TIMEOUTS = (
    ("requests", ("exceptions.Timeout",)),
    ("httpx", ("TimeoutException",)),
    ("aiohttp", ("ServerTimeoutError",)),
)


def _attribute(module: object, path: str) -> object:
    for name in path.split("."):
        module = getattr(module, name, None)
    return module


def _classes(clients: Tuple[Tuple[str, Tuple[str, ...]], ...]) -> List[Type[BaseException]]:
    classes: List[Type[BaseException]] = []
    for module_name, paths in clients:
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for path in paths:
            cls = _attribute(module, path)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                classes.append(cls)
    return classes


def transport_errors() -> Tuple[Type[BaseException], ...]:
    """The transport error classes, those of the HTTP clients imported so far included.

    >>> issubclass(ConnectionResetError, transport_errors()), issubclass(KeyError, transport_errors())
    (True, False)
    """
    return (ConnectionError, TimeoutError, asyncio.TimeoutError, *_classes(_CLIENTS))


def is_transport_error(exc: BaseException) -> bool:
    """Whether `exc` is a transport error (the module's notes): what `retry`, the Google `Retry`
    and the tenacity and stamina adapters retry by default.

    >>> is_transport_error(ConnectionRefusedError()), is_transport_error(KeyError("id"))
    (True, False)
    """
    return isinstance(exc, transport_errors())


def failure_of(error: object) -> str:
    """The run's failure kind of an attempt's error (SPEC.md section 15): 'timeout' for an attempt
    that ran out of its time (Python's `TimeoutError`, requests' `Timeout`, httpx's
    `TimeoutException`, aiohttp's `ServerTimeoutError`), which a budget charges as a timeout;
    'error' for anything else.

    >>> failure_of(TimeoutError()), failure_of(ConnectionResetError())
    ('timeout', 'error')
    """
    timeouts: Tuple[Type[BaseException], ...] = (TimeoutError, asyncio.TimeoutError, *_classes(_TIMEOUTS))
    return "timeout" if isinstance(error, timeouts) else "error"
