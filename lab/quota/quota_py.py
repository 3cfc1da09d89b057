"""50 asyncio tasks against nginx's limit_req (429 past its rate), one mode after the other, each on
its own path so that nginx's access log tells them apart (lab/quota-nginx.sh reads it):
  /py-none      each task loops a retry()-decorated GET (per-request backoff, no shared limiter);
  /py-sendrate  the same, the tasks sharing one SendRate through retry(send_rate=): the run asks it
                before every attempt and tells it every answer (a 429 is a throttle);
  /py-sendrate-b1  the same with SendRate(burst=1): a wait that ends late (asyncio's timers, whole
                ms) moves the schedule back, where the default burst of 2 lets it go on the
                schedule (SPEC.md section 17.4).
Each task keeps one HTTP/1.1 keep-alive connection on asyncio streams, as the Rust client does: an
HTTP library's own work per request (httpx spends about a millisecond of CPU on each) would make
the 50 tasks, not the send rate, the limit on what one process sends.
Env: PORT, SECONDS (a mode's length), MODE=change (the one mode /py-change: the default SendRate
for SECONDS while the script changes nginx's rate). Prints the rate the shared SendRate learnt; the script counts
the log."""

import asyncio
import os
import time

from seeded_backoff import Policy, RetryError, retry
from seeded_backoff.send_rate import SendRate

WORKERS = 50
PORT = int(os.environ["PORT"])
SECONDS = float(os.environ.get("SECONDS", "20"))
# As the Node loop's: many retries within 30 s, so a request is retried rather than dropped.
POLICY = Policy("google", max_retries=100, max_elapsed_ms=30_000)


class Response:
    """What retry() reads of a response, as of requests' and httpx's: its status and headers."""

    def __init__(self, status):
        self.status_code = status
        self.headers = {}


class Connection:
    """One keep-alive connection, opened again after an error."""

    def __init__(self):
        self.streams = None

    async def get(self, path):
        # A kept-alive connection that the server closed before answering (nginx's old worker
        # after a reload) is opened again and the request sent on the new one, as HTTP clients do.
        for reused in (self.streams is not None, False):
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", PORT)
            reader, writer = self.streams
            try:
                writer.write(f"GET {path} HTTP/1.1\r\nHost: quota\r\n\r\n".encode())
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
                status = int(head.split(" ", 2)[1])
                length = next(int(line.split(":", 1)[1]) for line in head.split("\r\n")
                              if line.startswith("content-length:"))
                await reader.readexactly(length)
                return Response(status)
            except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration) as e:
                writer.close()
                self.streams = None
                if not (reused and isinstance(e, (OSError, asyncio.IncompleteReadError))):
                    raise ConnectionError(f"GET {path}: {e!r}") from e


async def mode(path, send_rate):
    @retry(policy=POLICY, send_rate=send_rate)
    async def get(conn):
        return await conn.get(path)

    end = time.monotonic() + SECONDS

    async def worker():
        conn = Connection()
        while time.monotonic() < end:
            try:
                await get(conn)
            except RetryError:
                pass
        if conn.streams is not None:
            conn.streams[1].close()

    await asyncio.gather(*(worker() for _ in range(WORKERS)))


async def main():
    if os.environ.get("MODE") == "change":
        rate = SendRate()
        await mode("/py-change", rate)
        print(f"learnt /py-change {rate.rate_milli}")
        return
    await mode("/py-none", None)  # each mode after a pause: nginx's bucket refilled
    for path, rate in (("/py-sendrate", SendRate()), ("/py-sendrate-b1", SendRate(burst=1))):
        await asyncio.sleep(1.5)
        await mode(path, rate)
        print(f"learnt {path} {rate.rate_milli}")


asyncio.run(main())
