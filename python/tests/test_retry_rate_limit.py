"""The retry decorator and a 429's rate-limit headers (SPEC.md section 8.3), against a real HTTP
server on 127.0.0.1, on a virtual clock. Which header gives the hint is the independent model's
answer (tests/model/rate_limit_model.py), and so is every delay (tests/model/spec_model.py)."""

import sys
import time
import types

import pytest
import rate_limit_model as rl
import requests
import spec_model as m

from http_server import serve
from model_runs import model_steps
from seeded_backoff import RetryError, retry
from test_retry_http import SEED, VirtualClock, run_async

# The wall clock the decorator reads for Unix-time resets, pinned so that the expected hint is exact.
NOW_S = 1_700_000_000

# One header form at a time, as servers send them (names in their usual case).
FORMS = {
    "RateLimit": {"RateLimit": '"default";r=0;t=7, "burst";r=3;t=1'},
    "RateLimit-Reset": {"RateLimit-Reset": "12"},
    "X-RateLimit-Retry-After": {"X-RateLimit-Retry-After": "2.5"},
    "X-RateLimit-Retry-After unix": {"X-RateLimit-Retry-After": str(NOW_S + 20)},
    "X-RateLimit-Reset unix": {"X-RateLimit-Reset": str(NOW_S + 30)},
    "X-RateLimit-Reset fraction": {"X-RateLimit-Reset": "1.2341"},
    # Retry-After invalid, RateLimit without a reset: the first header that parses wins.
    "first that parses": {"Retry-After": "soon", "RateLimit": '"q";r=0', "RateLimit-Reset": "9",
                          "X-RateLimit-Reset": "30"},
    # A valid Retry-After wins over every rate-limit header.
    "Retry-After first": {"Retry-After": "3", "RateLimit-Reset": "20", "X-RateLimit-Reset": "30"},
    # Nothing parses: the plain schedule.
    "none parses": {"RateLimit-Reset": "-1", "X-RateLimit-Reset": "soon"},
}


@pytest.fixture(autouse=True)
def pinned_wall_clock(monkeypatch):
    module = sys.modules["seeded_backoff._outcome"]
    monkeypatch.setattr(module, "time", types.SimpleNamespace(time=lambda: NOW_S, sleep=time.sleep,
                                                              monotonic=time.monotonic))


def model_delays(script, seed, policy=None):
    """The model's delays for the script's failures, each response's hint by the model's reading of
    its headers."""
    hints = [rl.hint_from_headers(status, {k.lower(): v for k, v in headers.items()}, NOW_S)
             for status, headers in script if status != 200]
    return model_steps(m.Backoff(policy or m.preset("google"), seed), hints)


def run_sync(script, **options):
    clock = VirtualClock()
    with serve(script) as (url, server):
        @retry(seed=SEED, sleep=clock.sleep, clock=clock.clock, retry_on=requests.ConnectionError, **options)
        def fetch():
            return requests.get(url, timeout=5)

        response = fetch()
    assert response.status_code == 200 and server.count == len(script)
    return clock.delays_ms


@pytest.mark.parametrize("form", FORMS)
def test_a_429_waits_for_its_rate_limit_header(form):
    script = [(429, FORMS[form]), (429, FORMS[form]), (200, {})]
    expected = model_delays(script, SEED)
    assert run_sync(script) == expected


def test_the_hints_the_model_reads_are_the_ones_meant():
    """The model reads the forms as the SPEC says (so the test above checks rate-limit stepping):
    a hint from each form, and the upward jitter past it (1 s + 10 %)."""
    hints = {f: rl.hint_from_headers(429, {k.lower(): v for k, v in h.items()}, NOW_S) for f, h in FORMS.items()}
    assert hints == {
        "RateLimit": m.RateLimit(7000), "RateLimit-Reset": m.RateLimit(12000),
        "X-RateLimit-Retry-After": m.RateLimit(2500), "X-RateLimit-Retry-After unix": m.RateLimit(20000),
        "X-RateLimit-Reset unix": m.RateLimit(30000), "X-RateLimit-Reset fraction": m.RateLimit(1235),
        "first that parses": m.RateLimit(9000), "Retry-After first": m.RetryAfter(3000), "none parses": None,
    }
    delay = run_sync([(429, FORMS["X-RateLimit-Reset unix"]), (200, {})])[0]
    assert 30000 <= delay <= 30000 + 1000 + 3000


def test_a_503_with_x_ratelimit_reset_is_not_a_rate_limit_hint():
    script = [(503, {"X-RateLimit-Reset": "30"}), (503, {"RateLimit-Reset": "20"}), (200, {})]
    got = run_sync(script)
    assert got == model_delays([(503, {}), (503, {}), (200, {})], SEED)
    assert got[0] < 30000  # Google's first delay is at most 2 s: the 30 s reset was not used


def test_a_rate_limit_hint_past_the_time_budget_gives_up():
    policy = m.preset("google", max_elapsed_ms=20_000)
    script = [(429, {"RateLimit-Reset": "5"}), (429, {"RateLimit-Reset": "25"}), (200, {})]
    expected = model_delays(script, SEED, policy)
    assert expected[-1] == "deadline"
    clock = VirtualClock()
    with serve(script) as (url, _):
        @retry(seed=SEED, sleep=clock.sleep, clock=clock.clock, max_elapsed_ms=20_000)
        def fetch():
            return requests.get(url, timeout=5)

        with pytest.raises(RetryError) as e:
            fetch()
    assert (e.value.reason, e.value.attempts) == ("deadline", 2) and clock.delays_ms == expected[:-1]


def test_async_httpx_429_with_ratelimit():
    script = [(429, FORMS["RateLimit"]), (429, FORMS["X-RateLimit-Reset unix"]), (200, {})]
    clock = VirtualClock()
    response, count = run_async(script, clock)
    assert response.status_code == 200 and count == 3
    assert clock.delays_ms == model_delays(script, SEED)
