"""Every file of tests/vectors replayed through the package, bit for bit (the format is the one
tests/model/check_vectors.py reads)."""

import glob
import json
import os
from fractions import Fraction

import pytest

from conftest import VECTORS
from seeded_backoff import Backoff, CallSeeds, CoreError, Policy, Run, call_seed
from seeded_backoff.budget import RetryBudget
from seeded_backoff.fleet import seed_from_device, startup_delay
from seeded_backoff.http import (RATE_LIMIT_HEADERS, RateLimitError, RetryAfterError, classify_grpc,
                                 classify_http, parse_rate_limit, parse_retry_after)
from seeded_backoff.pacer import Pacer, PacerError
from seeded_backoff.send_rate import SendRate, SendRateError
from seeded_backoff.snapshots import SnapshotError

FILES = sorted(glob.glob(os.path.join(VECTORS, "**", "*.json"), recursive=True))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_every_vector_file_is_replayed():
    kinds = {load(p)["kind"] for p in FILES}
    assert len(FILES) >= 30 and kinds <= set(REPLAY) | NOT_IN_PYTHON, kinds - set(REPLAY)


def policy_of(v):
    """The vector's policy through the package's keyword options, checked field for field."""
    opts = dict(initial_ms=v["initial_ms"], multiplier=(v["multiplier_num"], v["multiplier_den"]),
                max_backoff_ms=v["max_backoff_ms"], max_retries=v["max_retries"], jitter=v["jitter"],
                max_hint_ms=v["max_hint_ms"], max_elapsed_ms=v["max_elapsed_ms"], deadline=v["deadline"])
    if v.get("paced", False):
        opts["paced"] = True
    if v["jitter"] == "google":
        opts["jitter_ms"] = v["jitter_ms"]
    if v["jitter"] == "proportional":
        opts["spread_per_mille"] = v["spread_per_mille"]
    p = Policy(**opts)
    got = {k: getattr(p, k) for k in ("initial_ms", "max_backoff_ms", "max_retries", "jitter", "jitter_ms",
                                      "spread_per_mille", "max_hint_ms", "max_elapsed_ms", "deadline")}
    assert got == {k: v[k] for k in got}
    assert p.paced == v.get("paced", False)
    assert p.multiplier == Fraction(v["multiplier_num"], v["multiplier_den"])
    return p


def replay_schedule(doc):
    policy = policy_of(doc["policy"])
    checks = 0
    for case in doc["cases"]:
        b = Backoff(policy, seed=int(case["seed"]))
        for i, (op, want) in enumerate(zip(case["ops"], case["expect"], strict=True)):
            where = f"seed {case['seed']} op {i} {op!r}"
            if op == "r":
                b.reset()
                got = None
            elif op == "s":
                snap = b.snapshot()
                got = snap.hex()
                b = Backoff.restore(policy, snap)
            else:
                kw = {"x": dict(do_not_retry=True)}.get(op, {})
                if op[0] == "h":
                    kw = dict(retry_after_ms=int(op[1:]))
                elif op[0] == "t":
                    kw = dict(elapsed_ms=int(op[1:]))
                elif op[0] == "l":
                    kw = dict(rate_limit_ms=int(op[1:]))
                got = b.next_delay(**kw)
                if got is None:
                    got = b.give_up_reason
            assert got == want, where
            checks += 1
    return checks


def replay_retry_after(doc):
    for case in doc["cases"]:
        value = bytes.fromhex(case["value_hex"]) if "value_hex" in case else case["value"]
        if "error" in case:
            with pytest.raises(RetryAfterError) as e:
                parse_retry_after(value, now=int(case["now"]))
            assert e.value.code == case["error"], case
        else:
            assert parse_retry_after(value, now=int(case["now"])) == case["expect_ms"], case
    return len(doc["cases"])


