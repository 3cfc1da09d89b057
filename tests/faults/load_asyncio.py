"""Load: 1,000 asyncio tasks retrying 503s through seeded_backoff.retry, sharing one Policy and one
cancellation (the gather that holds them), each asleep after its first attempt; then the gather
cancelled.

Checks (exit status 1 if one fails): no warning of any kind; every task made exactly one attempt
and ended by the cancellation, none is left afterwards; the cancellation ends them well before
their sleep would (a 60 s sleep; within a tenth of it, where it takes milliseconds).

With --lab, the figures instead: Google's policy (a first sleep of 1 to 2 s) beside the same load
through tenacity (pinned in python/requirements-dev.txt) in the same run, the Python memory held per
sleeping task (tracemalloc, after every task made its first attempt and sleeps) and the time the
cancellation took, printed against its goal (100 ms) as a `goal:` line; a missed goal is no failure.

    .venv/bin/python tests/faults/load_asyncio.py [--tasks 1000] [--lab]
"""

import argparse
import asyncio
import gc
import sys
import time
import tracemalloc
import warnings
from importlib.metadata import version

import httpx
import tenacity

from seeded_backoff import Policy, retry

CANCEL_GOAL_S = 0.100
# The gate's sleep, and the bound on the cancellation: a tenth of the sleep.
SLEEP_MS = 60_000
CANCEL_LIMIT_S = SLEEP_MS / 1000 / 10


def seeded_backoff_loop(policy, attempted):
    @retry(policy=policy)
    async def fetch():
        attempted()
        return httpx.Response(503)
    return fetch


def tenacity_loop(attempted):
    # Google's reference shape in tenacity's terms: min(2^n s + U[0, 1] s, 32 s), 10 retries.
    @tenacity.retry(retry=tenacity.retry_if_result(lambda r: r.status_code == 503),
                    wait=tenacity.wait_exponential_jitter(initial=1, max=32, jitter=1),
                    stop=tenacity.stop_after_attempt(11))
    async def fetch():
        attempted()
        return httpx.Response(503)
    return fetch


async def measure(name, make, tasks):
    """(bytes per sleeping task, seconds the cancellation took, tasks left, attempts, cancelled)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    attempts = [0]
    cancelled = [0]

    def attempted():
        attempts[0] += 1

    async def one(fetch):
        try:
            await fetch()
        except asyncio.CancelledError:
            cancelled[0] += 1
            raise

    fetches = [make(attempted) for _ in range(tasks)]
    group = asyncio.gather(*(one(f) for f in fetches))
    # Every task makes its first attempt (a 503) and sleeps its first delay.
    while attempts[0] < tasks:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    start = time.perf_counter()
    group.cancel()
    try:
        await group
    except asyncio.CancelledError:
        pass
    took = time.perf_counter() - start
    left = len(asyncio.all_tasks()) - 1
    print(f"{name:>15}: {tasks} sleeping tasks, {held / tasks:8.0f} B per task (tracemalloc), "
          f"cancel ended all in {took * 1000:6.1f} ms, {left} tasks left")
    return held / tasks, took, left, attempts[0], cancelled[0]


def seeded_backoff_only(tasks):
    """The gate: seeded_backoff alone, every task asleep for at least SLEEP_MS."""
    policy = Policy("google", initial_ms=SLEEP_MS, max_backoff_ms=SLEEP_MS)  # shared by every task
    return asyncio.run(measure("seeded_backoff", lambda count: seeded_backoff_loop(policy, count), tasks))


async def beside_tenacity(tasks):
    policy = Policy("google")  # shared by every task
    ours = await measure("seeded_backoff", lambda count: seeded_backoff_loop(policy, count), tasks)
    theirs = await measure(f"tenacity {version('tenacity')}", tenacity_loop, tasks)
    return ours, theirs


def run(tasks, lab):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if lab:
            ours, theirs = asyncio.run(beside_tenacity(tasks))
        else:
            ours = seeded_backoff_only(tasks)
        gc.collect()
    per_task, took, left, attempts, cancelled = ours
    failures = [f"warning: {w.category.__name__}: {w.message}" for w in caught]
    if not lab and attempts != tasks:
        failures.append(f"{attempts} attempts by {tasks} tasks: a sleep ended before the cancellation")
    if cancelled != tasks:
        failures.append(f"{cancelled} of {tasks} tasks ended by the cancellation")
    if left:
        failures.append(f"{left} tasks left after the cancellation")
    if lab:
        print(f"seeded_backoff / tenacity memory per sleeping task: {per_task / theirs[0]:.2f}")
        met = "met" if took <= CANCEL_GOAL_S else "missed"
        print(f"goal: {met}: cancelling {tasks} sleeping seeded_backoff tasks ends them all in "
              f"{took * 1000:.1f} ms, goal <= {CANCEL_GOAL_S * 1000:.0f} ms")
    elif took > CANCEL_LIMIT_S:
        failures.append(f"cancel took {took * 1000:.1f} ms, not well before the {SLEEP_MS} ms sleep "
                        f"(limit {CANCEL_LIMIT_S * 1000:.0f} ms)")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--lab", action="store_true", help="the figures beside tenacity, with goal lines")
    args = parser.parse_args()
    sys.exit(run(args.tasks, args.lab))
