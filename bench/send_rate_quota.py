#!/usr/bin/env python3
"""The send rate (SPEC.md §17) against a model limiter, by the independent model: 50 workers, each
sending again as soon as its answer (20 ms later) comes back, for 60 s, against a token bucket of
`quota` per second and `burst` (nginx limit_req's shape), the quota halved from 20 s to 40 s.

Usage: python3 bench/send_rate_quota.py
Prints, per quota and burst: goodput as a share of the quota's total, throttled attempts as a share
of all attempts, for the default configuration and with a 200 ms guard.

       python3 bench/send_rate_quota.py --steady QUOTA BURST WORKERS LATENCY_MS SECONDS [RATE_BURST [WAKE_LAG_MS]]
Prints "goodput refused cold steady" for the default configuration (its burst RATE_BURST, default
2) against a quota that stays put, every worker starting at 0 as the nginx test's do, each wait
ending WAKE_LAG_MS late (default 0; a timer that wakes on whole milliseconds, as Tokio's, Node's
and an epoll loop's do, ends a wait a millisecond or more late): goodput and refused as shares,
cold the refusals in the first second, steady the refused share after it. The prediction
lab/quota-nginx.sh checks nginx's measured figures against.

       python3 bench/send_rate_quota.py --change QUOTA BURST WORKERS LATENCY_MS SECONDS
Prints "goodput refused cold back_halved_ms back_restored_ms" for the default configuration, every
worker starting at 0, the quota halved over the middle third of SECONDS: the prediction for the
nginx test whose script reloads nginx with the new rate (lab/quota/change.py). A back time is
"-" where the goodput never settles within 5 % of the new quota before the next change.
"""

import heapq
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "model"))
import send_rate_model as m  # noqa: E402

DEFAULT = dict(min_rate_milli=1, max_rate_milli=10**9, margin_permille=20, probe_ms=500,
               probe_first_permille=10, probe_max_permille=250, guard_ms=0, burst=2,
               max_hold_ms=60000, fail_fast=False)


BIN_MS = 100
SETTLED_PERMILLE = 50


def settle_ms(bins, quota, change_ms, end_ms):
    """From `change_ms` on, the first time after which every 1 s window of accepted requests
    (`bins`: counts per BIN_MS from 0) that ends by `end_ms` is within 5 % of `quota` per second,
    as ms after the change; None if the last window is still out of bounds. The windows slide by
    one bin."""
    window = 1000 // BIN_MS
    first, last = change_ms // BIN_MS, end_ms // BIN_MS - window

    def ok(b):
        got = sum(bins[i] if i < len(bins) else 0 for i in range(b, b + window))
        return abs(got - quota) * 1000 <= SETTLED_PERMILLE * quota

    for b in range(last, first - 1, -1):
        if not ok(b):
            return None if b == last else (b + 1) * BIN_MS - change_ms
    return 0


def run(cfg, quota, burst, latency=20, workers=50, until=60000, halved=True, together=False, bins=None, lag=0):
    """Goodput and refused shares, the refusals in the first second and the refused share after
    it. Worker w starts at w ms, or with `together` every worker at 0. `bins`, a list, gets the
    accepted requests per BIN_MS. The quota is halved over the middle third of `until`. Each wait
    the send rate asks for ends `lag` ms after it."""
    rate = m.SendRate(cfg)
    level, last, ok, thr = burst * 1000, 0, 0, 0  # level in thousandths of a token
    cold, late_ok, late_thr = 0, 0, 0
    # (time, 0 ask / 1 answer, worker, answer, when the answered attempt was sent)
    events = [(0 if together else w, 0, w, None, None) for w in range(workers)]
    heapq.heapify(events)
    while events:
        t, kind, w, answer, sent = heapq.heappop(events)
        if kind == 1:
            rate.answer(answer, t, 0, sent)
            heapq.heappush(events, (t, 0, w, None, None))
            continue
        if t >= until:
            continue
        pace = rate.ask(t)
        if pace["pace"] != "send":
            heapq.heappush(events, (t + pace["ms"] + lag, 0, w, None, None))
            continue
        q = quota // 2 if halved and until // 3 <= t < 2 * until // 3 else quota
        arrive = t + latency // 2
        if arrive > last:
            level, last = min(burst * 1000, level + (arrive - last) * q), arrive
        if level >= 1000:
            level, ok, answer = level - 1000, ok + 1, "accepted"
            if bins is not None:
                bins.extend([0] * (arrive // BIN_MS + 1 - len(bins)))
                bins[arrive // BIN_MS] += 1
            late_ok += t >= 1000
        else:
            thr, answer = thr + 1, "throttled"
            cold += t < 1000
            late_thr += t >= 1000
        heapq.heappush(events, (t + latency, 1, w, answer, t))
    third = until // 3000
    total = quota * third + quota // 2 * third + quota * (until // 1000 - 2 * third) if halved else quota * until // 1000
    return ok / total, thr / max(1, ok + thr), cold, late_thr / max(1, late_ok + late_thr)


def main():
    print("%-8s %-6s %-22s %-22s" % ("quota/s", "burst", "default (guard 0)", "guard 200 ms"))
    for quota, burst in [(20, 10), (50, 10), (100, 10), (100, 20), (200, 20)]:
        cells = []
        for cfg in (DEFAULT, dict(DEFAULT, guard_ms=200)):
            good, refused = run(cfg, quota, burst)[:2]
            cells.append("%5.1f %% good %4.1f %% ref" % (100 * good, 100 * refused))
        print("%-8d %-6d %-22s %-22s" % (quota, burst, cells[0], cells[1]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--change"]:
        q, b, w, lat, sec = (int(a) for a in sys.argv[2:7])
        bins = []
        good, refused, cold, _ = run(DEFAULT, q, b, latency=lat, workers=w, until=sec * 1000, together=True,
                                     bins=bins)
        span = sec * 1000
        backs = [settle_ms(bins, q // 2, span // 3, 2 * span // 3), settle_ms(bins, q, 2 * span // 3, span)]
        print("%.4f %.4f %d %s %s" % (good, refused, cold, *("-" if x is None else x for x in backs)))
    elif sys.argv[1:2] == ["--steady"]:
        q, b, w, lat, sec = (int(a) for a in sys.argv[2:7])
        cfg = dict(DEFAULT, burst=int(sys.argv[7]) if len(sys.argv) > 7 else 2)
        lag = int(sys.argv[8]) if len(sys.argv) > 8 else 0
        good, refused, cold, steady = run(cfg, q, b, latency=lat, workers=w, until=sec * 1000, halved=False,
                                          together=True, lag=lag)
        print("%.4f %.4f %d %.4f" % (good, refused, cold, steady))
    else:
        main()