def replay_rate_limit(doc):
    """Each value under its header's name, given in the file's lower case and, every other case,
    in the case servers send it (header names are case-insensitive)."""
    assert list(RATE_LIMIT_HEADERS) == doc["headers"]
    for i, case in enumerate(doc["cases"]):
        value = bytes.fromhex(case["value_hex"]) if "value_hex" in case else case["value"]
        header = case["header"] if i % 2 else case["header"].title()
        if "error" in case:
            with pytest.raises(RateLimitError) as e:
                parse_rate_limit(header, value, now=int(case["now"]))
            assert e.value.code == case["error"], case
        else:
            assert parse_rate_limit(header, value, now=int(case["now"])) == case["expect_ms"], case
    return len(doc["cases"])


def replay_budget(doc):
    checks = 0
    for case in doc["cases"]:
        spec = dict(case["budget"])
        kind = spec.pop("kind")
        if kind == "grpc":
            budget = RetryBudget.grpc(spec["max_tokens"], spec["token_ratio_milli"] / 1000)
        else:
            assert kind == "aws_quota"
            budget = RetryBudget.aws_quota(**spec)
        names = {"e": "error", "t": "timeout"}
        for op, want in zip(case["ops"], case["expect"], strict=True):
            allowed = 1
            if op[0] == "f":
                budget.record_failure(names[op[1]])
            elif op[0] == "a":
                allowed = int(budget.try_acquire(names[op[1]]))
            elif op == "s":
                budget.record_success()
            else:
                budget.record_success(retried=True, kind=names[op[1]])
            assert [allowed, budget.tokens_milli] == want, (case["budget"], op)
            checks += 1
    return checks


def replay_classify(doc):
    for code, cls in doc["http"]:
        assert classify_http(code) == cls, code
    for code, cls in doc["grpc"]:
        assert classify_grpc(code) == cls, code
    return len(doc["http"]) + len(doc["grpc"])


def replay_fleet(doc):
    for case in doc["seeds"]:
        assert seed_from_device(bytes.fromhex(case["id_hex"]), case["boot_counter"]) == int(case["seed"]), case
    for case in doc["startup_delays"]:
        if "error" in case:
            with pytest.raises(CoreError) as e:
                startup_delay(int(case["seed"]), case["window_ms"])
            assert e.value.code == case["error"]
        else:
            assert startup_delay(int(case["seed"]), case["window_ms"]) == case["expect_ms"], case
    return len(doc["seeds"]) + len(doc["startup_delays"])


def replay_resume(doc):
    # SPEC.md §13: a page's re-drawn wait is §12.2's startup delay for the run's seed XOR the
    # re-draw's number. Python has no page life, but the draw is the C ABI's, so it replays here.
    for case in doc["cases"]:
        got = startup_delay(int(case["seed"]) ^ case["resume"], case["window_ms"])
        assert got == case["expect_ms"], case
    return len(doc["cases"])


def budget_of(spec):
    spec = dict(spec)
    if spec.pop("kind") == "grpc":
        return RetryBudget.grpc(spec["max_tokens"], spec["token_ratio_milli"] / 1000)
    return RetryBudget.aws_quota(**spec)


