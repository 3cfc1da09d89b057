"""The I/O of a shared part (SPEC.md section 19): the script over a valkey-py (or redis-py)
client, sync or asyncio, every decision bounded by STORE_BOUND_MS all round trips included, and
the C run's events made as decisions of the shared parts they touch."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import threading
import time
from typing import Any, Callable, Generator, NamedTuple, Optional, TypeVar

from ._ffi import ffi
from ._store_link import LATE, SCRIPT, Decide, Link, Reply, exchange, needs_store

__all__ = ["Shared", "SyncIo", "AsyncIo", "decide_sync", "decide_async", "run_event", "run_event_async", "Event",
           "drive", "drive_async", "sync_part", "async_parts"]

# A sync client's calls run here, so that a caller waits at most the bound whatever the client's
# own timeouts are (a call that outlives the bound finishes or fails in the background; its
# decision was made alone meanwhile). Made on first use.
_pool: Optional[concurrent.futures.ThreadPoolExecutor] = None
_pool_lock = threading.Lock()


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="seeded-backoff-store")
        return _pool


def _reply(answer: Any) -> Reply:
    """The script's answer `[set, value or nil, ms]`, or None when it is not one (a client made
    with decode_responses=True gives str values: no stored value of this library)."""
    try:
        set_, value, ms = answer
        if value is not None and not isinstance(value, bytes):
            return None
        return bool(int(set_)), value, int(ms)
    except (TypeError, ValueError):
        return None


def _args(io: Any) -> list[bytes]:
    return [] if io is None else [io[0], io[1]]


class SyncIo:
    """The script on `key` through a sync client."""

    def __init__(self, client: Any, key: str) -> None:
        self.script = client.register_script(SCRIPT)
        self.key = key

    def call(self, io: Any, deadline: float) -> Reply:
        left = deadline - time.monotonic()
        if left <= 0:
            return LATE
        future = _executor().submit(self.script, keys=[self.key], args=_args(io))
        try:
            return _reply(future.result(timeout=left))
        except concurrent.futures.TimeoutError:  # no reply within the bound: late
            return LATE
        except Exception:  # the store's error (refused, reset): failed
            return None


class AsyncIo:
    """The script on `key` through an asyncio client."""

    def __init__(self, client: Any, key: str) -> None:
        self.script = client.register_script(SCRIPT)
        self.key = key

    async def call(self, io: Any, deadline: float) -> Reply:
        left = deadline - time.monotonic()
        if left <= 0:
            return LATE
        try:
            return _reply(await asyncio.wait_for(self.script(keys=[self.key], args=_args(io)), left))
        except asyncio.TimeoutError:  # no reply within the bound: late
            return LATE
        except Exception:  # the store's error (refused, reset): failed
            return None


def decide_sync(link: Link, lock: threading.Lock, turn: threading.Lock, io: SyncIo, bound_s: float,
                caller_ms: int, decide: Decide) -> Any:
    """One decision through a sync client. One decision of the process goes to the store at a
    time (so the process's own threads never conflict with each other); one that does not get its
    turn within the bound is made alone, the link left as it stands. The link is locked only
    between round trips."""
    deadline = time.monotonic() + bound_s
    with lock:
        needed = needs_store(link, caller_ms)
    got = needed and turn.acquire(timeout=max(0.0, deadline - time.monotonic()))
    try:
        gen = exchange(link, caller_ms, decide, alone_now=needed and not got)
        try:
            with lock:
                step = next(gen)
            while True:
                reply = io.call(step, deadline)
                with lock:
                    step = gen.send(reply)
        except StopIteration as done:
            return done.value
    finally:
        if got:
            turn.release()


async def decide_async(link: Link, lock: threading.Lock, turn: asyncio.Lock, io: AsyncIo, bound_s: float,
                       caller_ms: int, decide: Decide) -> Any:
    """One decision through an asyncio client, one of the process's at the store at a time."""
    deadline = time.monotonic() + bound_s
    with lock:
        needed = needs_store(link, caller_ms)
    got = False
    if needed:
        try:
            got = await asyncio.wait_for(turn.acquire(), max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            got = False
    try:
        gen = exchange(link, caller_ms, decide, alone_now=needed and not got)
        try:
            with lock:
                step = next(gen)
            while True:
                # An awaitable is a decision nested in this one (`run_event_async`), made outside
                # this link's lock; anything else is this key's I/O.
                reply = await (step if inspect.isawaitable(step) else io.call(step, deadline))
                with lock:
                    step = gen.send(reply)
        except StopIteration as done:
            return done.value
    finally:
        if got:
            turn.release()


def sync_part(name: str, part: Any) -> None:
    """Refuses an asyncio shared part (its methods are coroutines) given to a sync loop."""
    if isinstance(part, Shared) and part._asynchronous:
        kind = type(part).__name__
        raise TypeError(f"{name} is an {kind}, over an asyncio client: a sync loop takes a "
                        f"{kind[len('Async'):]} (over a sync client); an asyncio loop (an async def under retry()) "
                        "takes this one")


def async_parts(budget: Any, rate: Any) -> None:
    """Refuses a sync shared send rate beside an asyncio shared budget: the budget's decision is
    made within the send rate's, which a sync client's cannot await."""
    if isinstance(rate, Shared) and not rate._asynchronous and isinstance(budget, Shared) and budget._asynchronous:
        raise TypeError(f"send_rate is a {type(rate).__name__} and budget an {type(budget).__name__}: "
                        "give both shared parts over clients of one kind (AsyncSharedSendRate with AsyncSharedBudget)")


class _Tries:
    """One C run event `fn(c_budget, c_rate, now_ms)` across its tries: each shared part it touches
    makes it as one of its decisions (made again on a conflict). Each try starts from the run's and
    the local parts' state before the event: the previous try's change is undone, unless another
    task moved the local part since (an asyncio event, whose locks are held only within a try: that
    move, and the earlier try in it, stand). With both parts shared, the budget's decision is made
    once, within the send rate's first try; a try after a conflict on the rate's key replays the
    event on the budget's state that decision was made on, and writes no budget again."""

    def __init__(self, run_c: Any, budget: Any, rate: Any, fn: Callable[[Any, Any, Optional[int]], int],
                 lock_each_try: bool) -> None:
        self.fn, self.budget = fn, budget
        parts = [p for p in (budget, rate) if p is not None and not isinstance(p, Shared)]
        self.local = [c for c in (run_c, *(p._c for p in parts)) if c is not None]
        self.locks = [p._lock for p in parts] if lock_each_try else []
        self.last: "dict[int, tuple[bytes, bytes]]" = {}
        self.made: Optional[bytes] = None
        self.trying = b""

    def once(self, c_budget: Any, c_rate: Any, rate_state: Optional[bytes], now: Optional[int]) -> int:
        with contextlib.ExitStack() as stack:
            for lock in self.locks:
                stack.enter_context(lock)
            before = []
            for i, c in enumerate(self.local):
                state = bytes(ffi.buffer(c))
                if i in self.last and state == self.last[i][1]:
                    ffi.memmove(c, self.last[i][0], len(state))
                    state = self.last[i][0]
                before.append(state)
            if rate_state is not None:
                ffi.memmove(c_rate, rate_state, len(rate_state))
            status = self.fn(c_budget, c_rate, now)
            self.last = {i: (before[i], bytes(ffi.buffer(c))) for i, c in enumerate(self.local)}
            return status

    def with_budget(self, c_rate: Any, rate_state: Optional[bytes], now: Optional[int]) -> Any:
        """A try on the send rate's state `c_rate`: its status, or an awaitable of it when the
        budget's asyncio decision is made in it."""
        budget = self.budget
        if budget is None:
            return self.once(ffi.NULL, c_rate, rate_state, now)
        if not isinstance(budget, Shared):
            return self.once(budget._c, c_rate, rate_state, now)
        if self.made is not None:
            return self.once(budget._link.kind.struct(self.made), c_rate, rate_state, now)

        def decide(c: Any, _now: Optional[int]) -> int:
            self.trying = bytes(ffi.buffer(c))
            return self.once(c, c_rate, rate_state, now)

        if not budget._asynchronous:
            status = int(budget._event(None, decide))
            self.made = self.trying
            return status

        async def nested() -> int:
            status = int(await budget._aevent(None, decide))
            self.made = self.trying
            return status
        return nested()


def run_event(run_c: Any, now_ms: Optional[int], budget: Any, rate: Any,
              fn: Callable[[Any, Any, Optional[int]], int]) -> int:
    """`fn(c_budget, c_rate, now_ms)`, a C run event, with each part local (under its lock, held
    for the whole event) or shared over a sync client (`_Tries`). With a shared send rate the
    event reads the fleet's clock."""
    sync_part("budget", budget)
    sync_part("send_rate", rate)
    tries = _Tries(run_c, budget, rate, fn, lock_each_try=False)
    with contextlib.ExitStack() as locks:
        for part in (budget, rate):
            if part is not None and not isinstance(part, Shared):
                locks.enter_context(part._lock)
        if rate is None:
            return int(tries.with_budget(ffi.NULL, None, now_ms))
        if isinstance(rate, Shared):
            return int(rate._event(now_ms, lambda c, now: tries.with_budget(c, bytes(ffi.buffer(c)), now)))
        return int(tries.with_budget(rate._c, None, now_ms))


async def run_event_async(run_c: Any, now_ms: Optional[int], budget: Any, rate: Any,
                          fn: Callable[[Any, Any, Optional[int]], int]) -> int:
    """`run_event` for an asyncio loop: an asyncio shared part's decisions are awaited, by the same
    rule (`_Tries`); a local part's lock is held within each try only (never across an await).
    Without an asyncio part it is `run_event` (a sync shared part holds the loop at most the bound
    per decision, as it does outside a retry loop)."""
    if not any(isinstance(p, Shared) and p._asynchronous for p in (budget, rate)):
        return run_event(run_c, now_ms, budget, rate, fn)
    async_parts(budget, rate)
    tries = _Tries(run_c, budget, rate, fn, lock_each_try=True)
    if isinstance(rate, Shared):
        return int(await rate._aevent(now_ms, lambda c, now: tries.with_budget(c, bytes(ffi.buffer(c)), now)))
    # Only the budget is an asyncio part: its decision is the event.
    status = tries.with_budget(ffi.NULL if rate is None else rate._c, None, now_ms)
    return int(await status)


class Event(NamedTuple):
    """A C run event a loop's step asks for: `run_event`'s arguments."""

    run_c: Any
    now_ms: Optional[int]
    budget: Any
    rate: Any
    fn: Callable[[Any, Any, Optional[int]], int]


T = TypeVar("T")
# A step of a loop written once for sync and asyncio loops: it yields the events it needs made and
# is sent each one's status.
Steps = Generator[Event, int, T]


def drive(steps: "Steps[T]") -> T:
    """Runs `steps` in a sync loop: each event by `run_event`."""
    try:
        event = next(steps)
        while True:
            event = steps.send(run_event(*event))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def drive_async(steps: "Steps[T]") -> T:
    """Runs `steps` in an asyncio loop: each event by `run_event_async`."""
    try:
        event = next(steps)
        while True:
            event = steps.send(await run_event_async(*event))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class Shared:
    """What the three shared parts share: a local part of the same kind (its configuration, and
    its state as the cold start), the link to `key`, and the client's I/O."""

    _ctype = ""
    _asynchronous = False

    def __init__(self, client: Any, key: str, part: Any, clock: Optional[Callable[[], int]],
                 store_clock: bool, bound_ms: Optional[int], asynchronous: bool) -> None:
        from ._check import integer, show
        from ._ffi import lib
        from ._store_link import STORE_BOUND_MS, Kind

        if not isinstance(key, str) or not key:
            raise TypeError(f"key must be a non-empty str, got {show(key)}")
        if not callable(getattr(client, "register_script", None)):
            raise TypeError(f"client must be a valkey-py or redis-py client, got {show(client)}")
        pool = getattr(client, "connection_pool", None)
        if getattr(pool, "connection_kwargs", {}).get("decode_responses"):
            raise TypeError("client must be made with decode_responses=False: a stored value is bytes")
        if clock is not None and not callable(clock):
            raise TypeError(f"clock must be a callable returning ms, got {show(clock)}")
        if not isinstance(store_clock, bool):
            raise TypeError(f"store_clock must be True or False, got {show(store_clock)}")
        name = self._ctype[len("sb_"):]
        kind = Kind(self._ctype, getattr(lib, f"SB_{name.upper()}_VALUE_SIZE"),
                    getattr(lib, f"sb_{name}_encode"), getattr(lib, f"sb_{name}_decode"))
        self._scratch = _clone(part)
        self._link = Link(kind, bytes(ffi.buffer(part._c)), store_clock)
        self._lock = threading.Lock()
        # The process's turn at the store: one decision of this part at a time.
        self._turn: Any = None if asynchronous else threading.Lock()
        self._io: Any = AsyncIo(client, key) if asynchronous else SyncIo(client, key)
        self._bound_s = integer("bound_ms", STORE_BOUND_MS if bound_ms is None else bound_ms, 1, 60_000) / 1000
        self._clock = clock or _monotonic_ms
        self.key = key

    def _caller(self, now_ms: Optional[int]) -> int:
        from ._check import u64
        return u64("now_ms", self._clock() if now_ms is None else now_ms)

    def _op(self, method: Callable[[Any, int], Any]) -> Decide:
        """The decision `method(part, fleet_ms)` on a state: its answer and the state after it."""
        scratch = self._scratch

        def decide(state: bytes, now: int) -> Any:
            ffi.memmove(scratch._c, state, len(state))
            out = method(scratch, now)
            return out, bytes(ffi.buffer(scratch._c))
        return decide

    def _decide(self, now_ms: Optional[int], method: Callable[[Any, int], Any]) -> Any:
        return decide_sync(self._link, self._lock, self._turn, self._io, self._bound_s, self._caller(now_ms),
                           self._op(method))

    async def _adecide(self, now_ms: Optional[int], method: Callable[[Any, int], Any]) -> Any:
        return await self._adecide_op(now_ms, self._op(method))

    async def _adecide_op(self, now_ms: Optional[int], decide: Decide) -> Any:
        if self._turn is None:
            # Made in the event loop that first decides (asyncio.Lock binds to it).
            self._turn = asyncio.Lock()
        return await decide_async(self._link, self._lock, self._turn, self._io, self._bound_s,
                                  self._caller(now_ms), decide)

    def _event_op(self, now_ms: Optional[int], fn: Callable[[Any, Optional[int]], Any]) -> Decide:
        """A C run event touching this part as one of its decisions (`run_event`), on a struct of
        its own (an asyncio event's try may await a nested decision meanwhile); an event given no
        reading is given none (the run refuses a paced one), the link reading the part's clock."""
        kind = self._link.kind

        def decide(state: bytes, now: int) -> Generator[Any, Any, "tuple[Any, bytes]"]:
            c = kind.struct(state)
            status = fn(c, None if now_ms is None else now)
            if inspect.isawaitable(status):
                status = yield status
            return status, bytes(ffi.buffer(c))
        return decide

    def _event(self, now_ms: Optional[int], fn: Callable[[Any, Optional[int]], int]) -> int:
        return int(decide_sync(self._link, self._lock, self._turn, self._io, self._bound_s, self._caller(now_ms),
                               self._event_op(now_ms, fn)))

    async def _aevent(self, now_ms: Optional[int], fn: Callable[[Any, Optional[int]], Any]) -> int:
        return int(await self._adecide_op(now_ms, self._event_op(now_ms, fn)))

    def _view(self, read: Callable[[Any], Any]) -> Any:
        """`read(part)` on this process's copy of the state."""
        with self._lock:
            ffi.memmove(self._scratch._c, self._link.local, len(self._link.local))
            return read(self._scratch)

    @property
    def link_state(self) -> str:
        """Where the link to the store stands: 'joining', 'joined' or 'local' (SPEC.md section 19)."""
        return self._link.state

    @property
    def stats(self) -> "dict[str, int]":
        """The decisions made so far, those made alone (the store failed, was slow, or held a value
        of another configuration) and the conflicts met."""
        link = self._link
        return {"decisions": link.decisions, "alone": link.alone, "conflicts": link.conflicts}

    def stored_value(self) -> bytes:
        """This process's copy of the state in the store's encoding (SPEC.md section 19.2)."""
        return self._link.kind.encode(self._link.local)


def _clone(part: Any) -> Any:
    """A private copy of a local part (its own C struct and lock): the one decisions run on."""
    copy = object.__new__(type(part))
    for cls in type(part).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(part, slot):
                setattr(copy, slot, getattr(part, slot))
    size = ffi.sizeof(part._c[0])
    copy._c = ffi.new(ffi.typeof(part._c))
    ffi.memmove(copy._c, part._c, size)
    copy._lock = threading.Lock()
    return copy
