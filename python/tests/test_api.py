"""The Python API's own behaviour: seeds, iteration, snapshots, reasons, presets, the version, and
the decorator's forms. Expected schedules come from the independent model (tests/model)."""

import os
import re
from fractions import Fraction

import pytest
import spec_model as m

import seeded_backoff
import seeded_backoff.http
from conftest import REPO
from seeded_backoff import Backoff, Policy, RetryError, RetryEvent, retry
from seeded_backoff.budget import RetryBudget
from seeded_backoff.snapshots import SNAPSHOT_SIZE


def model_schedule(policy_fields, seed, n=100):
    b = m.Backoff(m.make_policy(**policy_fields), seed)
    out = []
    for _ in range(n):
        step = b.next()
        if not isinstance(step, m.Retry):
            return out, step.reason
        out.append(step.delay_ms)
    return out, None


@pytest.mark.parametrize("name", ["google", "google_64s", "aws_standard", "grpc", "mobile"])
def test_presets_are_the_specs(name):
    fields = m.PRESETS[name]
    p = Policy(name)
    assert p.initial_ms == fields["initial_ms"] and p.max_backoff_ms == fields["max_backoff_ms"]
    assert p.multiplier == Fraction(fields["multiplier_num"], fields["multiplier_den"])
    assert p.jitter == fields["jitter"] and p.max_retries == fields["max_retries"]
    assert list(Backoff(p, seed=99)) == model_schedule(fields, 99)[0]


def test_names_come_from_the_library():
    assert Policy.PRESETS == tuple(m.PRESETS)
    assert set(Policy.JITTERS) == set(m.JITTER_CODES)
    assert seeded_backoff.GIVE_UP_REASONS == ("max_retries", "deadline", "budget", "server_stop", "hint_exceeds_max",
                                            "throttled")


def test_a_random_seed_is_readable_and_replays():
    a, b = Backoff(Policy()), Backoff(Policy())
    assert a.seed != b.seed and 0 <= a.seed < 2**64
    assert list(Backoff(Policy(), seed=a.seed)) == list(a)


def test_iteration_give_up_and_reset():
    policy = Policy("aws_standard")
    b = Backoff(policy, seed=5)
    delays = list(b)
    assert (delays, b.give_up_reason) == model_schedule(m.PRESETS["aws_standard"], 5)
    assert b.retries == 2 and b.next_delay() is None and b.give_up_reason == "max_retries"
    b.reset()
    assert b.give_up_reason is None and b.retries == 0 and b.next_delay() is not None


def test_do_not_retry_gives_up_with_server_stop():
    b = Backoff(Policy(), seed=1)
    assert b.next_delay(do_not_retry=True) is None and b.give_up_reason == "server_stop"


def test_a_hint_and_the_clock_in_one_step_match_the_model():
    fields = dict(m.PRESETS["google"], max_elapsed_ms=20_000)
    b, model = Backoff(Policy(max_elapsed_ms=20_000), seed=11), m.Backoff(m.make_policy(**fields), 11)
    for hint, elapsed in [(None, 50), (5000, 3000), (None, 9000), (12_000, 15_000)]:
        want = model.next(hint=hint and m.RetryAfter(hint), elapsed=elapsed)
        got = b.next_delay(retry_after_ms=hint, elapsed_ms=elapsed)
        assert got == (want.delay_ms if isinstance(want, m.Retry) else None)
        assert b.give_up_reason == (None if isinstance(want, m.Retry) else want.reason)


def test_snapshot_restore_continues():
    policy = Policy("grpc")
    a = Backoff(policy, seed=8)
    a.next_delay()
    snap = a.snapshot()
    assert len(snap) == SNAPSHOT_SIZE == 40
    b = Backoff.restore(policy, bytearray(snap))
    assert b.seed is None and b.retries == 1 and list(b) == list(a)


def test_policy_value_semantics():
    assert Policy("google", max_retries=3) == Policy(max_retries=3)
    assert hash(Policy("grpc")) == hash(Policy("grpc", multiplier=1.6))
    assert Policy(multiplier=Fraction(3, 2)).multiplier == Fraction(3, 2)
    assert Policy(multiplier=(1600, 1000)).multiplier == Fraction(8, 5)
    assert "jitter='full'" in repr(Policy(jitter="full"))
    assert Policy(jitter="proportional").spread_per_mille == 200  # gRPC's reference spread
    assert Policy(max_backoff_ms=1_000).max_hint_ms == 300_000  # one hint limit, whatever the cap
    assert Policy("grpc").max_hint_ms == Policy("google_64s").max_hint_ms == 300_000


def test_version_is_the_crates():
    cargo = open(os.path.join(REPO, "Cargo.toml"), encoding="utf-8").read()
    crate = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    from importlib.metadata import version
    assert seeded_backoff.__version__ == crate == version("seeded-backoff")


def test_typed():
    assert os.path.exists(os.path.join(os.path.dirname(seeded_backoff.__file__), "py.typed"))


