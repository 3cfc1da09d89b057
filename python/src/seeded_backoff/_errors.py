"""Exceptions. Errors from the library carry its status, the core's name for it (`code`, as in
tests/vectors) and the core's message; they are ValueErrors, since the value was refused."""

from typing import Any, Optional

from ._check import show
from ._ffi import ffi, lib, message, status_name

__all__ = ["CoreError", "PolicyError", "RetryAfterError", "RateLimitError", "SnapshotError", "BudgetError",
           "PacerError", "RetryError"]


class CoreError(ValueError):
    """A value the core refused. `status` is the C ABI's code, `code` the core's name for it."""

    status: int
    code: Optional[str]

    def __init__(self, status: int, detail: str = "") -> None:
        self.status = status
        self.code = status_name(status)
        super().__init__(message(status) + detail)


class PolicyError(CoreError):
    """A policy option out of its range, or one the chosen strategy has no use for."""

    option: Optional[str]

    def __init__(self, status: int, option: Optional[str], detail: str = "") -> None:
        self.option = option
        super().__init__(status, detail)


class RetryAfterError(CoreError):
    """A Retry-After value that is neither delta-seconds nor an HTTP-date."""


class RateLimitError(CoreError):
    """A rate-limit header value that does not parse ('empty', 'negative' or 'invalid_format')."""


class SnapshotError(CoreError):
    """Snapshot bytes that are damaged, of another policy, or of another format version."""


def restored(c_type: str, restore: Any, policy_c: Any, data: Any) -> Any:
    """A new C state (`c_type`, e.g. "sb_run *") rebuilt by `restore` (the C ABI's
    `sb_*_restore`) from snapshot bytes `data` under the policy `policy_c`: TypeError for data that
    is not bytes, SnapshotError (with `.code`) for bytes the core refuses."""
    from ._check import show

    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, got {show(data)} ({type(data).__name__})")
    data = bytes(data)
    c = ffi.new(c_type)
    status = restore(c, ffi.new("sb_policy *", policy_c), data, len(data))
    if status != lib.SB_OK:
        raise SnapshotError(status, f", got {len(data)} bytes")
    return c


class BudgetError(CoreError):
    """A retry budget parameter out of its range."""


class PacerError(CoreError):
    """A pacer parameter out of its range. `field` names it ('capacity_per_s',
    'reserve_per_mille' or 'max_wait_s'), as the message does."""

    @property
    def field(self) -> Optional[str]:
        """The refused parameter (the core's name for the error)."""
        return self.code


class RetryError(Exception):
    """`retry` gave up. `attempts` calls were made; `reason` is the core's give-up reason
    ('max_retries', 'deadline', 'budget', 'server_stop', 'hint_exceeds_max', or 'throttled': a fail-fast send rate
    refused the attempt); `cause` is the last exception raised or response returned (an exception is also
    `__cause__`: the error is raised from it), None when no attempt was made."""

    attempts: int
    reason: Optional[str]

    def __init__(self, attempts: int, reason: Optional[str], cause: Any) -> None:
        self.attempts = attempts
        self.reason = reason
        self._cause = cause
        what = type(cause).__name__ if isinstance(cause, BaseException) else _describe(cause)
        # Not super(): a subclass that is also another library's error (the Google module's) has
        # that error's constructor next in line.
        counted = f"{attempts} attempt{'' if attempts == 1 else 's'}"
        Exception.__init__(self, f"gave up after {counted} ({reason}); last: {what}")

    @property
    def cause(self) -> Any:
        """The last exception raised or response returned."""
        return self._cause

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> Any:
        return (type(self), (self.attempts, self.reason, self._cause))


def _describe(result: Any) -> str:
    status = getattr(result, "status_code", None)
    return f"HTTP {status}" if status is not None else repr(result)
