"""50 asyncio tasks against nginx's limit_req (429 past its rate), one mode after the other, each on
its own path so that nginx's access log tells them apart (scripts/test.d/61-quota-nginx.sh reads it):
  /py-none      each task loops a retry()-decorated httpx GET (per-request backoff, no shared limiter);
  /py-sendrate  the same, the tasks sharing one SendRate through retry(send_rate=): the run asks it
                before every attempt and tells it every answer (a 429 is a throttle);
  /py-sendrate-b2  the same with SendRate(burst=2): a wait that ends late (asyncio's timers, whole
                ms) may still go on the schedule instead of moving it back (SPEC.md section 17.4).
Env: PORT, SECONDS (a mode's length). Prints the rate the shared SendRate learnt; the script counts
the log."""

import asyncio
import os
import time

import httpx

from seeded_backoff import Policy, RetryError, SendRate, retry

WORKERS = 50
PORT = os.environ["PORT"]
SECONDS = float(os.environ.get("SECONDS", "20"))
# As the Node loop's: many retries within 30 s, so a request is retried rather than dropped.
POLICY = Policy("google", max_retries=100, max_elapsed_ms=30_000)


async def mode(path, send_rate):
    limits = httpx.Limits(max_connections=WORKERS, max_keepalive_connections=WORKERS)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}", limits=limits) as client:

        @retry(policy=POLICY, send_rate=send_rate)
        async def get():
            return await client.get(path)

        end = time.monotonic() + SECONDS

        async def worker():
            while time.monotonic() < end:
                try:
                    await get()
                except RetryError:
                    pass

        await asyncio.gather(*(worker() for _ in range(WORKERS)))


async def main():
    await mode("/py-none", None)  # each mode after a pause: nginx's bucket refilled
    for path, rate in (("/py-sendrate", SendRate()), ("/py-sendrate-b2", SendRate(burst=2))):
        await asyncio.sleep(1.5)
        await mode(path, rate)
        print(f"learnt {path} {rate.rate_milli}")


asyncio.run(main())
