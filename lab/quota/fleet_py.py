"""One Python process of lab/fleet-quota-mixed.sh's fleet: WORKERS threads, each looping a
retry(send_rate=)-decorated GET of PATH_NAME on its own keep-alive connection from START_AT (Unix
ms) for SECONDS, behind one send rate: the process's own SendRate where STORE_PORT is empty, else a
SharedSendRate on KEY of the redis-server at STORE_PORT (valkey-py), the same key the fleet's Rust
and Node processes share. FIXED_MILLI pins the rate (min = max), as the Rust client's fleet_config
does. Threads, not asyncio tasks: a retry loop takes the sync shared parts, and a process's threads
take turns at the store. Prints the rate it learnt and, shared, its decisions."""

import http.client
import os
import threading
import time

from seeded_backoff import Policy, RetryError, retry
from seeded_backoff.send_rate import SendRate

PORT = int(os.environ["PORT"])
PATH = os.environ["PATH_NAME"]
WORKERS = int(os.environ["WORKERS"])
SECONDS = float(os.environ["SECONDS"])
START_AT = int(os.environ.get("START_AT") or time.time() * 1000)
FIXED = os.environ.get("FIXED_MILLI")
# As the Node loop's: many retries within 30 s, so a request is retried rather than dropped.
POLICY = Policy("google", max_retries=100, max_elapsed_ms=30_000)


class Response:
    """What retry() reads of a response, as of requests' and httpx's: its status and headers."""

    def __init__(self, status):
        self.status_code = status
        self.headers = {}


class Connection:
    """One keep-alive connection, opened again after an error (nginx's old worker closes its
    connections after a reload): a request it could not send or read is sent on a new one."""

    def __init__(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)

    def get(self):
        for reused in (True, False):
            try:
                self.conn.request("GET", PATH, headers={"Host": "quota"})
                res = self.conn.getresponse()
                res.read()
                return Response(res.status)
            except (OSError, http.client.HTTPException):
                self.conn.close()
                if not reused:
                    raise
        raise AssertionError("unreachable")


def main():
    options = {"min_rate_milli": int(FIXED), "max_rate_milli": int(FIXED)} if FIXED else {}
    rate = SendRate(**options)
    if os.environ.get("STORE_PORT"):
        import valkey

        from seeded_backoff.shared import SharedSendRate

        store = valkey.Valkey(host="127.0.0.1", port=int(os.environ["STORE_PORT"]))
        # BOUND_MS: the link's bound, SPEC.md's 50 ms unless the lab sets another.
        bound = os.environ.get("BOUND_MS")
        rate = SharedSendRate(store, os.environ["KEY"], rate, bound_ms=int(bound) if bound else None)

    @retry(policy=POLICY, send_rate=rate)
    def get(conn):
        return conn.get()

    time.sleep(max(0.0, START_AT / 1000 - time.time()))
    end = time.monotonic() + SECONDS

    not_sent = []

    def worker():
        # A request the send rate would not let go within the policy's 30 s (a rate cut to a few
        # a minute) gives up with no attempt made: counted, and its thread pauses 100 ms before
        # the next, as the Rust and Node clients do, rather than asking again in a loop.
        conn = Connection()
        while time.monotonic() < end:
            try:
                get(conn)
            except RetryError as e:
                if e.attempts == 0:
                    not_sent.append(1)
                    time.sleep(0.1)
            except (OSError, http.client.HTTPException):
                pass
        conn.conn.close()

    threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = getattr(rate, "stats", None)
    extra = "" if stats is None else (f" decisions {stats['decisions']} alone {stats['alone']} "
                                      f"conflicts {stats['conflicts']} link {rate.link_state}")
    print(f"learnt {PATH} {rate.rate_milli} not-sent {len(not_sent)}{extra}", flush=True)


main()
