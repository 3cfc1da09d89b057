"""Shared parts through a real redis-server on 127.0.0.1 (SPEC.md section 19): the vectors of
sections 10, 15.2, 16 and 17 replayed through the store by two clients taking turns on one key
give the vectors' answers bit for bit; clients at once on one key behave as one part; the asyncio
parts replay the same. Expected values are the vectors' (the independent model's)."""

import asyncio
import collections
import json
import os
import sys
import threading

import pytest
import valkey
import valkey.asyncio

from conftest import VECTORS
from test_vectors import budget_of, policy_of, run_answer
from seeded_backoff import Run
from seeded_backoff._ffi import ffi, lib
from seeded_backoff.pacer import Pacer
from seeded_backoff.send_rate import SendRate
from seeded_backoff.shared import (AsyncSharedBudget, AsyncSharedPacer, AsyncSharedSendRate, SharedBudget,
                                   SharedPacer, SharedSendRate)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integrations"))
from redis_server import redis_server  # noqa: E402 (the integrations' redis-server, started per test module)


def cases(name):
    with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="module")
def server():
    with redis_server() as s:
        yield s


# A wide bound: a loaded machine must not make these replays decide alone (the faults' tests
# keep the 50 ms one).
def clients(server, n=2):
    return [valkey.Valkey(port=server.port, socket_timeout=1) for _ in range(n)]


def budget_op(budget, op):
    names = {"e": "error", "t": "timeout"}
    if op[0] == "f":
        budget.record_failure(names[op[1]])
    elif op[0] == "a":
        return int(budget.try_acquire(names[op[1]]))
    elif op == "s":
        budget.record_success()
    else:
        budget.record_success(retried=True, kind=names[op[1]])
    return 1


def test_budget_vectors_through_the_store(server):
    a, b = clients(server)
    for n, case in enumerate(cases("budget.json")):
        parts = [SharedBudget(c, f"py-budget-{n}", budget_of(case["budget"]), bound_ms=5000) for c in (a, b)]
        for i, (op, want) in enumerate(zip(case["ops"], case["expect"], strict=True)):
            part = parts[i % 2]
            assert [budget_op(part, op), part.tokens_milli] == want, (n, i, op)
        assert all(p.link_state == "joined" and p.stats["alone"] == 0 for p in parts)


def test_pacer_vectors_through_the_store(server):
    a, b = clients(server)
    for n, case in enumerate(c for c in cases("pacer.json") if "error" not in c):
        c = case["config"]
        pacer = lambda: Pacer(c["capacity_per_s"], c["reserve_per_mille"], c["max_wait_s"], seed=int(c["seed"]))
        parts = [SharedPacer(cl, f"py-pacer-{n}", pacer(), store_clock=False, bound_ms=5000) for cl in (a, b)]
        for i, (op, want) in enumerate(zip(case["ops"], case["expect"], strict=True)):
            part, now = parts[i % 2], int(op[1:])
            if op[0] == "a":
                slot = part.assign(now)
                assert [slot.retry_after_s, slot.reset_ms, int(slot.full)] == want, (n, i, op)
            else:
                assert part.pending(now) == want, (n, i, op)
        assert all(p.stats["alone"] == 0 for p in parts)


def test_send_rate_vectors_through_the_store(server):
    a, b = clients(server)
    for n, case in enumerate(cases("send-rate.json")):
        parts = [SharedSendRate(cl, f"py-rate-{n}", SendRate(**case["config"]), store_clock=False, bound_ms=5000) for cl in (a, b)]
        for i, (ev, want) in enumerate(zip(case["events"], case["expect"], strict=True)):
            part = parts[i % 2]
            if ev["e"] == "ask":
                pace = part.ask(ev["now"])
                got = {"pace": pace.kind} if pace.kind == "send" else {"pace": pace.kind, "ms": pace.ms}
            else:
                part.answer(ev["now"], ev["e"], ev.get("hint_ms", 0))
                got = {"rate_milli": part.rate_milli}
            assert got == want, (case["name"], i, ev)
        assert all(p.stats["alone"] == 0 for p in parts)


