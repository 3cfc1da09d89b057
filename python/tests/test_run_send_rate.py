"""A Run behind a shared SendRate (SPEC.md §15.2): the waits, the fail-fast give-up and bad input
named. The vectors (tests/vectors/run-send-rate.json) are replayed by test_vectors.py."""

import pytest

from seeded_backoff import Policy, Run
from seeded_backoff.send_rate import SendRate


def test_a_held_rate_makes_the_first_attempt_wait_without_a_retry():
    rate = SendRate(min_rate_milli=10_000)
    rate.answer(0, "throttled", hint_ms=2_000)
    run = Run(Policy("google"), 7)
    a = run.start(100, send_rate=rate)
    assert (a.kind, a.delay_ms, run.attempts) == ("wait", 1_900, 0)
    assert run.wake(2_000, send_rate=rate).kind == "attempt"
    assert run.outcome("success", 2_010, send_rate=rate, answer="accepted").kind == "done"


def test_fail_fast_gives_up_throttled_before_any_attempt():
    rate = SendRate(min_rate_milli=10_000, fail_fast=True)
    rate.answer(0, "throttled", hint_ms=1_000)
    a = Run(Policy("google"), 7).start(10, send_rate=rate)
    assert (a.kind, a.attempt, a.reason) == ("give_up", 0, "throttled")


def test_bad_paced_input_is_named_and_changes_nothing():
    rate = SendRate()
    run = Run(Policy("google"), 7)
    with pytest.raises(TypeError, match="send_rate must be a SendRate"):
        run.start(0, send_rate="fast")
    with pytest.raises(RuntimeError, match="^no_clock"):
        run.start(send_rate=rate)
    assert run.start(0, send_rate=rate).kind == "attempt"
    with pytest.raises(ValueError, match="answer"):
        run.outcome("success", 10, send_rate=rate, answer="maybe")
    with pytest.raises(TypeError, match="give send_rate too"):
        run.outcome("success", 10, answer="accepted")
    assert run.outcome("success", 10, send_rate=rate).kind == "done"


def test_an_http_status_is_an_answer_read_with_the_outcomes_hint():
    # SPEC.md §17.3: a 429 is a throttle, a 503 with a hint too (the hint holds the rate), a 503
    # without one and a 500 are accepted; a throttled retry waits only the hint (§15.2).
    rate = SendRate()
    run = Run(Policy("google"), 7)
    run.start(0, send_rate=rate)
    a = run.outcome("retryable", 10, retry_after_ms=300, send_rate=rate, answer=503)
    assert (a.kind, a.delay_ms) == ("retry", 300)
    assert rate.ask(20) == ("wait", 290)  # the hint holds every attempt until 310
    accepted = SendRate()
    run = Run(Policy("google"), 7)
    run.start(0, send_rate=accepted)
    assert run.outcome("retryable", 10, send_rate=accepted, answer=500).delay_ms >= 500
    assert accepted.rate_milli == 0  # no throttle: still off
    with pytest.raises(TypeError, match="answer_hint_ms"):
        run.outcome("retryable", 10, send_rate=accepted, answer=429, answer_hint_ms=5)
    with pytest.raises(ValueError, match="answer must be"):
        run.outcome("retryable", 10, send_rate=accepted, answer=70_000)


def test_a_run_reads_the_top_of_the_clock():
    # SPEC.md §15: a clock reading is any u64, 2**64 - 1 included (it is no "no clock" value).
    rate = SendRate()
    run = Run(Policy("google"), 7)
    assert run.start(2**64 - 1, send_rate=rate).kind == "attempt"
    assert run.outcome("retryable", None, send_rate=rate).kind == "retry"  # the run has a clock
    assert run.wake(2**64 - 1, send_rate=rate).attempt == 2
    with pytest.raises(ValueError, match="now_ms must be"):
        run.wake(2**64)


def test_an_answer_with_its_send_time_cuts_once_per_flight():
    # SPEC.md §17.5, by hand: 100 accepted over 1 s, a throttle at 1000 cuts to 98/s; a throttle
    # of an attempt sent at 990 (before the cut) cuts nothing, one sent at 1000 cuts to 96.04/s.
    rate = SendRate()
    for t in range(100):
        rate.answer(t * 10, "accepted")
    rate.answer(1000, "throttled")
    assert rate.rate_milli == 98_000
    rate.answer(1010, "throttled", sent_ms=990)
    assert rate.rate_milli == 98_000
    rate.answer(1020, "throttled", sent_ms=1000)
    assert rate.rate_milli == 96_040
    with pytest.raises(ValueError, match="sent_ms must be"):
        rate.answer(1030, "throttled", sent_ms=-1)
