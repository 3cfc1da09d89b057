"""lab/fleet-quota-mixed.sh's figures: one fleet of Rust, Node and Python processes in three modes
against nginx's limit_req, each mode on its own path ("/mixed-MODE?BINDING", so the access log
also tells the bindings apart), nginx's rate halved by a reload at a third of the mode and
restored at two thirds.

usage: fleet_table.py ACCESS_LOG RATE BURST SECONDS CHANGES LEARNT
CHANGES holds "PATH start EPOCH_S" (the fleet's agreed start) and "PATH EPOCH_S NEW_RATE" per
reload. Per mode, over [start, start + SECONDS]: goodput is served requests over the quota nginx
offered (its rate times each phase's length, the halved phase at the halved rate, plus the
burst); refused is the 429s' share of the attempts after the first second; back is the time from
a change until every 1 s window of served requests up to the next change is within 5 % of the
new rate (bench/send_rate_quota.py's settle_ms, as lab/quota/change.py reads it). Each mode is
printed beside the goals (goodput >= 98 % of the quota, refused <= 1 % after the first second,
back within 5 % in <= 3 s after each change) with `goal: met:` / `goal: missed:` lines."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
from send_rate_quota import BIN_MS, settle_ms  # noqa: E402
sys.path.insert(0, HERE)
from table import back, pct  # noqa: E402

MODES = [("/mixed-own", "each process its own send rate (today's)"),
         ("/mixed-shared", "one SharedSendRate in redis-server (adaptive)"),
         ("/mixed-fixed", "a fixed shared rate (min = max = the quota, as Bottleneck's)")]
BACK_GOAL_MS = 3_000


def alone_share(sums):
    return "-" if not sums else f"{sums[1]} of {sums[0]} ({pct(sums[1] / max(1, sums[0]))})"


def main(log, rate, burst, seconds, changes_path, learnt_path):
    rate, burst, seconds = int(rate), int(burst), int(seconds)
    rows = {}
    for line in open(log, encoding="utf-8"):
        parts = line.split()
        if len(parts) == 3:
            path, _, binding = parts[2].partition("?")
            rows.setdefault(path, []).append((float(parts[0]), parts[1], binding))
    starts, changes = {}, {}
    for line in open(changes_path, encoding="utf-8"):
        path, at, new = line.split()
        if at == "start":
            starts[path] = float(new)
        else:
            changes.setdefault(path, []).append((float(at), int(new)))
    learnt, alone = {}, {}
    for line in open(learnt_path, encoding="utf-8"):
        m = re.match(r"learnt (/[\w-]+)\?(\w+) (\d+) not-sent (\d+)", line.strip())
        if m:
            learnt.setdefault((m.group(1), m.group(2)), []).append((int(m.group(3)) / 1000, int(m.group(4))))
            d = re.search(r"decisions (\d+) alone (\d+)", line)
            if d:
                sums = alone.setdefault(m.group(1), [0, 0])
                sums[0], sums[1] = sums[0] + int(d.group(1)), sums[1] + int(d.group(2))
    print(f"nginx limit_req rate={rate}r/s burst={burst} nodelay, halved at a third of each {seconds} s mode "
          f"and restored at two thirds")
    print()
    print("| mode | attempts | served | refused | served per binding (rs/node/py) | goodput / quota "
          "| refused after the first second | back within 5 % of the halved quota | of the restored quota "
          "| rates learnt at the end (rs/node/py, min..max /s) | requests not sent (the rate's wait past 30 s) | shared decisions made alone (the store late or the link local) |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|")
    verdicts, missing = [], []
    for path, label in MODES:
        if path not in starts or len(changes.get(path, [])) != 2 or not rows.get(path):
            missing.append(path)
            continue
        t0 = starts[path]
        end = t0 + seconds
        mine = [(t, s, b) for t, s, b in rows[path] if t0 <= t <= end]
        (half_at, half), (full_at, full) = changes[path]
        served = sum(1 for _, s, _ in mine if s == "200")
        refused = sum(1 for _, s, _ in mine if s == "429")
        quota = rate * (half_at - t0) + half * (full_at - half_at) + full * (end - full_at) + burst
        good = served / quota
        after = [s for t, s, _ in mine if t >= t0 + 1]
        late = sum(1 for s in after if s == "429") / max(1, len(after))
        per = "/".join(str(sum(1 for _, s, b in mine if s == "200" and b == k)) for k in ("rs", "node", "py"))
        bins = [0] * (int((end - t0) * 1000) // BIN_MS + 1)
        for t, s, _ in mine:
            if s == "200":
                bins[int((t - t0) * 1000) // BIN_MS] += 1
        ms = lambda at: int((at - t0) * 1000)  # noqa: E731
        backs = [settle_ms(bins, half, ms(half_at), ms(full_at)), settle_ms(bins, full, ms(full_at), ms(end))]
        rates = "/".join(f"{min(r for r, _ in v):.0f}..{max(r for r, _ in v):.0f}" if (v := learnt.get((path, k)))
                         else "-" for k in ("rs", "node", "py"))
        not_sent = sum(n for k in ("rs", "node", "py") for _, n in learnt.get((path, k), []))
        print(f"| {label} | {len(mine)} | {served} | {refused} | {per} | {pct(good)} | {pct(late)} "
              f"| {back(backs[0])} | {back(backs[1])} | {rates} | {not_sent} "
              f"| {alone_share(alone.get(path))} |")
        met = lambda ok: "met" if ok else "missed"  # noqa: E731
        verdicts.append(f"goal: {met(good >= 0.98)}: {label}: goodput {pct(good)} of the quota (goal >= 98 %)")
        verdicts.append(f"goal: {met(late <= 0.01)}: {label}: refused {pct(late)} of the attempts after the first "
                        f"second (goal <= 1 %)")
        ok = all(b is not None and b <= BACK_GOAL_MS for b in backs)
        verdicts.append(f"goal: {met(ok)}: {label}: back within 5 % of the quota {back(backs[0])} after the halving, "
                        f"{back(backs[1])} after the restoring (goal <= 3 s)")
    print()
    print("\n".join(verdicts))
    if missing:
        print(f"fleet-quota-mixed: no request, start or two reloads logged for {', '.join(missing)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
