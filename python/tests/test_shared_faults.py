"""Shared parts when the store fails (SPEC.md sections 19.5 and 19.6): redis-server killed during
a run and started again. Every decision answers within ten times the bound, the process decides
from its own state meanwhile (the answers a local part given the same events gives: never more
than its own state allows), it rejoins at its first decision a second after its fall, publishing
its own state to the empty store (no reset, no burst), and a flush under a joined process is a
cold start. Counts, answers and states only; the one time asserted is the 10x bound."""

import os
import sys
import time

import valkey

from seeded_backoff import retry
from seeded_backoff.budget import RetryBudget
from seeded_backoff.send_rate import SendRate
from seeded_backoff._ffi import ffi, lib
from seeded_backoff.shared import STORE_BOUND_MS, SharedBudget, SharedSendRate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integrations"))
from redis_server import redis_server  # noqa: E402

LIMIT_S = 10 * STORE_BOUND_MS / 1000
CONFIG = dict(min_rate_milli=1000, max_rate_milli=100_000, burst=1)


def timed(f, *args):
    t0 = time.monotonic()
    out = f(*args)
    assert time.monotonic() - t0 < LIMIT_S, f"{f.__name__} waited past ten times the bound"
    return out


def value_of(rate):
    out = ffi.new(f"uint8_t[{lib.SB_SEND_RATE_VALUE_SIZE}]")
    assert lib.sb_send_rate_encode(rate._c, out) == lib.SB_OK
    return bytes(out)


def test_a_killed_store_leaves_each_decision_to_the_process_then_it_rejoins():
    with redis_server() as server:
        clock = [0]
        client = valkey.Valkey(port=server.port, socket_timeout=1, socket_connect_timeout=1)
        rate = SharedSendRate(client, "sb:send-rate:faults", SendRate(**CONFIG), store_clock=False,
                              clock=lambda: clock[0])
        budget = SharedBudget(client, "sb:budget:faults", RetryBudget.aws_quota(50, 5, 10, 1), clock=lambda: clock[0])
        ref, ref_budget = SendRate(**CONFIG), RetryBudget.aws_quota(50, 5, 10, 1)

        def step(t):
            # The same events to the shared part and to a local one: the same answers.
            clock[0] = t
            if t % 50 == 0:
                timed(rate.answer, t, "throttled", 0)
                ref.answer(t, "throttled", 0)
            got = timed(rate.ask, t)
            assert got == ref.ask(t), t
            assert timed(budget.try_acquire) == ref_budget.try_acquire(), t
            return got.kind

        sends = [step(t) for t in range(0, 300, 10)]
        assert rate.link_state == budget.link_state == "joined"
        assert client.get("sb:send-rate:faults") == value_of(ref)

        server.kill()
        sends += [step(t) for t in range(300, 600, 10)]
        assert rate.link_state == budget.link_state == "local"
        assert rate.stats["alone"] >= 30 and budget.stats["alone"] >= 30
        server.start()
        # Still local until REJOIN_MS (200 ms) after its last ask of the dead store, at 500, on
        # the process's clock.
        sends += [step(t) for t in range(600, 700, 10)]
        assert rate.link_state == "local"
        sends += [step(t) for t in range(700, 900, 10)]
        assert rate.link_state == budget.link_state == "joined"
        # The empty store got the process's own state: nothing reset.
        assert client.get("sb:send-rate:faults") == value_of(ref)
        assert "send" in sends and "wait" in sends

        # A flush under a joined process is a cold start: a send rate that is off, a full budget.
        client.flushall()
        ref, ref_budget = SendRate(**CONFIG), RetryBudget.aws_quota(50, 5, 10, 1)
        assert [step(t) for t in range(1510, 1550, 10)] == ["send"] * 4
        assert budget.tokens_milli == ref_budget.tokens_milli
        assert client.get("sb:send-rate:faults") == value_of(ref)


