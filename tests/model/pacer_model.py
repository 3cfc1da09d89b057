#!/usr/bin/env python3
"""Independent model of SPEC.md §16 (server pacing), written from the specification, and the
checker of its vectors, tests/vectors/pacer.json (written by `seeded-backoff vectors`).

Usage:
  python3 tests/model/pacer_model.py check [FILE]   every case of FILE against this model

Besides the vectors, `check` verifies §16.3's bounds on seeded bursts and clocks of its own.
Standard library only.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_model as m  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_FILE = os.path.join(REPO_ROOT, "tests", "vectors", "pacer.json")
DOMAIN = int.from_bytes(b"pacing!!", "big")
MAX_NOW = 2 ** 63


class Pacer:
    """§16.1 and §16.2."""

    def __init__(self, capacity_per_s, reserve_per_mille, max_wait_s, seed):
        if not 1 <= capacity_per_s <= 1_000_000:
            raise m.SpecError("capacity_per_s")
        if not 0 <= reserve_per_mille <= 999:
            raise m.SpecError("reserve_per_mille")
        if not 1 <= max_wait_s <= 86_400:
            raise m.SpecError("max_wait_s")
        self.capacity = capacity_per_s
        self.rate = capacity_per_s - capacity_per_s * reserve_per_mille // 1000
        assert 1 <= self.rate <= self.capacity
        self.max_wait_s = max_wait_s
        self.rng = m.Rng.from_seed(seed ^ DOMAIN)
        self.latest = 0
        self.tail_s = 0
        self.tail_count = 0
        self.reserve_s = 0

    def holds(self, s):
        return self.rate if s == self.reserve_s else self.capacity

    def assign(self, now_ms):
        now = min(max(now_ms, self.latest), MAX_NOW)
        self.latest = now
        now_s = now // 1000
        last_s = now_s + self.max_wait_s
        s = max(self.tail_s, now_s + 1)
        i = self.tail_count if s == self.tail_s else 0
        if s == now_s + 1 and i == 0:
            self.reserve_s = s
        full = s > last_s
        if full:
            s = last_s
            h = self.holds(s)
            i = h - 1
        else:
            h = self.holds(s)
            if i + 1 == h:
                self.tail_s, self.tail_count = s + 1, 0
            else:
                self.tail_s, self.tail_count = s, i + 1
        w = 1000 // h
        x = self.rng.uniform(max(w - 1, 0))
        at = s * 1000 + i * 1000 // h + x
        return s - now_s, at - now, full

    def pending(self, now_ms):
        n = min(max(now_ms, self.latest), MAX_NOW) // 1000 + 1
        if self.tail_s < n:
            return 0
        short = self.capacity - self.rate if n <= self.reserve_s < self.tail_s else 0
        return (self.tail_s - n) * self.capacity + self.tail_count - short


def make(config):
    return Pacer(config["capacity_per_s"], config["reserve_per_mille"], config["max_wait_s"],
                 int(config["seed"]))


def run_op(pacer, op):
    if op[0] == "a":
        ra, ms, full = pacer.assign(int(op[1:]))
        return [ra, ms, int(full)]
    if op[0] == "p":
        return pacer.pending(int(op[1:]))
    raise ValueError("unknown pacer op %r" % op)


def check_bounds(failures):
    """§16.3 on seeded bursts: waits in range; unfull returns at most `capacity` a second, and at
    most `rate` in a second that opens an empty schedule (the next after a refusal that found
    nothing pending); `pending` equal to the unfull returns counted after the current second."""
    rnd = random.Random(31)
    checks = 0
    for _ in range(60):
        cap = rnd.choice([1, 2, 3, 7, 100, 999, 1000, 1001, 5000])
        reserve = rnd.choice([0, 1, 100, 500, 999])
        wait = rnd.choice([1, 2, 5, 60])
        p = Pacer(cap, reserve, wait, rnd.getrandbits(64))
        now = rnd.randrange(0, 10 ** 7)
        per_second, opened = {}, set()
        for _ in range(rnd.randrange(1, min(3 * p.capacity * wait, 3000) + 10)):
            now = max(0, now + rnd.choice([0, 0, 1, 37, 400, -5000]))
            clock = max(now, p.latest)
            if p.pending(now) == 0:
                opened.add(clock // 1000 + 1)
            ra, ms, full = p.assign(now)
            sec = (clock + ms) // 1000
            ok = (1 <= ra <= wait and 1 <= ms <= wait * 1000 + 999
                  and (clock + ra * 1000) // 1000 == sec)
            if not full:
                per_second[sec] = per_second.get(sec, 0) + 1
                limit = p.rate if sec in opened else p.capacity
                ok = ok and per_second[sec] <= limit
            counted = sum(v for k, v in per_second.items() if k > clock // 1000)
            ok = ok and p.pending(now) == counted
            checks += 1
            if not ok:
                failures.append("bounds: cap %d reserve %d wait %d now %d -> %r"
                                % (cap, reserve, wait, now, (ra, ms, full)))
                break
    return checks


def check(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["kind"] == "pacer", doc["kind"]
    failures, checks = [], 0
    for case in doc["cases"]:
        try:
            pacer = make(case["config"])
            error = None
        except m.SpecError as e:
            pacer, error = None, e.name
        if "error" in case:
            checks += 1
            if error != case["error"]:
                failures.append("%s: expected error %s, model %s" % (case["config"], case["error"], error))
            continue
        if pacer is None:
            failures.append("%s: model refused it (%s)" % (case["config"], error))
            continue
        for op, expect in zip(case["ops"], case["expect"], strict=True):
            got = run_op(pacer, op)
            checks += 1
            if got != expect:
                failures.append("%s op %s: vector %r, model %r" % (case["config"], op, expect, got))
    checks += check_bounds(failures)
    for line in failures[:20]:
        print("MISMATCH " + line)
    print("pacer: %d checks, %s" % (checks, "ok" if not failures else "%d mismatches" % len(failures)))
    return not failures and checks > 0


def main(argv):
    if len(argv) < 2 or argv[1] != "check":
        print(__doc__)
        return 2
    return 0 if check(argv[2] if len(argv) > 2 else DEFAULT_FILE) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
