"""The nginx quota test's one table (artifacts/quota-nginx.md): every client's two modes counted
from nginx's access log ("msec status uri" per request), each mode on its own path, and the
shared send rates' figures checked against the independent model's prediction
(bench/send_rate_quota.py --steady, nginx's rate and burst, the test's 50 workers).

usage: table.py ACCESS_LOG RATE BURST SECONDS LEARNT OUT
LEARNT holds "learnt PATH RATE_MILLI" lines (the Python and Rust clients print them) and Node's
table (its "learnt N/s"). Goodput is served requests over the quota (rate x the mode's span in the
log, plus the burst); refused is 429s over all attempts, split into the first second's (the cold
start: 50 first attempts sent together before any answer) and the share after it (the steady
state). Exits 1 when a shared send rate's goodput or steady refused share is further from the
prediction than the tolerances below, when its cold start refuses more than half again the
model's, when a mode is missing from the log, or when sharing a rate refused no less than the same
client without one.
Those comparisons hold only where the clients get the CPU they ask for: on a machine whose load
average (1 min) is above its cores, the clients' own waits run late and Python's cannot even send
the quota, so they are printed as not checked, with the load."""

import os
import re
import subprocess
import sys

# How far a measured figure may sit from the model's, in percentage points. The model's clients
# answer at once and its server is a token bucket; nginx's limit_req is a leaky bucket counted in
# whole ms, and a real client's waits run late under load (Node's refused share sits about 1.2
# points above the model's 2.5 %). Looser than that gap, tight enough to catch a lost answer
# (no throttle heard: refused near the no-limiter row's 70 %) or a stalled rate (goodput far down).
GOODPUT_POINTS = 5.0
# How late the model's waits end (see main).
WAKE_LAG_MS = 1
# The steady state's refused share agrees with the model's within a few tenths of a point; the cold
# start's count varies from run to run with the order the first answers come back in (65 to 106
# against the model's 91 and 114), so it is bounded from above only.
STEADY_POINTS = 1.0
COLD_FACTOR = 1.5

ROWS = [("/none", "Node: no limiter (fetchWithBackoff per request)"),
        ("/sendrate", "Node: one npm SendRate"),
        ("/py-none", "Python asyncio: no limiter (retry() per request)"),
        ("/py-sendrate", "Python asyncio: one SendRate, retry(send_rate=)"),
        ("/rs-none", "Rust tokio: no limiter (retry_tokio per request)"),
        ("/rs-sendrate", "Rust tokio: one AtomicSendRate, Retry::send_rate"),
        ("/py-sendrate-b1", "Python asyncio: one SendRate(burst=1), retry(send_rate=)"),
        ("/rs-sendrate-b1", "Rust tokio: one AtomicSendRate (burst 1), Retry::send_rate"),
        ]
# The shared send rates checked against the model, with their burst.
SHARED = {"/sendrate": 2, "/py-sendrate": 2, "/rs-sendrate": 2, "/py-sendrate-b1": 1, "/rs-sendrate-b1": 1}
WORKERS = 50


def pct(x):
    return f"{100 * x:.1f} %"


def back(ms):
    """A settling time (ms, or None for never) as the tables print it."""
    return "never" if ms is None else f"{ms / 1000:.1f} s"


def checked(failures):
    """`failures`, or none (printed as not checked) on a machine loaded beyond its cores, unless a
    mode is missing from the log."""
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load > cores and failures and all("no request" not in f for f in failures):
        print(f"NOT CHECKED (quota-nginx): load average {load:.1f} on {cores} cores; the comparisons say:")
        for failure in failures:
            print(f"  {failure}")
        return []
    return failures