def test_decorator_forms_and_callbacks():
    sleeps, seen = [], []

    @retry
    def plain():
        return 7

    assert plain() == 7 and plain.__name__ == "plain"

    @retry(seed=3, sleep=sleeps.append, retry_if_result=lambda r: r is None, on_retry=seen.append)
    def eventually():
        return None if len(sleeps) < 2 else "done"

    assert eventually() == "done"
    want = model_schedule(m.PRESETS["google"], 3, 2)[0]
    assert [round(s * 1000) for s in sleeps] == want
    assert seen == [RetryEvent(attempt=1, delay_ms=want[0], error=None), RetryEvent(attempt=2, delay_ms=want[1], error=None)]


def test_successes_refund_the_budget():
    budget = RetryBudget.grpc(10, 0.5)
    attempts = []

    @retry(seed=1, budget=budget, sleep=lambda s: None, retry_on=ValueError)
    def once_flaky():
        attempts.append(1)
        if len(attempts) == 1:
            raise ValueError
        return "ok"

    assert once_flaky() == "ok" and budget.tokens_milli == 9500  # one token spent, 0.5 back


def test_retry_error_message():
    @retry(max_retries=0, retry_on=OSError)
    def down():
        raise OSError("down")

    with pytest.raises(RetryError, match=r"gave up after 1 attempt \(max_retries\); last: OSError"):
        down()


class FakeResponse:
    """What retry() reads of a requests or httpx response: status_code and headers."""

    def __init__(self, status_code, retry_after=None):
        self.status_code = status_code
        self.headers = {} if retry_after is None else {"Retry-After": retry_after}


@pytest.mark.parametrize("retry_after,first_delay", [
    ("Fri, 31 Dec 9999 23:59:59 GMT", "hint_exceeds_max"),  # far ahead: beyond max_hint_ms, give up
    ("Friday, 31-Dec-99 23:59:59 GMT", None),     # RFC 850 (1999): in the past, no lower bound
    ("Sun Nov  6 08:49:37 1994", None),           # asctime, in the past
    ("soon", None),                               # not a Retry-After: ignored
    ("40", 40_000),                               # delta-seconds above the cap: waited in full
    ("301", "hint_exceeds_max"),                  # above the 300 s hint limit: give up, never early
])
def test_retry_after_forms_in_responses(retry_after, first_delay):
    responses = [FakeResponse(503, retry_after), FakeResponse(200)]
    sleeps = []
    if isinstance(first_delay, str):
        with pytest.raises(RetryError) as info:
            retry(seed=9, sleep=sleeps.append)(lambda: responses.pop(0))()
        assert (info.value.reason, info.value.attempts, sleeps) == (first_delay, 1, [])
        assert info.value.cause.status_code == 503
        return
    result = retry(seed=9, sleep=sleeps.append)(lambda: responses.pop(0))()
    assert result.status_code == 200
    model = m.Backoff(m.preset("google"), 9).next()
    assert round(sleeps[0] * 1000) == (first_delay if first_delay is not None else model.delay_ms)


def test_non_retryable_responses_are_returned():
    for status in (200, 404, 301):
        assert retry(seed=1, sleep=lambda s: None)(lambda: FakeResponse(status))().status_code == status


def test_hint_from_headers_is_the_cores_rule():
    # SPEC.md section 8.3 step 1, by hand: a valid Retry-After for any status; else, for a 429, the
    # first rate-limit header in the table's order that parses; names in any case.
    hint = seeded_backoff.http.hint_from_headers
    now = 1_700_000_000
    assert hint(429, {"X-RateLimit-Reset": "1700000030"}, now=now) == {"rate_limit_ms": 30000}
    assert hint(503, {"X-RateLimit-Reset": "1700000030"}, now=now) == {}
    assert hint(503, [("retry-AFTER", b"3")], now=now) == {"retry_after_ms": 3000}
    assert hint(429, [("Retry-After", "soon"), ("RateLimit-Reset", "7")], now=now) == {"rate_limit_ms": 7000}
    assert hint(429, {}, now=now) == {}
    with pytest.raises(TypeError, match="headers must be a mapping or"):
        hint(429, 5)
    with pytest.raises(TypeError, match="value must be a str or bytes"):
        hint(429, {"Retry-After": 3})


def test_two_hints_in_one_step_are_refused_and_change_nothing():
    b = Backoff(Policy("google"), seed=1)
    with pytest.raises(TypeError, match="at most one server hint per step"):
        b.next_delay(retry_after_ms=1000, do_not_retry=True)
    assert b.retries == 0 and b.give_up_reason is None


def test_request_may_retry_is_rfc_9110_and_the_idempotency_key():
    may = seeded_backoff.http.request_may_retry
    assert all(may(m) for m in ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"])
    assert not any(may(m) for m in ["POST", "PATCH", "CONNECT", "get"])
    assert may("POST", True)
    with pytest.raises(TypeError, match="method must be a str"):
        may(b"GET")
    with pytest.raises(TypeError, match="has_idempotency_key must be True or False"):
        may("POST", 1)
