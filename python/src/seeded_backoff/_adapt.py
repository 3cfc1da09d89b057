"""What the adapters (tenacity, stamina, Valkey) share: one seed per call (call i runs with
`call_seed(seed, i)`, SPEC.md section 14, as every loop of every binding does), and the checks of
their arguments."""

from __future__ import annotations

import time
from typing import Optional

from ._call import Call, Clock
from ._check import show
from .policy import Policy
from .run import Run
from .seeds import CallSeeds


class Seeds:
    """The runs of successive calls. Thread-safe: calls on several threads take distinct seeds."""

    def __init__(self, policy: Policy, seed: Optional[int]) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        self.policy = policy
        # Omitted, the loop's seed is drawn once: never a constant, or clients retry in step.
        self._seeds = CallSeeds(seed)

    def call(self, clock: Clock = time.monotonic) -> Call:
        """The next call's run, begun now."""
        return Call(Run(self.policy, self._seeds.next_seed()), clock)
