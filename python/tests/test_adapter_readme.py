"""python/README.md's tenacity and stamina snippets, run as pasted against a real HTTP server on
127.0.0.1 (503 then 200), with tenacity's sleep and stamina's `time.sleep` recording instead of
waiting: the one delay is the model's first for seed 42 (SPEC.md, tests/model)."""

import os
import time

import spec_model as m

from conftest import REPO
from http_server import serve

FIRST = m.Backoff(m.preset("google"), 42).next().delay_ms


def block(heading):
    text = open(os.path.join(REPO, "python", "README.md"), encoding="utf-8").read()
    return text.split(f"### {heading}\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]


def test_the_tenacity_snippet():
    scope = {}
    exec(block("tenacity"), scope)  # noqa: S102 (the README's own code)
    slept = []
    scope["get"].retry.sleep = slept.append
    with serve([(503, {}), (200, {})]) as (url, server):
        assert scope["get"](url).status_code == 200
        assert server.count == 2
    assert [round(s * 1000) for s in slept] == [FIRST]


def test_the_stamina_snippet(monkeypatch):
    scope = {}
    exec(block("stamina"), scope)  # noqa: S102
    slept = []
    monkeypatch.setattr(time, "sleep", lambda s: slept.append(round(s * 1000)))
    with serve([(503, {}), (200, {}), (503, {}), (200, {})]) as (url, server):
        assert scope["get"](url).status_code == 200
        assert scope["get"](url).status_code == 200
        assert server.count == 4
    # Two calls, two schedules: the second is call_seed(42, 1)'s (SPEC.md section 14).
    assert slept == [FIRST, m.Backoff(m.preset("google"), m.call_seed(42, 1)).next().delay_ms]
