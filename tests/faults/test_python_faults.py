"""Python `retry` (sync with requests, async with httpx) against every fault of fault_server.py.

For each fault the loop ends (a failing one on its deadline, well within ten times the policy's
time budget plus one attempt: BOUND_S), the RetryError names the last failure (its type, or the HTTP status), and nothing leaks (the no_leaks
fixture: ResourceWarning, threads, connections still open at the server). Storm delays are the
independent model's (tests/model/spec_model.py): every hint header in a storm is garbage.

Run: .venv/bin/python -m pytest -W error::ResourceWarning tests/faults (scripts/test.d/77-faults.sh).
"""

import asyncio
import time

import httpx
import pytest
import requests
import spec_model as m

from seeded_backoff import Policy, RetryError, retry

ATTEMPT_S = 0.3          # each attempt's timeout
BUDGET_MS = 1500         # the policy's max_elapsed_ms
POLICY = Policy("google", initial_ms=50, max_backoff_ms=200, jitter_ms=20, max_retries=1000,
                max_elapsed_ms=BUDGET_MS)
# Ten times the budget and one attempt, which a quiet machine's loops take about once: without the
# deadline, 1,000 retries would take minutes. How close to the budget a loop ends is a lab figure
# (lab/faults.sh prints each loop's time beside it).
BOUND_S = 10 * (BUDGET_MS / 1000 + ATTEMPT_S)

# fault -> the exception requests raises for it
SYNC_FAULTS = {
    "reset-before-headers": requests.ConnectionError,
    "reset-after-headers": requests.exceptions.ChunkedEncodingError,
    "stall": requests.ReadTimeout,
    "truncated-chunked": requests.exceptions.ChunkedEncodingError,
}


def _run_sync(url):
    with requests.Session() as s:
        @retry(policy=POLICY, seed=1, retry_on=requests.RequestException)
        def fetch():
            return s.get(url, timeout=(ATTEMPT_S, ATTEMPT_S))

        start = time.monotonic()
        with pytest.raises(RetryError) as e:
            fetch()
        return e.value, time.monotonic() - start


def _gave_up_on_the_deadline(fault, error, took, last):
    """What every loop on a fault must do: give up on the deadline within the bound, after more
    than one attempt, raising from the last failure (of type `last`) and naming it."""
    assert took <= BOUND_S, f"{fault}: {took:.2f} s"
    assert error.reason == "deadline" and error.attempts >= 2
    assert isinstance(error.cause, last) and error.__cause__ is error.cause
    assert f"last: {type(error.cause).__name__}" in str(error)


@pytest.mark.parametrize("fault", sorted(SYNC_FAULTS))
def test_requests_gives_up_within_the_budget_naming_the_last_failure(faults, no_leaks, fault):
    error, took = _run_sync(faults.url(fault))
    print(f"\nrequests {fault}: {error} in {took:.2f} s")
    _gave_up_on_the_deadline(fault, error, took, SYNC_FAULTS[fault])


def test_requests_refused_connections_give_up_within_the_budget(faults, no_leaks):
    error, took = _run_sync(faults.refused)
    print(f"\nrequests refused: {error} in {took:.2f} s")
    assert took <= BOUND_S
    assert isinstance(error.cause, requests.ConnectionError) and error.attempts >= 5
    assert "last: ConnectionError" in str(error)


def test_a_requests_read_timeout_does_not_bound_a_trickle(faults, no_leaks):
    # requests' timeout bounds each read, not the response: a head arriving one byte per 40 ms
    # (below the 0.3 s read timeout) keeps the first attempt alive for the whole trickle, and
    # retry() gets the 200 at its end. A sync caller needing a hard attempt bound must enforce it
    # around the call.
    url = faults.url("trickle-headers", interval_ms=40, bytes=60)
    calls = []
    with requests.Session() as s:
        def get():
            calls.append(1)
            return s.get(url, timeout=(ATTEMPT_S, ATTEMPT_S))
        start = time.monotonic()
        r = retry(policy=POLICY, seed=1, retry_on=requests.RequestException)(get)()
        took = time.monotonic() - start
    print(f"\nrequests trickle-headers: HTTP {r.status_code} after {took:.2f} s ({len(calls)} attempt)")
    assert r.status_code == 200 and r.text == "ok"
    # One attempt, past the budget: the server sends the 60 bytes 40 ms apart, so the answer
    # cannot come before 2.4 s.
    assert len(calls) == 1
    assert took >= 60 * 0.04


