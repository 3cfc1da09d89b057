"""SPEC.md §14's seed rule in the Python loops: many concurrent calls of one seeded loop (the
`retry` decorator, the tenacity adapter, the Google `Retry`) each follow their own schedule, and together exactly the
schedules of call_seed(seed, 0..n) by the independent model, whatever order the threads run in.
The Google `Retry` (one object passed as `retry=` to many calls) follows the same rule."""

import threading

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


@pytest.mark.parametrize("loop", [decorator_loop, tenacity_loop, google_loop])
def test_concurrent_calls_have_distinct_reproducible_schedules(loop):
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
