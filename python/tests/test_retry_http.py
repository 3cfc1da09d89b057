"""The retry decorator against a real HTTP server on 127.0.0.1 (503, 503 with Retry-After, then
200), with requests (sync) and httpx.AsyncClient (async), on a virtual clock: the injected sleep
records each delay and advances the clock. Expected delays come from the independent model of
SPEC.md (tests/model/spec_model.py), not from the package."""

import asyncio
import time

import httpx
import pytest
import requests
import spec_model as m

from http_server import serve
from model_runs import model_steps
from seeded_backoff import Policy, RetryError, retry
from seeded_backoff.budget import RetryBudget

SCRIPT = [(503, {}), (503, {"Retry-After": "3"}), (200, {})]
SEED = 20261201


class VirtualClock:
    """clock() and sleep(seconds): sleeping advances time at once and records the delay in ms."""

    def __init__(self):
        self.now = 1000.0
        self.delays_ms = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.delays_ms.append(round(seconds * 1000))
        self.now += seconds

    async def async_sleep(self, seconds):
        self.sleep(seconds)


def model_delays(policy_fields, seed, hints):
    """The model's delays for failures with these Retry-After hints (ms or None)."""
    b = m.Backoff(m.preset(**policy_fields) if "name" in policy_fields else m.make_policy(**policy_fields), seed)
    return model_steps(b, [None if hint is None else m.RetryAfter(hint) for hint in hints])


GOOGLE = dict(name="google")


def test_sync_requests_503_retry_after_then_200():
    clock = VirtualClock()
    with serve(SCRIPT) as (url, server):
        @retry(seed=SEED, sleep=clock.sleep, clock=clock.clock, retry_on=requests.ConnectionError)
        def fetch():
            return requests.get(url, timeout=5)

        response = fetch()
    assert response.status_code == 200 and response.text == "ok" and server.count == 3
    assert clock.delays_ms == model_delays(GOOGLE, SEED, [None, 3000])
    assert clock.delays_ms[1] >= 3000  # the Retry-After is a lower bound


def run_async(script, clock):
    """`script` served, fetched with httpx.AsyncClient under retry(seed=SEED) on `clock`: the final
    response and how many requests the server answered."""

    async def main(url):
        async with httpx.AsyncClient(timeout=5) as client:
            @retry(seed=SEED, sleep=clock.async_sleep, clock=clock.clock, retry_on=httpx.TransportError)
            async def fetch():
                return await client.get(url)

            return await fetch()

    with serve(script) as (url, server):
        return asyncio.run(main(url)), server.count


def test_async_httpx_503_retry_after_then_200():
    clock = VirtualClock()
    response, count = run_async(SCRIPT, clock)
    assert response.status_code == 200 and count == 3
    assert clock.delays_ms == model_delays(GOOGLE, SEED, [None, 3000])


def test_sync_and_async_give_the_same_schedule_for_a_seed():
    policy = Policy("grpc", max_retries=4)
    fields = dict(m.PRESETS["grpc"], max_retries=4)
    sync_clock, async_clock = VirtualClock(), VirtualClock()
    always_503 = [(503, {})]
    with serve(always_503) as (url, _):
        @retry(policy=policy, seed=7, sleep=sync_clock.sleep, clock=sync_clock.clock)
        def fetch():
            return requests.get(url, timeout=5)

        with pytest.raises(RetryError) as sync_error:
            fetch()

        async def main():
            async with httpx.AsyncClient(timeout=5) as client:
                @retry(policy=policy, seed=7, sleep=async_clock.async_sleep, clock=async_clock.clock)
                async def fetch_async():
                    return await client.get(url)

                await fetch_async()

        with pytest.raises(RetryError) as async_error:
            asyncio.run(main())
    expected = model_delays(fields, 7, [None] * 5)
    assert expected[-1] == "max_retries"
    for clock, error in ((sync_clock, sync_error.value), (async_clock, async_error.value)):
        assert clock.delays_ms == expected[:-1]
        assert (error.attempts, error.reason) == (5, "max_retries")
        assert error.cause.status_code == 503 and error.__cause__ is None


def test_connection_errors_are_retried_and_chained():
    clock = VirtualClock()
    with serve(SCRIPT) as (url, _):
        pass  # the port is closed again: every request is refused

    @retry(max_retries=2, seed=1, sleep=clock.sleep, clock=clock.clock, retry_on=requests.ConnectionError)
    def fetch():
        return requests.get(url, timeout=5)

    with pytest.raises(RetryError) as e:
        fetch()
    assert e.value.attempts == 3 and e.value.reason == "max_retries"
    assert isinstance(e.value.__cause__, requests.ConnectionError) and e.value.cause is e.value.__cause__
    assert clock.delays_ms == model_delays(dict(GOOGLE, max_retries=2), 1, [None, None])


def test_exceptions_outside_retry_on_propagate_at_once():
    calls = []

    @retry(seed=1, sleep=calls.append, retry_on=ConnectionError)
    def broken():
        raise KeyError("no")

    with pytest.raises(KeyError):
        broken()
    assert calls == []


def test_time_in_calls_counts_against_max_elapsed_ms():
    """Each request takes 4 s of virtual time: the core sees the clock and gives up by deadline."""
    clock = VirtualClock()
    with serve([(503, {})]) as (url, server):
        @retry(jitter="none", max_elapsed_ms=10_000, seed=3, sleep=clock.sleep, clock=clock.clock)
        def slow_fetch():
            clock.now += 4.0
            return requests.get(url, timeout=5)

        with pytest.raises(RetryError) as e:
            slow_fetch()
    # 4 s in the call, 1 s delay, 4 s in the call: 9 s; a 2 s delay would cross 10 s.
    assert clock.delays_ms == [1000] and e.value.reason == "deadline" and server.count == 2


def test_a_shared_budget_stops_retries():
    budget = RetryBudget.grpc(max_tokens=4, token_ratio=0.1)
    clock = VirtualClock()
    with serve([(503, {})]) as (url, _):
        @retry(seed=5, budget=budget, sleep=clock.sleep, clock=clock.clock)
        def fetch():
            return requests.get(url, timeout=5)

        with pytest.raises(RetryError) as e:
            fetch()
    # gRFC A6: a failure spends a token; retries stop once at most half the tokens are left.
    assert e.value.reason == "budget" and e.value.attempts == 2 and budget.tokens_milli == 2000


def test_real_sleeps_with_the_default_sleep():
    """Without an injected sleep, time.sleep and asyncio.sleep wait the delays (10 + 20 ms)."""
    policy = Policy(initial_ms=10, max_backoff_ms=1000, jitter="none")
    with serve([(503, {}), (503, {}), (200, {})]) as (url, server):
        start = time.monotonic()
        assert retry(policy=policy)(lambda: requests.get(url, timeout=5))().status_code == 200
        sync_elapsed = time.monotonic() - start

    async def main(url):
        async with httpx.AsyncClient(timeout=5) as client:
            return await retry(policy=policy)(client.get)(url)

    with serve([(503, {}), (503, {}), (200, {})]) as (url, server):
        start = time.monotonic()
        assert asyncio.run(main(url)).status_code == 200
        async_elapsed = time.monotonic() - start
    assert sync_elapsed >= 0.030 and async_elapsed >= 0.030
    gaps = [b - a for a, b in zip(server.arrivals, server.arrivals[1:])]
    assert gaps[0] >= 0.010 and gaps[1] >= 0.020
