#!/usr/bin/env bash
# Lab: how close to its budget fetchWithBackoff() ends against tests/faults/fault_server.py, in
# Node and in headless Chromium (the cases of wasm/test/faults-cases.mjs: resets, stall, trickle,
# refused, storm). The gate checks each loop's outcome and what it leaves behind, and bounds its
# time only at ten times the budget; here each failing loop's time is set against the budget plus
# one attempt (goal: it gives up within it). About 40 s.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
[ -f wasm/dist/index.js ] || npm --prefix wasm run build
budget=$(node --input-type=module -e "import { BUDGET_MS } from './wasm/test/faults-cases.mjs'; console.log(BUDGET_MS)")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
node wasm/test/faults.test.mjs >"$out" 2>&1 || { cat "$out"; echo "web-faults: the Node fault tests failed" >&2; exit 1; }
timeout 150 node wasm/test/browser/faults.mjs >>"$out" 2>&1 || { cat "$out"; echo "web-faults: the Chromium fault run failed" >&2; exit 1; }
grep -E '^(node|chromium) ' "$out"
# "node stall: gave up after 5 attempts in 1712 ms: ..." -> one goal line per loop.
sed -nE 's/^(node|chromium) ([a-z-]+): gave up after ([0-9]+) attempts in ([0-9]+) ms.*/\1 \2 \3 \4/p' "$out" |
  while read -r runtime fault attempts ms; do
    if [ "$ms" -le "$budget" ]; then met=met; else met=missed; fi
    echo "goal: $met: $runtime $fault: gave up after $attempts attempts in $ms ms, goal <= $budget ms (the budget and one attempt)"
  done