def _model_storm(seed, retries):
    b = m.Backoff(m.make_policy(initial_ms=20, max_backoff_ms=100, jitter="google", jitter_ms=10,
                                max_retries=retries), seed)
    return [b.next().delay_ms for _ in range(retries)]


STORM = Policy("google", initial_ms=20, max_backoff_ms=100, jitter_ms=10, max_retries=6)
# The storm's statuses, in turn: the 7th attempt (after 6 retries) gets a 429.
STORM_LAST = [503, 429, 500, 502, 504][6 % 5]


def test_requests_storm_of_5xx_and_429_with_garbage_hints(faults, no_leaks):
    delays, url = [], faults.url("storm")
    with requests.Session() as s:
        @retry(policy=STORM, seed=9, on_retry=lambda event: delays.append(event.delay_ms))
        def fetch():
            return s.get(url, timeout=ATTEMPT_S)

        with pytest.raises(RetryError) as e:
            fetch()
    assert (e.value.reason, e.value.attempts) == ("max_retries", 7)
    assert e.value.cause.status_code == STORM_LAST and f"last: HTTP {STORM_LAST}" in str(e.value)
    assert delays == _model_storm(9, 6)


ASYNC_FAULTS = {
    # A reset read as such, or (if it lands between reads) as a server gone without a response.
    "reset-before-headers": (httpx.ReadError, httpx.RemoteProtocolError),
    "reset-after-headers": httpx.ReadError,
    "stall": TimeoutError,
    "trickle-headers": TimeoutError,
    "truncated-chunked": httpx.RemoteProtocolError,
}


async def _run_async(url, policy=POLICY, seed=1, on_retry=None):
    async with httpx.AsyncClient(timeout=10) as client:
        @retry(policy=policy, seed=seed, retry_on=(httpx.HTTPError, TimeoutError), on_retry=on_retry)
        async def fetch():
            # The attempt's whole bound: httpx's own timeouts, like requests', are per operation.
            async with asyncio.timeout(ATTEMPT_S):
                return await client.get(url)

        start = time.monotonic()
        try:
            await fetch()
        except RetryError as e:
            return e, time.monotonic() - start
        raise AssertionError("the loop did not give up")


def _no_tasks_left():
    assert asyncio.all_tasks() == {asyncio.current_task()}


@pytest.mark.parametrize("fault", sorted(ASYNC_FAULTS))
def test_httpx_gives_up_within_the_budget_naming_the_last_failure(faults, no_leaks, fault):
    async def main():
        error, took = await _run_async(faults.url(fault))
        _no_tasks_left()
        return error, took

    error, took = asyncio.run(main())
    print(f"\nhttpx {fault}: {error} in {took:.2f} s")
    _gave_up_on_the_deadline(fault, error, took, ASYNC_FAULTS[fault])


def test_httpx_refused_connections_give_up_within_the_budget(faults, no_leaks):
    error, took = asyncio.run(_run_async(faults.refused))
    print(f"\nhttpx refused: {error} in {took:.2f} s")
    assert took <= BOUND_S
    assert isinstance(error.cause, httpx.ConnectError) and "last: ConnectError" in str(error)


def test_httpx_storm_of_5xx_and_429_with_garbage_hints(faults, no_leaks):
    delays = []
    error, _ = asyncio.run(_run_async(faults.url("storm"), STORM, 9, lambda event: delays.append(event.delay_ms)))
    assert (error.reason, error.attempts) == ("max_retries", 7)
    assert f"last: HTTP {STORM_LAST}" in str(error)
    assert delays == _model_storm(9, 6)


def test_httpx_recovers_when_the_faults_stop(faults, no_leaks):
    # Two resets, then the server answers: the loop returns the 200 after exactly 3 attempts.
    calls = []
    url = faults.url("reset-before-headers", n=2)

    async def main():
        async with httpx.AsyncClient(timeout=10) as client:
            @retry(policy=POLICY, seed=1, retry_on=httpx.HTTPError)
            async def fetch():
                calls.append(1)
                async with asyncio.timeout(ATTEMPT_S):
                    return await client.get(url)
            return await fetch()

    r = asyncio.run(main())
    assert (r.status_code, r.text, len(calls)) == (200, "ok", 3)
