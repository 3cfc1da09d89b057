"""seeded_backoff.stamina against the real stamina (pinned in python/requirements-adapters.txt)
and a real HTTP server on 127.0.0.1. stamina takes no clock or sleep: it sleeps through tenacity's
default sleep, which calls `time.sleep`, so the test replaces `time.sleep` with a recorder (which
returns at once) and checks it against what stamina itself reports to its retry hooks
(`RetryDetails.wait_for`). Expected delays come from the independent model of SPEC.md."""

import time

import httpx
import pytest
import spec_model as m
import stamina
import stamina.instrumentation

from http_server import serve
from model_runs import model_waits
from seeded_backoff import Policy
from seeded_backoff.stamina import BackoffHook, backoff_hook

SEED = 7


@pytest.fixture
def waits(monkeypatch):
    """(slept, reported): what stamina slept and what it told its retry hooks, in ms."""
    slept, reported = [], []
    monkeypatch.setattr(time, "sleep", lambda s: slept.append(round(s * 1000)))
    stamina.instrumentation.set_on_retry_hooks([lambda d: reported.append(round(d.wait_for * 1000))])
    yield slept, reported
    stamina.instrumentation.set_on_retry_hooks(None)


def fetch(url, hook, **kwargs):
    with httpx.Client() as client:
        for attempt in stamina.retry_context(on=hook, attempts=None, timeout=None, **kwargs):
            with attempt:
                r = client.get(url)
                r.raise_for_status()
    return r.status_code


def test_waits_are_the_models(waits):
    slept, reported = waits
    with serve([(503, {}), (500, {}), (502, {}), (200, {})]) as (url, server):
        assert fetch(url, backoff_hook(Policy("google"), seed=SEED)) == 200
        assert server.count == 4
    assert slept == reported == model_waits(SEED, [None] * 3)


def test_retry_after_and_rate_limit_headers_are_read_by_the_core(waits):
    slept, reported = waits
    script = [(503, {"Retry-After": "9"}), (429, {"RateLimit": '"default";r=0;t=5'}), (200, {})]
    with serve(script) as (url, _):
        assert fetch(url, backoff_hook(Policy("google"), seed=SEED)) == 200
    assert slept == reported == model_waits(SEED, [m.RetryAfter(9000), m.RateLimit(5000)])


def test_a_give_up_stops_stamina(waits):
    slept, _ = waits
    hook = backoff_hook(Policy("google", max_retries=2), seed=SEED)
    with serve([(503, {})]) as (url, server):
        with pytest.raises(httpx.HTTPStatusError):
            fetch(url, hook)
        assert server.count == 3
    assert slept == model_waits(SEED, [None] * 2)
    assert (hook.action.kind, hook.action.attempt, hook.action.reason) == ("give_up", 3, "max_retries")


def test_other_statuses_and_errors_are_not_retried(waits):
    slept, _ = waits
    with serve([(404, {})]) as (url, server):
        with pytest.raises(httpx.HTTPStatusError):
            fetch(url, backoff_hook(Policy("google"), seed=SEED))
        assert server.count == 1
    hook = backoff_hook(Policy("google"), seed=SEED, retry_on=ConnectionError)
    assert hook(ZeroDivisionError()) is False
    # The call has ended: its run gave up at the error not worth a retry.
    assert hook(ConnectionError()) is False and hook.action.reason is None
    hook = backoff_hook(Policy("google"), seed=SEED, retry_on=ConnectionError)
    assert hook(ConnectionError()) == model_waits(SEED, [None])[0] / 1000
    assert slept == []


def test_stamina_still_applies_its_own_limits(waits):
    slept, _ = waits
    with serve([(503, {})]) as (url, server):
        with pytest.raises(httpx.HTTPStatusError):
            fetch_limited = backoff_hook(Policy("google"), seed=SEED)
            with httpx.Client() as client:
                for attempt in stamina.retry_context(on=fetch_limited, attempts=2, timeout=None):
                    with attempt:
                        client.get(url).raise_for_status()
        assert server.count == 2
    assert slept == model_waits(SEED, [None])


@pytest.mark.parametrize("call, error, name", [
    (lambda: backoff_hook("google"), TypeError, "policy"),
    (lambda: backoff_hook(Policy(), seed=-1), ValueError, "seed"),
    (lambda: backoff_hook(Policy(), seed=1.5), TypeError, "seed"),
    (lambda: backoff_hook(Policy(), retry_on="OSError"), TypeError, "retry_on"),
    (lambda: BackoffHook(object()), TypeError, "policy"),
])
def test_bad_arguments(call, error, name):
    with pytest.raises(error, match=name):
        call()
