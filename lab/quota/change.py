"""The nginx quota test's changed quota: each binding's 50 workers share one default send rate for
SECONDS while the script reloads nginx with half the rate at a third of the run and the rate again
at two thirds, as the simulator's `quota` scenario changes its quota. Counted from nginx's access
log ("msec status uri" per request) and the reload times, and checked against the independent
model's prediction for the same closed loop (bench/send_rate_quota.py --change).

usage: change.py ACCESS_LOG RATE BURST SECONDS CHANGES LEARNT OUT
CHANGES holds "PATH EPOCH_S NEW_RATE" per reload (two per path); LEARNT the clients' "learnt PATH
RATE_MILLI" lines. Goodput is served requests over the quota's integral over the run (the rate
times each phase's length, plus the burst); refused is 429s over all attempts; back is the time
from a change until every 1 s window of served requests up to the next change is within 5 % of the
new rate (the simulator's rule, settle_ms). Appends its table to OUT. Exits 1 when a path is
missing, when a goodput is more than GOODPUT_POINTS from the model's, when the first second
refuses more than COLD_FACTOR x the model's, or when the goodput is not back within 5 % of a
changed quota in BACK_GOAL_MS; the refused share's goal (<= 3 %) is printed, met or not."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
from send_rate_quota import BIN_MS, settle_ms  # noqa: E402
from table import COLD_FACTOR, GOODPUT_POINTS, WORKERS, back, pct, report  # noqa: E402

PATHS = [("/change", "Node: one npm SendRate"),
         ("/py-change", "Python asyncio: one SendRate, retry(send_rate=)"),
         ("/rs-change", "Rust tokio: one AtomicSendRate, Retry::send_rate")]
BACK_GOAL_MS = 10_000


def main(log, rate, burst, seconds, changes_path, learnt_path, out):
    rate, burst, seconds = int(rate), int(burst), int(seconds)
    lines = [line.split() for line in open(log, encoding="utf-8") if line.strip()]
    changes = {}
    for line in open(changes_path, encoding="utf-8"):
        path, at, new = line.split()
        changes.setdefault(path, []).append((float(at), int(new)))
    learnt = {m.group(1): int(m.group(2)) / 1000
              for m in (re.match(r"learnt (\S+) (\d+)$", l.strip()) for l in open(learnt_path, encoding="utf-8")) if m}
    args = [sys.executable, os.path.join(HERE, "..", "..", "bench", "send_rate_quota.py"), "--change", str(rate),
            str(burst), str(WORKERS), "1", str(seconds)]
    p_good, p_share, p_cold, *p_back = subprocess.run(args, capture_output=True, text=True,
                                                      check=True).stdout.split()
    p_good, p_share, p_cold = float(p_good), float(p_share), int(p_cold)
    p_back = [None if b == "-" else int(b) for b in p_back]
    table = [f"The quota changed under the clients: nginx reloaded with rate={rate // 2}r/s at a third of a "
             f"{seconds} s run and rate={rate}r/s at two thirds (burst={burst}); {WORKERS} workers sharing one "
             f"default send rate; model: bench/send_rate_quota.py --change {rate} {burst} {WORKERS} 1 {seconds}",
             "",
             "| client | attempts | served | refused | goodput / quota | refused / attempts | refused in the first s "
             "| back within 5 % of the halved quota | of the restored quota |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    failures, verdicts = [], []
    for path, label in PATHS:
        mine = [(float(l[0]), l[1]) for l in lines if len(l) == 3 and l[2] == path]
        if not mine or len(changes.get(path, [])) != 2:
            failures.append(f"{path}: no request in the log, or not two reloads")
            continue
        t0 = min(t for t, _ in mine)
        end = min(max(t for t, _ in mine), t0 + seconds)
        (half_at, half), (full_at, full) = changes[path]
        mine = [(t, s) for t, s in mine if t <= end]
        served = sum(1 for _, s in mine if s == "200")
        refused = sum(1 for _, s in mine if s == "429")
        quota = rate * (half_at - t0) + half * (full_at - half_at) + full * (end - full_at) + burst
        good, share = served / quota, refused / len(mine)
        cold = sum(1 for t, s in mine if s == "429" and t < t0 + 1)
        bins = [0] * (int((end - t0) * 1000) // BIN_MS + 1)
        for t, s in mine:
            if s == "200":
                bins[int((t - t0) * 1000) // BIN_MS] += 1
        ms = lambda at: int((at - t0) * 1000)  # noqa: E731
        backs = [settle_ms(bins, half, ms(half_at), ms(full_at)), settle_ms(bins, full, ms(full_at), ms(end))]
        if path in learnt:
            label += f" (learnt {learnt[path]:.1f}/s)"
        table.append(f"| {label} | {len(mine)} | {served} | {refused} | {pct(good)} | {pct(share)} | {cold} "
                     f"| {back(backs[0])} | {back(backs[1])} |")
        goals = [f"goodput {pct(good)} ({'met' if good >= 0.97 else 'NOT met'})",
                 f"refused {pct(share)} ({'met' if share <= 0.03 else 'NOT met'})"]
        goals += [f"back {back(b)} ({'met' if b is not None and b <= BACK_GOAL_MS else 'NOT met'})" for b in backs]
        verdicts.append(f"{path}: goals (goodput >= 97 %, refused <= 3 %, back within 5 % in <= 10 s): "
                        + ", ".join(goals))
        if abs(good - p_good) * 100 > GOODPUT_POINTS:
            failures.append(f"{path}: goodput {pct(good)} is more than {GOODPUT_POINTS} points from the "
                            f"model's {pct(p_good)}")
        if cold > COLD_FACTOR * p_cold:
            failures.append(f"{path}: the first second refused {cold}, more than {COLD_FACTOR} x the model's {p_cold}")
        for what, b in zip(("halved", "restored"), backs):
            if b is None or b > BACK_GOAL_MS:
                failures.append(f"{path}: not back within 5 % of the {what} quota in {BACK_GOAL_MS / 1000:.0f} s "
                                f"({back(b)})")
    table.append(f"| model's prediction | | | | {pct(p_good)} | {pct(p_share)} | {p_cold} | {back(p_back[0])} "
                 f"| {back(p_back[1])} |")
    return report(table, verdicts, failures, out, "a")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
