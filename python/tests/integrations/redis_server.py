"""A real redis-server (Debian's package, protocol-compatible with Valkey) on 127.0.0.1 at an
ephemeral port, which the test can kill and restart on the same port. Never outlives the test."""

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(port, deadline_s=10):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.02)
    raise TimeoutError(f"redis-server did not listen on 127.0.0.1:{port} within {deadline_s} s")


class RedisServer:
    def __init__(self, binary):
        self.binary = binary
        self.dir = tempfile.mkdtemp(prefix="sb-redis-")
        self.port = _free_port()
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", self.dir, "--maxclients", "1000", "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_listening(self.port)

    def kill(self):
        """SIGKILL, as a crashed node: clients see their connections reset."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def close(self):
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def redis_server():
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    server = RedisServer(binary)
    server.start()
    try:
        yield server
    finally:
        server.close()
