"""ReconnectBackoff(send_rate=) through paced_retry with the real valkey-py (pinned) against a real
redis-server on 127.0.0.1: every attempt of every command waits for the shared rate, the first
included, and the rate is told each answer (a reply, even an error reply, is accepted; a refused
connect is no answer). Expected values derived by hand from SPEC.md section 17 (send_rates.py,
and judging_rate below). Spacing: each PING leaves the client (valkey-py's send_command, timed) at or after its slot, from
the ms floor of the start (no slack below); the whole run ends within its slots plus 5 s (above)."""

import asyncio
import threading
import time

import pytest
import valkey
import valkey.asyncio
import valkey.asyncio.connection
import valkey.asyncio.retry
import valkey.connection
from valkey.retry import Retry

from redis_server import redis_server
from seeded_backoff import RetryError
from seeded_backoff.send_rate import SendRate
from seeded_backoff.valkey import ReconnectBackoff, paced_retry
from send_rates import assert_paced, fixed_rate, in_threads, refusing_rate


@pytest.fixture
def pings(monkeypatch):
    """The time.monotonic() at which each PING leaves a client, sync or asyncio."""
    leaves = []
    sync_send = valkey.connection.AbstractConnection.send_command
    async_send = valkey.asyncio.connection.AbstractConnection.send_command

    def timed(self, *args, **kwargs):
        if args and args[0] == "PING":
            leaves.append(time.monotonic())
        return sync_send(self, *args, **kwargs)

    async def timed_async(self, *args, **kwargs):
        if args and args[0] == "PING":
            leaves.append(time.monotonic())
        return await async_send(self, *args, **kwargs)

    monkeypatch.setattr(valkey.connection.AbstractConnection, "send_command", timed)
    monkeypatch.setattr(valkey.asyncio.connection.AbstractConnection, "send_command", timed_async)
    return leaves


def client(port, rate):
    retry = paced_retry(Retry(ReconnectBackoff(seed=1, send_rate=rate), -1))
    return valkey.Valkey(host="127.0.0.1", port=port, retry=retry, retry_on_error=[valkey.ConnectionError],
                         socket_connect_timeout=2, single_connection_client=True)


def test_clients_sharing_one_rate_send_spaced_by_its_interval(pings):
    rate = fixed_rate()
    with redis_server() as server:
        # A client a thread (its own connection serves one command at a time), made by its first
        # ping: its connect is an attempt too, paced in the same slots.
        mine, made = threading.local(), []

        def ping():
            if not hasattr(mine, "client"):
                mine.client = client(server.port, rate)
                made.append(mine.client)
            mine.client.ping()

        start, took = in_threads(ping)
        for c in made:
            c.close()
    assert_paced(start, took, pings, 100)


def test_asyncio_clients_sharing_one_rate_send_spaced_by_its_interval(pings):
    rate = fixed_rate(50_000)  # 20 ms apart

    async def main(port):
        clients = [valkey.asyncio.Valkey(
            host="127.0.0.1", port=port, single_connection_client=True, retry_on_error=[valkey.ConnectionError],
            retry=paced_retry(valkey.asyncio.retry.Retry(ReconnectBackoff(seed=i, send_rate=rate), -1)))
            for i in range(30)]
        start = time.monotonic()
        assert await asyncio.gather(*(c.ping() for c in clients)) == [True] * 30
        took = time.monotonic() - start
        for c in clients:
            await c.aclose()
        return start, took

    with redis_server() as server:
        start, took = asyncio.run(main(server.port))
    assert_paced(start, took, pings, 30, interval_ms=20)


def judging_rate():
    """On at 1000 (1 a second) with a burst of 3, whose next throttle shows what it was told. By
    hand (SPEC.md section 17): ask(0) sends and accepted(0) counts (1 of each over span 1 ms: both
    rates 10^6), so the throttle at 0 sets clamp(10^6 · 980 ÷ 1000, 1, 1000) = 1000, last_probe = 0.
    The attempts that follow (well after 1250 ms on time.monotonic) go at once (the burst lets 3
    go within 2 intervals; each ask's probe finds nothing sent in the window, and no answer comes
    500 ms after one). A throttle within the second after them: current = 1000; with 2 accepted in
    the window over a span of 1000..1249 ms, accepted_rate ≥ 2 · 10^6 ÷ 1249 = 1601, base =
    max(min(1000, 1601+), 500) = 1000, rate 980; with none accepted, base = 500, rate 490."""
    rate = SendRate(max_rate_milli=1000, burst=3)
    assert rate.ask(0).kind == "send"
    rate.answer(0, "accepted")
    rate.answer(0, "throttled")
    assert rate.rate_milli == 1000
    return rate


def test_a_reply_even_an_error_reply_is_accepted():
    rate = judging_rate()
    with redis_server() as server:
        c = client(server.port, rate)  # connecting is an attempt: accepted
        with pytest.raises(valkey.ResponseError):
            c.execute_command("NO-SUCH-COMMAND")  # an error reply: accepted too
        c.close()
    rate.answer(None, "throttled")
    assert rate.rate_milli == 980


def test_a_refused_connection_is_no_answer():
    with redis_server() as server:
        port = server.port
    rate = judging_rate()
    # Nothing listens: the connect is refused (valkey-py raises it at once: it retries only its own
    # ConnectionError, which it makes of the refusal after the loop).
    with pytest.raises(valkey.ConnectionError, match="refused"):
        client(port, rate)
    rate.answer(None, "throttled")
    assert rate.rate_milli == 490


def test_a_fail_fast_rate_refuses_before_sending(pings):
    with redis_server() as server:
        with pytest.raises(RetryError) as e:
            client(server.port, refusing_rate())
    assert (e.value.attempts, e.value.reason, e.value.cause, pings) == (0, "throttled", None, [])


def test_the_librarys_own_retry_over_a_paced_backoff_names_paced_retry():
    with redis_server() as server:
        with pytest.raises(TypeError, match="paced_retry"):
            valkey.Valkey(host="127.0.0.1", port=server.port, single_connection_client=True,
                          retry=Retry(ReconnectBackoff(send_rate=SendRate()), -1))
    with pytest.raises(TypeError, match="paced_retry takes a Retry over a ReconnectBackoff with a send_rate"):
        paced_retry(Retry(ReconnectBackoff(), -1))
    with pytest.raises(TypeError, match="^send_rate must be a SendRate, got 'fast' \\(str\\)"):
        ReconnectBackoff(send_rate="fast")
