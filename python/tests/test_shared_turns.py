"""Python, Node and Rust processes take turns on one fleet's keys (SPEC.md section 19): each turn,
one process (this one, `node wasm/test/google-cloud/shared_turn.mjs`, or the Rust example
core/examples/shared_turn.rs) asks and answers the send rate, acquires from the budget and takes a
pacer slot, each decided on the value the previous process wrote. So every answer and state a
process prints is the one a single part given all the turns so far gives, which the independent
models say (tests/model: send_rate_model, pacer_model; the budget's AWS quota by hand: 500 tokens,
5 per acquire). Every process decides at the readings given (one virtual clock).

The Rust example is built once here (scripts/test.d/70-python.sh builds it before pytest, so this
build finds it done); the test skips only without cargo, node or the built npm package."""

import json
import os
import shutil
import subprocess
import sys

import pytest
import valkey

from conftest import REPO
from seeded_backoff.budget import RetryBudget
from seeded_backoff.pacer import Pacer
from seeded_backoff.send_rate import SendRate
from seeded_backoff.shared import SharedBudget, SharedPacer, SharedSendRate

import pacer_model  # tests/model, on the path by conftest
import send_rate_model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integrations"))
from redis_server import redis_server  # noqa: E402

NODE_TURN = os.path.join(REPO, "wasm", "test", "google-cloud", "shared_turn.mjs")
NODE_DEPS = os.path.join(REPO, "wasm", "test", "google-cloud", "node_modules", "iovalkey")
BUILT_PACKAGE = os.path.join(REPO, "wasm", "dist", "shared.js")
# SendRateConfig::DEFAULT (SPEC.md section 17.1) with a floor of one request a second.
RATE_CONFIG = dict(min_rate_milli=1000, max_rate_milli=10**9, margin_permille=20, probe_ms=500,
                   probe_first_permille=10, probe_max_permille=250, guard_ms=0, burst=2, max_hold_ms=60_000,
                   fail_fast=False)
# Nine turns, 100 ms apart: Python, Node, Rust, three times; two of them throttled. The rate
# (about 4.9 a second after the first throttle, burst 2) makes turns 3, 5 and 7 wait: one per process.
TURNS = [(t * 100, "throttled" if t in (0, 5) else "accepted") for t in range(9)]
PROCESSES = ("python", "node", "rust")


def rust_turn_binary():
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed: the Rust process of this test cannot be built")
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "seeded-backoff", "--features", "valkey",
                    "--example", "shared_turn"], cwd=REPO, check=True, timeout=900)
    return os.path.join(REPO, "target", "release", "examples", "shared_turn")


def python_turn(port, prefix, now, answer):
    # A new client and new parts per turn: this process joins afresh, as the other two do.
    client = valkey.Valkey(port=port)
    wide = dict(bound_ms=5000)
    rate = SharedSendRate(client, f"{prefix}:rate", SendRate(min_rate_milli=1000), store_clock=False, **wide)
    budget = SharedBudget(client, f"{prefix}:budget", RetryBudget.aws_default(), **wide)
    pacer = SharedPacer(client, f"{prefix}:pacer", Pacer(10, seed=3), store_clock=False, **wide)
    pace = rate.ask(now)
    rate.answer(now, answer)
    acquired = budget.try_acquire()
    slot = pacer.assign(now)
    pending = pacer.pending(now)
    alone = sum(part.stats["alone"] for part in (rate, budget, pacer))
    client.close()
    return {"pace": [pace.kind, pace.ms], "rate_milli": rate.rate_milli, "acquired": acquired,
            "tokens_milli": budget.tokens_milli, "slot": [slot.retry_after_s, slot.reset_ms, slot.full],
            "pending": pending, "alone": alone}


def expected_turns():
    """Each turn's answers and state by the models, one part given every turn in order."""
    rate = send_rate_model.SendRate(dict(RATE_CONFIG))
    pacer = pacer_model.Pacer(10, 0, 60, 3)
    out = []
    for t, (now, answer) in enumerate(TURNS):
        pace = rate.ask(now)
        rate.answer(answer, now)
        slot = pacer.assign(now)
        out.append({"pace": [pace["pace"], pace.get("ms", 0)], "rate_milli": rate.rate, "acquired": True,
                    "tokens_milli": 500_000 - 5000 * (t + 1), "slot": [slot[0], slot[1], slot[2]],
                    "pending": pacer.pending(now), "alone": 0})
    return out


def test_python_node_and_rust_take_turns_on_one_fleets_keys():
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the Node process of this test cannot run")
    if not (os.path.exists(BUILT_PACKAGE) and os.path.isdir(NODE_DEPS)):
        pytest.skip("the npm package is not built (wasm/dist) or wasm/test/google-cloud has no node_modules")
    rust = rust_turn_binary()
    want = expected_turns()
    # The models' path moves every turn: a process that ignored what the store held would differ.
    assert len({json.dumps(w) for w in want}) == len(want)
    with redis_server() as server:
        got = []
        for t, (now, answer) in enumerate(TURNS):
            args = [str(server.port), "fleet", str(now), answer]
            process = PROCESSES[t % 3]
            if process == "python":
                got.append(python_turn(server.port, "fleet", now, answer))
                continue
            command = ["node", NODE_TURN, *args] if process == "node" else [rust, *args]
            run = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=REPO)
            assert run.returncode == 0, f"{process}'s turn {t} failed: {run.stderr}"
            got.append(json.loads(run.stdout))
        for t, (mine, theirs) in enumerate(zip(got, want, strict=True)):
            assert mine == theirs, f"turn {t} ({PROCESSES[t % 3]})"
