"""seeded_backoff.valkey with the real valkey-py (pinned) against a real redis-server on 127.0.0.1:
50 clients connected, the server killed and restarted 3 s later; every client's next command
reconnects through `Retry(ReconnectBackoff(seed=...), -1)`. Each client's waits are the independent
model's for its seed, given the resets and steps valkey-py asked for; the reconnects' spread is
reported against the library's own backoff (valkey.backoff.default_backoff(): equal jitter from
8 ms, capped at 512 ms) on the same outage."""

import collections
import threading
import time

import pytest
import spec_model as m
import valkey
from valkey.backoff import default_backoff
from valkey.retry import Retry

from redis_server import redis_server
from seeded_backoff import Policy
from seeded_backoff.valkey import ReconnectBackoff

CLIENTS = 50
DOWN_S = 3.0
SEED0 = 7000


class Logged(ReconnectBackoff):
    """Records what valkey-py asks of the backoff: each step's `failures` and delay, in order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.log = []

    def compute(self, failures):
        seconds = super().compute(failures)
        self.log.append((failures, round(seconds * 1000)))
        return seconds


def outage(make_retry):
    """Connects CLIENTS clients, kills the server, restarts it DOWN_S later; each client then sends a
    PING, which reconnects. Returns (each client's seconds from the restart to its PING's success,
    the clients' Retry objects as valkey-py holds them)."""
    done = [None] * CLIENTS
    with redis_server() as server:
        clients = [valkey.Valkey(host="127.0.0.1", port=server.port, retry=make_retry(i),
                                 retry_on_error=[valkey.ConnectionError], socket_connect_timeout=2,
                                 single_connection_client=True)
                   for i in range(CLIENTS)]
        for c in clients:
            assert c.ping()
        server.kill()
        killed = time.monotonic()

        def reconnect(i):
            clients[i].ping()
            done[i] = time.monotonic()

        threads = [threading.Thread(target=reconnect, args=(i,), daemon=True) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        time.sleep(max(0.0, killed + DOWN_S - time.monotonic()))
        server.start()
        restarted = time.monotonic()
        for t in threads:
            t.join(timeout=60)
        # Each client's own connection's Retry (a deep copy of the one given) reconnected it.
        held = [c.connection.retry for c in clients]
        for c in clients:
            c.close()
    assert all(d is not None for d in done), f"{done.count(None)} clients did not reconnect"
    return [d - restarted for d in done], held


def busiest_bin(seconds):
    """The most reconnects in one 100 ms bin."""
    return max(collections.Counter(int(s * 10) for s in seconds).values())


def model_log(seed, log):
    """The model's delays for the same steps: a new run at each operation's first failure, the
    connection's k-th run seeded `call_seed(seed, k)` (SPEC.md section 14)."""
    runs = 0
    out = []
    for failures, _ in log:
        if failures == 1:
            b = m.Backoff(m.preset("google"), m.call_seed(seed, runs))
            runs += 1
        step = b.next()
        out.append((failures, step.delay_ms if isinstance(step, m.Retry) else step.reason))
    return out


def test_fifty_clients_reconnect_on_the_models_schedule_and_spread_out(capsys):
    ours, held = outage(lambda i: Retry(Logged(Policy("google"), seed=SEED0 + i), -1))
    for i, retry in enumerate(held):
        log = retry._backoff.log
        assert log, f"client {i} reconnected without waiting"
        assert log == model_log(SEED0 + i, log), f"client {i}"
        # The outage outlasts Google's first delay (1-2 s): every client waited at least twice, the
        # second wait from the doubled level (2-3 s).
        assert [f for f, _ in log[:2]] == [1, 2] and log[1][1] >= 2000, f"client {i}: {log}"
    lib, _ = outage(lambda i: Retry(default_backoff(), -1))
    with capsys.disabled():
        print(f"\nvalkey-py, {CLIENTS} clients, server down {DOWN_S:.0f} s: busiest 100 ms bin of "
              f"reconnects {busiest_bin(ours)} with ReconnectBackoff (Google's policy), "
              f"{busiest_bin(lib)} with the library's default_backoff(); last reconnect "
              f"{max(ours):.2f} s / {max(lib):.2f} s after the restart")
    # Google's first delays are 1-2 s, then 2-3 s: the clients cannot all come back in one bin.
    assert busiest_bin(ours) < CLIENTS // 2


def test_compute_raises_when_the_policy_gives_up():
    b = ReconnectBackoff(Policy("google", max_retries=2), seed=1)
    b.compute(1), b.compute(2)
    try:
        b.compute(3)
    except Exception as e:  # noqa: BLE001
        assert type(e).__name__ == "RetryError" and e.reason == "max_retries"
    else:
        raise AssertionError("a third retry was allowed")


def test_bad_arguments_name_the_argument():
    for kwargs, error, name in [(dict(policy="google"), TypeError, "policy"), (dict(seed=-1), ValueError, "seed"),
                                (dict(on_retry=1), TypeError, "on_retry")]:
        with pytest.raises(error, match=name):
            ReconnectBackoff(**kwargs)
    b = ReconnectBackoff(seed=1)
    with pytest.raises(TypeError, match="failures"):
        b.compute("1")
    with pytest.raises(ValueError, match="failures"):
        b.compute(-1)
    # A refused call changes nothing: the schedule is still the model's from its start.
    assert round(b.compute(1) * 1000) == m.Backoff(m.preset("google"), 1).next().delay_ms