def test_paced_runs_through_the_store(server):
    # SPEC.md section 15.2's runs with the send rate and the budget shared, the run's events
    # taking turns between two clients: the run's answers, the rate and the budget are the vectors'.
    a, b = clients(server)
    for n, case in enumerate(cases("run-send-rate.json")):
        policy = policy_of(case["policy"])
        rates = [SharedSendRate(c, f"py-run-rate-{n}", SendRate(**case["send_rate"]), store_clock=False, bound_ms=5000) for c in (a, b)]
        budgets = ([SharedBudget(c, f"py-run-budget-{n}", budget_of(case["budget"]), bound_ms=5000) for c in (a, b)]
                   if "budget" in case else [None, None])
        run = Run(policy, int(case["seed"]), count_paused_time=case["count_paused"])
        for i, (event, want) in enumerate(zip(case["events"], case["expect"], strict=True)):
            got = run_answer(run, event, budgets[i % 2], policy, rates[i % 2])
            if isinstance(got, tuple):
                got, run = got
            assert got == want, (case["name"], event)
        assert stored(a, f"py-run-rate-{n}", SendRate(**case["send_rate"])).rate_milli == case["expect_rate_milli"]
        if "budget" in case:
            tokens = stored(a, f"py-run-budget-{n}", budget_of(case["budget"])).tokens_milli
            assert tokens == case["expect_tokens_milli"], case["name"]


def test_next_delay_takes_a_shared_budget_as_a_local_one(server):
    # Backoff.next_delay(budget=...) on a budget two clients share gives what one local budget
    # given the same steps gives: the delays, the give-up when it runs dry, and the tokens.
    from seeded_backoff import Backoff, Policy
    a, b = clients(server)
    config = {"kind": "grpc", "max_tokens": 4, "token_ratio_milli": 100}
    parts = [SharedBudget(c, "py-backoff-budget", budget_of(config), bound_ms=5000) for c in (a, b)]
    local = budget_of(config)
    mine, theirs = Backoff(Policy("google"), seed=3), Backoff(Policy("google"), seed=3)
    for i in range(6):
        assert mine.next_delay(budget=parts[i % 2]) == theirs.next_delay(budget=local), i
        assert parts[i % 2].tokens_milli == local.tokens_milli, i
    assert parts[0].stats["alone"] == parts[1].stats["alone"] == 0


def stored(client, key, part):
    """`part` (a local one of the key's configuration) holding the state the store holds."""
    value = client.get(key)
    ctype = {"RetryBudget": "budget", "SendRate": "send_rate", "Pacer": "pacer"}[type(part).__name__]
    assert getattr(lib, f"sb_{ctype}_decode")(part._c, value, len(value)) == lib.SB_OK
    return part


def encoded(ctype, c):
    size = getattr(lib, f"SB_{ctype.upper()}_VALUE_SIZE")
    out = ffi.new("uint8_t[]", size)
    assert getattr(lib, f"sb_{ctype}_encode")(c, out) == lib.SB_OK
    return bytes(ffi.buffer(out, size))


