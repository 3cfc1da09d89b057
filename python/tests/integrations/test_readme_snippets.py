"""python/README.md's integration sections, each snippet run as pasted (a subprocess of this venv's
Python) against the local servers, its printed delays the independent model's."""

import os
import subprocess
import sys

import spec_model as m

from memorystore_server import memorystore
from redis_server import redis_server

README = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "README.md")


def snippet(heading):
    text = open(README, encoding="utf-8").read()
    section = text.split(f"## {heading}", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def run(code, **env):
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_google_section():
    first = m.Backoff(m.preset("google", max_elapsed_ms=60000), 7).next(elapsed=0).delay_ms
    with memorystore([(503, {}), (200, {})]) as (endpoint, server):
        printed = run(snippet("Google Cloud client libraries"), MEMORYSTORE_ENDPOINT=endpoint)
        assert len(server.paths) == 2
    assert printed == f"ACTIVE [('ServiceUnavailable', {first})]"


def test_valkey_section():
    b = m.Backoff(m.preset("google"), 7)
    delays = [b.next().delay_ms / 1000 for _ in range(3)]
    with redis_server() as server:
        printed = run(snippet("Valkey and Redis clients"), VALKEY_PORT=str(server.port))
    assert printed == f"True {delays}"
