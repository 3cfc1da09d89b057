"""The Python part of the pacing test's fleet (lab/pacing/pacing.mjs starts it): clients
FIRST..FIRST+COUNT-1 in one asyncio loop, each one call of a function decorated with the package's
`retry` that GETs URL/<id> with aiohttp. Once their connections are open it prints `ready` and reads
the start (Unix ms) from stdin; each client starts then plus its own offset in the first second.
Prints one JSON line per client: {id, doneMs (from the start to its 200, null if it gave up),
calls}.

Environment: URL, FIRST, COUNT, and OPTIONS (the Policy's keywords as JSON; client i runs with
seed i + 1).
"""

import asyncio
import json
import os
import sys
import time

import aiohttp

from seeded_backoff import Policy, retry


class Answer:
    """What `retry` reads of a response: `status_code` and `headers` (aiohttp's multidict)."""

    def __init__(self, status_code, headers):
        self.status_code = status_code
        self.headers = headers


def offset_ms(i):
    """Client i's start in the first second: 617 is prime to 1000, so 1,000 clients take each ms once."""
    return (i * 617) % 1000


async def client(session, policy, url, i, start_at_s):
    calls = 0

    @retry(policy=policy, seed=i + 1)
    async def get():
        nonlocal calls
        calls += 1
        async with session.get(f"{url}/{i}") as r:
            await r.read()
            return Answer(r.status, r.headers)

    await asyncio.sleep(max(0.0, start_at_s + offset_ms(i) / 1000 - time.time()))
    try:
        answer = await get()
        done_ms = round((time.time() - start_at_s) * 1000) if answer.status_code == 200 else None
    except Exception:
        done_ms = None
    return {"id": i, "doneMs": done_ms, "calls": calls}


async def main():
    url = os.environ["URL"]
    first, count = int(os.environ["FIRST"]), int(os.environ["COUNT"])
    policy = Policy(**json.loads(os.environ["OPTIONS"]))
    # No limit on connections: every client keeps its own, as a fleet of processes would.
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        # Before the start, as a fleet that has been running would be: every client's keep-alive
        # connection open (the pool keeps them), and `retry`'s path run once.
        origin = url.split("/", 3)
        warm = f"{origin[0]}//{origin[2]}/__warm"

        async def touch():
            async with session.get(warm) as r:
                await r.read()
                return Answer(r.status, r.headers)

        await retry(policy=policy, seed=0)(touch)()
        await asyncio.gather(*(touch() for _ in range(count)))
        print("ready", flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        start_at_s = int(line) / 1000
        if not time.time() < start_at_s:
            print(f"clients.py: told to start at {line.strip()}, {time.time() - start_at_s:.3f} s ago", file=sys.stderr)
            sys.exit(1)
        results = await asyncio.gather(*(client(session, policy, url, first + k, start_at_s)
                                         for k in range(count)))
    for r in results:
        print(json.dumps(r))


asyncio.run(main())
