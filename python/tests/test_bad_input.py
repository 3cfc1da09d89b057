"""Bad input for every argument: a TypeError or ValueError naming the argument and its allowed
range (the core's message where the core has one), and nothing changed by the refused call."""

import pytest

from seeded_backoff import Backoff, CoreError, Policy, PolicyError, Run, retry
from seeded_backoff.budget import BudgetError, RetryBudget
from seeded_backoff.fleet import seed_from_device, startup_delay
from seeded_backoff.http import (RateLimitError, RetryAfterError, classify_http, is_retryable_http,
                                 parse_rate_limit, parse_retry_after, rate_limit_applies)
from seeded_backoff.pacer import Pacer
from seeded_backoff.send_rate import SendRate
from seeded_backoff.snapshots import SnapshotError

U32 = 2**32 - 1

# (option, bad value, exception, text the message contains)
POLICY_CASES = [
    ("initial_ms", 0, PolicyError, "initial_ms must be in 1..=2147483647, got 0"),
    ("initial_ms", 2**31, PolicyError, "initial_ms must be in 1..=2147483647, got 2147483648"),
    ("initial_ms", U32 + 1, ValueError, "initial_ms must be in 1..=2147483647, got 4294967296"),
    ("initial_ms", -1, ValueError, "initial_ms must be in 1..=2147483647, got -1"),
    ("initial_ms", 1.0, TypeError, "initial_ms must be in 1..=2147483647, got 1.0 (float)"),
    ("initial_ms", True, TypeError, "got True (bool)"),
    ("initial_ms", "100", TypeError, "got '100' (str)"),
    ("max_backoff_ms", 10, PolicyError, "max_backoff_ms must be in initial_ms..=2147483647, got 10"),
    ("max_retries", -1, ValueError, "max_retries must be an integer in 0..=4294967295, got -1"),
    ("max_retries", 3.5, TypeError, "max_retries must be an integer in 0..=4294967295"),
    ("max_retries", False, TypeError, "(bool)"),
    ("max_hint_ms", 2**31, PolicyError, "max_hint_ms must be in 0..=2147483647"),
    ("max_elapsed_ms", U32 + 1, ValueError, "max_elapsed_ms must be an integer in 0..=4294967295"),
    ("jitter_ms", 32001, PolicyError, "jitter_ms must be in 0..=max_backoff_ms, got 32001"),
    ("spread_per_mille", 100, PolicyError, "spread_per_mille applies only to jitter 'proportional', got 100"),
    ("multiplier", 0.5, PolicyError, "multiplier must be >= 1 (num >= den), got 0.5"),
    ("multiplier", 1001, PolicyError, "multiplier must be <= 1000"),
    ("multiplier", (3, 0), PolicyError, "multiplier denominator must be in 1..=1000"),
    ("multiplier", 1.0005, ValueError, "at most 3 decimals"),
    ("multiplier", "2", TypeError, "multiplier must be"),
    ("multiplier", True, TypeError, "multiplier must be"),
    ("jitter", "fulll", ValueError, "jitter must be one of 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional', got 'fulll'"),
    ("jitter", "Full", ValueError, "got 'Full'"),
    ("jitter", 2, TypeError, "jitter must be one of"),
    ("deadline", "giveup", ValueError, "deadline must be one of 'give_up', 'clamp'"),
    ("preset", "google-64s", ValueError, "preset must be one of 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile', got 'google-64s'"),
    ("preset", None, TypeError, "preset must be one of"),
]


@pytest.mark.parametrize("option,value,exc,text", POLICY_CASES, ids=[f"{c[0]}={c[1]!r}" for c in POLICY_CASES])
def test_policy_options(option, value, exc, text):
    with pytest.raises(exc) as e:
        Policy(**{option: value})
    assert text in str(e.value)


def test_policy_errors_carry_the_option_and_the_cores_name():
    with pytest.raises(PolicyError) as e:
        Policy(jitter="full", jitter_ms=500)
    assert (e.value.option, e.value.code) == ("jitter_ms", "jitter_ms_not_applicable")
    assert str(e.value) == "jitter_ms applies only to jitter 'google', got 500"
    # The value at fault came from the preset: said so.
    with pytest.raises(PolicyError, match="got the preset's value \\(set max_backoff_ms too\\)"):
        Policy(initial_ms=40_000)


def test_unknown_options_are_refused():
    with pytest.raises(TypeError, match="max_retry"):
        Policy(max_retry=3)


def fresh():
    return Backoff(Policy(max_elapsed_ms=60_000), seed=7)


