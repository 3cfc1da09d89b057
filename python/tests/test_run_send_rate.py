"""A Run behind a shared SendRate (SPEC.md §15.2): the waits, the fail-fast give-up and bad input
named. The vectors (tests/vectors/run-send-rate.json) are replayed by test_vectors.py."""

import pytest

from seeded_backoff import Policy, Run, SendRate


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
