"""The link between a process's part and its key in a store (SPEC.md section 19.3 to 19.6), as
the core's `shared::StoreLink` and `Exchange` define it: where the process stands (joining, joined,
local), the value it last saw, and the steps of one decision. It does no I/O and decides nothing:
`exchange` says what to read or compare-and-set; the part's own C function makes the decision,
on the state the link gives it; the stored values are the core's encoding (`sb_*_encode`,
`sb_*_decode`). The bound, the rejoin delay, the try limit and the script are the library's."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Generator, Optional, Tuple, Union

from ._ffi import ffi, lib, text

__all__ = ["Link", "Reply", "exchange", "needs_store", "LATE", "SCRIPT", "STORE_BOUND_MS", "REJOIN_MS",
           "MAX_TRIES", "LATE_LIMIT"]

# The compare-and-set script of SPEC.md section 19.4, the library's own text.
SCRIPT: str = text(lib.sb_store_script()) or ""
STORE_BOUND_MS: int = lib.SB_STORE_BOUND_MS
REJOIN_MS: int = lib.SB_STORE_REJOIN_MS
MAX_TRIES: int = lib.SB_STORE_MAX_TRIES
LATE_LIMIT: int = lib.SB_STORE_LATE_LIMIT

JOINING, JOINED, LOCAL = "joining", "joined", "local"

# No reply within the bound (a store or machine busy for a moment), told from a failure (None).
LATE = "late"
# A reply of the script: (set, value or None, the store's time in ms); None when the store failed
# (an error, a lost connection), LATE when it did not answer within the bound.
Reply = Optional[Union[Tuple[bool, Optional[bytes], int], str]]
# What the driver does: None to read, (expected, new) to compare-and-set.
Io = Optional[Tuple[bytes, bytes]]


class Kind:
    """A part's C struct and its encoding: `ctype` ("sb_send_rate"), its encode and decode."""

    def __init__(self, ctype: str, size: int, encode: Any, decode: Any) -> None:
        self.ctype, self.size, self._encode, self._decode = ctype, size, encode, decode

    def struct(self, state: bytes) -> Any:
        """A new C struct holding `state` (a struct's bytes)."""
        c = ffi.new(f"{self.ctype} *")
        ffi.memmove(c, state, len(state))
        return c

    def encode(self, state: bytes) -> bytes:
        out = ffi.new("uint8_t[]", self.size)
        if self._encode(self.struct(state), out) != lib.SB_OK:
            raise RuntimeError(f"seeded-backoff: the {self.ctype} state is corrupt")
        return bytes(ffi.buffer(out, self.size))

    def decode(self, fresh: bytes, value: bytes) -> Tuple[Optional[bytes], int]:
        """The state `value` holds under `fresh`'s configuration, or None and the SB_ERR_STORE_*."""
        c = self.struct(fresh)
        status = self._decode(c, value, len(value))
        if status != lib.SB_OK:
            return None, status
        return bytes(ffi.buffer(c)), status


class Link:
    """One part's link to its key: `local` is the process's own state (the fleet's as last seen,
    with the decisions made alone since), as its C struct's bytes. `store_clock`: decisions read
    the store's TIME (False: the caller's readings as given, a test's or a shared clock)."""

    def __init__(self, kind: Kind, fresh: bytes, store_clock: bool = True) -> None:
        self.kind = kind
        self.fresh = fresh
        self.local = fresh
        self.seen: Optional[bytes] = None
        self.state = JOINING
        self.rejoin_at = 0
        self.store_clock = store_clock
        self.fleet_base = 0
        self.caller_base = 0
        self.error: Optional[int] = None
        # Decisions in a row past the bound (a reply resets it).
        self.late = 0
        # Decisions made, made alone, and conflicts met.
        self.decisions = self.alone = self.conflicts = 0

    def fleet_ms(self, caller_ms: int) -> int:
        """A caller's reading on the fleet's clock (SPEC.md section 19.3)."""
        if not self.store_clock:
            return caller_ms
        return max(0, self.fleet_base + caller_ms - self.caller_base)

    def _fall_back(self, caller_ms: int) -> None:
        self.state = LOCAL
        self.rejoin_at = caller_ms + REJOIN_MS

    def _adopt(self, value: Optional[bytes], caller_ms: int) -> bool:
        if value is None:
            # A key gone under a joined process (a flush, a failover) is a cold start; a joining
            # one publishes its own state.
            if self.state == JOINED:
                self.local = self.fresh
        else:
            state, status = self.kind.decode(self.fresh, value)
            if state is None:
                self.error = status
                self._fall_back(caller_ms)
                return False
            self.local = state
        self.error = None
        return True


