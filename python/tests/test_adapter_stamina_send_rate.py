"""backoff_hook(..., send_rate=) with the real stamina (pinned) against a real HTTP server on
127.0.0.1: each attempt is made through `hook.attempt` (`attempt_async`), which waits for the
rate, first attempts included, and tells it the answer; stamina's `on=` then retries from that
outcome. Expected rates and spacings are derived by hand from SPEC.md section 17 in send_rates.py.
Spacing: the times the attempts leave the client (and arrive at the server) are each at or after
their slot, from the ms floor of the start (no slack below); the whole run must end within its
slots plus 5 s (the slack above)."""

import time

import httpx
import pytest
import stamina

from http_server import serve
from seeded_backoff import Policy, RetryError
from seeded_backoff.send_rate import SendRate
from seeded_backoff.stamina import backoff_hook
from send_rates import (AFTER_429_MILLI, AFTER_500_MILLI, assert_paced, assert_spaced, assert_tasks_paced,
                        capped_rate, fixed_rate, in_threads, leaving, refusing_rate)


def get(client, url):
    r = client.get(url)
    r.raise_for_status()
    return r.status_code


def fetch(client, url, rate, seed=None, leaves=None):
    """One call: a hook of its own, every attempt through it (its leaving time added to `leaves`)."""
    hook = backoff_hook(Policy("google"), seed=seed, send_rate=rate)
    for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None):
        with attempt:
            status = hook.attempt(get if leaves is None else leaving(get, leaves), client, url)
    return status


@pytest.fixture
def no_retry_sleep(monkeypatch):
    """stamina sleeps its retries with time.sleep, as the gate does: they return at once."""
    monkeypatch.setattr(time, "sleep", lambda s: None)


def test_threads_sharing_one_rate_leave_spaced_by_its_interval():
    rate, leaves = fixed_rate(), []
    # One client for every thread (httpx's is thread-safe): making one takes tens of ms.
    with serve([(200, {})]) as (url, server), httpx.Client(timeout=10) as client:
        start, took = in_threads(lambda: fetch(client, url, rate, leaves=leaves))
        assert server.count == 100
        assert_spaced(start, server.arrivals)
    assert_paced(start, took, leaves, 100)


def test_asyncio_tasks_sharing_one_rate_leave_spaced_by_its_interval():
    # 20 ms apart: one event loop alone may take about 5 ms a request, which would hide the gate.
    rate, leaves = fixed_rate(50_000), []

    async def one(client, url):
        hook = backoff_hook(Policy("google"), send_rate=rate)
        async for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None):
            with attempt:
                response = await hook.attempt_async(leaving(client.get, leaves), url)
                response.raise_for_status()
        return response.status_code

    assert_tasks_paced(one, leaves, interval_ms=20)


@pytest.mark.parametrize("status, rate_after", [(429, AFTER_429_MILLI), (500, AFTER_500_MILLI)])
def test_a_429_without_a_hint_lowers_the_rate_and_a_500_does_not(no_retry_sleep, status, rate_after):
    rate = capped_rate()
    with serve([(status, {}), (200, {})]) as (url, server), httpx.Client(timeout=10) as client:
        assert fetch(client, url, rate, seed=1) == 200
        assert server.count == 2
    assert rate.rate_milli == rate_after


def test_a_fail_fast_rate_refuses_before_calling():
    with serve([(200, {})]) as (url, server), httpx.Client(timeout=10) as client:
        with pytest.raises(RetryError) as e:
            fetch(client, url, refusing_rate())
        assert server.count == 0
    assert (e.value.attempts, e.value.reason, e.value.cause) == (0, "throttled", None)


def test_a_held_first_attempt_waits_without_a_retry():
    rate, retries = SendRate(), []
    rate.answer(None, "throttled", hint_ms=50)  # holds every attempt for 50 ms
    hook = backoff_hook(Policy("google"), send_rate=rate)
    start = time.monotonic()
    for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None):
        with attempt:
            retries.append(attempt.num)
            assert hook.attempt(lambda: "ok") == "ok"
    assert time.monotonic() - start >= 0.045 and retries == [1] and hook.action.kind == "done"


def test_send_rate_of_another_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="^send_rate must be a SendRate, got 3 \\(int\\)"):
        backoff_hook(Policy("google"), send_rate=3)
