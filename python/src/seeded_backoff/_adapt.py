"""What the adapters (tenacity, stamina, Valkey) share: one seed per call (call i runs with
`call_seed(seed, i)`, SPEC.md section 14, as every loop of every binding does), the checks of
their arguments, and behind a shared send rate (SPEC.md section 15.2) the gate before each attempt
and the report of each outcome with its answer (the loops' own rule: `answer_of`, the core's)."""

from __future__ import annotations

import time
from typing import Any, Iterator, Optional, Type, Union

from ._call import Call, Clock, answer_of, checked_rate
from ._check import show
from ._outcome import hint_of, response_of, status_of
from ._errors import RetryError
from ._policy import Policy
from ._run import Action, Run
from ._seeds import CallSeeds
from .send_rate import SendRate
from .shared import SharedSendRate


class Seeds:
    """The runs of successive calls, behind `send_rate` when given. Thread-safe: calls on several
    threads take distinct seeds."""

    def __init__(self, policy: Policy, seed: Optional[int], send_rate: Optional[Union[SendRate, SharedSendRate]] = None) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        self.policy = policy
        self.send_rate = checked_rate(send_rate)
        # Omitted, the loop's seed is drawn once: never a constant, or clients retry in step.
        self._seeds = CallSeeds(seed)

    def call(self, clock: Clock = time.monotonic) -> Call:
        """The next call's run, begun now: behind the send rate, its first attempt asks it."""
        return Call(Run(self.policy, self._seeds.next_seed()), clock, self.send_rate)


def turns(call: Call, give_up: Type[RetryError] = RetryError) -> Iterator[float]:
    """Before an attempt of a paced call: the seconds to sleep, one sleep at a time, until the send
    rate lets the attempt go (a retry's sleep, which the library slept, ends first). Raises
    `give_up` when the run gives up before the attempt (a fail-fast refusal, or a wait past
    max_elapsed_ms)."""
    if call.action.kind == "retry":
        call.woke()
    while True:
        wait = call.turn(give_up)
        if wait is None:
            return
        yield wait / 1000
        call.woke()


def report(call: Call, value: Any, raised: bool, worth: bool) -> Action:
    """Tells a paced call's run the outcome of the attempt in flight (`value` returned or, when
    `raised`, raised; `worth` a retry or not) with the send rate's answer of its response, as
    `retry` does: a retryable one with its server hint, another raised error as not worth a retry,
    another result as a success."""
    status = status_of(response_of(value, raised))
    if worth:
        hint = hint_of(value, raised)
        return call.failed(hint, answer=answer_of(status, hint), error=value)
    if raised:
        return call.failed(None, answer=answer_of(status, {}), error=value)
    return call.succeeded(answer=answer_of(status, {}))