def run_answer(run, event, budget, policy=None, rate=None):
    """One event of a run vector through the package's Run, as the vector writes the answer.
    A snapshot or a restore answers (answer, the run to go on with). With `rate`, start, wake and
    the outcomes are paced (SPEC.md §15.2), and rate_ask / rate_answer act on the shared rate."""
    e, now = event["e"], event.get("now")
    paced = {} if rate is None else {"send_rate": rate}
    if e == "rate_ask":
        pace = rate.ask(now)
        return {"a": "pace", "pace": pace.kind, **({} if pace.kind == "send" else {"ms": pace.ms})}
    if e == "rate_answer":
        rate.answer(now, event["answer"], event.get("hint_ms", 0))
        return {"a": "rate", "rate_milli": rate.rate_milli}
    if e == "snapshot":
        data = run.snapshot()
        return {"a": "snapshot", "bytes": data.hex()}, Run.restore(policy, data)
    if e == "restore":
        try:
            restored = Run.restore(policy, bytes.fromhex(event["bytes"]))
        except SnapshotError as err:
            return {"a": "error", "error": err.code}, run
        return {"a": "restored"}, restored
    try:
        if e == "start":
            a = run.start(now, **paced)
        elif e == "wake":
            a = run.wake(now, **paced)
        elif e == "resume":
            a = run.resume(now)
        elif e == "pause":
            a = run.pause(event["reason"], now)
        else:
            hint = {"retry_after": {"retry_after_ms": event.get("hint_ms")},
                    "rate_limit": {"rate_limit_ms": event.get("hint_ms")},
                    "do_not_retry": {"do_not_retry": True}, None: {}}[event.get("hint")]
            if rate is not None and "answer" in event:
                paced.update(answer=event["answer"], answer_hint_ms=event.get("hint_ms", 0))
            a = run.outcome("retryable" if e == "fail" else e, now, failure_kind=event.get("kind", "error"),
                            budget=budget, **hint, **paced)
    except RuntimeError as err:
        return {"a": "error", "error": str(err).split(":")[0]}
    if a.kind in ("attempt",):
        return {"a": a.kind, "attempt": a.attempt}
    if a.kind == "retry":
        return {"a": a.kind, "attempt": a.attempt, "delay_ms": a.delay_ms}
    if a.kind == "wait":
        return {"a": a.kind, "delay_ms": a.delay_ms}
    if a.kind == "paused":
        return {"a": a.kind, "max_ms": a.delay_ms}
    if a.kind == "done":
        return {"a": a.kind, "attempts": a.attempt}
    return {"a": a.kind, "attempts": a.attempt, "reason": a.reason}


def replay_run(doc):
    # SPEC.md §15: each event's answer, refused events included, and the budget at the end.
    checks = 0
    for case in doc["cases"]:
        budget = budget_of(case["budget"]) if "budget" in case else None
        policy = policy_of(case["policy"])
        run = Run(policy, int(case["seed"]), count_paused_time=case["count_paused"],
                  startup_window_ms=case.get("startup_window_ms", 0))
        for event, want in zip(case["events"], case["expect"], strict=True):
            got = run_answer(run, event, budget, policy)
            if isinstance(got, tuple):
                got, run = got
            assert got == want, (case["name"], event)
            checks += 1
        if budget is not None:
            assert budget.tokens_milli == case["expect_tokens_milli"], case["name"]
    return checks


def replay_run_send_rate(doc):
    # SPEC.md §15.2: runs behind a shared SendRate; each answer, the rate and the budget at the end.
    checks = 0
    for case in doc["cases"]:
        budget = budget_of(case["budget"]) if "budget" in case else None
        policy = policy_of(case["policy"])
        rate = SendRate(**case["send_rate"])
        run = Run(policy, int(case["seed"]), count_paused_time=case["count_paused"])
        for event, want in zip(case["events"], case["expect"], strict=True):
            got = run_answer(run, event, budget, policy, rate)
            if isinstance(got, tuple):
                got, run = got
            assert got == want, (case["name"], event)
            checks += 1
        assert rate.rate_milli == case["expect_rate_milli"], case["name"]
        if budget is not None:
            assert budget.tokens_milli == case["expect_tokens_milli"], case["name"]
    return checks


def replay_call_seed(doc):
    # SPEC.md §14: call_seed, a CallSeeds counter brought to the index (small ones), and the call's
    # first Google delays.
    checks = 0
    google = Policy("google")
    for case in doc["cases"]:
        seed, index, want = int(case["seed"]), int(case["index"]), int(case["expect"])
        assert call_seed(seed, index) == want, case
        if index < 100:
            seeds = CallSeeds(seed)
            assert [seeds.next_seed() for _ in range(index + 1)][-1] == want, case
        b = Backoff(google, seed=want)
        assert [b.next_delay() for _ in case["google_delays"]] == case["google_delays"], case
        checks += 1
    return checks


