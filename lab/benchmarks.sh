#!/usr/bin/env bash
# Rewrites the generated sections of lab/RESULTS.md (the full record behind BENCHMARKS.md)
# from the commands that print them.
#
#   bash lab/benchmarks.sh            run every command below, rewrite its section
#   bash lab/benchmarks.sh NAME...    only the named sections
#   bash lab/benchmarks.sh --from-artifacts NAME...
#                                         a section whose command ends in `&& cat artifacts/FILE`
#                                         takes FILE as it is, without running the step again
#                                         (after ./test.sh, whose steps write those files)
#   bash lab/benchmarks.sh --check    run nothing: check the file's shape (each section below
#                                         exists once, opens with its command, holds its output,
#                                         a markdown table's rows have its header's columns; no
#                                         historical wording anywhere in the file); BENCHMARKS
#                                         names another file to check
#   bash lab/benchmarks.sh --icount   print the instructions per delay (valgrind), the
#                                         icount section's command
#   bash lab/benchmarks.sh --speed    print the summaries of `cargo bench` (ns per delay,
#                                         the per-request state's size), the speed section's command
#
# A generated section is
#   <!-- bench:NAME -->
#   ```sh
#   COMMAND
#   ```
#   ```text
#   what COMMAND printed
#   ```
#   <!-- /bench:NAME -->
# for a text section; a table section holds what COMMAND printed as it is (markdown: at least one
# table, each row with its header's number of columns) after a blank line instead of the text
# block. The prose around a section is kept. The npm figures need `npm --prefix wasm run build`
# first; the long commands (marked below) take minutes each and are run with `nice -n 10`.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${BENCHMARKS:-lab/RESULTS.md}

# NAME|KIND|COMMAND, in the file's order; KIND is text or table (what the command prints is
# markdown). Long: core-size, c-library, c-sdk, bundlers, outbox-load, fleet-scale, storm, quota-nginx, send-rate (minutes each, and they need nginx,
# Chromium or the thumbv6m target as their scripts say).
sections=(
  "speed|text|bash lab/benchmarks.sh --speed"
  "icount|text|bash lab/benchmarks.sh --icount"
  "core-size|table|bash lab/core-size.sh --table"
  "c-library|table|bash lab/c-library.sh >&2 && cat artifacts/c-library.md"
  "c-sdk|table|bash scripts/test.d/80-dist.sh >&2 && cat artifacts/c-sdk.md"
  "fleet-advice|text|cargo run -q --release -p seeded-backoff-cli -- simulate --scenario outage --clients 10000 --runs 5 --strategies google,full --outage-s 300"
  "phones|text|cargo run -q --release -p seeded-backoff-cli -- simulate --scenario outage --clients 10000 --runs 5 --strategies google --phones 50"
  "phones-dead-zone|text|cargo run -q --release -p seeded-backoff-cli -- simulate --scenario outage --clients 10000 --runs 5 --strategies google --phones 50 --outage-s 300"
  "npm-size|text|npm --prefix wasm run -s size"
  "bundlers|table|node wasm/test/bundlers/run.mjs --table"
  "outbox-load|text|(node wasm/test/browser/outbox-tabs.mjs && node wasm/test/browser/outbox-sw.mjs) | grep -E '^outbox: [0-9]+ (tabs|pages)'"
  "npm-load|text|node --expose-gc wasm/scripts/load.mjs --lab"
  "npm-bench|text|node wasm/scripts/bench.mjs"
  "simulate|text|cargo run -q --release -p seeded-backoff-cli -- simulate"
  "guidance|table|cargo run -q --release -p seeded-backoff-cli -- simulate --format json | python3 bench/guidance.py"
  "valkey|text|bash scripts/test.d/75-integrations.sh | grep -oE '(valkey-py|iovalkey), [0-9]+ clients.*'"
  "fleet-scale|table|bash lab/fleet-scale.sh"
  "pacing|text|cargo test -q --release -p seeded-backoff-cli --bin seeded-backoff paced -- --nocapture | grep 'calls/client'"
  "simulate-quota|text|cargo run -q --release -p seeded-backoff-cli -- simulate --scenario quota"
  "storm|table|bash lab/storm.sh >&2 && cat artifacts/storm.md"
  "quota-nginx|table|bash lab/quota-nginx.sh >&2 && cat artifacts/quota-nginx.md"
  "pacing-real|text|bash lab/pacing.sh"
  "fleet-store|text|bash lab/fleet-store.sh"
  "fleet-quota|text|bash lab/fleet-quota.sh 2>/dev/null | grep -E '^(\\||goal|learnt)'"
  "readme-lengths|text|wc -l README.md core/README.md wasm/README.md ffi/README.md python/README.md cli/README.md"
  "faults|text|(cargo test -q -p seeded-backoff --all-features --test faults -- --nocapture --test-threads=1 2>&1 && bash scripts/test.d/77-faults.sh) | grep -oE '(retry_tokio|TowerPolicy|requests|httpx) [a-z-]+: .*'"
  "npm-faults|text|(node wasm/test/faults.test.mjs && node wasm/test/browser/faults.mjs) | grep -E '^(node|chromium) '"
  "asyncio-load|text|.venv/bin/python tests/faults/load_asyncio.py --lab"
  "send-rate|text|python3 bench/send_rate_quota.py"
)

