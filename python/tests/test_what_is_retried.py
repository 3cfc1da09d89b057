"""What each loop retries when the caller names nothing: the errors worth a retry (transport errors,
the retryable statuses, a server's Retry-After honoured), never a bug. Real requests and httpx
calls to a closed port on 127.0.0.1 and to a real server; expected delays from the independent
model (tests/model)."""

import asyncio
import contextlib
import socket

import httpx
import pytest
import requests
import spec_model as m

from http_server import serve
from model_runs import model_waits
from seeded_backoff import RetryError, retry

SEED = 20261202


@contextlib.contextmanager
def closed_port():
    """A URL on 127.0.0.1 where nothing listens: every connection is refused."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    yield f"http://127.0.0.1:{port}/"


def test_a_bug_is_raised_at_once():
    calls = []

    @retry(seed=SEED, sleep=calls.append)
    def lookup():
        return {}["id"]

    with pytest.raises(KeyError):
        lookup()
    assert calls == []  # no sleep: one attempt


@pytest.mark.parametrize("client", ["requests", "httpx", "builtin"])
def test_transport_errors_are_retried_by_default(client):
    slept = []
    with closed_port() as url:
        @retry(seed=SEED, max_retries=2, sleep=slept.append)
        def fetch():
            if client == "requests":
                return requests.get(url, timeout=2)
            if client == "httpx":
                return httpx.get(url, timeout=2)
            raise ConnectionResetError("reset by peer")

        with pytest.raises(RetryError) as caught:
            fetch()
    expected = {"requests": requests.ConnectionError, "httpx": httpx.ConnectError, "builtin": ConnectionResetError}
    assert caught.value.attempts == 3 and isinstance(caught.value.cause, expected[client])
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [None, None], m.preset("google", max_retries=2))


def test_a_raised_http_error_is_classified_by_its_status():
    slept = []

    @retry(seed=SEED, sleep=slept.append)
    def get(url):
        r = requests.get(url, timeout=5)
        r.raise_for_status()
        return r.status_code

    with serve([(503, {"Retry-After": "4"}), (200, {})]) as (url, server):
        assert get(url) == 200 and server.count == 2
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [m.RetryAfter(4000)])
    with serve([(404, {})]) as (url, server):
        with pytest.raises(requests.HTTPError):
            get(url)
        assert server.count == 1


def test_async_transport_errors_are_retried_by_default():
    slept = []

    async def sleep(seconds):
        slept.append(seconds)

    with closed_port() as url:
        @retry(seed=SEED, max_retries=1, sleep=sleep)
        async def fetch():
            async with httpx.AsyncClient() as client:
                return await client.get(url, timeout=2)

        with pytest.raises(RetryError) as caught:
            asyncio.run(fetch())
    assert isinstance(caught.value.cause, httpx.ConnectError) and len(slept) == 1


def test_retry_on_replaces_the_default():
    calls = []

    @retry(seed=SEED, sleep=calls.append, retry_on=KeyError, max_retries=1)
    def lookup():
        return {}["id"]

    with pytest.raises(RetryError):
        lookup()
    assert len(calls) == 1
    # Named exceptions only: a transport error is not among them.
    with pytest.raises(ConnectionError):
        retry(seed=SEED, sleep=calls.append, retry_on=KeyError)(lambda: (_ for _ in ()).throw(ConnectionError()))()


def test_is_transport_error_names_the_clients_errors():
    import seeded_backoff

    yes = [ConnectionRefusedError(), TimeoutError(), socket.timeout(), asyncio.TimeoutError(), BrokenPipeError(),
           requests.ConnectionError(), requests.Timeout(), requests.exceptions.ChunkedEncodingError(),
           httpx.ConnectError("x"), httpx.ReadTimeout("x"), httpx.RemoteProtocolError("x")]
    no = [KeyError("x"), ValueError(), requests.HTTPError(), httpx.UnsupportedProtocol("x"), OSError(2, "no file")]
    assert [seeded_backoff.is_transport_error(e) for e in yes] == [True] * len(yes)
    assert [seeded_backoff.is_transport_error(e) for e in no] == [False] * len(no)


@pytest.mark.parametrize("error, charged", [(requests.Timeout("read timed out"), 10), (ConnectionResetError(), 5)])
def test_a_timed_out_attempt_is_charged_and_refunded_as_a_timeout(error, charged):
    # SPEC.md section 10.2 with capacity 500, retry_cost 5, timeout_cost 10: the retry of an
    # attempt that ran out of its time costs 10, and the success after it refunds those 10.
    from seeded_backoff.budget import RetryBudget

    budget = RetryBudget.aws_quota(capacity=500, retry_cost=5, timeout_cost=10, no_retry_increment=1)
    during = []
    calls = []

    @retry(seed=SEED, sleep=lambda s: None, budget=budget, on_retry=lambda e: during.append(budget.tokens_milli))
    def flaky():
        calls.append(1)
        if len(calls) == 1:
            raise error
        return "ok"

    assert flaky() == "ok"
    assert during == [(500 - charged) * 1000] and budget.tokens_milli == 500_000