def test_asyncio_parts_decide_alone_at_once_then_rejoin():
    import asyncio
    import valkey.asyncio
    from seeded_backoff.shared import AsyncSharedBudget, AsyncSharedSendRate

    async def timed_async(coro):
        t0 = time.monotonic()
        out = await coro
        assert time.monotonic() - t0 < LIMIT_S, "a decision waited past ten times the bound"
        return out

    async def main(server):
        clock = [0]
        client = valkey.asyncio.Valkey(port=server.port, socket_timeout=1, socket_connect_timeout=1)
        rate = AsyncSharedSendRate(client, "sb:send-rate:async", SendRate(**CONFIG), store_clock=False,
                                   clock=lambda: clock[0])
        budget = AsyncSharedBudget(client, "sb:budget:async", RetryBudget.aws_quota(50, 5, 10, 1), clock=lambda: clock[0])
        ref, ref_budget = SendRate(**CONFIG), RetryBudget.aws_quota(50, 5, 10, 1)

        async def steps(start, stop):
            for t in range(start, stop, 10):
                clock[0] = t
                if t % 50 == 0:
                    await timed_async(rate.answer(t, "throttled"))
                    ref.answer(t, "throttled")
                assert await timed_async(rate.ask(t)) == ref.ask(t), t
                assert await timed_async(budget.try_acquire()) == ref_budget.try_acquire(), t

        await steps(0, 200)
        assert rate.link_state == budget.link_state == "joined"
        server.kill()
        await steps(200, 400)
        assert rate.link_state == budget.link_state == "local"
        server.start()
        await steps(1200, 1300)
        assert rate.link_state == budget.link_state == "joined"
        assert await client.get("sb:send-rate:async") == value_of(ref)
        await client.aclose()

    with redis_server() as server:
        asyncio.run(main(server))


def test_retry_loses_no_call_while_the_store_dies_and_comes_back():
    with redis_server() as server:
        client = valkey.Valkey(port=server.port, socket_timeout=1, socket_connect_timeout=1)
        rate = SharedSendRate(client, "sb:send-rate:loop", SendRate())
        budget = SharedBudget(client, "sb:budget:loop", RetryBudget.aws_default())
        calls = []

        @retry(send_rate=rate, budget=budget, seed=7, initial_ms=1, max_backoff_ms=2, jitter_ms=0)
        def call(i):
            calls.append(i)
            if len(calls) % 3 == 0:
                raise ConnectionError("one failure in three, retried")
            return i

        got = [timed(call, i) for i in range(10)]
        server.kill()
        got += [timed(call, i) for i in range(10, 20)]
        assert rate.link_state == "local"
        server.start()
        deadline = time.monotonic() + 5
        i = 20
        while rate.link_state != "joined" or budget.link_state != "joined":
            assert time.monotonic() < deadline, "did not rejoin within 5 s of the restart"
            got.append(timed(call, i))
            i += 1
            time.sleep(0.05)
        assert got == list(range(i))
        assert len(calls) == i + len([c for n, c in enumerate(calls, 1) if n % 3 == 0])


def test_the_readme_fleet_runs_as_pasted():
    # python/README.md's fleet blocks (sync, then asyncio), their store on this test's redis-server.
    import subprocess
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    text = open(readme, encoding="utf-8").read()
    blocks = [b for b in (part.split("```", 1)[0] for part in text.split("```python\n")[1:])
              if "seeded_backoff.shared" in b]
    assert len(blocks) == 2
    with redis_server() as server:
        for block in blocks:
            program = block.replace("port=6379", f"port={server.port}")
            out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
            assert (out.returncode, out.stdout) == (0, "ok joined\n"), out.stderr


def test_one_late_reply_costs_its_decision_two_in_a_row_make_the_process_local():
    # SPEC.md section 19.5: a store that answers past the bound (paused here with CLIENT PAUSE)
    # costs a decision made alone; the process stays joined after one, and is local after
    # LATE_LIMIT in a row, until it rejoins a second later on its clock.
    from seeded_backoff.shared import LATE_LIMIT
    with redis_server() as server:
        clock = [0]
        client = valkey.Valkey(port=server.port, socket_timeout=2)
        other = valkey.Valkey(port=server.port)
        rate = SharedSendRate(client, "sb:send-rate:late", SendRate(), store_clock=False, clock=lambda: clock[0])
        timed(rate.ask, 0)
        assert rate.link_state == "joined"
        other.execute_command("CLIENT", "PAUSE", 400)
        states = []
        for i in range(LATE_LIMIT):
            timed(rate.ask, 10 + i)
            states.append(rate.link_state)
        assert states == ["joined"] * (LATE_LIMIT - 1) + ["local"]
        assert rate.stats["alone"] == LATE_LIMIT
        assert other.ping()  # answered once the pause is over
        clock[0] = 1100
        timed(rate.ask, 1100)
        assert rate.link_state == "joined"
