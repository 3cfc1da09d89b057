"""The I/O of a shared part (SPEC.md section 19): the script over a valkey-py (or redis-py)
client, sync or asyncio, every decision bounded by STORE_BOUND_MS all round trips included
(`_store_event` makes the C run's events decisions of the shared parts they touch)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import threading
import time
from typing import Any, Callable, Generator, Optional

from ._ffi import ffi
from ._ffi import U64_MAX
from ._store_link import LATE, SCRIPT, Decide, Link, Reply, exchange

__all__ = ["Shared", "SyncIo", "AsyncIo", "decide_sync", "decide_async"]

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
        if (value is not None and not isinstance(value, bytes)) or not 0 <= int(ms) <= U64_MAX:
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
        needed = link.needs_store(caller_ms)
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
        needed = link.needs_store(caller_ms)
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
        self._scratch = _clone(part)
        self._link = Link(Kind(self._ctype), part._c, store_clock)
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
            local = self._link.local
            ffi.memmove(self._scratch._c, local, len(local))
            return read(self._scratch)

    @property
    def link_state(self) -> str:
        """Where the link to the store stands: 'joining', 'joined' or 'local' (SPEC.md section 19)."""
        return self._link.state

    @property
    def stats(self) -> "dict[str, int]":
        """The decisions made so far, those made alone (the store failed, was slow, or held a value
        of another configuration) and the conflicts met."""
        return self._link.stats

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
