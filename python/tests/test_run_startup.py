"""Run(startup_window_ms=...) (SPEC.md section 15.3) beyond the vectors: the wait is the fleet
helper's draw for the run's seed, the window's range is the core's, its type the package's."""

import pytest

from seeded_backoff import Policy, Run
from seeded_backoff.fleet import startup_delay


def test_the_start_waits_the_startup_delay_of_the_runs_seed():
    run = Run(Policy("google"), 9, startup_window_ms=10_000)
    wait = run.start(now_ms=0)
    assert (wait.kind, wait.delay_ms) == ("wait", startup_delay(9, 10_000))
    assert run.wake(now_ms=wait.delay_ms).kind == "attempt"
    assert run.attempts == 1


def test_without_a_window_the_start_is_the_attempt():
    assert Run(Policy("google"), 9).start().kind == "attempt"


def test_a_window_out_of_range_or_of_the_wrong_type_is_refused():
    with pytest.raises(ValueError, match="window_ms"):
        Run(Policy("google"), 1, startup_window_ms=2**31)
    with pytest.raises(TypeError, match="startup_window_ms"):
        Run(Policy("google"), 1, startup_window_ms=1.5)
