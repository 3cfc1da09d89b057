"""retry(send_rate=): the run gates every attempt through one shared SendRate and tells it every
answer (SPEC.md sections 15.2 and 17). The bounds are SPEC.md's, derived in send_rates.py."""

import asyncio
import threading
import time

import pytest

from seeded_backoff import RetryError, retry
from seeded_backoff.send_rate import SendRate
from send_rates import assert_spaced, fixed_rate


class Response:
    def __init__(self, status, headers=None):
        self.status_code, self.headers = status, headers or {}


def test_many_threads_sharing_one_rate_are_spaced_by_its_interval():
    rate, times, lock = fixed_rate(), [], threading.Lock()

    @retry(seed=1, send_rate=rate)
    def call():
        with lock:
            times.append(time.monotonic())
        return Response(200)

    start = time.monotonic()
    threads = [threading.Thread(target=lambda: [call() for _ in range(8)]) for _ in range(25)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(times) == 200
    assert_spaced(start, times)
    # Paced, not stalled: 200 attempts at 5 ms take about 1 s.
    assert time.monotonic() - start < 10


def test_many_asyncio_tasks_sharing_one_rate_are_spaced_by_its_interval():
    rate, times = fixed_rate(), []

    @retry(seed=1, send_rate=rate)
    async def call():
        times.append(time.monotonic())
        await asyncio.sleep(0)
        return Response(200)

    async def worker():
        for _ in range(4):
            await call()

    async def main():
        await asyncio.gather(*(worker() for _ in range(50)))

    start = time.monotonic()
    asyncio.run(main())
    assert len(times) == 200
    assert_spaced(start, times)
    assert time.monotonic() - start < 10


def test_a_429_without_retry_after_is_told_as_a_throttle():
    # The outcome alone (a retryable error without a hint) would be no answer: the loop knows the
    # response, and a 429 is a throttle (SPEC.md section 17.3), which turns the rate on.
    rate, answers = SendRate(), iter([Response(429), Response(200)])
    retry(seed=1, send_rate=rate, sleep=lambda s: None)(lambda: next(answers))()
    assert rate.rate_milli > 0


def test_a_503_without_a_hint_is_accepted_and_leaves_the_rate_off():
    rate, answers = SendRate(), iter([Response(503), Response(200)])
    retry(seed=1, send_rate=rate, sleep=lambda s: None)(lambda: next(answers))()
    assert rate.rate_milli == 0


def test_a_held_rate_makes_the_first_attempt_wait_without_a_retry():
    now, slept, events = [1.0], [], []
    rate = SendRate()
    rate.answer(1_000, "throttled", hint_ms=300)  # holds every attempt until 1300 ms

    def sleep(s):
        slept.append(s)
        now[0] += s

    @retry(seed=1, send_rate=rate, sleep=sleep, clock=lambda: now[0], on_retry=events.append)
    def call():
        return Response(200)

    assert call().status_code == 200
    assert slept == [0.3] and events == []


def test_a_fail_fast_rate_gives_up_throttled_before_any_attempt():
    rate = SendRate(fail_fast=True)
    rate.answer(None, "throttled", hint_ms=60_000)
    calls = []

    @retry(send_rate=rate)
    def call():
        calls.append(1)

    with pytest.raises(RetryError) as e:
        call()
    assert (e.value.attempts, e.value.reason, e.value.cause, calls) == (0, "throttled", None, [])


def test_send_rate_of_another_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="^send_rate must be a SendRate, got 'fast' \\(str\\)"):
        retry(send_rate="fast")


def test_the_google_retry_waits_for_the_rate_and_tells_it_a_429():
    exceptions = pytest.importorskip("google.api_core.exceptions")
    from seeded_backoff.google import Retry

    now, slept = [1.0], []
    rate = SendRate()
    rate.answer(1_000, "throttled", hint_ms=200)

    def sleep(s):
        slept.append(s)
        now[0] += s

    answers = iter([exceptions.TooManyRequests("slow down"), "ok"])

    def call():
        a = next(answers)
        if isinstance(a, Exception):
            raise a
        return a

    assert Retry(seed=1, send_rate=rate, sleep=sleep, clock=lambda: now[0])(call)() == "ok"
    assert slept[0] == 0.2 and len(slept) >= 2  # the hold's wait, then the 429's retry
    with pytest.raises(TypeError, match="^send_rate must be a SendRate"):
        Retry(send_rate=1)
