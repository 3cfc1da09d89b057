"""seeded_backoff.tenacity against the real tenacity (pinned in python/requirements-adapters.txt)
and a real HTTP server on 127.0.0.1. tenacity lets the caller inject its sleep: the injected one
records what tenacity would wait, in seconds, and returns at once. Expected delays come from the
independent model of SPEC.md (tests/model/spec_model.py)."""

import asyncio

import httpx
import pytest
import requests
import spec_model as m
import tenacity

from http_server import serve
from model_runs import model_waits
from seeded_backoff import Policy
from seeded_backoff.tenacity import seeded, wait_seeded

SEED = 20261201


def get(url):
    r = requests.get(url, timeout=10)
    r.raise_for_status()
    return r.status_code


def test_waits_are_the_models_and_each_call_takes_the_next_seed():
    slept = []
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED), sleep=slept.append)
    with serve([(503, {}), (503, {}), (500, {}), (200, {})]) as (url, server):
        assert retrying(get, url) == 200
        assert server.count == 4
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [None] * 3)
    # A second call of the same Retrying is a new request: call 1, call_seed(SEED, 1) (SPEC §14).
    slept.clear()
    with serve([(503, {}), (200, {})]) as (url, _):
        assert retrying(get, url) == 200
    assert [round(s * 1000) for s in slept] == model_waits(m.call_seed(SEED, 1), [None])


def test_retry_after_and_rate_limit_headers_are_read_by_the_core():
    slept = []
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED), sleep=slept.append)
    script = [(503, {"Retry-After": "7"}), (429, {"X-RateLimit-Reset": "3"}),
              (503, {"Retry-After": "soon"}), (200, {})]
    with serve(script) as (url, _):
        assert retrying(get, url) == 200
    # An unparseable Retry-After is ignored, as RFC 9110 lets a recipient do.
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [m.RetryAfter(7000), m.RateLimit(3000), None])


def test_returned_responses_are_classified_too():
    slept = []
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED), sleep=slept.append)
    with serve([(503, {"Retry-After": "2"}), (404, {})]) as (url, server):
        response = retrying(requests.get, url, timeout=10)
        assert response.status_code == 404 and server.count == 2
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [m.RetryAfter(2000)])


def test_a_give_up_stops_tenacity():
    slept = []
    kwargs = seeded(Policy("google", max_retries=2), seed=SEED)
    retrying = tenacity.Retrying(**kwargs, sleep=slept.append, reraise=True)
    with serve([(503, {})]) as (url, server):
        with pytest.raises(requests.HTTPError):
            retrying(get, url)
        assert server.count == 3
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [None] * 2)
    with pytest.raises(tenacity.RetryError):
        with serve([(503, {})]) as (url, _):
            tenacity.Retrying(**seeded(Policy("google", max_retries=1), seed=SEED), sleep=slept.append)(get, url)


def test_other_statuses_and_other_errors_are_not_retried():
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, retry_on=ConnectionError), sleep=lambda s: None)
    with serve([(404, {})]) as (url, server):
        with pytest.raises(requests.HTTPError):  # not retried: tenacity raises the error itself
            retrying(get, url)
        assert server.count == 1
    with pytest.raises(ZeroDivisionError):
        retrying(lambda: 1 / 0)


def test_the_time_budget_counts_the_calls_time():
    # 1000 ms of budget; tenacity's clock says the call already took 5 s.
    wait = wait_seeded(Policy("google", max_elapsed_ms=1000), seed=SEED)
    state = tenacity.RetryCallState(tenacity.Retrying(), None, (), {})
    state.set_exception((ConnectionError, ConnectionError("x"), None))
    state.outcome_timestamp = state.start_time + 5
    assert wait(state) == 0.0
    assert wait.stop(state) and wait.action(state).reason == "deadline"


def test_async_with_httpx():
    slept = []

    async def sleep(seconds):
        slept.append(seconds)

    async def main(url):
        async with httpx.AsyncClient() as client:
            async for attempt in tenacity.AsyncRetrying(**seeded(Policy("google"), seed=SEED), sleep=sleep):
                with attempt:
                    r = await client.get(url)
                    r.raise_for_status()
        return r.status_code

    with serve([(503, {}), (429, {"Retry-After": "4"}), (200, {})]) as (url, _):
        assert asyncio.run(main(url)) == 200
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [None, m.RetryAfter(4000)])


@pytest.mark.parametrize("call, error, name", [
    (lambda: seeded("google"), TypeError, "policy"),
    (lambda: seeded(Policy(), seed=-1), ValueError, "seed"),
    (lambda: seeded(Policy(), seed="42"), TypeError, "seed"),
    (lambda: seeded(Policy(), seed=2**64), ValueError, "seed"),
    (lambda: seeded(Policy(), retry_on=42), TypeError, "retry_on"),
    (lambda: seeded(Policy(), retry_on=()), TypeError, "retry_on"),
    (lambda: wait_seeded(None), TypeError, "policy"),
])
def test_bad_arguments(call, error, name):
    with pytest.raises(error, match=name):
        call()