STEP_CASES = [
    (dict(retry_after_ms=-1), ValueError, "retry_after_ms must be an integer in 0..=4294967295, got -1"),
    (dict(retry_after_ms=U32 + 1), ValueError, "retry_after_ms must be an integer in 0..=4294967295"),
    (dict(retry_after_ms=1.5), TypeError, "retry_after_ms must be an integer"),
    (dict(elapsed_ms=-5), ValueError, "elapsed_ms must be an integer in 0..=18446744073709551615"),
    (dict(elapsed_ms=2**64), ValueError, "elapsed_ms must be an integer"),
    (dict(elapsed_ms="1"), TypeError, "elapsed_ms must be an integer"),
    (dict(do_not_retry=1), TypeError, "do_not_retry must be True or False"),
    (dict(budget="grpc"), TypeError, "budget must be a RetryBudget"),
    (dict(failure_kind="crash"), ValueError, "failure_kind must be one of 'error', 'timeout'"),
    (dict(failure_kind=0), TypeError, "failure_kind must be one of"),
    (dict(rate_limit_ms=-1), ValueError, "rate_limit_ms must be an integer in 0..=4294967295, got -1"),
    (dict(rate_limit_ms=U32 + 1), ValueError, "rate_limit_ms must be an integer in 0..=4294967295"),
    (dict(rate_limit_ms=1.5), TypeError, "rate_limit_ms must be an integer"),
    (dict(rate_limit_ms="30"), TypeError, "rate_limit_ms must be an integer"),
    (dict(rate_limit_ms=5000, retry_after_ms=3000), TypeError, "at most one server hint per step"),
    (dict(rate_limit_ms=5000, do_not_retry=True), TypeError, "at most one server hint per step"),
    (dict(retry_after_ms=3000, do_not_retry=True), TypeError, "at most one server hint per step"),
]


@pytest.mark.parametrize("kwargs,exc,text", STEP_CASES, ids=[repr(c[0]) for c in STEP_CASES])
def test_next_delay_arguments_leave_the_state_unchanged(kwargs, exc, text):
    b, twin = fresh(), fresh()
    b.next_delay()
    twin.next_delay()
    before = b.snapshot()
    with pytest.raises(exc) as e:
        b.next_delay(**kwargs)
    assert text in str(e.value)
    assert b.snapshot() == before and b.retries == 1
    assert b.next_delay() == twin.next_delay()


def test_a_budget_is_unchanged_by_a_refused_step():
    budget = RetryBudget.grpc(10, 0.1)
    b = fresh()
    with pytest.raises(ValueError):
        b.next_delay(budget=budget, failure_kind="nope")
    assert budget.tokens_milli == 10_000 and b.retries == 0


def test_a_budget_is_unchanged_by_two_hints():
    budget = RetryBudget.grpc(10, 0.1)
    b = fresh()
    with pytest.raises(TypeError):
        b.next_delay(budget=budget, rate_limit_ms=1000, retry_after_ms=1000)
    assert budget.tokens_milli == 10_000 and b.retries == 0


@pytest.mark.parametrize("seed,exc", [(-1, ValueError), (2**64, ValueError), (1.0, TypeError), (True, TypeError), ("1", TypeError)])
def test_seeds(seed, exc):
    with pytest.raises(exc, match="seed must be an integer in 0..=18446744073709551615"):
        Backoff(Policy(), seed=seed)


def test_backoff_needs_a_policy():
    with pytest.raises(TypeError, match="policy must be a Policy"):
        Backoff("google")


@pytest.mark.parametrize("data,code", [(b"", "wrong_length"), (b"\0" * 41, "wrong_length")])
def test_snapshot_lengths(data, code):
    with pytest.raises(SnapshotError) as e:
        Backoff.restore(Policy(), data)
    assert e.value.code == code and "got %d bytes" % len(data) in str(e.value)


def test_damaged_and_foreign_snapshots():
    snap = bytearray(fresh().snapshot())
    snap[10] ^= 1
    with pytest.raises(SnapshotError) as e:
        Backoff.restore(Policy(max_elapsed_ms=60_000), bytes(snap))
    assert e.value.code == "bad_checksum"
    with pytest.raises(SnapshotError) as e:
        Backoff.restore(Policy("aws_standard"), fresh().snapshot())
    assert e.value.code == "policy_mismatch"
    with pytest.raises(TypeError, match="data must be bytes"):
        Backoff.restore(Policy(), "00" * 40)


