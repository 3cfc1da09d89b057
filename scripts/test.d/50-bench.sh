#!/usr/bin/env bash
# The lab's tools, checked for what they compute, never for a figure: the simulator's shape tests
# (no jitter worst in contention; Google re-synchronizes at the cap in the outage), its JSON
# deterministic, its chart holding every text a reader needs, bad input and an oversized run
# refused; the benches and their peer configurations compile and run once; lab/RESULTS.md's
# generated sections in shape (lab/benchmarks.sh --check; the figures come from the lab).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

echo "-- lab/RESULTS.md: the sections lab/benchmarks.sh writes, in shape; no history"
bash lab/benchmarks.sh --check
# The check can fail: a copy with one cell cut from a generated table's first row, and a copy
# with a text section's output block removed, are each refused with the section's name.
controls=$(mktemp -d)
python3 - "$controls" <<'PY'
import re, sys
text = open("lab/RESULTS.md", encoding="utf-8").read()
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

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
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
echo "-- a run over the work limit is refused up front (exit 2)"
set +e
cargo run -q --release -p seeded-backoff-cli -- simulate --clients 10000000 --runs 10000 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ]

echo "-- the chart (simulate --runs 2 --svg): every text a reader needs, the sections in the README's order"
cargo run -q --release -p seeded-backoff-cli -- simulate --runs 2 --svg "$out/simulate.svg" >/dev/null
for text in "1. contention" "2. outage" "3. shed" "clients done (%)" "requests per second" "capacity: 100 requests/s" \
  "server recovers (120 s)" "off scale" "pacer + paced clients" "the limit: every client done (10 s)" \
  "4. quota" "attempts sent per second" "AWS adaptive (model)" "send rate (ours)" \
  "the quota: 100 requests/s, 50 from 20 s to 40 s"; do
  grep -q "$text" "$out/simulate.svg" || { echo "chart: missing '$text'"; exit 1; }
done
for pair in "1. contention|2. outage" "2. outage|3. shed" "3. shed|4. quota"; do
  [ "$(grep -n "${pair%%|*}" "$out/simulate.svg" | cut -d: -f1 | head -n 1)" -lt \
    "$(grep -n "${pair##*|}" "$out/simulate.svg" | cut -d: -f1 | head -n 1)" ] || { echo "chart: ${pair%%|*} after ${pair##*|}"; exit 1; }
done
echo "the chart holds its texts in order"

echo "-- benches: unit tests of the peer configurations, then every bench once (test mode, no timing)"
cargo test -q -p seeded-backoff-bench --lib --benches
