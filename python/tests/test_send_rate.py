"""SendRate (SPEC.md §17) beyond the vectors: bad input named and refused with the state unchanged,
many threads sharing one rate, and asyncio tasks pacing with wait_turn. Expected values are
derived by hand from the SPEC."""

import asyncio
import threading

import pytest

from seeded_backoff.send_rate import Pace, SendRate, SendRateError

RANGES = {  # SPEC §17.1: a value just outside each field's range
    "max_rate_milli": 1_000_000_001, "min_rate_milli": 0, "margin_permille": 501, "probe_ms": 9,
    "probe_first_permille": 0, "probe_max_permille": 1001, "guard_ms": 60_001, "burst": 1001,
    "max_hold_ms": 3_600_001,
}


@pytest.mark.parametrize("field", sorted(RANGES))
def test_every_field_out_of_range_is_named(field):
    kwargs = {field: RANGES[field]}
    if field == "probe_max_permille":
        kwargs["probe_first_permille"] = 1001  # else probe_first_permille (checked first) is out
    with pytest.raises(SendRateError) as info:
        SendRate(**kwargs)
    assert isinstance(info.value, ValueError)
    assert info.value.field == field
    assert field in str(info.value)


@pytest.mark.parametrize("bad", [True, 1.0, "1"])
def test_non_integers_are_type_errors(bad):
    with pytest.raises(TypeError, match="burst"):
        SendRate(burst=bad)


def test_negative_is_a_value_error_naming_the_field():
    with pytest.raises(ValueError, match="guard_ms"):
        SendRate(guard_ms=-1)


def test_a_bad_answer_changes_nothing():
    rate, twin = SendRate(), SendRate()
    rate.answer(0, "throttled", hint_ms=1000)
    twin.answer(0, "throttled", hint_ms=1000)
    with pytest.raises(ValueError, match="kind"):
        rate.answer(5, "throttle")
    with pytest.raises(TypeError, match="kind"):
        rate.answer(5, 1)
    with pytest.raises(ValueError, match="hint_ms"):
        rate.answer(5, "throttled", hint_ms=-1)
    # An ask moves the line's end (SPEC.md section 17.4 step 5): compared with a twin given the
    # good answer alone, asked the same.
    assert [(rate.rate_milli, rate.ask(0)) for _ in range(2)] == [(twin.rate_milli, twin.ask(0)) for _ in range(2)]


def test_the_hint_holds_every_ask_whatever_the_burst():
    # 10 accepted in the first second (10/s), then a throttle with a 5 s hint at 1000: the rate is
    # 9.8/s (an interval of 10^9 // 9800 = 102 040 µs), and with burst 10 no ask before 6000 goes.
    # The asks that wait form a line (SPEC.md section 17.4 step 5): the first is told the hint's
    # end, 6 000 000 µs; the second the next place, 6 102 040 (ceil 1020.04 ms from 5082).
    rate = SendRate(burst=10)
    for t in range(0, 1000, 100):
        rate.answer(t, "accepted")
    rate.answer(1000, "throttled", hint_ms=5000)
    assert rate.rate_milli == 9800
    assert rate.ask(1000) == Pace("wait", 5000)
    assert rate.ask(5082) == Pace("wait", 1021)
    # At 6000 ten go; the eleventh's slot is one interval past the tenth's allowance
    # (6 102 040 µs), and the line's next place is 6 204 080: 205 ms.
    assert [rate.ask(6000).kind for _ in range(10)] == ["send"] * 10
    assert rate.ask(6000) == Pace("wait", 205)


def test_threads_share_one_rate_and_lose_no_send():
    # Rate 98/s (100 accepted in 1 s, less 2 %), burst 1: at one instant exactly one of many threads sends.
    rate = SendRate(burst=1)
    for t in range(100):
        rate.answer(t * 10, "accepted")
    rate.answer(1000, "throttled")
    assert rate.rate_milli == 98_000
    paces = []
    lock = threading.Lock()

    def worker():
        for _ in range(50):
            p = rate.ask(1000)
            with lock:
                paces.append(p)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(paces) == 400
    assert sum(p.kind == "send" for p in paces) == 1
    # The 399 that wait form a line (SPEC.md section 17.4 step 5): places one interval (10 204 µs)
    # apart from the slot at 1 010 204 µs; 98 intervals reach 999 992 µs past it, so every 99th
    # starts the line again.
    waits = sorted(p.ms for p in paces if p.kind != "send")
    assert waits == sorted(-(-(10_204 + 10_204 * (k % 99)) // 1000) for k in range(399))


def test_asyncio_tasks_take_turns_on_a_virtual_clock():
    # A clock the sleeps move: 5 tasks at 98/s, burst 1, go one interval (10204 µs) apart, the waits rounded up.
    now = [1000]
    rate = SendRate(burst=1, clock=lambda: now[0])
    for t in range(100):
        rate.answer(t * 10, "accepted")
    rate.answer(1000, "throttled")
    sent = []

    async def task():
        await rate.wait_turn()
        sent.append(now[0])

    async def main():
        real_sleep = asyncio.sleep

        async def sleep(s):
            now[0] += round(s * 1000)
            await real_sleep(0)

        asyncio.sleep = sleep
        try:
            await asyncio.gather(*(task() for _ in range(5)))
        finally:
            asyncio.sleep = real_sleep

    asyncio.run(main())
    assert len(sent) == 5
    assert sent[0] == 1000
    # Each send is at least one interval after the one before it, and never more than 3 ms late.
    for a, b in zip(sent, sent[1:]):
        assert 10 <= b - a <= 13, sent


def test_fail_fast_refuses_at_once():
    rate = SendRate(fail_fast=True, clock=lambda: 100)
    rate.answer(0, "throttled", hint_ms=500)
    assert asyncio.run(rate.wait_turn()) == Pace("refuse", 400)
    assert rate.config()["fail_fast"] is True
