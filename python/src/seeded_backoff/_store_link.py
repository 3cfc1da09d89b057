"""The link between a process's part and its key in a store (SPEC.md section 19.3 to 19.6): the
C library's `sb_store_link` and `sb_store_exchange`, which hold the core's rules (when to read,
compare-and-set, decide again on a conflict, fall back, rejoin, the fleet's clock). This module
only translates: `exchange` yields the I/O the core asks for and feeds it the replies; the
part's own C function makes each decision on the state the core gives. The bound, the rejoin
delay, the try limit and the script are the library's."""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Generator, Optional, Tuple, Union

from ._ffi import U64_MAX, ffi, lib, message, text

__all__ = ["Link", "Reply", "exchange", "LATE", "SCRIPT", "STORE_BOUND_MS", "REJOIN_MS",
           "MAX_TRIES", "LATE_LIMIT"]

# The compare-and-set script of SPEC.md section 19.4, the library's own text.
SCRIPT: str = text(lib.sb_store_script()) or ""
STORE_BOUND_MS: int = lib.SB_STORE_BOUND_MS
REJOIN_MS: int = lib.SB_STORE_REJOIN_MS
MAX_TRIES: int = lib.SB_STORE_MAX_TRIES
LATE_LIMIT: int = lib.SB_STORE_LATE_LIMIT

_STATES = {lib.SB_STORE_JOINING: "joining", lib.SB_STORE_JOINED: "joined", lib.SB_STORE_LOCAL: "local"}

# No reply within the bound (a store or machine busy for a moment), told from a failure (None).
LATE = "late"
# A reply of the script: (set, value or None, the store's time in ms); None when the store failed
# (an error, a lost connection), LATE when it did not answer within the bound.
Reply = Optional[Union[Tuple[bool, Optional[bytes], int], str]]
# What the driver does: None to read, (expected, new) to compare-and-set.
Io = Optional[Tuple[bytes, bytes]]


def _ok(status: int) -> None:
    # Every argument is the library's own struct or checked here: an error is this module's bug.
    if status != lib.SB_OK:
        raise RuntimeError(f"seeded-backoff: the store link refused a step: {message(status)}")


class Kind:
    """A part's C struct and its encoding: `ctype` ("sb_send_rate"), its member of `sb_store_part`
    and its `SB_STORE_*` code."""

    def __init__(self, ctype: str) -> None:
        self.ctype = ctype
        self.member = ctype[len("sb_"):]
        self.code: int = getattr(lib, f"SB_STORE_{self.member.upper()}")
        self.size: int = getattr(lib, f"SB_{self.member.upper()}_VALUE_SIZE")
        self._encode = getattr(lib, f"sb_{self.member}_encode")

    def struct(self, state: bytes) -> Any:
        """A new C struct holding `state` (a struct's bytes)."""
        c = ffi.new(f"{self.ctype} *")
        ffi.memmove(c, state, len(state))
        return c

    def encode(self, state: bytes) -> bytes:
        out = ffi.new("uint8_t[]", self.size)
        _ok(self._encode(self.struct(state), out))
        return bytes(ffi.buffer(out, self.size))

    def get(self, part: Any) -> bytes:
        """The state this kind's member of an `sb_store_part` holds, as its struct's bytes."""
        return bytes(ffi.buffer(ffi.addressof(part, self.member)))

    def put(self, part: Any, state: bytes) -> None:
        ffi.memmove(ffi.addressof(part, self.member), state, len(state))


