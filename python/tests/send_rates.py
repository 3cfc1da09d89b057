"""Send rates whose behaviour SPEC.md section 17 gives by hand, for the tests of every loop that
takes `send_rate=`. Attempt spacing: at a fixed rate r (min = max, turned on by one throttle) and
burst 1, section 17.4 lets attempt i go only once the rate's clock reads at least its first
reading plus i · 10^9 ÷ r µs, whatever the number of threads or tasks asking; the clock reads
time.monotonic in whole ms, so each bound holds from the ms floor of the test's start."""

import asyncio
import inspect
import threading
import time

import httpx

from http_server import serve
from seeded_backoff.send_rate import SendRate

RATE_MILLI = 200_000  # 200 attempts/s
INTERVAL_MS = 10**9 // RATE_MILLI / 1000  # 5 ms

# `capped_rate()`, derived from section 17: ask(0) sends and eleven accepted(0) count, so the window
# holds 1 sent and 11 accepted over span max(100, min(0 − 0 + 1000, 0 − 0)) = 100 ms (§17.2's
# floor): sent_rate = 1 · 10^6 ÷ 100 = 10_000, accepted_rate = 11 · 10^6 ÷ 100 = 110_000. The
# throttle at 0 finds the rate off: current = max(10_000, 110_000), base = max(min(current,
# 110_000), current ÷ 2) = 110_000, rate = clamp(110_000 · 980 ÷ 1000 = 107_800, 1, CAP) = CAP.
CAP_MILLI = 100_000
# An attempt later (time.monotonic reads well past 1250 ms, so bucket 0 has left the window): one
# sent (after the cut at 0, so §17.5 lets its throttle cut), none accepted. A 429 without a hint:
# current = CAP, accepted_rate = 0, base =
# max(min(CAP, 0), CAP ÷ 2) = 50_000, rate = 50_000 · 980 ÷ 1000 = 49_000, last_probe = now.
AFTER_429_MILLI = 49_000
# A 500 is accepted: the probe (§17.5 P) runs only if now ≥ last_probe + 60 s, and then grows the rate
# only if sent_rate ≥ CAP ÷ 2; one attempt over a span of at least 1000 ms is at most 1000: no growth.
AFTER_500_MILLI = CAP_MILLI


def fixed_rate(rate_milli=RATE_MILLI):
    """A send rate held at `rate_milli`: min = max, turned on by one throttle without a hint."""
    rate = SendRate(min_rate_milli=rate_milli, max_rate_milli=rate_milli, burst=1)
    rate.answer(None, "throttled")
    assert rate.rate_milli == rate_milli
    return rate


def capped_rate():
    """On at CAP_MILLI with probes a minute apart (see the derivation above)."""
    rate = SendRate(max_rate_milli=CAP_MILLI, probe_ms=60_000)
    assert rate.ask(0).kind == "send"
    for _ in range(11):
        rate.answer(0, "accepted")
    rate.answer(0, "throttled")
    assert rate.rate_milli == CAP_MILLI
    return rate


def refusing_rate():
    """A fail-fast rate under a minute's hint: every ask for a minute is refused."""
    rate = SendRate(fail_fast=True)
    rate.answer(None, "throttled", hint_ms=60_000)
    return rate


def assert_spaced(start_s, times, interval_ms=INTERVAL_MS):
    """Attempt i (in the order they went) left no earlier than start + i intervals (the clock's
    ms floor of the start), so no two attempts shared a slot."""
    floor_ms = int(start_s * 1000)
    for i, t in enumerate(sorted(times)):
        assert t * 1000 >= floor_ms + i * interval_ms - 1e-6, (i, t * 1000 - floor_ms)


def leaving(fn, leaves):
    """`fn` (plain or async), appending the time.monotonic() at which each call leaves to `leaves`
    (a list: its append is atomic, so threads may share it)."""
    if inspect.iscoroutinefunction(fn):
        async def timed_async(*args, **kwargs):
            leaves.append(time.monotonic())
            return await fn(*args, **kwargs)
        return timed_async

    def timed(*args, **kwargs):
        leaves.append(time.monotonic())
        return fn(*args, **kwargs)
    return timed


def in_threads(work, threads=20, each=5):
    """Runs `work()` `each` times on each of `threads` threads started together; returns
    (the time.monotonic() before they start, the seconds until the last ends)."""
    pool = [threading.Thread(target=lambda: [work() for _ in range(each)]) for _ in range(threads)]
    start = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return start, time.monotonic() - start


def assert_paced(start_s, took_s, leaves, count, interval_ms=INTERVAL_MS):
    """`count` attempts left, each at or after its slot (no slack below); the run ended within its
    slots plus 5 s (the slack above: a paced run, not a stalled one)."""
    assert len(leaves) == count
    assert_spaced(start_s, leaves, interval_ms)
    assert took_s < count * interval_ms / 1000 + 5


def assert_tasks_paced(one, leaves, interval_ms, tasks=30):
    """Runs `tasks` calls of the coroutine function `one(client, url)` together on one event loop
    (one httpx.AsyncClient) against a server on 127.0.0.1 answering 200: each answered 200, and the
    attempts left (`leaves`) and arrived spaced as `assert_paced` says."""
    async def main(url):
        async with httpx.AsyncClient(timeout=10) as client:
            return await asyncio.gather(*(one(client, url) for _ in range(tasks)))

    with serve([(200, {})]) as (url, server):
        start = time.monotonic()
        statuses = asyncio.run(main(url))
        took = time.monotonic() - start
        assert statuses == [200] * tasks
        assert_spaced(start, server.arrivals, interval_ms)
    assert_paced(start, took, leaves, tasks, interval_ms)
