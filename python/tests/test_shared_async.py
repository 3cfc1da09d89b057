"""retry() around an `async def` takes the asyncio shared parts (SPEC.md section 19) as it takes
local ones: asyncio tasks of two processes at once spend one budget's tokens, a send rate's
decisions land in the store, a store killed mid-run loses no call, and a plain function refuses
an asyncio part by name. Each test starts its own redis-server on 127.0.0.1 and is bounded by
asyncio.wait_for; counts, outcomes and stored words only (SPEC.md section 19.2's layout, read
here by hand)."""

import asyncio
import os
import sys

import pytest
import valkey
import valkey.asyncio

from seeded_backoff import Backoff, Policy, RetryError, Run, retry
from seeded_backoff._ffi import lib
from seeded_backoff.budget import RetryBudget
from seeded_backoff.send_rate import SendRate
from seeded_backoff.shared import AsyncSharedBudget, AsyncSharedSendRate, SharedBudget, SharedSendRate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integrations"))
from redis_server import redis_server  # noqa: E402

# A wide bound: a loaded machine must not make these runs decide alone, except where the store is
# killed (test_shared_faults.py keeps the 50 ms one).
WIDE = dict(bound_ms=5000)
FAST = dict(seed=3, initial_ms=1, max_backoff_ms=2, jitter_ms=0)


def no_sleep(_seconds):
    return asyncio.sleep(0)


def bounded(main, seconds=30):
    asyncio.run(asyncio.wait_for(main, seconds))


def quota():
    # 20 tokens, 5 per retry: four retries in the whole fleet.
    return RetryBudget.aws_quota(20, 5, 10, 1)


def test_tasks_of_two_processes_spend_one_budget():
    retries = []

    async def main(port):
        clients = [valkey.asyncio.Valkey(port=port) for _ in range(2)]
        # Each process: its own client, send rate and budget on the fleet's two keys. With both
        # shared, each retry's budget decision is made once, whatever the rate's conflicts.
        loops = []
        for c in clients:
            rate = AsyncSharedSendRate(c, "sb:rate:async-fleet", SendRate(), **WIDE)
            budget = AsyncSharedBudget(c, "sb:budget:async-fleet", quota(), **WIDE)

            @retry(budget=budget, send_rate=rate, max_retries=50, sleep=no_sleep, on_retry=retries.append, **FAST)
            async def down():
                raise ConnectionError("refused")
            loops.append((down, rate, budget))
        outcomes = await asyncio.gather(*(loops[i % 2][0]() for i in range(8)), return_exceptions=True)
        assert all(isinstance(o, RetryError) for o in outcomes), outcomes
        assert sorted(o.reason for o in outcomes) == ["budget"] * 8
        value = await clients[0].get("sb:budget:async-fleet")
        assert value[3] == 1 and int.from_bytes(value[8:12], "little") == 0
        for _, rate, budget in loops:
            assert rate.stats["alone"] == budget.stats["alone"] == 0
        for c in clients:
            await c.aclose()

    with redis_server() as server:
        bounded(main(server.port))
    assert len(retries) == 4


@pytest.mark.parametrize("shared", ["send_rate", "budget"])
def test_a_local_part_beside_an_asyncio_shared_one_counts_each_event_once(shared):
    # Two processes; one part shared, the other each process's own. A conflict on the shared key
    # makes the event again: the local part's change of the earlier try is undone, so each local
    # budget allows its four retries (or the one shared budget four in all).
    retries = []

    async def main(port):
        clients = [valkey.asyncio.Valkey(port=port) for _ in range(2)]
        loops = []
        for c in clients:
            rate = AsyncSharedSendRate(c, "sb:rate:mixed", SendRate(), **WIDE) if shared == "send_rate" else SendRate()
            budget = AsyncSharedBudget(c, "sb:budget:mixed", quota(), **WIDE) if shared == "budget" else quota()

            @retry(budget=budget, send_rate=rate, max_retries=50, sleep=no_sleep, on_retry=retries.append, **FAST)
            async def down():
                raise ConnectionError("refused")
            loops.append(down)
        outcomes = await asyncio.gather(*(loops[i % 2]() for i in range(8)), return_exceptions=True)
        assert sorted(o.reason for o in outcomes) == ["budget"] * 8
        for c in clients:
            await c.aclose()

    with redis_server() as server:
        bounded(main(server.port))
    assert len(retries) == (8 if shared == "send_rate" else 4)


class Response:
    def __init__(self, status):
        self.status_code, self.headers = status, {}