def at_once(parts, calls, decide):
    """`decide(part)` `calls` times on each part, one thread per part, all at once: the answers of
    the decisions made through the store, and how many were made alone (after MAX_TRIES
    conflicts: rare, and a later decision of that process may carry it into the store, SPEC.md
    section 19.4, so the exact counts below hold when there was none)."""
    stored, alone = [], [0]

    def work(part):
        for _ in range(calls):
            before = part.stats["alone"]
            out = decide(part)
            if part.stats["alone"] == before:
                stored.append(out)
            else:
                alone[0] += 1
    threads = [threading.Thread(target=work, args=(p,)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert alone[0] <= len(parts) * calls // 10, f"{alone[0]} decisions alone"
    return stored, alone[0]


def test_clients_at_once_behave_as_one(server):
    cs = clients(server, 4)
    # A budget: 500 tokens, a retry costs 5: 100 acquires in the fleet, whoever asks.
    config = {"kind": "aws_quota", "capacity": 500, "retry_cost": 5, "timeout_cost": 10, "no_retry_increment": 1}
    budgets = [SharedBudget(c, "py-once-budget", budget_of(config), bound_ms=5000) for c in cs]
    allowed, alone = at_once(budgets, 40, lambda b: b.try_acquire())
    assert 100 - alone <= sum(allowed) <= 100
    # A pacer: the slots the store gave at one instant are one pacer's first slots.
    pacers = [SharedPacer(c, "py-once-pacer", Pacer(100, 0, 60, seed=7), store_clock=False, bound_ms=5000) for c in cs]
    slots, alone = at_once(pacers, 30, lambda p: (lambda s: (s.retry_after_s, s.reset_ms))(p.assign(0)))
    local = Pacer(100, 0, 60, seed=7)
    one = sorted((s.retry_after_s, s.reset_ms) for s in (local.assign(0) for _ in range(len(slots) + alone)))
    if alone == 0:
        assert sorted(slots) == one
    else:
        assert not collections.Counter(slots) - collections.Counter(one)
    # A send rate: each stored answer counted once, as one SendRate told them all.
    rates = [SharedSendRate(c, "py-once-rate", SendRate(), store_clock=False, bound_ms=5000) for c in cs]
    told, alone = at_once(rates, 40, lambda r: r.answer(10, "accepted"))
    one = SendRate()
    for _ in told:
        one.answer(10, "accepted")
    if alone == 0:
        assert cs[0].get("py-once-rate") == encoded("send_rate", one._c)


def test_a_process_decisions_go_to_the_store_one_at_a_time(server):
    # Threads of one process on one part take turns at the store: none conflicts with another.
    (client,) = clients(server, 1)
    budget = SharedBudget(client, "py-turns", budget_of({"kind": "aws_quota", "capacity": 50, "retry_cost": 5,
                                                         "timeout_cost": 10, "no_retry_increment": 1}), bound_ms=5000)
    allowed = []
    threads = [threading.Thread(target=lambda: allowed.append(budget.try_acquire())) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert (sum(allowed), len(allowed)) == (10, 20)
    assert (budget.stats["conflicts"], budget.stats["alone"]) == (0, 0)


def test_bad_arguments_are_refused_by_name(server):
    (client,) = clients(server, 1)
    for args, message in (((object(), "k", SendRate()), "client must be"),
                          ((client, "", SendRate()), "key must be"),
                          ((client, "k", budget_of({"kind": "grpc", "max_tokens": 2, "token_ratio_milli": 1})),
                           "send_rate must be a SendRate"),
                          ((valkey.Valkey(port=server.port, decode_responses=True), "k", SendRate()),
                           "decode_responses=False")):
        with pytest.raises(TypeError, match=message):
            SharedSendRate(*args)
    with pytest.raises(ValueError, match="bound_ms"):
        SharedSendRate(client, "k", SendRate(), bound_ms=0)


def test_asyncio_parts_replay_the_vectors(server):
    async def main():
        a, b = (valkey.asyncio.Valkey(port=server.port) for _ in range(2))
        for n, case in enumerate(cases("budget.json")):
            parts = [AsyncSharedBudget(c, f"py-abudget-{n}", budget_of(case["budget"]), bound_ms=5000) for c in (a, b)]
            names = {"e": "error", "t": "timeout"}
            for i, (op, want) in enumerate(zip(case["ops"], case["expect"], strict=True)):
                part, ok = parts[i % 2], 1
                if op[0] == "f":
                    await part.record_failure(names[op[1]])
                elif op[0] == "a":
                    ok = int(await part.try_acquire(names[op[1]]))
                elif op == "s":
                    await part.record_success()
                else:
                    await part.record_success(retried=True, kind=names[op[1]])
                assert [ok, part.tokens_milli] == want, (n, i, op)
        case = cases("send-rate.json")[0]
        parts = [AsyncSharedSendRate(c, "py-arate", SendRate(**case["config"]), store_clock=False, bound_ms=5000) for c in (a, b)]
        for i, (ev, want) in enumerate(zip(case["events"], case["expect"], strict=True)):
            if ev["e"] == "ask":
                pace = await parts[i % 2].ask(ev["now"])
                got = {"pace": pace.kind} if pace.kind == "send" else {"pace": pace.kind, "ms": pace.ms}
            else:
                await parts[i % 2].answer(ev["now"], ev["e"], ev.get("hint_ms", 0))
                got = {"rate_milli": parts[i % 2].rate_milli}
            assert got == want, (case["name"], i)
        pacers = [AsyncSharedPacer(c, "py-apacer", Pacer(10, 0, 60, seed=3), store_clock=False, bound_ms=5000) for c in (a, b)]
        got = [(await pacers[i % 2].assign(0)).retry_after_s for i in range(25)]
        local = Pacer(10, 0, 60, seed=3)
        assert got == [local.assign(0).retry_after_s for _ in range(25)]
        await a.aclose()
        await b.aclose()
    asyncio.run(main())
