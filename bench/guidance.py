#!/usr/bin/env python3
"""The guidance's formula against the client libraries' default, as a markdown table.

Reads what `seeded-backoff simulate --format json` prints (all three scenarios) on stdin and
prints, for `google` and `api-core-default`, the figures lab/RESULTS.md sets side by side. It
measures nothing itself: every cell is one of the simulator's figures, or their ratio to the runs.

    cargo run -q --release -p seeded-backoff-cli -- simulate --format json | python3 bench/guidance.py
"""
import json
import sys

STRATEGIES = ("google", "api-core-default")


def s(ms):
    """Milliseconds as seconds: two decimals below 10 s, one above."""
    return f"{ms / 1000:.2f} s" if ms < 10000 else f"{ms / 1000:.1f} s"


def completion(r, clients, runs):
    if r.get("succeeded", 1) == 0:
        return "–"
    cell = f"{s(r['completion_p50_ms'])} / {s(r['completion_p99_ms'])} / {s(r['completion_max_ms'])}"
    if "succeeded" in r and r["succeeded"] < clients * runs:
        cell += f" (the {r['succeeded'] / runs:.0f} per run that succeeded)"
    return cell


def main():
    d = json.load(sys.stdin)
    runs = d["runs"]
    print(f"Seed {d['seed']}, {runs} runs per strategy; failed: clients per run that ended with an error.")
    print()
    print("| scenario | strategy | requests per run | clients failed per run | completion p50 / p99 / max | burst |")
    print("|---|---|---:|---:|---|---|")
    c, o, h = d["contention"], d["outage"], d["shed"]
    by = lambda part: {r["strategy"]: r for r in part["results"]}
    for name in STRATEGIES:
        r = by(c)[name]
        print(f"| contention, {c['clients']} clients | {name} | {r['calls_per_run']} | "
              f"{r['unfinished'] / runs:.0f} | {completion(r, c['clients'], runs)} | – |")
    for name in STRATEGIES:
        r = by(o)[name]
        done = (f"all through {s(r['all_done_after_recovery_p50_ms'])} after recovery "
                f"(worst run {s(r['all_done_after_recovery_max_ms'])})") if r["succeeded"] else "–"
        print(f"| outage {o['outage_s']} s, {o['clients']} clients | {name} | {r['requests_per_run']} | "
              f"{r['failed'] / runs:.0f} | {done} | {r['peak_rps_mean']} req/s at peak "
              f"(capacity {o['capacity_rps']}) |")
    for name in STRATEGIES:
        r = by(h)[name]
        print(f"| shed (429), {h['clients']} clients | {name} | {r['requests_per_run']} | "
              f"{r['failed'] / runs:.0f} | {completion(r, h['clients'], runs)} | "
              f"{r['later_peak_rps']} req/s in the busiest later second |")


if __name__ == "__main__":
    main()
