#!/usr/bin/env python3
"""Independent model of the adaptive send rate (SPEC.md §17), written from the SPEC's text.

Usage: python3 tests/model/send_rate_model.py check [VECTORS_DIR]
Replays every tests/vectors/send-rate*.json case through this model and compares each answer;
prints `N checks, M mismatches` and exits non-zero on any mismatch or if nothing was checked.
"""

import glob
import json
import os
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
U32 = 2**32 - 1
U64 = 2**64 - 1
SPAN_FLOOR_MS = 100  # §17.2: the least span a rate divides by

RANGES = [  # (field, error name, ok(cfg)) in the order SPEC §17.1 checks them
    ("max_rate_milli", lambda c: 1 <= c["max_rate_milli"] <= 10**9),
    ("min_rate_milli", lambda c: 1 <= c["min_rate_milli"] <= c["max_rate_milli"]),
    ("margin_permille", lambda c: 1 <= c["margin_permille"] <= 500),
    ("probe_ms", lambda c: 10 <= c["probe_ms"] <= 60000),
    ("probe_first_permille", lambda c: 1 <= c["probe_first_permille"] <= c["probe_max_permille"]),
    ("probe_max_permille", lambda c: 1 <= c["probe_max_permille"] <= 1000),
    ("guard_ms", lambda c: 0 <= c["guard_ms"] <= 60000),
    ("burst", lambda c: 1 <= c["burst"] <= 1000),
    ("max_hold_ms", lambda c: 0 <= c["max_hold_ms"] <= 3600000),
]


def config_error(cfg):
    for name, ok in RANGES:
        if not ok(cfg):
            return name
    return None


class Window:
    """§17.2: answers of the last second, by 250 ms bucket, keyed by bucket index."""

    def __init__(self):
        self.first = None
        self.epoch = 0
        self.sent = {}
        self.accepted = {}

    def roll(self, now):
        if self.first is None:
            self.first = now
        self.epoch = max(self.epoch, now // 250)
        keep = range(self.epoch - 4, self.epoch + 1)
        self.sent = {k: v for k, v in self.sent.items() if k in keep}
        self.accepted = {k: v for k, v in self.accepted.items() if k in keep}

    def add(self, counts):
        counts[self.epoch] = min(U32, counts.get(self.epoch, 0) + 1)

    def rate(self, counts, now):
        span = min(now - self.epoch * 250 + 1000, now - self.first)
        span = max(span, SPAN_FLOOR_MS)
        return min(U32, sum(counts.values()) * 1000000 // span)


class SendRate:
    def __init__(self, cfg):
        self.c = cfg
        self.rate = 0
        self.next_us = 0
        self.hold_us = 0
        self.line_us = 0  # §17.4 step 5: the end of the line of waiting callers
        self.last_probe = 0
        self.step = cfg["probe_first_permille"]
        self.last_decrease = None
        self.now = 0
        self.w = Window()

    def tick(self, now):
        self.now = max(self.now, now)
        self.w.roll(self.now)
        return self.now

    def probe(self, now):
        # Sums saturate at the type's maximum (§17): at u64::MAX every interval has passed.
        if self.rate == 0 or now < min(U64, self.last_probe + self.c["probe_ms"]):
            return
        self.last_probe = now
        if self.w.rate(self.w.sent, now) < self.rate // 2:
            return
        grow = max(1, self.rate * self.step // 1000)
        self.rate = min(self.rate + grow, self.c["max_rate_milli"])
        self.step = min(self.step * 2, self.c["probe_max_permille"])

    def ask(self, now):
        now = self.tick(now)
        self.probe(now)
        now_us = min(U64, now * 1000)
        interval = 0 if self.rate == 0 else 10**9 // self.rate
        if now_us < self.hold_us:  # step 2: the server's hint, before the burst
            due = self.hold_us
        else:
            allowed = max(0, self.next_us - interval * (self.c["burst"] - 1))
            if now_us >= allowed:
                self.next_us = min(U64, max(self.next_us, now_us) + interval)
                self.w.add(self.w.sent)
                return {"pace": "send"}
            due = allowed
        if self.c["fail_fast"]:
            return {"pace": "refuse", "ms": min(U32, -(-(due - now_us) // 1000))}
        # Step 5: the line. Each waiting caller comes back one interval after the one before;
        # a line behind due, or more than LINE_MS past it, starts again at due.
        back = self.line_us if due <= self.line_us <= min(U64, due + 1_000_000) else due
        self.line_us = min(U64, back + interval)
        return {"pace": "wait", "ms": min(U32, -(-(back - now_us) // 1000))}

    def answer(self, kind, now, hint_ms=0, sent=None):
        """§17.5 `answer(now, a, sent)`: `sent` None counts as sent at the (stepped) `now`."""
        now = self.tick(now)
        if sent is None:
            sent = now
        if kind == "accepted":
            self.w.add(self.w.accepted)
            self.probe(now)
        elif kind == "throttled":
            hold = min(hint_ms, self.c["max_hold_ms"])
            if hold > 0:
                self.hold_us = max(self.hold_us, min(U64, (now + hold) * 1000))
            if self.last_decrease is not None and (
                    sent < self.last_decrease or now < min(U64, self.last_decrease + self.c["guard_ms"])):
                return {"rate_milli": self.rate}
            accepted = self.w.rate(self.w.accepted, now)
            current = self.rate or max(self.w.rate(self.w.sent, now), accepted)
            base = max(min(current, accepted), current // 2)
            cut = base * (1000 - self.c["margin_permille"]) // 1000
            self.rate = min(max(cut, self.c["min_rate_milli"]), self.c["max_rate_milli"])
            self.step = self.c["probe_first_permille"]
            self.last_probe = now
            self.last_decrease = now
        return {"rate_milli": self.rate}


def feed(rate, event):
    e, now = event["e"], event["now"]
    if e == "ask":
        return rate.ask(now)
    return rate.answer(e, now, event.get("hint_ms", 0))


def check(vdir):
    checks = mismatches = 0
    files = sorted(glob.glob(os.path.join(vdir, "send-rate*.json")))
    for path in files:
        doc = json.load(open(path))
        for case in doc["cases"]:
            if config_error(case["config"]) is not None:
                print("MISMATCH %s: valid config rejected" % case["name"])
                mismatches += 1
                continue
            rate = SendRate(case["config"])
            if len(case["events"]) != len(case["expect"]):
                print("MISMATCH %s: events and expectations differ in number" % case["name"])
                mismatches += 1
            for i, (ev, exp) in enumerate(zip(case["events"], case["expect"])):
                got = feed(rate, ev)
                checks += 1
                if got != exp:
                    mismatches += 1
                    print("MISMATCH %s event %d %s: expected %s, model %s" % (case["name"], i, ev, exp, got))
        for err in doc["errors"]:
            checks += 1
            got = config_error(err["config"])
            if got != err["error"]:
                mismatches += 1
                print("MISMATCH error case %s: expected %s, model %s" % (err["config"], err["error"], got))
    print("%d files, %d checks, %d mismatches" % (len(files), checks, mismatches))
    return 0 if checks > 0 and mismatches == 0 and files else 1


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "check":
        print(__doc__)
        sys.exit(2)
    sys.exit(check(sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO_ROOT, "tests", "vectors")))
