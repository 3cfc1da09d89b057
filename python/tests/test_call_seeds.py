"""SPEC.md §14's seed rule in the Python loops: many concurrent calls of one seeded loop (the
`retry` decorator, the tenacity adapter, the Google `Retry`, the copies of one Valkey
`ReconnectBackoff`, stamina hooks seeded from one `CallSeeds`) each follow their own schedule, and
together exactly the schedules of call_seed(seed, 0..n) by the independent model, whatever order
the threads run in.
The Google `Retry` (one object passed as `retry=` to many calls) follows the same rule."""

import copy
import threading
import time

import pytest
import spec_model as m

from seeded_backoff import Policy, retry

CALLS = 48
FAILURES = 3  # each call fails three times, then succeeds: three delays per call


def model_schedules(seed, n):
    google = m.preset("google")
    out = set()
    for i in range(n):
        b = m.Backoff(google, m.call_seed(seed, i))
        out.add(tuple(b.next().delay_ms for _ in range(FAILURES)))
    return out


def run_concurrently(make_call):
    """Starts CALLS threads at once, each making one call; returns each call's delays in ms."""
    delays, lock = {}, threading.Lock()
    start = threading.Barrier(CALLS)

    def sleep(seconds):
        with lock:
            delays.setdefault(threading.get_ident(), []).append(round(seconds * 1000))

    call = make_call(sleep)

    def worker():
        failures = []

        def flaky():
            if len(failures) < FAILURES:
                failures.append(1)
                raise ConnectionError("refused")
            return "ok"
        start.wait()
        assert call(flaky) == "ok"

    threads = [threading.Thread(target=worker) for _ in range(CALLS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [tuple(d) for d in delays.values()]


def decorator_loop(seed):
    def make_call(sleep):
        # One decorated function shared by every thread: one loop, many calls.
        shared = retry(seed=seed, sleep=sleep, retry_on=ConnectionError)(lambda f: f())
        return shared
    return make_call


def tenacity_loop(seed):
    tenacity = pytest.importorskip("tenacity")
    from seeded_backoff.tenacity import seeded

    def make_call(sleep):
        shared = tenacity.retry(**seeded(Policy("google"), seed=seed, retry_on=ConnectionError),
                                sleep=sleep)(lambda f: f())
        return shared
    return make_call


def google_loop(seed):
    from seeded_backoff.google import Retry

    def make_call(sleep):
        # One Retry object passed as `retry=` to every call of a client method.
        return Retry(seed=seed, sleep=sleep, retry_on=(ConnectionError,))(lambda f: f())
    return make_call


def valkey_loop(seed):
    from seeded_backoff.valkey import ReconnectBackoff

    def make_call(sleep):
        # One backoff given to every client; each client's connection holds a deep copy of it
        # (as valkey-py's do), and a call here is one outage of a connection.
        shared = ReconnectBackoff(seed=seed)

        def call(f):
            backoff, failures = copy.deepcopy(shared), 0
            while True:
                try:
                    return f()
                except ConnectionError:
                    failures += 1
                    sleep(backoff.compute(failures))
        return call
    return make_call


def stamina_loop(seed):
    stamina = pytest.importorskip("stamina")
    from seeded_backoff import CallSeeds
    from seeded_backoff.stamina import backoff_hook

    def make_call(sleep):
        # python/README.md's pattern: a hook per call, seeded from one CallSeeds; the hook's
        # answer is what stamina waits (its own time.sleep does nothing here).
        seeds = CallSeeds(seed)

        def call(f):
            hook = backoff_hook(Policy("google"), seed=seeds.next_seed())

            def on(exc):
                delay = hook(exc)
                sleep(delay)
                return delay
            for attempt in stamina.retry_context(on=on, attempts=None, timeout=None):
                with attempt:
                    return f()
        return call
    return make_call


@pytest.mark.parametrize("loop", [decorator_loop, tenacity_loop, google_loop, valkey_loop, stamina_loop])
def test_concurrent_calls_have_distinct_reproducible_schedules(loop, monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda seconds: None)  # stamina's own wait
    first = run_concurrently(loop(42))
    assert len(first) == CALLS and len(set(first)) == CALLS  # no two calls retry in step
    assert set(first) == model_schedules(42, CALLS)  # each is call_seed(42, i)'s, for i < CALLS
    again = run_concurrently(loop(42))
    assert set(again) == set(first)  # the run replays
    assert set(run_concurrently(loop(43))).isdisjoint(first)


def test_one_call_keeps_the_seeds_own_schedule():
    sleeps = []
    calls = []

    @retry(seed=7, sleep=lambda s: sleeps.append(round(s * 1000)), retry_on=ConnectionError)
    def flaky():
        calls.append(1)
        if len(calls) % 3:
            raise ConnectionError("refused")
        return "ok"
    assert flaky() == "ok" and flaky() == "ok"
    b0, b1 = (m.Backoff(m.preset("google"), m.call_seed(7, i)) for i in (0, 1))
    assert sleeps == [b0.next().delay_ms, b0.next().delay_ms, b1.next().delay_ms, b1.next().delay_ms]
    assert m.call_seed(7, 0) == 7