class Link:
    """One part's link to its key (a C `sb_store_link`), its cold start the C struct `fresh`.
    `store_clock`: decisions read the store's TIME (False: the caller's readings as given, a
    test's or a shared clock). Each call on it holds its own lock: a C call releases the GIL."""

    def __init__(self, kind: Kind, fresh: Any, store_clock: bool = True) -> None:
        self.kind = kind
        self.c = ffi.new("sb_store_link *")
        self.lock = threading.Lock()
        part = ffi.new("sb_store_part *")
        kind.put(part, bytes(ffi.buffer(fresh)))
        clock = lib.SB_STORE_CLOCK_STORE if store_clock else lib.SB_STORE_CLOCK_CALLER
        _ok(lib.sb_store_link_init(self.c, kind.code, part, clock))

    def at(self, caller_ms: int) -> Tuple[str, bool, int]:
        """Where the link stands, whether a decision at `caller_ms` goes to the store (not while
        the process is local and its rejoin is not due), and that reading on the fleet's clock."""
        state, needs, fleet = ffi.new("uint32_t *"), ffi.new("bool *"), ffi.new("uint64_t *")
        with self.lock:
            _ok(lib.sb_store_link_state(self.c, caller_ms, state, needs, fleet))
        return _STATES[state[0]], bool(needs[0]), int(fleet[0])

    @property
    def state(self) -> str:
        return self.at(0)[0]

    def needs_store(self, caller_ms: int) -> bool:
        return self.at(caller_ms)[1]

    def fleet_ms(self, caller_ms: int) -> int:
        """A caller's reading on the fleet's clock (SPEC.md section 19.3)."""
        return self.at(caller_ms)[2]

    def _local(self) -> Tuple[bytes, Any]:
        part, stats = ffi.new("sb_store_part *"), ffi.new("sb_store_stats *")
        with self.lock:
            _ok(lib.sb_store_link_local(self.c, part, stats))
        return self.kind.get(part[0]), stats

    @property
    def local(self) -> bytes:
        """The process's own state (the fleet's as last seen, with the decisions made alone since),
        as its C struct's bytes."""
        return self._local()[0]

    @property
    def stats(self) -> "dict[str, int]":
        """Decisions made, made alone, and conflicts met."""
        stats = self._local()[1]
        return {"decisions": int(stats.decisions), "alone": int(stats.alone), "conflicts": int(stats.conflicts)}


# A decision on a state at a fleet time: (answer, new state), or a generator that returns them
# after yielding the awaitables it needs (an asyncio event's nested decision on another part's key:
# `run_event_async`), which the async driver awaits and sends back.
Decide = Callable[[bytes, int], Any]


def _made(result: Any) -> Generator[Any, Any, Tuple[Any, bytes]]:
    """The (answer, state) of a decision, awaiting through the driver what it yields."""
    made: Tuple[Any, bytes] = (yield from result) if inspect.isgenerator(result) else result
    return made


def exchange(link: Link, caller_ms: int, decide: Decide, alone_now: bool = False) -> Generator[Any, Any, Any]:
    """One decision: yields each I/O the core asks for (None: read; (expected, new):
    compare-and-set, expected b"" for absent) and is sent its reply, and each awaitable a `decide`
    yields (sent its result); returns `decide(state,
    fleet_ms)`'s answer, the decision made on the state the core gives. `decide` returns (answer,
    new state) and may be called again after a conflict: the last call's answer stands.
    `alone_now`: the decision did not get its turn at the store within the bound, and is made
    alone with the link as it stands. A failure (None) or a late reply (LATE) is reported to the
    core, which decides what it costs (SPEC.md section 19.5)."""
    ex, step = ffi.new("sb_store_exchange *"), ffi.new("sb_store_step *")
    begin = lib.sb_store_begin_alone if alone_now else lib.sb_store_begin
    with link.lock:
        _ok(begin(link.c, ex, caller_ms, step))
    answer = None
    while step.action != lib.SB_STORE_DONE:
        if step.action == lib.SB_STORE_DECIDE:
            answer, state = yield from _made(decide(link.kind.get(ex.part), int(step.now_ms)))
            link.kind.put(ex.part, state)
            with link.lock:
                _ok(lib.sb_store_decided(link.c, ex, step))
            continue
        read = step.action == lib.SB_STORE_READ
        io: Io = None if read else (bytes(ex.expected[0:ex.expected_len]), bytes(ex.value[0:ex.value_len]))
        reply = yield io
        with link.lock:
            if reply is None:
                _ok(lib.sb_store_failed(link.c, ex, step))
            elif not isinstance(reply, tuple):
                _ok(lib.sb_store_timed_out(link.c, ex, step))
            else:
                set_, value, time_ms = reply
                kind = (lib.SB_STORE_REPLY_VALUE if read
                        else lib.SB_STORE_REPLY_SET if set_ else lib.SB_STORE_REPLY_CONFLICT)
                # The value's bytes, or none: the key is absent.
                bytes_, n = (ffi.NULL, 0) if value is None else (value, len(value))
                _ok(lib.sb_store_replied(link.c, ex, kind, bytes_, n, value is not None,
                                         min(max(time_ms, 0), U64_MAX), step))
    return answer
