#!/usr/bin/env bash
# Performance tooling smoke test, no timing assertions: the simulator runs, its shape
# tests pass (no jitter worst in contention; Google re-synchronizes at the cap in the outage), the
# benches and their peer configurations compile and run once, the size report runs.
# Figures are printed; BENCHMARKS.md holds a full run, and its generated sections are checked for
# shape (not for the noisy numbers) by lab/benchmarks.sh --check.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

echo "-- BENCHMARKS.md: the sections lab/benchmarks.sh writes, in shape; no history"
bash lab/benchmarks.sh --check
# The check can fail: a copy with one cell cut from a generated table's first row, and a copy
# with a text section's output block removed, are each refused with the section's name.
controls=$(mktemp -d)
python3 - "$controls" <<'PY'
import re, sys
text = open("BENCHMARKS.md", encoding="utf-8").read()
table = re.search(r"<!-- bench:([a-z0-9-]+) -->\n```sh\n[^\n]*\n```\n\n(?:[^|\n][^\n]*\n|\n)*"
                  r"\|[^\n]*\n\|[^\n]*\n(\|[^\n]*\|)\n", text)
row = table.group(2)
cut = text.replace(row, row.rsplit("|", 2)[0] + "|", 1)
open(f"{sys.argv[1]}/cell", "w", encoding="utf-8").write(cut)
section = re.search(r"<!-- bench:([a-z0-9-]+) -->\n```sh\n[^\n]*\n```\n(```text\n.*?```\n)", text, re.S)
open(f"{sys.argv[1]}/block", "w", encoding="utf-8").write(text.replace(section.group(2), "", 1))
open(f"{sys.argv[1]}/names", "w").write(f"{table.group(1)} {section.group(1)}\n")
PY
read -r table_name text_name <"$controls/names"
for control in cell:$table_name block:$text_name; do
  if BENCHMARKS="$controls/${control%%:*}" bash lab/benchmarks.sh --check >"$controls/out" 2>&1; then
    echo "benchmarks.sh --check passed a file with a broken section ${control#*:} (${control%%:*})" >&2
    exit 1
  fi
  grep -q "section ${control#*:}: " "$controls/out" || { cat "$controls/out" >&2; exit 1; }
  echo "control (${control%%:*}): $(grep -m1 "section ${control#*:}: " "$controls/out")"
done
rm -rf "$controls"

echo "-- simulator shape tests (cli/src/simulate/)"
cargo test -q --release -p seeded-backoff-cli --bin seeded-backoff simulate

echo "-- seeded-backoff simulate (defaults: contention 100 clients, outage 1000, shed 1000, 7 strategies x 50 runs)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run -q --release -p seeded-backoff-cli -- simulate --svg "$out/simulate.svg" | tee "$out/table.txt"
grep -q '^wall time: ' "$out/table.txt"
grep -q '<svg' "$out/simulate.svg"
# JSON: the same seed gives the same figures (the wall time goes to stderr).
cargo run -q --release -p seeded-backoff-cli -- simulate --runs 5 --format json 2>/dev/null >"$out/a.json"
cargo run -q --release -p seeded-backoff-cli -- simulate --runs 5 --format json 2>/dev/null >"$out/b.json"
cmp "$out/a.json" "$out/b.json"
python3 - "$out/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {r["strategy"]: r for r in d["contention"]["results"]}
o = {r["strategy"]: r for r in d["outage"]["results"]}
assert len(c) == 7 and len(o) == 7, (c.keys(), o.keys())  # six jitters and api-core-default
assert all(r["unfinished"] == 0 for r in list(c.values()) + list(o.values()))
assert max(c, key=lambda s: c[s]["calls_total"]) == "none", c
assert o["google"]["peak_rps_mean"] > 3 * o["full"]["peak_rps_mean"], o
print("simulate --format json: deterministic, every client finished, expected shape holds")
PY
# Bad input is a one-line error naming the flag, exit status 2.
if cargo run -q --release -p seeded-backoff-cli -- simulate --clients 0 2>"$out/err"; then
  echo "simulate --clients 0 was accepted" >&2
  exit 1
fi
grep -q -- '--clients' "$out/err"

echo "-- benches: unit tests of the peer configurations, then every bench once (test mode, no timing)"
cargo test -q -p seeded-backoff-bench --lib --benches

if [ -x lab/size-report/node_modules/.bin/esbuild ] && command -v arm-none-eabi-size >/dev/null; then
  echo "-- size report"
  bash lab/core-size.sh
else
  echo "size report FAILED: needs 'npm ci' in lab/size-report and arm-none-eabi-size" >&2
  exit 1
fi
