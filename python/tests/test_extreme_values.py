"""Values at the edges of Python's types: infinite and huge floats, integers beyond every C type,
strings UTF-8 cannot encode. The promises are docs/bad-input.md's Python table and python/README.md:
a TypeError or ValueError naming the argument (never OverflowError or UnicodeEncodeError), 'invalid'
or False for a code that is no status, and retry() ignoring a header it cannot read. Expected delays
come from the independent model (tests/model/spec_model.py)."""

import pytest
import spec_model as m

from seeded_backoff import Backoff, Policy, RetryError, retry
from seeded_backoff.budget import RetryBudget
from seeded_backoff.http import (RateLimitError, RetryAfterError, classify_grpc, classify_http,
                                 is_retryable_http, parse_rate_limit, parse_retry_after, rate_limit_applies)

INF, NAN = float("inf"), float("nan")
HUGE_FLOATS = [INF, -INF, NAN, 1e308, -1e308, 1e300, 5e6]


@pytest.mark.parametrize("value", HUGE_FLOATS, ids=repr)
def test_a_non_finite_or_huge_multiplier_is_a_value_error_naming_it(value):
    with pytest.raises(ValueError, match="multiplier must be") as e:
        Policy(multiplier=value)
    assert not isinstance(e.value, OverflowError)


@pytest.mark.parametrize("value", HUGE_FLOATS, ids=repr)
def test_a_non_finite_or_huge_token_ratio_is_a_value_error_naming_it(value):
    with pytest.raises(ValueError, match="token_ratio"):
        RetryBudget.grpc(10, value)


@pytest.mark.parametrize("value", [INF, -INF, NAN, 1e308, 2**64, 10**400], ids=["inf", "-inf", "nan", "1e308", "2**64", "10**400"])
def test_now_beyond_u64_seconds_is_a_value_error_naming_it(value):
    for parse in (lambda: parse_retry_after("5", now=value), lambda: parse_rate_limit("RateLimit-Reset", "5", now=value)):
        with pytest.raises(ValueError, match="now must be"):
            parse()


@pytest.mark.parametrize("option", ["initial_ms", "max_backoff_ms", "max_retries", "max_hint_ms", "jitter_ms"])
@pytest.mark.parametrize("value", [INF, NAN, 1e308, 10**400, -(10**400)], ids=["inf", "nan", "1e308", "10**400", "-10**400"])
def test_integer_options_refuse_floats_and_huge_ints_by_name(option, value):
    with pytest.raises((TypeError, ValueError), match=option):
        Policy(**{option: value})


@pytest.mark.parametrize("kwargs", [dict(retry_after_ms=10**400), dict(elapsed_ms=2**64), dict(rate_limit_ms=INF)])
def test_next_delay_arguments_beyond_their_c_type_name_the_argument(kwargs):
    b = Backoff(Policy(), seed=1)
    (name,) = kwargs
    with pytest.raises((TypeError, ValueError), match=name):
        b.next_delay(**kwargs)
    assert b.retries == 0


BEYOND = [2**32, 2**63, 2**64, 2**64 + 503, 10**400, -(2**63) - 1, -(2**64)]
BEYOND_IDS = ["2**32", "2**63", "2**64", "2**64+503", "10**400", "-2**63-1", "-2**64"]


@pytest.mark.parametrize("code", BEYOND, ids=BEYOND_IDS)
def test_codes_beyond_the_c_types_are_invalid(code):
    assert classify_http(code) == "invalid"
    assert classify_grpc(code) == "invalid"
    assert is_retryable_http(code) is False
    assert rate_limit_applies(code) is False


class Response:
    def __init__(self, status_code, headers=None):
        self.status_code = status_code
        self.headers = headers or {}


@pytest.mark.parametrize("status", BEYOND + [-1, 0, 600], ids=BEYOND_IDS + ["-1", "0", "600"])
def test_retry_returns_a_response_whose_status_is_no_status(status):
    calls = []

    @retry(seed=1, sleep=calls.append)
    def fetch():
        return Response(status)

    assert fetch().status_code == status
    assert calls == []


@pytest.mark.parametrize("value", ["\ud800", "12\udfff", "\udc80\udc81", "Sun, 06 Nov 1994 08:49:37 GMT\ud800"])
def test_a_retry_after_utf8_cannot_encode_is_invalid_format(value):
    with pytest.raises(RetryAfterError) as e:
        parse_retry_after(value, now=0)
    assert e.value.code == "invalid_format"


def test_a_rate_limit_value_utf8_cannot_encode_is_invalid_format():
    # Without the surrogate the value parses (7 s): the refusal is the encoding's.
    assert parse_rate_limit("RateLimit", '"q";r=0;t=7', now=0) == 7000
    for header, value in (("RateLimit", '"q\ud800";r=0;t=7'), ("X-RateLimit-Reset", "7\udc80")):
        with pytest.raises(RateLimitError) as e:
            parse_rate_limit(header, value, now=0)
        assert e.value.code == "invalid_format"


def _first_delay(status, headers):
    delays = []

    @retry(seed=7, sleep=delays.append, max_retries=1)
    def fetch():
        return Response(status, headers)

    with pytest.raises(RetryError):
        fetch()
    return round(delays[0] * 1000)


def test_retry_ignores_a_retry_after_it_cannot_encode():
    google = m.preset("google", max_retries=1)
    # A 503 whose only hint is unreadable waits the plain backoff delay.
    assert _first_delay(503, {"Retry-After": "30\ud800"}) == m.Backoff(google, 7).next().delay_ms
    # On a 429 the next header that parses decides (SPEC.md section 8.3).
    headers = {"Retry-After": "\udc80", "RateLimit": '"q\ud800";r=0;t=9', "X-RateLimit-Reset": "20"}
    expected = m.Backoff(google, 7).next(hint=m.RateLimit(20000)).delay_ms
    assert _first_delay(429, headers) == expected


@pytest.mark.parametrize("reading", [INF, NAN, "soon", None])
def test_retry_refuses_a_clock_without_a_finite_reading_by_name(reading):
    readings = iter([0.0, reading])

    @retry(seed=1, sleep=lambda s: None, clock=lambda: next(readings), retry_on=OSError)
    def fetch():
        raise OSError("reset")

    with pytest.raises((TypeError, ValueError), match=r"clock\(\) must return"):
        fetch()


def test_retry_saturates_a_clock_that_runs_past_u64_milliseconds():
    # SPEC.md: elapsed time saturates; with a time budget the loop gives up with 'deadline'.
    readings = iter([0, 10**30])

    @retry(seed=1, sleep=lambda s: None, clock=lambda: next(readings), retry_on=OSError, max_elapsed_ms=60_000)
    def fetch():
        raise OSError("reset")

    with pytest.raises(RetryError) as e:
        fetch()
    assert (e.value.reason, e.value.attempts) == ("deadline", 1)
