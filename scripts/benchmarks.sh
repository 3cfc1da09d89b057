#!/usr/bin/env bash
# Rewrites the generated sections of BENCHMARKS.md from the commands that print them.
#
#   bash scripts/benchmarks.sh            run every command below, rewrite its section
#   bash scripts/benchmarks.sh NAME...    only the named sections
#   bash scripts/benchmarks.sh --check    run nothing: check the file's shape (each section below
#                                         exists once, opens with its command, holds its output;
#                                         no historical wording anywhere in the file)
#   bash scripts/benchmarks.sh --icount   print the instructions per delay (valgrind), the
#                                         icount section's command
#   bash scripts/benchmarks.sh --speed    print the summaries of `cargo bench` (ns per delay,
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
# and the prose around it is kept. The npm figures need `npm --prefix wasm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
file=BENCHMARKS.md

# NAME|COMMAND, in the file's order.
sections=(
  "speed|bash scripts/benchmarks.sh --speed"
  "icount|bash scripts/benchmarks.sh --icount"
  "npm-size|npm --prefix wasm run -s size"
  "npm-load|node --expose-gc wasm/scripts/load.mjs"
  "npm-bench|node wasm/scripts/bench.mjs"
  "simulate|cargo run -q --release -p seeded-backoff-cli -- simulate"
  "simulate-quota|cargo run -q --release -p seeded-backoff-cli -- simulate --scenario quota"
  "readme-lengths|wc -l README.md core/README.md wasm/README.md ffi/README.md python/README.md cli/README.md"
)

# Words that date a figure or tell its history; the file holds today's figures only.
history='\b(was|were|previously|formerly|earlier|no longer|used to)\b|\((before|old)\)|\bbefore (this|the change|merging)'

check() {
  python3 - "$file" "$history" "${sections[@]}" <<'PY'
import re, sys
path, history, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(path, encoding="utf-8").read()
bad = []
for spec in specs:
    name, command = spec.split("|", 1)
    opens = text.count(f"<!-- bench:{name} -->")
    closes = text.count(f"<!-- /bench:{name} -->")
    if opens != 1 or closes != 1:
        bad.append(f"section {name}: {opens} opening and {closes} closing markers, not one each")
        continue
    body = text.split(f"<!-- bench:{name} -->", 1)[1].split(f"<!-- /bench:{name} -->", 1)[0]
    m = re.fullmatch(r"\n```sh\n(.*)\n```\n```text\n(.*?)\n?```\n", body, re.S)
    if not m:
        bad.append(f"section {name}: not a ```sh block with its command, then a ```text block")
    elif m.group(1) != command:
        bad.append(f"section {name}: names `{m.group(1)}`, the script runs `{command}`")
    elif not m.group(2).strip():
        bad.append(f"section {name}: the output block is empty")
names = re.findall(r"<!-- bench:([a-z0-9-]+) -->", text)
known = {s.split("|", 1)[0] for s in specs}
bad += [f"section {n}: not a section scripts/benchmarks.sh writes" for n in names if n not in known]
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
  for impl in none google full equal decorrelated proportional floor backon backoff exponential-backoff retry-policies; do
    printf '%-40s %s\n' "$impl" "$(per_delay target/release/icount "$impl")"
  done
  printf '%-40s %s\n' "google, next_delay from two call sites" "$(per_delay target/release/icount_two_sites)"
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

wanted=("$@")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for spec in "${sections[@]}"; do
  name=${spec%%|*}
  command=${spec#*|}
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " =~ " $name " ]]; then continue; fi
  echo "--- $name: $command" >&2
  start=$SECONDS
  # A command that checks its figures against a limit exits non-zero above it; what it printed is
  # still today's figures, so it is written, and the run reports the failure.
  rc=0
  CARGO_TERM_COLOR=never bash -c "$command" >"$out/$name" 2>"$out/$name.err" || rc=$?
  echo "    $((SECONDS - start)) s, exit status $rc" >&2
  if [ "$rc" -ne 0 ]; then
    failed=1
    tail -n 20 "$out/$name.err" >&2
  fi
  if [ ! -s "$out/$name" ]; then
    echo "    printed nothing; its section is left as it is" >&2
    continue
  fi
  python3 - "$file" "$name" "$command" "$out/$name" <<'PY'
import sys
path, name, command, output = sys.argv[1:]
text = open(path, encoding="utf-8").read()
printed = open(output, encoding="utf-8").read().rstrip("\n")
head, tail = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
if text.count(head) != 1 or text.count(tail) != 1:
    sys.exit(f"{path} has no single {head} ... {tail} section")
before, rest = text.split(head, 1)
after = rest.split(tail, 1)[1]
body = f"\n```sh\n{command}\n```\n```text\n{printed}\n```\n"
open(path, "w", encoding="utf-8").write(before + head + body + tail + after)
PY
done
check
exit $failed
