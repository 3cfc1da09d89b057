"""Run: one call's whole retry run (SPEC.md section 15, the C ABI's `sb_run`).

Every retry loop of this package is a shell over it: the loop calls, sleeps and reads the clock,
and the run decides the rest (attempt numbers, elapsed time without pauses, the budget's kind and
refund, the give-up). A loop of your own can use it the same way.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Union

from ._check import integer, one_of, show, u64
from ._ffi import U32_MAX, U64_MAX, ffi, lib, message, status_name
from .budget import RetryBudget, failure_code
from ._errors import CoreError, restored
from ._policy import Policy
from .send_rate import ANSWERS, SendRate
from ._store_event import Event, Steps, drive
from .shared import AsyncSharedBudget as _AsyncSharedBudget, AsyncSharedSendRate as _AsyncSharedSendRate
from .shared import SharedBudget as _SharedBudget, SharedSendRate as _SharedSendRate

__all__ = ["Run", "Action", "RUN_SNAPSHOT_SIZE"]

# The length of Run.snapshot()'s bytes (SPEC.md section 15).
RUN_SNAPSHOT_SIZE: int = int(lib.SB_RUN_SNAPSHOT_SIZE)

_ACTIONS = {lib.SB_ACTION_ATTEMPT: "attempt", lib.SB_ACTION_RETRY: "retry",
            lib.SB_ACTION_WAIT: "wait", lib.SB_ACTION_PAUSED: "paused",
            lib.SB_ACTION_DONE: "done", lib.SB_ACTION_GIVE_UP: "give_up"}
_OUTCOMES = {"success": lib.SB_OUTCOME_SUCCESS, "retryable": lib.SB_OUTCOME_RETRYABLE,
             "permanent": lib.SB_OUTCOME_PERMANENT, "offline": lib.SB_OUTCOME_OFFLINE}
_PAUSES = {"hidden": lib.SB_PAUSE_HIDDEN, "offline": lib.SB_PAUSE_OFFLINE}
_RUN_ERRORS = {lib.SB_ERR_RUN_START, lib.SB_ERR_RUN_OUTCOME, lib.SB_ERR_RUN_WAKE,
               lib.SB_ERR_RUN_PAUSE, lib.SB_ERR_RUN_RESUME, lib.SB_ERR_RUN_FINISHED,
               lib.SB_ERR_RUN_NO_CLOCK}


def _rate(send_rate: Any) -> Any:
    # A local SendRate or a shared one (seeded_backoff.shared); one over an asyncio client is
    # refused by name when a sync event is given it (`drive`).
    if not isinstance(send_rate, (SendRate, _SharedSendRate, _AsyncSharedSendRate)):
        raise TypeError(f"send_rate must be a SendRate, got {show(send_rate)} ({type(send_rate).__name__})")
    return send_rate


class Action(NamedTuple):
    """What the loop does next: `kind` is 'attempt' (make attempt `attempt`), 'retry' (attempt
    `attempt` failed: tell on_retry, sleep `delay_ms`, then wake), 'wait' (sleep `delay_ms`, then
    wake), 'paused' (wait for the pause to end, at most `delay_ms` when not None, then resume),
    'done' (after `attempt` attempts) or 'give_up' (after `attempt` attempts; `reason` is the
    give-up reason, None for a permanent error)."""

    kind: str
    attempt: int = 0
    delay_ms: Optional[int] = None
    reason: Optional[str] = None


class Run:
    """One call's run under `policy`, seeded by `seed`. Events take `now_ms`, a monotonic clock
    reading in ms, or None (a run whose first event has none reads no clock). An event out of
    its phase raises RuntimeError naming it and changes nothing. A run that follows a give-up or
    an outage takes `startup_window_ms`: its start is then a 'wait' of its own draw in that
    window, and the wake after it makes attempt 1 (SPEC.md section 15.3).

    >>> run = Run(Policy("google"), seed=42)
    >>> run.start(now_ms=0)
    Action(kind='attempt', attempt=1, delay_ms=None, reason=None)
    >>> run.outcome("retryable", now_ms=80)
    Action(kind='retry', attempt=1, delay_ms=1616, reason=None)
    >>> run.wake(now_ms=1700).kind, run.outcome("success", now_ms=1750)
    ('attempt', Action(kind='done', attempt=2, delay_ms=None, reason=None))
    """

    __slots__ = ("_c", "_policy")

    def __init__(self, policy: Policy, seed: int, *, count_paused_time: bool = False,
                 startup_window_ms: int = 0) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        seed = u64("seed", seed)
        if not isinstance(count_paused_time, bool):
            raise TypeError(f"count_paused_time must be a bool, got {show(count_paused_time)}")
        # Only the type here: the range (SPEC.md section 15.3) is the core's, told by its status.
        window = integer("startup_window_ms", startup_window_ms, 0, U32_MAX)
        c = ffi.new("sb_run *")
        flags = lib.SB_RUN_COUNT_PAUSED if count_paused_time else 0
        status = lib.sb_run_init(c, ffi.new("sb_policy *", policy._c), seed, flags)
        if status != lib.SB_OK:  # the Policy was validated, so this is a library fault
            raise CoreError(status)
        if window:
            status = lib.sb_run_startup_window(c, window)
            if status != lib.SB_OK:
                raise ValueError(f"{message(status)}, got {window}")
        self._c, self._policy = c, policy

    @property
    def attempts(self) -> int:
        """Attempts made so far (the one in flight included)."""
        return int(lib.sb_run_attempts(self._c))

    def _answer(self, status: int, out: Any) -> Action:
        if status in _RUN_ERRORS:
            # The core's message, which begins with the event's name (`wake: allowed only ...`).
            raise RuntimeError(message(status))
        if status != lib.SB_OK:
            raise CoreError(status)
        kind = _ACTIONS[out.kind]
        if kind == "give_up":
            return Action(kind, out.attempt, None, status_name(out.reason) if out.reason else None)
        if kind == "paused":
            return Action(kind, 0, None if out.delay_ms == U32_MAX else out.delay_ms)
        if kind in ("retry", "wait"):
            return Action(kind, out.attempt, out.delay_ms)
        return Action(kind, out.attempt)

    @staticmethod
    def _now(now_ms: Optional[int]) -> Any:
        # A pointer to the reading, NULL for none: every u64 is a reading (SPEC.md section 15).
        return ffi.NULL if now_ms is None else ffi.new("uint64_t *", integer("now_ms", now_ms, 0, U64_MAX))

    def start(self, now_ms: Optional[int] = None, *, send_rate: Optional[Union[SendRate, _SharedSendRate]] = None) -> Action:
        """Begins the run: attempt 1. With a `send_rate` (shared, never held by the run: SPEC.md
        section 15.2) the attempt goes only when it lets it: a 'wait' (no retry, no attempt;
        sleep it, then `wake` with the rate again), or a 'give_up' of reason 'throttled'
        (fail-fast) or 'deadline'. A paced event needs a clock reading."""
        return drive(self._start(now_ms, send_rate))

    def _start(self, now_ms: Optional[int], send_rate: Any) -> "Steps[Action]":
        return self._gated(lib.sb_run_start, lib.sb_run_start_paced, now_ms, send_rate)

    def _gated(self, plain: Any, paced: Any, now_ms: Optional[int], send_rate: Any) -> "Steps[Action]":
        """`start` or `wake`: `plain`, or `paced` behind the send rate (an event: `drive`)."""
        out = ffi.new("sb_action *")
        now = self._now(now_ms)
        if send_rate is None:
            return self._answer(plain(self._c, now, out), out[0])
        status = yield Event(self._c, now_ms, None, _rate(send_rate),
                             lambda _b, c_rate, at: int(paced(self._c, self._now(at), c_rate, out)))
        return self._answer(status, out[0])

    def outcome(self, outcome: str, now_ms: Optional[int] = None, *, retry_after_ms: Optional[int] = None,
                rate_limit_ms: Optional[int] = None, do_not_retry: bool = False, failure_kind: str = "error",
                budget: Optional[Union[RetryBudget, _SharedBudget]] = None, send_rate: Optional[Union[SendRate, _SharedSendRate]] = None,
                answer: Union[str, int, None] = None, answer_hint_ms: int = 0) -> Action:
        """How the attempt in flight ended: 'success', 'retryable' (with at most one server hint
        and the `failure_kind`, 'error' or 'timeout'), 'permanent' or 'offline'. `budget` is
        charged and refunded by the run's rules. A `send_rate` is then told the answer: `answer`
        when the caller knows the response, either the response's HTTP status (an int: a 429, or
        a 503 with this outcome's retry_after_ms or rate_limit_ms, is a throttle with that hint,
        any other status accepted: SPEC.md section 17.3) or one of 'accepted', 'throttled' (with
        `answer_hint_ms`) and 'no_answer'; else the outcome's own (SPEC.md section 15.2).

        >>> rate, run = SendRate(), Run(Policy("google"), seed=1)
        >>> _ = run.start(now_ms=0, send_rate=rate)
        >>> run.outcome("retryable", now_ms=10, retry_after_ms=200, send_rate=rate, answer=429)
        Action(kind='retry', attempt=1, delay_ms=200, reason=None)
        """
        return drive(self._outcome(outcome, now_ms, retry_after_ms=retry_after_ms, rate_limit_ms=rate_limit_ms,
                                   do_not_retry=do_not_retry, failure_kind=failure_kind, budget=budget,
                                   send_rate=send_rate, answer=answer, answer_hint_ms=answer_hint_ms))

    def _outcome(self, outcome: str, now_ms: Optional[int] = None, *, retry_after_ms: Optional[int] = None,
                 rate_limit_ms: Optional[int] = None, do_not_retry: bool = False, failure_kind: str = "error",
                 budget: Any = None, send_rate: Any = None, answer: Union[str, int, None] = None,
                 answer_hint_ms: int = 0) -> "Steps[Action]":
        """`outcome`'s steps: its checks, then its event."""
        one_of("outcome", outcome, tuple(_OUTCOMES))
        o = ffi.new("sb_outcome *")
        o.kind = _OUTCOMES[outcome]
        o.failure_kind = failure_code("failure_kind", failure_kind)
        hints = [(flag, ms) for flag, ms in ((lib.SB_INPUT_RETRY_AFTER, retry_after_ms),
                                             (lib.SB_INPUT_RATE_LIMIT, rate_limit_ms)) if ms is not None]
        if do_not_retry is True:
            hints.append((lib.SB_INPUT_DO_NOT_RETRY, 0))
        elif do_not_retry is not False:
            raise TypeError(f"do_not_retry must be a bool, got {show(do_not_retry)}")
        if len(hints) > 1:
            raise TypeError("give at most one server hint: retry_after_ms, rate_limit_ms or do_not_retry")
        if hints:
            o.hint_flag = hints[0][0]
            o.hint_ms = integer("hint_ms", hints[0][1], 0, U32_MAX)
        now = self._now(now_ms)
        out = ffi.new("sb_action *")
        if budget is not None and not isinstance(budget, (RetryBudget, _SharedBudget, _AsyncSharedBudget)):
            raise TypeError(f"budget must be a RetryBudget, got {show(budget)} ({type(budget).__name__})")
        if send_rate is None and answer is not None:
            raise TypeError("answer is told to a send rate: give send_rate too")
        kind = int(lib.SB_ANSWER_FROM_OUTCOME)
        hint = integer("answer_hint_ms", answer_hint_ms, 0, U32_MAX)
        if isinstance(answer, int) and not isinstance(answer, bool):
            if answer_hint_ms:
                raise TypeError("answer_hint_ms is for answer='throttled'; an HTTP status takes the "
                                "outcome's retry_after_ms or rate_limit_ms")
            kind, hint = _answer_from_http(integer("answer", answer, 0, 0xFFFF), o.hint_flag, o.hint_ms)
        elif answer is not None:
            one_of("answer", answer, tuple(ANSWERS))  # a bool is no status: refused here
            kind = ANSWERS[str(answer)]
        rate = None if send_rate is None else _rate(send_rate)
        if rate is None:
            status = yield Event(self._c, now_ms, budget, None, lambda c_budget, _r, at: int(
                lib.sb_run_outcome(self._c, o, self._now(at), c_budget, out)))
        else:
            status = yield Event(self._c, now_ms, budget, rate, lambda c_budget, c_rate, at: int(
                lib.sb_run_outcome_paced(self._c, o, kind, hint, self._now(at), c_budget, c_rate, out)))
        return self._answer(status, out[0])

    def wake(self, now_ms: Optional[int] = None, *, send_rate: Optional[Union[SendRate, _SharedSendRate]] = None) -> Action:
        """The sleep of a 'retry' or 'wait' has ended: the next attempt (behind `send_rate` as in
        `start`)."""
        return drive(self._wake(now_ms, send_rate))

    def _wake(self, now_ms: Optional[int], send_rate: Any) -> "Steps[Action]":
        return self._gated(lib.sb_run_wake, lib.sb_run_wake_paced, now_ms, send_rate)

    def pause(self, reason: str, now_ms: Optional[int] = None) -> Action:
        """The device went 'offline' or the app to the background ('hidden'), before the start
        or during a sleep."""
        one_of("reason", reason, tuple(_PAUSES))
        out = ffi.new("sb_action *")
        return self._answer(lib.sb_run_pause(self._c, _PAUSES[reason], self._now(now_ms), out), out[0])

    def resume(self, now_ms: Optional[int] = None) -> Action:
        """The pause has ended (or the app was resumed during a sleep): a re-drawn wait."""
        out = ffi.new("sb_action *")
        return self._answer(lib.sb_run_resume(self._c, self._now(now_ms), out), out[0])

    def snapshot(self) -> bytes:
        """The run as SB_RUN_SNAPSHOT_SIZE (100) bytes: versioned, CRC-protected, tied to the
        policy, for a run that outlives its process (a job queue's row, a file).

        >>> run = Run(Policy("google"), seed=42)
        >>> _ = run.start(now_ms=0), run.outcome("retryable", now_ms=80)
        >>> Run.restore(Policy("google"), run.snapshot()).wake(now_ms=1700).attempt
        2
        """
        out = ffi.new("uint8_t[]", RUN_SNAPSHOT_SIZE)
        status = lib.sb_run_snapshot(self._c, out)
        if status != lib.SB_OK:
            raise CoreError(status)
        return bytes(ffi.buffer(out))

    @classmethod
    def restore(cls, policy: Policy, data: Union[bytes, bytearray, memoryview]) -> "Run":
        """A run rebuilt from `snapshot()` bytes taken under `policy`; it answers every later
        event as the snapshotted run would have. Raises SnapshotError (with `.code`) for damaged
        bytes, another policy's snapshot or another format; TypeError for a non-Policy or
        non-bytes argument."""
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        c = restored("sb_run *", lib.sb_run_restore, policy._c, data)
        self: Run = object.__new__(cls)
        self._c, self._policy = c, policy
        return self


def _answer_from_http(status: int, hint_flag: int, hint_ms: int) -> "tuple[int, int]":
    """The SB_ANSWER_* code and hint an HTTP status with the outcome's hint denotes (SPEC.md
    section 17.3), as the core reads it."""
    kind, out_hint = ffi.new("uint32_t *"), ffi.new("uint32_t *")
    code = lib.sb_answer_from_http(status, hint_flag, hint_ms, kind, out_hint)
    if code != lib.SB_OK:
        raise CoreError(code)
    return int(kind[0]), int(out_hint[0])
