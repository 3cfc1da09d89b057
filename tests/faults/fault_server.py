#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 server on 127.0.0.1, for driving retry loops against real sockets.

Any test (Python, Rust, Node) starts it as a child process, reads one JSON line, and stops it by
closing its stdin (or SIGTERM); it never outlives its parent's stdin.

    python3 tests/faults/fault_server.py [--host 127.0.0.1]

stdout, first line:  {"port": P, "refused_port": R}
    P: the server (an ephemeral port). R: a port bound on 127.0.0.1 but never listening, so every
    connection to it is refused (ECONNREFUSED) for as long as the server runs.

Requests: GET /<fault>?<params>. Every response carries `Connection: close`; the server closes
the connection after it. Every response head also carries `Access-Control-Allow-Origin: *`, so a
page on another local origin (a browser's fetch) reads the answers as a script does. Faults:

    ok                    200, body "ok"
    reset-before-headers  reads the request, then resets the connection (RST) before any byte
    reset-after-headers   a 200's head (Content-Length: 1000) and 10 body bytes, then RST
    stall                 reads the request and sends nothing until the client closes
    trickle-headers       a 200 whose head arrives one byte every `interval_ms` (default 100), then
                          body "ok"; the head is padded to `bytes` bytes (default 200)
    truncated-chunked     200 with Transfer-Encoding: chunked, one 4-byte chunk, then FIN without
                          the terminating chunk
    storm                 503, 429, 500, 502, 504 in turn, each with unparseable Retry-After,
                          RateLimit, RateLimit-Reset, X-RateLimit-Reset and
                          X-RateLimit-Retry-After values (body "busy")
    status                `code` (default 503) with body "busy"

Params: `n=K` gives the fault to the first K requests of this path and `key`, then "ok" (default:
every request); `key` separates concurrent tests' counters.

    GET /_stats  -> {"requests": {"<path>?key=<key>": count}, "open": connections open now}

`open` counts the connections the server still holds (the _stats one included): a client that
closed everything leaves 1.
"""

import argparse
import asyncio
import json
import signal
import socket
import struct
import sys
import threading
from urllib.parse import parse_qs, urlsplit

STORM_STATUSES = (503, 429, 500, 502, 504)
# None of these parse (SPEC.md section 8): each hint header is ignored and the plain backoff decides.
GARBAGE = [
    {"Retry-After": "soon", "RateLimit": '"q";r=0', "X-RateLimit-Reset": "-1"},
    {"Retry-After": "-5", "RateLimit-Reset": "abc", "X-RateLimit-Retry-After": "1e3"},
    {"Retry-After": "1.5", "RateLimit": '"unterminated;t=5', "X-RateLimit-Reset": ".5"},
    {"Retry-After": "Mon, 32 Foo 2026 99:99:99 GMT", "RateLimit-Reset": "+1", "X-RateLimit-Reset": "1."},
    {"Retry-After": "0x10", "RateLimit": "", "X-RateLimit-Retry-After": "ten"},
]
REASONS = {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
           503: "Service Unavailable", 504: "Gateway Timeout"}


class Server:
    def __init__(self):
        self.counts = {}
        self.open = 0

    async def handle(self, reader, writer):
        self.open += 1
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            target = head.split(b" ", 2)[1].decode("latin-1")
            await self.respond(target, reader, writer)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, IndexError):
            pass
        finally:
            self.open -= 1
            writer.close()

    async def respond(self, target, reader, writer):
        url = urlsplit(target)
        params = {k: v[-1] for k, v in parse_qs(url.query).items()}
        fault = url.path.strip("/")
        if fault == "_stats":
            body = json.dumps({"requests": self.counts, "open": self.open}).encode()
            return await send(writer, 200, {"Content-Type": "application/json"}, body)
        counter = f"{url.path}?key={params.get('key', '')}"
        seen = self.counts.get(counter, 0)
        self.counts[counter] = seen + 1
        if "n" in params and seen >= int(params["n"]):
            fault = "ok"
        if fault == "ok":
            return await send(writer, 200, {}, b"ok")
        if fault == "status":
            return await send(writer, int(params.get("code", 503)), {}, b"busy")
        if fault == "storm":
            return await send(writer, STORM_STATUSES[seen % 5], GARBAGE[seen % len(GARBAGE)], b"busy")
        if fault == "reset-before-headers":
            return reset(writer)
        if fault == "reset-after-headers":
            writer.write(head(200, {"Content-Length": "1000"}) + b"0123456789")
            await writer.drain()
            await asyncio.sleep(0.02)
            return reset(writer)
        if fault == "stall":
            await reader.read()  # until the client closes
            return None
        if fault == "trickle-headers":
            interval = int(params.get("interval_ms", 100)) / 1000
            data = head(200, {"Content-Length": "2"})
            pad = max(0, int(params.get("bytes", 200)) - len(data) - len("X-Pad: \r\n"))
            data = data[:-2] + b"X-Pad: " + b"a" * pad + b"\r\n\r\n"
            for i in range(len(data)):
                writer.write(data[i:i + 1])
                await writer.drain()
                await asyncio.sleep(interval)
            writer.write(b"ok")
            return await writer.drain()
        if fault == "truncated-chunked":
            writer.write(head(200, {"Transfer-Encoding": "chunked"}) + b"4\r\nbusy\r\n")
            await writer.drain()
            return None  # FIN in handle(): the 0-length last chunk never comes
        return await send(writer, 404, {}, b"unknown fault")


def head(status, headers):
    lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}", "Connection: close",
             "Access-Control-Allow-Origin: *"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def send(writer, status, headers, body):
    writer.write(head(status, {**headers, "Content-Length": str(len(body))}) + body)
    await writer.drain()


def reset(writer):
    # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = Server()
    listener = await asyncio.start_server(server.handle, args.host, 0)
    refused = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    refused.bind((args.host, 0))  # bound, never listening: connections are refused
    port = listener.sockets[0].getsockname()[1]
    print(json.dumps({"port": port, "refused_port": refused.getsockname()[1]}), flush=True)
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, done.set)
    # stdin at EOF: the parent closed it or exited. A daemon thread, so SIGTERM need not wait for it.
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), loop.call_soon_threadsafe(done.set)),
                     daemon=True).start()
    async with listener:
        await done.wait()
    refused.close()


if __name__ == "__main__":
    asyncio.run(main())
