#!/usr/bin/env python3
"""Expectations for the npm package's outbox browser tests, from the independent models
(spec_model.py, pause_model.py), never from the code under test.

Usage: python3 tests/model/outbox_expect.py < query.json > answer.json
  query:  {"policy": {make_policy's keyword arguments}, "seed": "<u64>", "steps": n,
           "snapshots": ["<hex of a stored 40-byte snapshot>", ...],
           "runs": ["<hex of a stored 100-byte run snapshot>", ...],
           "resumes": [["<seed>", k, window_ms], ...]}
  answer: {"delays": [the first n delays from the seed],
           "snapshots": [hex of the snapshot after each of those steps],
           "next": [for each given snapshot: the delay of the step after it (restored under the
                    policy; a refused snapshot gives the name of the check that refused it)],
           "runs": [for each given run snapshot (restored by run_model under the policy):
                    {"phase", "attempt", "redraws", "window_ms",
                     "backoff": hex of its backoff's §9 snapshot,
                     "next": the delay it answers after a wake and a failure}, or the name of the
                    check that refused it],
           "resumes": [the §13 re-drawn wait for each]}
Standard library only.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pause_model as p  # noqa: E402
import run_model as rm  # noqa: E402
import spec_model as m  # noqa: E402


def run_answer(policy, data):
    run = rm.Run(policy, 0)
    try:
        rm.restore(run, data)
    except rm.Refused as e:
        return e.name
    got = {"phase": run.phase, "attempt": run.attempt, "redraws": run.redraws,
           "window_ms": run.window_ms, "backoff": run.backoff.snapshot().hex()}
    if run.phase == "sleeping":
        run.wake(run.now)
        a = run.outcome("retryable", run.now)
        got["next"] = a.get("delay_ms")
    return got


def answer(q):
    policy = m.make_policy(**q["policy"])
    b = m.Backoff(policy, int(q["seed"]))
    delays, snaps = [], []
    for _ in range(q.get("steps", 0)):
        r = b.next()
        delays.append(r.delay_ms if isinstance(r, m.Retry) else None)
        snaps.append(b.snapshot().hex())
    nxt = []
    for h in q.get("snapshots", []):
        try:
            r = m.Backoff.restore(policy, bytes.fromhex(h)).next()
            nxt.append(r.delay_ms if isinstance(r, m.Retry) else None)
        except m.SpecError as e:
            nxt.append(str(e))
    runs = [run_answer(policy, bytes.fromhex(h)) for h in q.get("runs", [])]
    resumes = [p.resume_delay_ms(int(s), k, w) for s, k, w in q.get("resumes", [])]
    return {"delays": delays, "snapshots": snaps, "next": nxt, "runs": runs, "resumes": resumes}


if __name__ == "__main__":
    json.dump(answer(json.load(sys.stdin)), sys.stdout)
