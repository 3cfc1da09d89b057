"""One meaning for a seed (SPEC.md section 14): a loop given a seed runs call i (0, 1, 2, ... in
the order the calls start) with `call_seed(seed, i)`, the same function as the Rust `call_seed`
and C `sb_call_seed`. Call 0 keeps the seed itself; every other call gets a seed of its own, so
calls made together retry apart, and a run whose calls start in the same order replays them all.

>>> call_seed(42, 0), call_seed(42, 1) == 42 ^ 0xE220A8397B1DCDAF
(42, True)
>>> seeds = CallSeeds(42)
>>> [seeds.next_seed() for _ in range(3)] == [call_seed(42, i) for i in range(3)]
True
"""

from __future__ import annotations

import itertools
import secrets
import threading
from typing import Optional

from ._check import u64
from ._ffi import lib

__all__ = ["call_seed", "CallSeeds"]


def call_seed(seed: int, index: int) -> int:
    """The seed of call `index` of a loop seeded `seed` (both u64)."""
    return int(lib.sb_call_seed(u64("seed", seed), u64("index", index)))


class CallSeeds:
    """The seeds of one loop's calls, numbered from 0 as they start. Thread-safe: calls on several
    threads take distinct indexes. Without a seed, the loop's seed is drawn from the OS once."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = secrets.randbits(64) if seed is None else u64("seed", seed)
        self._count = itertools.count()
        self._lock = threading.Lock()

    def next_seed(self) -> int:
        """The seed of the next call to start."""
        with self._lock:
            index = next(self._count)
        return call_seed(self.seed, index & 0xFFFF_FFFF_FFFF_FFFF)