# Words that date a figure or tell its history; the file holds today's figures only.
history='\b(was|were|previously|formerly|earlier|no longer|used to)\b|\((before|old)\)|\bbefore (this|the change|merging)'

check() {
  python3 - "$file" "$history" "${sections[@]}" <<'PY'
import re, sys
path, history, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(path, encoding="utf-8").read()
bad = []
def cells(row):
    # A cell may hold an escaped bar (\\|); the row's outer bars open and close it.
    return len(re.split(r"(?<!\\)\|", row.strip())) - 2

def table_shape(body):
    """What is wrong with the markdown tables of a table section's output, or None."""
    lines, tables = body.split("\n"), 0
    for i, line in enumerate(lines):
        if not line.startswith("|") or (i and lines[i - 1].startswith("|")):
            continue
        rows = [line]
        for later in lines[i + 1:]:
            if not later.startswith("|"):
                break
            rows.append(later)
        if len(rows) < 3 or not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", rows[1]):
            return f"the table at `{line[:60]}` has no separator row and a row under it"
        for row in rows[1:]:
            if cells(row) != cells(line):
                return f"a row of {cells(row)} columns under a header of {cells(line)}: `{row[:60]}`"
        tables += 1
    return None if tables else "no markdown table"

for spec in specs:
    name, kind, command = spec.split("|", 2)
    opens = text.count(f"<!-- bench:{name} -->")
    closes = text.count(f"<!-- /bench:{name} -->")
    if opens != 1 or closes != 1:
        bad.append(f"section {name}: {opens} opening and {closes} closing markers, not one each")
        continue
    body = text.split(f"<!-- bench:{name} -->", 1)[1].split(f"<!-- /bench:{name} -->", 1)[0]
    if kind == "text":
        m = re.fullmatch(r"\n```sh\n(.*)\n```\n```text\n(.*?)\n?```\n", body, re.S)
    else:
        m = re.fullmatch(r"\n```sh\n(.*?)\n```\n\n(.*?)\n", body, re.S)
    if not m:
        block = "a ```text block" if kind == "text" else "a blank line and the printed markdown"
        bad.append(f"section {name}: not a ```sh block with its command, then {block}")
    elif m.group(1) != command:
        bad.append(f"section {name}: names `{m.group(1)}`, the script runs `{command}`")
    elif not m.group(2).strip():
        bad.append(f"section {name}: the output is empty")
    elif kind == "table" and (wrong := table_shape(m.group(2))):
        bad.append(f"section {name}: {wrong}")
names = re.findall(r"<!-- bench:([a-z0-9-]+) -->", text)
known = {s.split("|", 1)[0] for s in specs}
bad += [f"section {n}: not a section lab/benchmarks.sh writes" for n in names if n not in known]
for i, line in enumerate(text.splitlines(), 1):
    if re.search(history, line, re.I):
        bad.append(f"line {i}: historical wording: {line.strip()[:100]}")
for b in bad:
    print(f"{path}: {b}")
if bad:
    sys.exit(1)
print(f"{path}: {len(specs)} generated sections in shape, no historical wording")
PY
}

