"""Backoff: one request's retry state (the C ABI's `sb_backoff`), stepped by the core."""

from __future__ import annotations

import secrets
from typing import Any, Iterator, Optional, Union

from ._check import boolean, integer, show, u64
from ._ffi import U32_MAX, U64_MAX, ffi, lib, message, status_name
from .budget import RetryBudget, failure_code
from ._errors import CoreError, restored
from ._policy import Policy
from ._store_event import run_event
from .shared import AsyncSharedBudget, SharedBudget

__all__ = ["Backoff", "SNAPSHOT_SIZE"]

SNAPSHOT_SIZE = lib.SB_SNAPSHOT_SIZE


def _policy(policy: Any) -> Policy:
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
    return policy


class Backoff:
    """The delays of one request's retries under `policy`, seeded by `seed` (an int in
    0..=2**64-1; omitted, a random one, readable back as `.seed`). The same policy and seed give
    the same delays as the Rust crate, the npm package and the C library. One per request: a
    Backoff is not shared between threads (a RetryBudget is).

    >>> b = Backoff(Policy("google"), seed=42)
    >>> b.next_delay(), b.next_delay()
    (1616, 2410)
    >>> b.retries
    2
    """

    __slots__ = ("_c", "_policy", "_seed")

    _seed: Optional[int]

    def __init__(self, policy: Policy, seed: Optional[int] = None) -> None:
        policy = _policy(policy)
        # An omitted seed is drawn from the OS: never a constant, or clients retry in step.
        seed = secrets.randbits(64) if seed is None else u64("seed", seed)
        c = ffi.new("sb_backoff *")
        status = lib.sb_backoff_init(c, ffi.new("sb_policy *", policy._c), seed)
        if status != lib.SB_OK:  # the Policy was validated, so this is a library fault
            raise CoreError(status)
        self._c, self._policy, self._seed = c, policy, seed

    @property
    def policy(self) -> Policy:
        """The policy this state follows."""
        return self._policy

    @property
    def seed(self) -> Optional[int]:
        """The seed (None for a state restored from a snapshot)."""
        return self._seed

    @property
    def retries(self) -> int:
        """Retries issued since the start or the last reset()."""
        out = ffi.new("uint32_t *")
        self._check(lib.sb_backoff_retries(self._c, out))
        return int(out[0])

    @property
    def give_up_reason(self) -> Optional[str]:
        """None while retrying, else 'max_retries', 'deadline', 'budget', 'server_stop' or 'hint_exceeds_max'."""
        if self._c.gave_up == 0:
            return None
        # A given-up state answers its reason again and changes nothing: ask a copy.
        probe = ffi.new("sb_backoff *", self._c[0])
        return status_name(lib.sb_backoff_next(probe, ffi.new("uint32_t *")))

    def next_delay(self, *, retry_after_ms: Optional[int] = None, elapsed_ms: Optional[int] = None,
                   do_not_retry: bool = False, budget: Optional[Union[RetryBudget, SharedBudget]] = None,
                   failure_kind: str = "error", rate_limit_ms: Optional[int] = None) -> Optional[int]:
        """The delay in ms before the next retry, or None to give up (then `give_up_reason` says
        why, and every later call answers None until reset()). Any combination of inputs:

        - `retry_after_ms`: the server's Retry-After (see parse_retry_after), a lower bound on
          the delay; one beyond the policy's max_hint_ms gives up with 'hint_exceeds_max'
          (never back before the server allows);
        - `elapsed_ms`: ms since the first attempt by your monotonic clock, so time spent in the
          requests counts against max_elapsed_ms (without it, the sum of the delays does);
        - `rate_limit_ms`: a 429's rate-limit reset (see parse_rate_limit): the delay is at
          least that (beyond max_hint_ms: 'hint_exceeds_max') plus an upward jitter of up to 1 s + 10 %, so
          clients told the same reset do not return together; not with `retry_after_ms` or
          `do_not_retry` (one server hint per step);
        - `do_not_retry=True`: the server said stop (gives up with 'server_stop');
        - `budget`: a shared RetryBudget, charged for this `failure_kind` ('error' or 'timeout').

        A refused argument raises and leaves the state (and the budget) unchanged.
        """
        c_input = ffi.new("sb_step_input *")
        flags = 0
        if retry_after_ms is not None:
            c_input.retry_after_ms = integer("retry_after_ms", retry_after_ms, 0, U32_MAX)
            flags |= lib.SB_INPUT_RETRY_AFTER
        if elapsed_ms is not None:
            c_input.elapsed_ms = integer("elapsed_ms", elapsed_ms, 0, U64_MAX)
            flags |= lib.SB_INPUT_ELAPSED
        if boolean("do_not_retry", do_not_retry):
            flags |= lib.SB_INPUT_DO_NOT_RETRY
        if rate_limit_ms is not None:
            c_input.rate_limit_ms = integer("rate_limit_ms", rate_limit_ms, 0, U32_MAX)
            flags |= lib.SB_INPUT_RATE_LIMIT
        c_input.failure_kind = failure_code("failure_kind", failure_kind)
        if budget is not None:
            if not isinstance(budget, (RetryBudget, SharedBudget, AsyncSharedBudget)):
                raise TypeError(f"budget must be a RetryBudget, got {show(budget)} ({type(budget).__name__})")
            flags |= lib.SB_INPUT_BUDGET
        c_input.flags = flags
        delay = ffi.new("uint32_t *")
        # A local budget under its lock; a shared one (seeded_backoff.shared) as one of its decisions.
        status = run_event(self._c, None, budget, None,
                           lambda c_budget, _rate, _now: int(lib.sb_backoff_next_with(self._c, c_input, c_budget, delay)))
        if status == lib.SB_RETRY:
            return int(delay[0])
        if status == lib.SB_ERR_TWO_HINTS:
            # The core's rule (one server hint per step): a call naming two is a wrong call.
            raise TypeError(message(status))
        self._check(status)
        return None

    def reset(self) -> None:
        """Starts over after a success; the random stream continues."""
        self._check(lib.sb_backoff_reset(self._c))

    def __iter__(self) -> Iterator[int]:
        """The remaining delays, until the policy gives up."""
        while True:
            d = self.next_delay()
            if d is None:
                return
            yield d

    def snapshot(self) -> bytes:
        """The state as SB_SNAPSHOT_SIZE (40) bytes: versioned, CRC-protected, tied to the policy."""
        out = ffi.new("uint8_t[]", SNAPSHOT_SIZE)
        self._check(lib.sb_backoff_snapshot(self._c, out))
        return bytes(ffi.buffer(out))

    @classmethod
    def restore(cls, policy: Policy, data: Union[bytes, bytearray, memoryview]) -> "Backoff":
        """A state rebuilt from `snapshot()` bytes taken under `policy`; it continues exactly
        where the snapshot left off. Raises SnapshotError (with `.code`) for damaged bytes, another
        policy's snapshot or another format."""
        policy = _policy(policy)
        c = restored("sb_backoff *", lib.sb_backoff_restore, policy._c, data)
        self: Backoff = object.__new__(cls)
        self._c, self._policy, self._seed = c, policy, None
        return self

    @staticmethod
    def _check(status: int) -> None:
        if status >= lib.SB_ERR_NULL:
            raise CoreError(status)

    def __repr__(self) -> str:
        return f"<Backoff retries={self.retries} give_up_reason={self.give_up_reason!r} seed={self._seed}>"
