"""seeded_backoff: seeded exponential backoff, the same delays in Python, Rust, JavaScript and C.

Google Cloud's retry algorithm exactly (plus five more jitter strategies), Retry-After in all three
RFC 9110 forms, the rate-limit headers of a 429, retry budgets and 40-byte snapshots. Every
decision is made by the project's Rust core through its C library; this package translates Python
values and errors.

>>> from seeded_backoff import Backoff, Policy
>>> b = Backoff(Policy("google"), seed=42)
>>> [b.next_delay() for _ in range(3)]
[1616, 2410, 4380]
"""

from ._ffi import ffi as _ffi, lib as _lib, text as _text
from .backoff import SNAPSHOT_SIZE, Backoff
from .budget import FAILURE_KINDS, RetryBudget
from .errors import (BudgetError, CoreError, PacerError, PolicyError, RateLimitError, RetryAfterError, RetryError,
                     SnapshotError)
from .events import RetryEvent
from .fleet import seed_from_device, startup_delay
from .seeds import CallSeeds, call_seed
from .http import (RATE_LIMIT_HEADERS, classify_grpc, classify_http, hint_from_headers, is_retryable_http,
                   parse_rate_limit, parse_retry_after, rate_limit_applies, request_may_retry)
from .pacer import PACER_HEADER_NAMES, Pacer, PacerSlot
from .policy import Policy
from .retry import retry
from .run import RUN_SNAPSHOT_SIZE, Action, Run
from .send_rate import Pace, SendRate, SendRateError
from .transport import is_transport_error

__version__ = _text(_lib.sb_version())
"""The version of the library inside: the Rust crate's version, which is also the package's."""

PRESETS = Policy.PRESETS
JITTERS = Policy.JITTERS
DEADLINES = Policy.DEADLINES
GIVE_UP_REASONS = tuple(
    _text(_lib.sb_status_name(code)) for name, code in sorted(_ffi.typeof("enum sb_status").relements.items(), key=lambda kv: kv[1])
    if name.startswith("SB_GIVE_UP_"))
"""'max_retries', 'deadline', 'budget', 'server_stop', 'hint_exceeds_max'."""

__all__ = [
    "Backoff", "Policy", "RetryBudget", "SendRate", "SendRateError", "Pace", "Run", "Action", "retry", "RetryError", "RetryEvent", "parse_retry_after", "parse_rate_limit",
    "rate_limit_applies", "RATE_LIMIT_HEADERS", "RateLimitError", "hint_from_headers", "request_may_retry",
    "is_retryable_http", "classify_http", "classify_grpc", "seed_from_device", "call_seed", "CallSeeds",
    "startup_delay", "is_transport_error", "CoreError", "PolicyError", "RetryAfterError", "SnapshotError", "BudgetError",
    "Pacer", "PacerSlot", "PacerError", "PACER_HEADER_NAMES",
    "PRESETS", "JITTERS", "DEADLINES", "GIVE_UP_REASONS", "FAILURE_KINDS", "SNAPSHOT_SIZE",
    "RUN_SNAPSHOT_SIZE",
    "__version__",
]