@pytest.mark.parametrize("value,exc,text", [
    ("-5", RetryAfterError, "negative"), ("", RetryAfterError, "empty"), ("soon", RetryAfterError, "invalid_format"),
    (120, TypeError, "value must be a str or bytes"), (None, TypeError, "value must be a str or bytes"),
])
def test_retry_after_values(value, exc, text):
    with pytest.raises(exc) as e:
        parse_retry_after(value, now=0)
    assert text in (getattr(e.value, "code", None) or str(e.value))


@pytest.mark.parametrize("now,exc", [(-1, ValueError), (float("nan"), ValueError), (float("inf"), ValueError),
                                     (True, TypeError), ("0", TypeError), (2**64, ValueError)])
def test_retry_after_now(now, exc):
    with pytest.raises(exc, match="now must be"):
        parse_retry_after("5", now=now)


def test_retry_after_naive_datetime():
    import datetime
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_retry_after("5", now=datetime.datetime(2020, 1, 1))


RATE_LIMIT_NAMES = "'ratelimit', 'ratelimit-reset', 'x-ratelimit-retry-after', 'x-ratelimit-reset' (any case)"


@pytest.mark.parametrize("header,exc", [
    ("retry-after", ValueError), ("", ValueError), ("x-ratelimit-reset ", ValueError), ("X-RateLimit-Resét", ValueError),
    ("x_ratelimit_reset", ValueError), (None, TypeError), (b"ratelimit", TypeError), (3, TypeError),
])
def test_rate_limit_header_names(header, exc):
    with pytest.raises(exc) as e:
        parse_rate_limit(header, "5", now=0)
    assert str(e.value).startswith(f"header must be one of {RATE_LIMIT_NAMES}, got ")


@pytest.mark.parametrize("header,value,exc,text", [
    ("RateLimit-Reset", "-1", RateLimitError, "negative"), ("ratelimit-reset", " ", RateLimitError, "empty"),
    ("X-RateLimit-Reset", "1e3", RateLimitError, "invalid_format"),
    ("RateLimit", '"a";r=0', RateLimitError, "invalid_format"), ("RATELIMIT", "", RateLimitError, "empty"),
    ("x-ratelimit-retry-after", 30, TypeError, "value must be a str or bytes"),
    ("x-ratelimit-retry-after", None, TypeError, "value must be a str or bytes"),
])
def test_rate_limit_values(header, value, exc, text):
    with pytest.raises(exc) as e:
        parse_rate_limit(header, value, now=0)
    assert text in (getattr(e.value, "code", None) or str(e.value))
    assert exc is TypeError or isinstance(e.value, ValueError)


@pytest.mark.parametrize("now,exc", [(-1, ValueError), (float("nan"), ValueError), (True, TypeError), (2**64, ValueError)])
def test_rate_limit_now(now, exc):
    with pytest.raises(exc, match="now must be"):
        parse_rate_limit("x-ratelimit-reset", "5", now=now)


def test_rate_limit_applies_to_a_429_only():
    assert rate_limit_applies(429)
    assert not any(rate_limit_applies(s) for s in (503, 500, 200, 429 + 2**16, 429 + 2**32, -429))
    with pytest.raises(TypeError, match="status must be an integer"):
        rate_limit_applies("429")


@pytest.mark.parametrize("status", ["503", 503.0, True, None])
def test_statuses_must_be_ints(status):
    with pytest.raises(TypeError, match="status must be an integer"):
        is_retryable_http(status)
    with pytest.raises(TypeError):
        classify_http(status)


def test_out_of_range_statuses_are_invalid_not_wrapped():
    assert classify_http(-1) == "invalid" and classify_http(2**32 + 503) == "invalid"
    assert not is_retryable_http(2**32 + 503)


@pytest.mark.parametrize("make,exc,text", [
    (lambda: RetryBudget.grpc(0, 0.1), BudgetError, "max_tokens"),
    (lambda: RetryBudget.grpc(1001, 0.1), BudgetError, "max_tokens"),
    (lambda: RetryBudget.grpc(10, 0), BudgetError, "token_ratio"),
    (lambda: RetryBudget.grpc(10, 0.0001), ValueError, "token_ratio must be a number with at most 3 decimals"),
    (lambda: RetryBudget.grpc(10, "0.1"), TypeError, "token_ratio"),
    (lambda: RetryBudget.grpc(10.0, 0.1), TypeError, "max_tokens"),
    (lambda: RetryBudget.aws_quota(0, 5, 10, 1), BudgetError, "capacity"),
    (lambda: RetryBudget.aws_quota(500, 501, 10, 1), BudgetError, "cost"),
    (lambda: RetryBudget(), TypeError, "RetryBudget.grpc"),
])
def test_budget_parameters(make, exc, text):
    with pytest.raises(exc) as e:
        make()
    assert text in str(e.value)


