"""stamina 26 with this package's schedules, through the one place stamina takes a custom
backoff: its `on=` hook, which may return the next wait (a float in seconds) instead of True.

stamina's own `wait_initial`/`wait_max`/`wait_jitter`/`wait_exp_base` cannot express a seeded
schedule: stamina draws the jitter from the `random` module's global generator
(`random.uniform(0, wait_jitter)` in `_compute_backoff`, stamina 26.1.0) and adds it before the
cap, which is Google's formula with a generator nobody can seed per call. The `on=` hook is
called with the exception alone (no attempt number, no call state), so a hook holds one call's
run of the core (`seeded_backoff.Run`, which numbers the attempts, counts the time since the hook
was made against `max_elapsed_ms` and decides each delay): make one per call, with `stamina.retry_context` (a hook given to the `@stamina.retry`
decorator is shared by every call of the function, whose schedules then run on from each other),
seeded with `CallSeeds(seed).next_seed()`, so that call i runs with `call_seed(seed, i)` (SPEC.md
section 14) and calls made together retry apart.
Pass `attempts=None, timeout=None` to let the policy decide when to give up (stamina otherwise
also stops after 10 attempts or 45 s). stamina's test mode (`stamina.set_testing`) turns every
wait, this one included, into 0.

>>> from seeded_backoff import Policy
>>> hook = backoff_hook(Policy("google", max_retries=2), seed=42)
>>> hook(ConnectionError("reset")), hook(ConnectionError("reset")), hook(ConnectionError("reset"))
(1.616, 2.41, False)
"""

from __future__ import annotations

from typing import Optional, Tuple, Type, Union

from ._adapt import Seeds
from ._call import Call
from ._outcome import exceptions, hint_of, should_retry
from .policy import Policy
from .run import Action

__all__ = ["backoff_hook", "BackoffHook"]

RetryOn = Union[Type[BaseException], Tuple[Type[BaseException], ...], None]


class BackoffHook:
    """An `on=` hook for stamina: False (stop) for an error not worth retrying or once the run
    gives up, else the run's next delay in seconds. Its `.action` is the run's last answer
    (`kind` 'retry' or 'give_up', with `attempt`, `delay_ms`, `reason`; 'attempt' before the
    first failure)."""

    __slots__ = ("_retry_on", "_call")

    def __init__(self, policy: Policy, seed: Optional[int] = None, *, retry_on: RetryOn = None) -> None:
        self._retry_on = exceptions("retry_on", retry_on)
        # The hook is made when the call starts; the time since counts against max_elapsed_ms.
        self._call: Call = Seeds(policy, seed).call()

    @property
    def action(self) -> Action:
        return self._call.action

    def __call__(self, exc: BaseException) -> Union[bool, float]:
        worth = should_retry(exc, True, self._retry_on)
        action = self._call.failed(hint_of(exc, True) if worth else None)
        return False if action.delay_ms is None else action.delay_ms / 1000


def backoff_hook(policy: Policy, seed: Optional[int] = None, *, retry_on: RetryOn = None) -> BackoffHook:
    """A `BackoffHook` for one call (`seed`: the call's, from a `CallSeeds` shared by the calls):
    retries errors carrying a response with a status the core retries (429, 5xx; never another
    status), waiting the core's delays with the response's Retry-After or rate-limit hint, and
    errors without a response that are transport errors (`seeded_backoff.is_transport_error`), or
    those of `retry_on` when given."""
    return BackoffHook(policy, seed, retry_on=retry_on)
