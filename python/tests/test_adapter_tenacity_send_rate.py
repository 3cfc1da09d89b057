"""seeded(..., send_rate=) with the real tenacity (pinned) against a real HTTP server on
127.0.0.1: tenacity's `before` gates every attempt, the first included, and its `retry` tells the
rate each answer. Expected rates and spacings are derived by hand from SPEC.md section 17 in
send_rates.py. Spacing: the times the attempts leave the client (and arrive at the server) are
each at or after their slot, from the ms floor of the start (no slack below); the whole run must
end within its slots plus 5 s (the slack above)."""

import asyncio
import time

import pytest
import requests
import tenacity

from http_server import serve
from seeded_backoff import Policy, RetryError
from seeded_backoff.send_rate import SendRate
from seeded_backoff.tenacity import seeded, wait_seeded
from send_rates import (AFTER_429_MILLI, AFTER_500_MILLI, assert_paced, assert_spaced, assert_tasks_paced,
                        capped_rate, fixed_rate, in_threads, leaving, refusing_rate)
from test_adapter_tenacity import SEED, get


def test_threads_sharing_one_rate_leave_spaced_by_its_interval():
    rate, leaves = fixed_rate(), []
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, send_rate=rate))
    call = leaving(get, leaves)
    with serve([(200, {})]) as (url, server):
        start, took = in_threads(lambda: retrying(call, url))
        assert server.count == 100
        assert_spaced(start, server.arrivals)
    assert_paced(start, took, leaves, 100)


def test_asyncio_tasks_sharing_one_rate_leave_spaced_by_its_interval():
    # 20 ms apart: one event loop alone may take about 5 ms a request, which would hide the gate.
    rate, leaves = fixed_rate(50_000), []
    retrying = tenacity.AsyncRetrying(**seeded(Policy("google"), seed=SEED, send_rate=rate, is_async=True))

    async def one(client, url):
        response = await retrying(leaving(client.get, leaves), url)
        return response.status_code

    assert_tasks_paced(one, leaves, interval_ms=20)


@pytest.mark.parametrize("status, rate_after", [(429, AFTER_429_MILLI), (500, AFTER_500_MILLI)])
def test_a_429_without_a_hint_lowers_the_rate_and_a_500_does_not(status, rate_after):
    rate = capped_rate()
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, send_rate=rate), sleep=lambda s: None)
    with serve([(status, {}), (200, {})]) as (url, server):
        assert retrying(get, url) == 200
        assert server.count == 2
    assert rate.rate_milli == rate_after


def test_a_returned_429_is_a_throttle_too():
    rate = capped_rate()
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, send_rate=rate), sleep=lambda s: None)
    with serve([(429, {}), (404, {})]) as (url, _):
        assert retrying(requests.get, url, timeout=10).status_code == 404
    assert rate.rate_milli == AFTER_429_MILLI


def test_a_fail_fast_rate_refuses_before_calling():
    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, send_rate=refusing_rate()))
    with serve([(200, {})]) as (url, server):
        with pytest.raises(RetryError) as e:
            retrying(get, url)
        assert server.count == 0
    assert (e.value.attempts, e.value.reason, e.value.cause) == (0, "throttled", None)


def test_the_async_refusal_is_raised_from_the_awaited_before():
    retrying = tenacity.AsyncRetrying(**seeded(Policy("google"), send_rate=refusing_rate(), is_async=True))

    async def never():
        raise AssertionError("called")

    with pytest.raises(RetryError, match="throttled"):
        asyncio.run(retrying(never))


def test_a_held_first_attempt_sleeps_with_tenacitys_sleep():
    rate, slept = SendRate(), []
    rate.answer(None, "throttled", hint_ms=50)  # holds every attempt for 50 ms

    def sleep(seconds):
        slept.append(seconds)
        time.sleep(seconds)

    retrying = tenacity.Retrying(**seeded(Policy("google"), seed=SEED, send_rate=rate), sleep=sleep)
    with serve([(200, {})]) as (url, _):
        assert retrying(get, url) == 200
    assert slept and 0 < slept[0] <= 0.05


def test_the_sync_before_under_asyncretrying_names_is_async():
    retrying = tenacity.AsyncRetrying(**seeded(Policy("google"), send_rate=SendRate()))

    async def ok():
        return 1

    with pytest.raises(TypeError, match="is_async=True"):
        asyncio.run(retrying(ok))


def test_a_paced_wait_without_its_before_is_a_type_error():
    wait = wait_seeded(Policy("google"), send_rate=SendRate())
    retrying = tenacity.Retrying(wait=wait, stop=wait.stop, retry=tenacity.retry_if_exception_type(OSError))

    def down():
        raise OSError("down")

    with pytest.raises(TypeError, match="before"):
        retrying(down)


def test_send_rate_of_another_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="^send_rate must be a SendRate, got 'fast' \\(str\\)"):
        seeded(Policy("google"), send_rate="fast")
    with pytest.raises(TypeError, match="is_async"):
        seeded(Policy("google"), send_rate=SendRate(), is_async="yes")