def replay_pacer(doc):
    checks = 0
    for case in doc["cases"]:
        c = case["config"]
        args = (c["capacity_per_s"],)
        kw = dict(reserve_per_mille=c["reserve_per_mille"], max_wait_s=c["max_wait_s"], seed=int(c["seed"]))
        if "error" in case:
            with pytest.raises(PacerError) as e:
                Pacer(*args, **kw)
            assert e.value.field == case["error"] and case["error"] in str(e.value)
            checks += 1
            continue
        pacer = Pacer(*args, **kw)
        for i, (op, want) in enumerate(zip(case["ops"], case["expect"], strict=True)):
            now = int(op[1:])
            if op[0] == "a":
                slot = pacer.assign(now_ms=now)
                assert [slot.retry_after_s, slot.reset_ms, int(slot.full)] == want, f"{c} op {i} {op}"
                # SPEC.md §16.4's text, formatted here from the expected numbers.
                assert slot.headers() == {"retry-after": str(want[0]),
                                          "ratelimit-reset": f"{want[1] // 1000}.{want[1] % 1000:03d}",
                                          "ratelimit": f'"pacer";r=0;t={want[0]}'}
            else:
                assert op[0] == "p", op
                assert pacer.pending(now_ms=now) == want, f"{c} op {i} {op}"
            checks += 1
    return checks


def replay_send_rate(doc):
    """SPEC.md §17: every event's pace or rate, and every bad configuration's field."""
    checks = 0
    for case in doc["cases"]:
        rate = SendRate(**{k: v for k, v in case["config"].items()})
        assert len(case["events"]) == len(case["expect"]), case["name"]
        for ev, want in zip(case["events"], case["expect"]):
            if ev["e"] == "ask":
                pace = rate.ask(ev["now"])
                got = {"pace": pace.kind} if pace.kind == "send" else {"pace": pace.kind, "ms": pace.ms}
            else:
                rate.answer(ev["now"], ev["e"], ev.get("hint_ms", 0))
                got = {"rate_milli": rate.rate_milli}
            assert got == want, (case["name"], ev)
            checks += 1
    for err in doc["errors"]:
        with pytest.raises(SendRateError) as info:
            SendRate(**err["config"])
        assert info.value.field == err["error"], err
        checks += 1
    return checks


REPLAY = {"pacer": replay_pacer, "call_seed": replay_call_seed, "run": replay_run,
          "run_send_rate": replay_run_send_rate, "schedule": replay_schedule, "retry_after": replay_retry_after, "budget": replay_budget,
          "classify": replay_classify, "fleet": replay_fleet, "rate_limit": replay_rate_limit,
          "resume": replay_resume, "send_rate": replay_send_rate}


# A kind the package does not export is named here; every other kind has a Python replay.
# The reconnect loop (SPEC.md §12.3) is the firmware's: only the core and the C library have it.
NOT_IN_PYTHON: set = {"reconnect"}


@pytest.mark.parametrize("path", FILES, ids=[os.path.relpath(p, VECTORS) for p in FILES])
def test_vector_file(path):
    doc = load(path)
    if doc["kind"] in NOT_IN_PYTHON:
        pytest.skip(f"{doc['kind']} is not in the Python package")
    assert REPLAY[doc["kind"]](doc) > 0


def test_a_wrong_vector_fails(tmp_path):
    """The replay can fail: one expected delay off by one is caught."""
    doc = load(os.path.join(VECTORS, "schedule-preset-google.json"))
    doc["cases"][0]["expect"][0] += 1
    with pytest.raises(AssertionError):
        replay_schedule(doc)


def test_a_wrong_rate_limit_vector_fails():
    """The rate-limit replay can fail too: an `l` op's delay or a parsed value off by one."""
    doc = load(os.path.join(VECTORS, "schedule-rate-limit.json"))
    case = doc["cases"][0]
    i = next(i for i, op in enumerate(case["ops"]) if op[0] == "l" and isinstance(case["expect"][i], int))
    case["expect"][i] += 1
    with pytest.raises(AssertionError):
        replay_schedule(doc)
    doc = load(os.path.join(VECTORS, "rate-limit.json"))
    doc["cases"] = [next(c for c in doc["cases"] if "expect_ms" in c)]
    doc["cases"][0]["expect_ms"] += 1
    with pytest.raises(AssertionError):
        replay_rate_limit(doc)
