"""seeded_backoff.google's Retry as google-api-core's users expect it: its give-up is the
`google.api_core.exceptions.RetryError` their `except` clauses catch; by default it retries the
errors worth a retry (retryable API errors, transport errors) and raises any other at once; it is
a `google.api_core.retry.Retry` whose `with_*` copies keep the core deciding. (The real client
against a local server: python/tests/integrations/test_google_memorystore.py.) Expected delays
from the independent model (tests/model)."""

import socket

import pytest
import requests
import spec_model as m
from google.api_core import exceptions, retry as retries

from model_runs import model_waits
from seeded_backoff import Policy
from seeded_backoff import RetryError as SeededRetryError
from seeded_backoff.google import AsyncRetry, Retry, RetryError

SEED = 20261202


def failing(*errors):
    """A function raising `errors` in turn, then returning "ok"; `calls` counts its calls."""
    calls = []

    def f():
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return "ok"

    return f, calls


def test_giving_up_raises_google_api_cores_retry_error():
    f, calls = failing(*[exceptions.ServiceUnavailable("down")] * 3)
    with pytest.raises(exceptions.RetryError) as caught:
        Retry(Policy("google", max_retries=2), seed=SEED, sleep=lambda s: None)(f)()
    e = caught.value
    assert isinstance(e, RetryError) and isinstance(e, SeededRetryError)
    assert (e.attempts, e.reason, len(calls)) == (3, "max_retries", 3)
    assert e.cause is e.__cause__ and isinstance(e.cause, exceptions.ServiceUnavailable)
    assert "gave up after 3 attempts (max_retries)" in e.message and str(e) == e.message


def test_a_bug_or_a_final_api_error_is_raised_at_once():
    for error in (KeyError("id"), exceptions.NotFound("no such instance"), ValueError("bad request")):
        slept = []
        f, calls = failing(error)
        with pytest.raises(type(error)):
            Retry(seed=SEED, sleep=slept.append)(f)()
        assert (len(calls), slept) == (1, []), error


def test_transport_errors_are_retried_by_default():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{s.getsockname()[1]}/"
    s.close()
    slept = []

    def get():
        return requests.get(url, timeout=2)

    with pytest.raises(RetryError) as caught:
        Retry(Policy("google", max_retries=2), seed=SEED, sleep=slept.append)(get)()
    assert isinstance(caught.value.cause, requests.ConnectionError)
    assert [round(s * 1000) for s in slept] == model_waits(SEED, [None, None], m.preset("google", max_retries=2))
    f, calls = failing(requests.Timeout("read timed out"), requests.exceptions.ChunkedEncodingError("cut"))
    assert Retry(seed=SEED, sleep=lambda s: None)(f)() == "ok" and len(calls) == 3


def test_it_is_google_api_cores_retry():
    assert isinstance(Retry(), retries.Retry) and isinstance(AsyncRetry(), retries.AsyncRetry)
    r = Retry(Policy("google"), seed=SEED)
    assert r._predicate(exceptions.ServiceUnavailable("x")) and not r._predicate(KeyError("x"))


def test_a_deadline_keeps_the_rest_of_the_policy():
    # Policy.replace is the core's "policy with these overrides": the strategy's parameter stays.
    narrow = Policy("grpc", spread_per_mille=50)
    assert Retry(narrow, deadline=5).policy == Policy("grpc", spread_per_mille=50, max_elapsed_ms=5000)
    assert Retry(Policy(jitter_ms=250), deadline=5).policy == Policy(jitter_ms=250, max_elapsed_ms=5000)
    # A tighter budget of the policy's own is kept.
    tight = Policy(max_elapsed_ms=2000)
    assert Retry(tight, deadline=5).policy is tight


def test_with_copies_keep_the_core_deciding():
    r = Retry(Policy("google"), seed=SEED)
    assert r.with_timeout(5).policy == Policy(max_elapsed_ms=5000) and r.policy == Policy()
    assert r.with_deadline(5).policy == r.with_timeout(5).policy
    assert r.with_delay(initial=0.5, maximum=8, multiplier=1.5).policy == Policy(
        initial_ms=500, max_backoff_ms=8000, multiplier=1.5)
    with pytest.raises(ValueError, match="initial"):
        r.with_delay(initial=-1)
    # with_predicate: the caller's predicate decides what is retried.
    f, calls = failing(KeyError("id"))
    assert r.with_predicate(lambda e: isinstance(e, KeyError)).__class__ is Retry
    slept = []
    r2 = Retry(seed=SEED, sleep=slept.append).with_predicate(lambda e: isinstance(e, KeyError))
    assert r2(f)() == "ok" and len(calls) == 2 and [round(s * 1000) for s in slept] == model_waits(SEED, [None])
    f, calls = failing(exceptions.ServiceUnavailable("x"))
    with pytest.raises(exceptions.ServiceUnavailable):
        r2(f)()