def test_a_shared_send_rate_decides_through_the_store():
    async def main(port):
        client = valkey.asyncio.Valkey(port=port)
        rate = AsyncSharedSendRate(client, "sb:rate:async-decisions", SendRate(min_rate_milli=1000), **WIDE)
        attempts, sleeps = [], []

        async def slept(seconds):
            sleeps.append(seconds)
            await asyncio.sleep(0)

        @retry(send_rate=rate, sleep=slept, max_retries=10, **FAST)
        async def call(i):
            attempts.append(i)
            # The first attempt is throttled: the rate goes on, and is shared from then on.
            return Response(429 if len(attempts) == 1 else 200)

        got = await asyncio.gather(*(call(i) for i in range(6)))
        assert [r.status_code for r in got] == [200] * 6
        # A decision per start, per outcome and per wake after a sleep: each through the store.
        assert rate.stats == {"decisions": 6 + len(attempts) + len(sleeps), "alone": 0, "conflicts": 0}
        value = await client.get("sb:rate:async-decisions")
        assert value == rate.stored_value()
        assert (value[:4], len(value)) == (b"sb\x01\x03", lib.SB_SEND_RATE_VALUE_SIZE)
        local = SendRate(min_rate_milli=1000)
        assert lib.sb_send_rate_decode(local._c, value, len(value)) == lib.SB_OK
        assert local.rate_milli == rate.rate_milli > 0
        await client.aclose()

    with redis_server() as server:
        bounded(main(server.port))


def test_a_killed_store_loses_no_call_and_the_parts_rejoin():
    async def main(server):
        client = valkey.asyncio.Valkey(port=server.port, socket_timeout=1, socket_connect_timeout=1)
        rate = AsyncSharedSendRate(client, "sb:rate:async-kill", SendRate())
        budget = AsyncSharedBudget(client, "sb:budget:async-kill", RetryBudget.aws_default())
        calls = []

        @retry(send_rate=rate, budget=budget, sleep=no_sleep, **FAST)
        async def call(i):
            calls.append(i)
            if len(calls) % 3 == 0:
                raise ConnectionError("one failure in three, retried")
            return i

        async def batch(start, stop):
            return await asyncio.gather(*(call(i) for i in range(start, stop)))

        got = await batch(0, 10)
        server.kill()
        got += await batch(10, 20)
        assert rate.link_state == budget.link_state == "local"
        server.start()
        i = 20
        while rate.link_state != "joined" or budget.link_state != "joined":
            got += await batch(i, i + 2)
            i += 2
            await asyncio.sleep(0.05)
        assert got == list(range(i))
        assert len(calls) == i + len([c for n, c in enumerate(calls, 1) if n % 3 == 0])
        assert await client.get("sb:rate:async-kill") == rate.stored_value()
        await client.aclose()

    with redis_server() as server:
        # Rejoining takes a second of the process's clock after the fall: 20 s is the bound.
        bounded(main(server), 20)


def test_an_asyncio_part_in_a_sync_loop_is_refused_by_name():
    client = valkey.asyncio.Valkey(port=1)
    budget = AsyncSharedBudget(client, "sb:budget:refused", quota())
    rate = AsyncSharedSendRate(client, "sb:rate:refused", SendRate())

    def plain():
        return 1

    with pytest.raises(TypeError, match=r"^budget is an AsyncSharedBudget.*SharedBudget"):
        retry(budget=budget)(plain)
    with pytest.raises(TypeError, match=r"^send_rate is an AsyncSharedSendRate.*SharedSendRate"):
        retry(send_rate=rate)(plain)
    run = Run(Policy("google"), seed=1)
    with pytest.raises(TypeError, match=r"^send_rate is an AsyncSharedSendRate"):
        run.start(0, send_rate=rate)
    assert run.start(0).kind == "attempt"  # the refusal changed nothing
    with pytest.raises(TypeError, match=r"^budget is an AsyncSharedBudget"):
        run.outcome("retryable", 1, budget=budget)
    with pytest.raises(TypeError, match=r"^budget is an AsyncSharedBudget"):
        Backoff(Policy("google"), seed=1).next_delay(budget=budget)
    # A sync send rate beside an asyncio budget: the budget's decision cannot be awaited within it.
    sync_rate = SharedSendRate(valkey.Valkey(port=1), "sb:rate:refused", SendRate())
    with pytest.raises(TypeError, match=r"^send_rate is a SharedSendRate and budget an AsyncSharedBudget"):
        retry(send_rate=sync_rate, budget=budget)


def test_an_async_def_still_takes_the_sync_shared_parts():
    async def main(port):
        client = valkey.Valkey(port=port)
        budget = SharedBudget(client, "sb:budget:sync-in-async", quota(), **WIDE)
        rate = SharedSendRate(client, "sb:rate:sync-in-async", SendRate(), **WIDE)

        @retry(budget=budget, send_rate=rate, max_retries=50, sleep=no_sleep, **FAST)
        async def down():
            raise ConnectionError("refused")

        with pytest.raises(RetryError) as gave_up:
            await down()
        assert (gave_up.value.attempts, gave_up.value.reason) == (5, "budget")
        assert int.from_bytes(client.get("sb:budget:sync-in-async")[8:12], "little") == 0

    with redis_server() as server:
        bounded(main(server.port))
