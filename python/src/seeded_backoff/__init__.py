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
from ._backoff import Backoff
from ._errors import CoreError, PolicyError, RetryError
from ._events import RetryEvent
from ._policy import Policy
from ._retry import retry
from ._run import Action, Run
from ._seeds import CallSeeds, call_seed
from ._transport import is_transport_error

__version__ = _text(_lib.sb_version())
"""The version of the library inside: the Rust crate's version, which is also the package's."""

GIVE_UP_REASONS = tuple(
    _text(_lib.sb_status_name(code)) for name, code in sorted(_ffi.typeof("enum sb_status").relements.items(), key=lambda kv: kv[1])
    if name.startswith("SB_GIVE_UP_"))
"""'max_retries', 'deadline', 'budget', 'server_stop', 'hint_exceeds_max'."""

# What the README's first examples use. The rest lives in the module of its concern:
# seeded_backoff.send_rate, .budget, .http, .pacer, .fleet, .snapshots, and the integrations
# (.google, .valkey, .tenacity, .stamina).
__all__ = [
    "Policy", "Backoff", "retry", "RetryError", "RetryEvent", "Run", "Action", "CallSeeds", "call_seed",
    "is_transport_error", "CoreError", "PolicyError", "GIVE_UP_REASONS", "__version__",
]

# A traceback names an error by its module: the one it is imported from, not the private one. (Only
# errors: a class's string annotations resolve in its module's namespace, which this one is not.)
for _error in (CoreError, PolicyError, RetryError):
    _error.__module__ = __name__
del _error
