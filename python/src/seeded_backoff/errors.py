"""Exceptions. Errors from the library carry its status, the core's name for it (`code`, as in
tests/vectors) and the core's message; they are ValueErrors, since the value was refused."""

from ._ffi import message, status_name

__all__ = ["CoreError", "PolicyError", "RetryAfterError", "RateLimitError", "SnapshotError", "BudgetError",
           "RetryError"]


class CoreError(ValueError):
    """A value the core refused. `status` is the C ABI's code, `code` the core's name for it."""

    def __init__(self, status, detail=""):
        self.status = status
        self.code = status_name(status)
        super().__init__(message(status) + detail)


class PolicyError(CoreError):
    """A policy option out of its range, or one the chosen strategy has no use for."""

    def __init__(self, status, option, detail=""):
        self.option = option
        super().__init__(status, detail)


class RetryAfterError(CoreError):
    """A Retry-After value that is neither delta-seconds nor an HTTP-date."""


class RateLimitError(CoreError):
    """A rate-limit header value that does not parse ('empty', 'negative' or 'invalid_format')."""


class SnapshotError(CoreError):
    """Snapshot bytes that are damaged, of another policy, or of another format version."""


class BudgetError(CoreError):
    """A retry budget parameter out of its range."""


class RetryError(Exception):
    """`retry` gave up. `attempts` calls were made; `reason` is the core's give-up reason
    ('max_retries', 'deadline', 'budget', 'server_stop' or 'hint_exceeds_max'); `cause` is the last exception raised or
    response returned (an exception is also `__cause__`: the error is raised from it)."""

    def __init__(self, attempts, reason, cause):
        self.attempts = attempts
        self.reason = reason
        self.cause = cause
        last = cause
        what = type(last).__name__ if isinstance(last, BaseException) else _describe(last)
        super().__init__(f"gave up after {attempts} attempts ({reason}); last: {what}")


def _describe(result):
    status = getattr(result, "status_code", None)
    return f"HTTP {status}" if status is not None else repr(result)
