"""RetryBudget shared across threads and asyncio tasks (SPEC.md section 10): concurrent spends
grant exactly the tokens there are, no update is lost, every refund is applied once, and a reader
never sees the tokens below 0 or above the bucket."""

import asyncio
import threading

from seeded_backoff.budget import RetryBudget

THREADS = 8
CAPACITY_MILLI = 1_000_000


def budget():
    # 1000 tokens; a retry costs 5, a timeout 10; a successful retry refunds its cost.
    return RetryBudget.aws_quota(1000, 5, 10, 1)


def run_threads(target, n=THREADS):
    start = threading.Barrier(n)

    def go():
        start.wait()
        target()

    threads = [threading.Thread(target=go) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive()


def test_threads_spend_exactly_the_tokens_there_are():
    for _ in range(5):
        b = budget()
        granted = []

        def spend():
            n = 0
            while b.try_acquire("error"):
                n += 1
            granted.append(n)

        run_threads(spend)
        # 1_000_000 / 5_000: 200 grants in all, none from a stale read, none lost.
        assert sum(granted) == 200
        assert b.tokens_milli == 0


def test_threads_refund_once_each_and_never_overflow():
    b = budget()
    while b.try_acquire("error"):
        pass
    seen = []
    done = threading.Event()

    def watch():
        while not done.is_set():
            seen.append(b.tokens_milli)

    watcher = threading.Thread(target=watch)
    watcher.start()
    run_threads(lambda: [b.record_success(True, "error") for _ in range(25)])
    done.set()
    watcher.join(timeout=60)
    assert b.tokens_milli == CAPACITY_MILLI  # 8 x 25 x 5 tokens
    assert all(0 <= t <= CAPACITY_MILLI for t in seen)
    run_threads(lambda: [b.record_success(False) for _ in range(100)])
    assert b.tokens_milli == CAPACITY_MILLI


def test_threads_spend_and_refund_in_pairs_end_where_they_started():
    b = budget()
    low = []

    def pairs():
        for _ in range(500):
            if b.try_acquire("timeout"):
                low.append(b.tokens_milli)
                b.record_success(True, "timeout")

    run_threads(pairs)
    assert b.tokens_milli == CAPACITY_MILLI
    assert all(0 <= t <= CAPACITY_MILLI for t in low)


def test_asyncio_tasks_share_one_budget():
    b = budget()

    async def spender():
        n = 0
        while b.try_acquire("error"):
            n += 1
            await asyncio.sleep(0)  # let the other tasks interleave between operations
        return n

    async def refunder(k):
        for _ in range(k):
            b.record_success(True, "error")
            await asyncio.sleep(0)

    async def main():
        grants = await asyncio.gather(*(spender() for _ in range(THREADS)))
        assert sum(grants) == 200 and b.tokens_milli == 0
        await asyncio.gather(*(refunder(25) for _ in range(THREADS)))
        assert b.tokens_milli == CAPACITY_MILLI
        # Tasks whose operations run on worker threads (asyncio.to_thread): the same totals.
        while b.try_acquire("error"):
            pass
        await asyncio.gather(*(asyncio.to_thread(lambda: [b.record_success(True, "error") for _ in range(25)])
                               for _ in range(THREADS)))
        assert b.tokens_milli == CAPACITY_MILLI

    asyncio.run(main())
