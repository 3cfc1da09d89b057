#!/usr/bin/env bash
# The core's speed beside the Rust peers: ns per delay (cargo bench, criterion) and instructions
# per delay (valgrind's callgrind, which the machine's load does not move), one and two call
# sites, the per-request state's size; each goal the figures carry printed met or missed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{ bash lab/benchmarks.sh --speed; echo; bash lab/benchmarks.sh --icount; } | tee "$out"
# "FIGURE[x| ns/delay] WHAT (goal <= LIMIT)" and the icount line "goal: WHAT: FIGUREx, met".
python3 - "$out" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    line = line.strip()
    m = re.fullmatch(r"goal: (.*): ([\d.]+x), (met|NOT met)", line)
    if m:
        print(f"goal: {'met' if m.group(3) == 'met' else 'missed'}: {m.group(1)}: {m.group(2)}")
        continue
    for value, x, what, op, limit in re.findall(r"([\d.]+)(x?)( ns/delay| [a-z ]+)? \(goal (<=|>=) ([\d.]+)x?\)", line):
        ok = float(value) <= float(limit) if op == "<=" else float(value) >= float(limit)
        head = line.split(":")[0]
        print(f"goal: {'met' if ok else 'missed'}: {head}: {value}{x}{what or ''} (goal {op} {limit}{x})")
PY
