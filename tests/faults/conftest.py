"""The fault server (fault_server.py) as a pytest fixture, and the leak checks every fault test
shares: no ResourceWarning, no thread left behind, no connection left open at the server."""

import gc
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "model"))


class Faults:
    def __init__(self, proc, info):
        self.proc = proc
        self.base = f"http://127.0.0.1:{info['port']}"
        self.refused = f"http://127.0.0.1:{info['refused_port']}/ok"

    def url(self, fault, **params):
        """A URL of `fault` with a fresh key, so that each test counts its own requests."""
        params.setdefault("key", uuid.uuid4().hex[:8])
        return f"{self.base}/{fault}?" + "&".join(f"{k}={v}" for k, v in params.items())

    def stats(self):
        with urllib.request.urlopen(f"{self.base}/_stats", timeout=5) as r:
            return json.load(r)

    def open_connections(self, settle_s=1.0):
        """Connections the server holds besides the _stats request, once the client's FINs have
        had up to `settle_s` to arrive."""
        deadline = time.monotonic() + settle_s
        while True:
            n = self.stats()["open"] - 1
            if n == 0 or time.monotonic() > deadline:
                return n
            time.sleep(0.05)


@pytest.fixture(scope="session")
def faults():
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fault_server.py")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        info = json.loads(proc.stdout.readline())
        yield Faults(proc, info)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()


@pytest.fixture
def no_leaks(faults):
    """Fails the test if it leaves a thread, an unclosed resource or an open connection."""
    threads = set(threading.enumerate())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
        gc.collect()
    leaked = [w for w in caught if issubclass(w.category, ResourceWarning)]
    assert not leaked, [str(w.message) for w in leaked]
    extra = [t for t in threading.enumerate() if t not in threads and t.is_alive()]
    assert not extra, extra
    assert faults.open_connections() == 0
