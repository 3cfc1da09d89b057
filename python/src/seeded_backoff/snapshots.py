"""Snapshots: a `Backoff` or a `Run` saved as bytes (`Backoff.snapshot()`, `Run.snapshot()`) and
restored in another process, versioned, CRC-protected and tied to the policy (SPEC.md §9, §15).

>>> from seeded_backoff import Backoff, Policy
>>> from seeded_backoff.snapshots import SNAPSHOT_SIZE, SnapshotError
>>> data = Backoff(Policy("google"), seed=42).snapshot()
>>> len(data) == SNAPSHOT_SIZE == 40
True
>>> try:
...     Backoff.restore(Policy("google"), bytes(SNAPSHOT_SIZE))
... except SnapshotError as e:
...     print(e.code)
unknown_version
"""

from ._backoff import SNAPSHOT_SIZE
from ._errors import SnapshotError
from ._run import RUN_SNAPSHOT_SIZE

__all__ = ["SNAPSHOT_SIZE", "RUN_SNAPSHOT_SIZE", "SnapshotError"]

SnapshotError.__module__ = __name__
