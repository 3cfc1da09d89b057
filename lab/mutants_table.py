#!/usr/bin/env python3
"""The score of a cargo-mutants run as a markdown table per mutated file, from its outcomes.json,
and the surviving mutants by name (lab/RESULTS.md's mutation sections print this).

usage: mutants_table.py OUTPUT_DIR   (the run's --output directory, holding mutants.out/)
"""
import json
import os
import sys
from collections import Counter, defaultdict

KINDS = {"CaughtMutant": "caught", "Timeout": "timeout", "MissedMutant": "missed", "Unviable": "unviable"}


def main(directory):
    outcomes = json.load(open(os.path.join(directory, "mutants.out", "outcomes.json")))["outcomes"]
    files, missed = defaultdict(Counter), []
    for o in outcomes:
        mutant = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
        if mutant is None:
            continue  # the unmutated baseline
        kind = KINDS.get(o["summary"])
        if kind is None:
            sys.exit(f"mutants_table.py: an outcome {o['summary']!r} this table does not know")
        files[mutant["file"]][kind] += 1
        if kind == "missed":
            missed.append(mutant["name"])
    if not files:
        sys.exit("mutants_table.py: the run tested no mutant")
    total = Counter()
    print("| file | mutants | unviable | caught (of them timeouts) | missed |")
    print("|---|---:|---:|---:|---:|")
    for name in sorted(files):
        c = files[name]
        total.update(c)
        print(f"| `{name}` | {sum(c.values())} | {c['unviable']} | {c['caught'] + c['timeout']} ({c['timeout']}) | {c['missed']} |")
    viable = total["caught"] + total["timeout"] + total["missed"]
    caught = total["caught"] + total["timeout"]
    print(f"| **total** | **{sum(total.values())}** | **{total['unviable']}** | **{caught} ({total['timeout']})** | **{total['missed']}** |")
    print()
    print(f"Score: {caught} of {viable} viable mutants caught ({100 * caught / viable:.1f} %).")
    for name in missed:
        print(f"- missed: `{name}`")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
