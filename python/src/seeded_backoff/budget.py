"""RetryBudget: a token bucket shared by every request to one server (gRFC A6 retry throttling or
the AWS SDKs' retry quota), held in the C ABI's `sb_budget`. Thread-safe: a lock guards it."""

from __future__ import annotations

import math
import threading
from typing import Any, Callable, Dict

from ._check import integer, show
from ._ffi import ffi, lib, status_name
from ._errors import BudgetError

__all__ = ["RetryBudget", "FAILURE_KINDS", "BudgetError"]

BudgetError.__module__ = __name__

# 'error' and 'timeout': the header's SB_FAILURE_* constants, by their names.
FAILURE_KINDS: Dict[str, int] = {n[len("SB_FAILURE_"):].lower(): getattr(lib, n) for n in dir(lib) if n.startswith("SB_FAILURE_")}


def failure_code(name: str, value: Any) -> int:
    if not isinstance(value, str) or value not in FAILURE_KINDS:
        kinds = ", ".join(repr(k) for k in FAILURE_KINDS)
        err = TypeError if not isinstance(value, str) else ValueError
        raise err(f"{name} must be one of {kinds}, got {show(value)}")
    return FAILURE_KINDS[value]


# The core's rule for each argument whose name is not the rule's: the costs share one.
_RULES = {"retry_cost": "cost", "timeout_cost": "cost"}


def _check(status: int, given: Dict[str, int]) -> None:
    """Raises the refusal, naming the values given for the fields its rule is about (retry_cost and
    timeout_cost share one rule, so both are shown)."""
    if status != lib.SB_OK:
        values = [v for n, v in given.items() if _RULES.get(n, n) == status_name(status)]
        raise BudgetError(status, f", got {' and '.join(str(v) for v in values)}" if values else "")


class RetryBudget:
    """A shared retry budget. Build one with `RetryBudget.grpc(...)`, `RetryBudget.aws_quota(...)`
    or `RetryBudget.aws_default()`, and pass it to every `next_delay(budget=...)` or `retry(budget=...)`
    for that server.

    >>> b = RetryBudget.grpc(max_tokens=10, token_ratio=0.1)
    >>> b.tokens
    10.0
    """

    __slots__ = ("_c", "_lock")
    _c: Any  # the sb_budget, owned by cffi
    _lock: threading.Lock

    def __init__(self) -> None:
        raise TypeError("use RetryBudget.grpc(...), RetryBudget.aws_quota(...) or RetryBudget.aws_default()")

    @classmethod
    def _new(cls, init: Callable[[Any], int], given: Dict[str, int]) -> "RetryBudget":
        self: RetryBudget = object.__new__(cls)
        self._c = ffi.new("sb_budget *")
        self._lock = threading.Lock()
        _check(init(self._c), given)
        return self

    @classmethod
    def grpc(cls, max_tokens: int, token_ratio: float) -> "RetryBudget":
        """gRFC A6 throttling: `max_tokens` (1..=1000) tokens, a failure spends one, a success
        refunds `token_ratio` (a number with at most 3 decimals, e.g. 0.1); retries stop while at
        most half the tokens are left."""
        tokens = integer("max_tokens", max_tokens)
        if isinstance(token_ratio, bool) or not isinstance(token_ratio, (int, float)):
            raise TypeError(f"token_ratio must be a number with at most 3 decimals, got {show(token_ratio)}")
        # Checked before scaling: an infinite, NaN or huge ratio has no milli to round to.
        if not (math.isfinite(token_ratio) and 0 <= token_ratio <= 0xFFFF_FFFF / 1000):
            raise ValueError(f"token_ratio must be a number with at most 3 decimals, got {show(token_ratio)}")
        milli = round(token_ratio * 1000)
        if milli / 1000 != token_ratio:
            raise ValueError(f"token_ratio must be a number with at most 3 decimals, got {show(token_ratio)}")
        return cls._new(lambda c: lib.sb_budget_init_grpc(c, tokens, milli),
                        {"max_tokens": tokens, "token_ratio_milli": milli})

    @classmethod
    def aws_quota(cls, capacity: int, retry_cost: int, timeout_cost: int,
                  no_retry_increment: int) -> "RetryBudget":
        """An AWS SDK retry quota in whole tokens."""
        given = {n: integer(n, v) for n, v in (("capacity", capacity), ("retry_cost", retry_cost),
                                                ("timeout_cost", timeout_cost),
                                                ("no_retry_increment", no_retry_increment))}
        return cls._new(lambda c: lib.sb_budget_init_aws_quota(c, *given.values()), given)

    @classmethod
    def aws_default(cls) -> "RetryBudget":
        """The AWS SDKs' default quota: 500 tokens, a retry costs 5, a timeout 10."""
        return cls._new(lib.sb_budget_init_aws_default, {})

    def _call(self, fn: Callable[..., int], *args: Any) -> None:
        with self._lock:
            status = fn(self._c, *args)
        if status != lib.SB_OK:
            raise BudgetError(status)

    def record_failure(self, kind: str = "error") -> None:
        """Records a failed attempt (next_delay(budget=...) does this itself)."""
        self._call(lib.sb_budget_record_failure, failure_code("kind", kind))

    def try_acquire(self, kind: str = "error") -> bool:
        """Asks to retry: True or False (next_delay(budget=...) does this itself)."""
        allowed = ffi.new("bool *")
        self._call(lib.sb_budget_try_acquire, failure_code("kind", kind), allowed)
        return bool(allowed[0])

    def record_success(self, retried: bool = False, kind: str = "error") -> None:
        """Records a success; `retried` is False for a first-try success, else `kind` is the kind of
        failure the successful retry followed."""
        if not isinstance(retried, bool):
            raise TypeError(f"retried must be True or False, got {show(retried)}")
        self._call(lib.sb_budget_record_success, retried, failure_code("kind", kind))

    @property
    def tokens_milli(self) -> int:
        """Tokens left, in thousandths (exact)."""
        out = ffi.new("uint32_t *")
        self._call(lib.sb_budget_tokens_milli, out)
        return int(out[0])

    @property
    def tokens(self) -> float:
        """Tokens left."""
        return self.tokens_milli / 1000

    def __repr__(self) -> str:
        return f"<RetryBudget tokens={self.tokens}>"
