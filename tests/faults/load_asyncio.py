"""Load: 1,000 asyncio tasks retrying 503s through seeded_backoff.retry, sharing one Policy and one
cancellation (the gather that holds them), beside the same load through tenacity (pinned in
python/requirements-dev.txt) in the same run.

Checks (exit status 1 if one fails): no warning of any kind, cancelling the gather ends every task
within 100 ms, no task is left afterwards. Prints, for each library, the Python memory held per
sleeping task (tracemalloc, after every task made its first attempt and sleeps) and the time the
cancellation took.

    .venv/bin/python tests/faults/load_asyncio.py [--tasks 1000]
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

CANCEL_LIMIT_S = 0.100


def seeded_backoff_loop(policy):
    @retry(policy=policy)
    async def fetch():
        return httpx.Response(503)
    return fetch


def tenacity_loop():
    # Google's reference shape in tenacity's terms: min(2^n s + U[0, 1] s, 32 s), 10 retries.
    @tenacity.retry(retry=tenacity.retry_if_result(lambda r: r.status_code == 503),
                    wait=tenacity.wait_exponential_jitter(initial=1, max=32, jitter=1),
                    stop=tenacity.stop_after_attempt(11))
    async def fetch():
        return httpx.Response(503)
    return fetch


async def measure(name, make, tasks):
    """(bytes per sleeping task, seconds the cancellation took, tasks left)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    attempts = [0]

    async def one(fetch):
        attempts[0] += 1
        await fetch()

    fetches = [make() for _ in range(tasks)]
    group = asyncio.gather(*(one(f) for f in fetches))
    # Every task makes its first attempt (a 503) and sleeps its first delay (>= 1 s).
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
    return held / tasks, took, left


async def main(tasks):
    policy = Policy("google")  # shared by every task
    ours = await measure("seeded_backoff", lambda: seeded_backoff_loop(policy), tasks)
    theirs = await measure(f"tenacity {version('tenacity')}", tenacity_loop, tasks)
    return ours, theirs


def run(tasks):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (per_task, took, left), (their_per_task, _, _) = asyncio.run(main(tasks))
        gc.collect()
    print(f"seeded_backoff / tenacity memory per sleeping task: {per_task / their_per_task:.2f}")
    failures = [f"warning: {w.category.__name__}: {w.message}" for w in caught]
    if took > CANCEL_LIMIT_S:
        failures.append(f"cancel took {took * 1000:.1f} ms (limit {CANCEL_LIMIT_S * 1000:.0f} ms)")
    if left:
        failures.append(f"{left} tasks left after the cancellation")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=1000)
    sys.exit(run(parser.parse_args().tasks))