def test_budget_methods_refuse_bad_kinds_and_keep_their_tokens():
    b = RetryBudget.aws_default()
    for call in (lambda: b.record_failure("oops"), lambda: b.try_acquire(None), lambda: b.record_success(1)):
        with pytest.raises((TypeError, ValueError)):
            call()
    assert b.tokens_milli == 500_000


def test_fleet_arguments():
    with pytest.raises(TypeError, match="device_id"):
        seed_from_device(12, 0)
    with pytest.raises(ValueError, match="boot_counter"):
        seed_from_device(b"id", -1)
    with pytest.raises(CoreError) as e:
        startup_delay(1, 2**31)
    assert e.value.code == "window_ms"


@pytest.mark.parametrize("kwargs,exc,text", [
    (dict(retry_on=42), TypeError, "retry_on must be an exception class"),
    (dict(retry_on=(ValueError, int)), TypeError, "retry_on"),
    (dict(sleep=5), TypeError, "sleep must be callable"),
    (dict(clock=None), TypeError, "clock must be callable"),
    (dict(seed=-1), ValueError, "seed must be"),
    (dict(budget=3), TypeError, "budget must be a RetryBudget"),
    (dict(policy="google"), TypeError, "policy must be a Policy"),
    (dict(policy=Policy(), max_retries=3), TypeError, "either policy or policy options"),
    (dict(max_retries=-3), ValueError, "max_retries"),
    (dict(maxretries=3), TypeError, "maxretries"),
])
def test_retry_options(kwargs, exc, text):
    with pytest.raises(exc) as e:
        retry(**kwargs)
    assert text in str(e.value)


@pytest.mark.parametrize("kwargs,text", [
    # A mistyped policy option names retry(), the function called, and the nearest name.
    (dict(max_retrys=3), "retry() got an unexpected keyword argument 'max_retrys'; did you mean 'max_retries'?"),
    (dict(policy=Policy(), max_retrys=3), "'max_retrys'; did you mean 'max_retries'?"),
    # A mistyped keyword of retry()'s own: the nearest of those.
    (dict(retry_onn=ValueError), "'retry_onn'; did you mean 'retry_on'?"),
    (dict(zzz=1), "retry() got an unexpected keyword argument 'zzz'"),
])
def test_retry_mistyped_keyword(kwargs, text):
    with pytest.raises(TypeError) as e:
        retry(**kwargs)
    assert text in str(e.value) and "Policy" not in str(e.value)


def test_retry_refuses_generator_functions_at_decoration():
    def lines():
        yield 1

    async def chunks():
        yield 1

    for f in (lines, chunks):
        with pytest.raises(TypeError, match=f"generator function .*{f.__name__}"):
            retry(f)
        with pytest.raises(TypeError, match="generator function"):
            retry(seed=1)(f)


@pytest.mark.parametrize("make,message", [
    (lambda: RetryBudget.grpc(1001, 0.1), "max_tokens must be in 1..=1000, got 1001"),
    (lambda: RetryBudget.grpc(2, 2.5), "token_ratio_milli must be in 1..=1000*max_tokens, got 2500"),
    (lambda: RetryBudget.aws_quota(0, 5, 10, 1), "capacity must be in 1..=1000000, got 0"),
    # The two costs share one rule: the message shows both values given.
    (lambda: RetryBudget.aws_quota(500, 501, 10, 1),
     "retry_cost and timeout_cost must be in 1..=capacity, got 501 and 10"),
    (lambda: RetryBudget.aws_quota(100, 5, 10, 150), "no_retry_increment must be in 0..=capacity, got 150"),
    (lambda: Pacer(1_000_001), "capacity_per_s must be in 1..=1000000, got 1000001"),
    (lambda: Pacer(100, 1000), "reserve_per_mille must be in 0..=999, got 1000"),
    (lambda: Pacer(100, 0, 86_401), "max_wait_s must be in 1..=86400, got 86401"),
    (lambda: SendRate(margin_permille=501), "margin_permille must be in 1..=500, got 501"),
    (lambda: SendRate(burst=0), "burst must be in 1..=1000, got 0"),
    (lambda: Run(Policy(), 1, startup_window_ms=2**31), "window_ms must be in 0..=2147483647, got 2147483648"),
])
def test_a_refusal_names_the_value_given(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value) == message