def main(log, rate, burst, seconds, learnt_path, out):
    rate, burst, seconds = int(rate), int(burst), int(seconds)
    lines = [line.split() for line in open(log, encoding="utf-8") if line.strip()]
    learnt = {}
    for line in open(learnt_path, encoding="utf-8"):
        m = re.match(r"learnt (\S+) (\d+)$", line.strip())
        if m:
            learnt[m.group(1)] = int(m.group(2)) / 1000
        m = re.search(r"one npm SendRate \(learnt ([0-9.]+)/s\)", line)
        if m:
            learnt["/sendrate"] = float(m.group(1))
    here = os.path.dirname(os.path.abspath(__file__))
    model = os.path.join(here, "..", "..", "bench", "send_rate_quota.py")
    predicted = {}
    for rate_burst in (1, 2):
        # The loopback round trip is about 1 ms. Every client's timer wakes on whole ms (Tokio's
        # wheel, Node's setTimeout, asyncio's epoll_wait), so a wait ends WAKE_LAG_MS late or more;
        # with a burst of 1 each late wake moves the schedule back (SPEC §17.4). The model's
        # burst-1 goodput falls with the lag (these args with 0, 1, 2 print 100.1, 97.5, 91.4 %
        # at the test's quota), and nginx's burst-1 rows sit between 0 and 1 ms (Python) and
        # between 1 and 2 ms (Rust); at a burst of 2 it reads the same at any lag.
        args = [sys.executable, model, "--steady", str(rate), str(burst), str(WORKERS), "1", str(seconds),
                str(rate_burst), str(WAKE_LAG_MS)]
        good, refused, cold, steady = subprocess.run(args, capture_output=True, text=True,
                                                     check=True).stdout.split()
        predicted[rate_burst] = (float(good), float(refused), int(cold), float(steady))
    rows, failures = [], []
    for path, label in ROWS:
        mine = [l for l in lines if len(l) == 3 and l[2] == path]
        if not mine:
            failures.append(f"{path}: no request in the log")
            continue
        t = [float(l[0]) for l in mine]
        span = max(t) - min(t)
        served = sum(1 for l in mine if l[1] == "200")
        refused = sum(1 for l in mine if l[1] == "429")
        good, share = served / (rate * span + burst), refused / len(mine)
        # A rate that is off until the first throttle cannot stop the 50 first attempts sent
        # together: what the first second refuses is the cold start, the rest the steady state.
        later = [l for l in mine if float(l[0]) >= min(t) + 1]
        cold = refused - sum(1 for l in later if l[1] == "429")
        steady = (refused - cold) / max(1, len(later))
        rows.append((path, label, span, len(mine), served, refused, good, share, cold, steady))
    table = [f"nginx limit_req rate={rate}r/s burst={burst} nodelay, limit_req_status 429; {WORKERS} workers "
             f"(Node promises, Python asyncio tasks, Rust tokio tasks), {seconds} s a mode; model: "
             f"bench/send_rate_quota.py --steady {rate} {burst} {WORKERS} 1 {seconds} BURST {WAKE_LAG_MS}",
             "",
             "| client | span s | attempts | served | refused | goodput / quota | refused / attempts "
             "| refused in the first s | refused / attempts after it |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for path, label, span, attempts, served, refused, good, share, cold, steady in rows:
        if path in learnt:
            label += f" (learnt {learnt[path]:.1f}/s)"
        table.append(f"| {label} | {span:.1f} | {attempts} | {served} | {refused} | {pct(good)} | {pct(share)} "
                     f"| {cold} | {pct(steady)} |")
    for rate_burst, (good, share, cold, steady) in predicted.items():
        table.append(f"| model's prediction (each wait {WAKE_LAG_MS} ms late), a shared send rate of burst "
                     f"{rate_burst} | {seconds:.1f} | | | | {pct(good)} | {pct(share)} | {cold} | {pct(steady)} |")
    by_path = {r[0]: r for r in rows}
    verdicts = []
    for path, rate_burst in SHARED.items():
        if path not in by_path:
            continue
        p_good, _, p_cold, p_steady = predicted[rate_burst]
        _, label, _, attempts, _, _, good, share, cold, steady = by_path[path]
        goals = "met" if good >= 0.97 and share <= 0.03 else "NOT met"
        verdicts.append(f"{path}: goodput {pct(good)}, refused {pct(share)} ({cold} in the first second, "
                        f"{pct(steady)} after it); goals (goodput >= 97 %, refused <= 3 %) {goals}")
        if abs(good - p_good) * 100 > GOODPUT_POINTS:
            failures.append(f"{path}: goodput {pct(good)} is more than {GOODPUT_POINTS} points from the "
                            f"model's {pct(p_good)}")
        if abs(steady - p_steady) * 100 > STEADY_POINTS:
            failures.append(f"{path}: refused after the first second {pct(steady)} is more than "
                            f"{STEADY_POINTS} points from the model's {pct(p_steady)}")
        if cold > COLD_FACTOR * p_cold:
            failures.append(f"{path}: the first second refused {cold}, more than {COLD_FACTOR} x the "
                            f"model's {p_cold}")
        plain = by_path.get(path.replace("sendrate", "none").replace("-b1", ""))
        if plain and share >= plain[7]:
            failures.append(f"{path}: sharing the rate refused no less than no limiter")
    return report(table, verdicts, failures, out, "w")


def report(table, verdicts, failures, out, mode):
    """Prints the table and the verdicts, writes the table to `out` (open mode `mode`) and the
    failures that count (checked) to stderr; the exit status."""
    failures = checked(failures)
    text = "\n".join(table)
    print(text)
    for v in verdicts:
        print(v)
    with open(out, mode, encoding="utf-8") as f:
        f.write(("\n" if mode == "a" else "") + text + "\n")
    for failure in failures:
        print(f"FAIL (quota-nginx): {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
