"""What the adapters (tenacity, stamina, Valkey) share: one seed per call (the first call that
fails uses `seed`, the next `seed + 1`, and so on, as the Rust `TowerPolicy` does), and the
checks of their arguments."""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from typing import Optional

from ._call import Call, Clock
from ._check import show, u64
from ._ffi import U64_MAX
from .policy import Policy
from .run import Run


class Seeds:
    """The seeds of successive calls. Thread-safe: calls on several threads take distinct seeds."""

    def __init__(self, policy: Policy, seed: Optional[int]) -> None:
        if not isinstance(policy, Policy):
            raise TypeError(f"policy must be a Policy, got {show(policy)} ({type(policy).__name__})")
        self.policy = policy
        # Omitted, the calls' seeds start at a random one: never a constant, or clients retry in step.
        self._count = itertools.count(secrets.randbits(64) if seed is None else u64("seed", seed))
        self._lock = threading.Lock()

    def call(self, clock: Clock = time.monotonic) -> Call:
        """The next call's run, begun now."""
        with self._lock:
            seed = next(self._count) & U64_MAX
        return Call(Run(self.policy, seed), clock)