# A decision on a state at a fleet time: (answer, new state), or a generator that returns them
# after yielding the awaitables it needs (an asyncio event's nested decision on another part's key:
# `run_event_async`), which the async driver awaits and sends back.
Decide = Callable[[bytes, int], Any]


def _made(result: Any) -> Generator[Any, Any, Tuple[Any, bytes]]:
    """The (answer, state) of a decision, awaiting through the driver what it yields."""
    made: Tuple[Any, bytes] = (yield from result) if inspect.isgenerator(result) else result
    return made


def needs_store(link: Link, caller_ms: int) -> bool:
    """Whether a decision at `caller_ms` goes to the store: not while the process is local and
    its rejoin is not due (it then needs no turn at the store)."""
    return link.state != LOCAL or caller_ms >= link.rejoin_at


def exchange(link: Link, caller_ms: int, decide: Decide, alone_now: bool = False) -> Generator[Any, Any, Any]:
    """One decision: yields each I/O (None: read; (expected, new): compare-and-set, expected b""
    for absent) and is sent its reply, and each awaitable a `decide` yields (sent its result);
    returns `decide(state, fleet_ms)`'s answer, the decision made on the state the store gave, or
    alone. `decide` returns (answer, new state) and may be
    called again after a conflict: the last call's answer stands. `alone_now`: the decision did
    not get its turn at the store within the bound, and is made alone with the link as it stands.
    A failure (None) makes the process local; a late reply (LATE) costs its decision only, until
    LATE_LIMIT decisions in a row were late (SPEC.md section 19.5)."""
    stored, answer, tries = False, None, 0
    base: Optional[bytes] = None
    replied = False

    def alone() -> Generator[Any, Any, Any]:
        out, link.local = yield from _made(decide(link.local, link.fleet_ms(caller_ms)))
        return out

    def note(time_ms: int) -> None:
        link.fleet_base, link.caller_base, link.late = time_ms, caller_ms, 0

    def unanswered(reply: Reply) -> Generator[Any, Any, Any]:
        if reply == LATE:
            link.late += 1
            if link.late >= LATE_LIMIT:
                link._fall_back(caller_ms)
        else:
            link._fall_back(caller_ms)
        return (yield from alone())

    try:
        if alone_now or (link.state == LOCAL and caller_ms < link.rejoin_at):
            return (yield from alone())
        if link.state == JOINED:
            base = link.seen
        else:
            if link.state == LOCAL:
                link.rejoin_at = caller_ms + REJOIN_MS
            reply = yield None
            if not isinstance(reply, tuple):
                return (yield from unanswered(reply))
            note(reply[2])
            if not link._adopt(reply[1], caller_ms):
                return (yield from alone())
            link.state = JOINING
            base, replied = reply[1], True
            link.seen = base
        while True:
            answer, state = yield from _made(decide(link.local, link.fleet_ms(caller_ms)))
            new = link.kind.encode(state)
            if replied and base == new:
                # A decision that changed nothing on the value the store just gave writes nothing.
                link.local, link.state, stored = state, JOINED, True
                return answer
            reply = yield (base or b"", new)
            if not isinstance(reply, tuple):
                return (yield from unanswered(reply))
            note(reply[2])
            if reply[0]:
                link.seen, link.local, link.state, link.error, stored = new, state, JOINED, None, True
                return answer
            tries += 1
            if not link._adopt(reply[1], caller_ms):
                return (yield from alone())
            base, replied = reply[1], True
            link.seen = base
            if tries >= MAX_TRIES:
                return (yield from alone())
    finally:
        link.decisions += 1
        link.alone += 0 if stored else 1
        link.conflicts += tries