# Instructions per delay: a run of N schedules minus a run of none, over the 10 delays of each.
icount() {
  cargo build -q --release -p seeded-backoff-bench --bin icount --bin icount_two_sites
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  per_delay() { awk -v a="$(count "$@" 20000)" -v b="$(count "$@" 0)" 'BEGIN { printf "%.1f", (a - b) / 200000 }'; }
  printf '%-40s %s\n' "implementation (Google's shape)" "instructions per delay"
  local bin=${CARGO_TARGET_DIR:-target}/release floor two figure
  for impl in none google full equal decorrelated proportional floor backon backoff exponential-backoff retry-policies; do
    figure=$(per_delay "$bin/icount" "$impl")
    printf '%-40s %s\n' "$impl" "$figure"
    [ "$impl" != floor ] || floor=$figure
  done
  two=$(per_delay "$bin/icount_two_sites")
  printf '%-40s %s\n' "google, next_delay from two call sites" "$two"
  awk -v t="$two" -v f="$floor" 'BEGIN { r = t / f; printf "goal: two call sites <= 1.3x the floor: %.2fx, %s\n", r, (r <= 1.3) ? "met" : "NOT met" }'
}

# cargo bench's own summary tables, without criterion's per-benchmark lines.
speed() {
  cargo bench -q -p seeded-backoff-bench 2>/dev/null |
    awk '/^(size_of|ns per delay|two call sites)/ { on = 1; if (n++) print "" }
         /^Benchmarking|^next_delay\// || NF == 0 { on = 0 }
         on'
}

if [ "${1-}" = "--speed" ]; then
  speed
  exit
fi

if [ "${1-}" = "--icount" ]; then
  icount
  exit
fi

if [ "${1-}" = "--check" ]; then
  check
  exit
fi

from_artifacts=0
if [ "${1-}" = "--from-artifacts" ]; then
  from_artifacts=1
  shift
fi
wanted=("$@")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for spec in "${sections[@]}"; do
  name=${spec%%|*}
  kind=${spec#*|}
  kind=${kind%%|*}
  command=${spec#*|*|}
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " =~ " $name " ]]; then continue; fi
  echo "--- $name: $command" >&2
  start=$SECONDS
  # A command that checks its figures against a limit exits non-zero above it; what it printed is
  # still today's figures, so it is written, and the run reports the failure.
  rc=0
  run=$command
  if [ "$from_artifacts" = 1 ]; then
    [[ $command =~ \&\&\ cat\ (artifacts/[^ ]+)$ ]] || { echo "    $name does not end in cat artifacts/FILE" >&2; failed=1; continue; }
    run="cat ${BASH_REMATCH[1]}"
  fi
  CARGO_TERM_COLOR=never bash -o pipefail -c "$run" >"$out/$name" 2>"$out/$name.err" || rc=$?
  echo "    $((SECONDS - start)) s, exit status $rc" >&2
  if [ "$rc" -ne 0 ]; then
    failed=1
    tail -n 20 "$out/$name.err" >&2
  fi
  if [ ! -s "$out/$name" ]; then
    echo "    printed nothing; its section is left as it is" >&2
    continue
  fi
  python3 - "$file" "$name" "$kind" "$command" "$out/$name" <<'PY'
import sys
path, name, kind, command, output = sys.argv[1:]
text = open(path, encoding="utf-8").read()
# Without trailing blanks, which a padded column leaves and a diff would flag.
printed = "\n".join(l.rstrip() for l in open(output, encoding="utf-8").read().rstrip("\n").split("\n"))
head, tail = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
if text.count(head) != 1 or text.count(tail) != 1:
    sys.exit(f"{path} has no single {head} ... {tail} section")
before, rest = text.split(head, 1)
after = rest.split(tail, 1)[1]
if kind == "text":
    body = f"\n```sh\n{command}\n```\n```text\n{printed}\n```\n"
else:
    body = f"\n```sh\n{command}\n```\n\n{printed}\n"
open(path, "w", encoding="utf-8").write(before + head + body + tail + after)
PY
done
check
exit $failed
