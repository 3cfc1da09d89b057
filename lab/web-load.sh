#!/usr/bin/env bash
# Lab: 10,000 retry() loops asleep on one AbortSignal, beside p-retry (wasm/scripts/load.mjs
# --lab): the heap per sleeping loop of each, and the time abort() takes to reject them all (goal
# <= 100 ms). The gate runs the same loops for their outcomes, listeners and warnings. Seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
[ -f wasm/dist/index.js ] || npm --prefix wasm run build
[ -d lab/size-report/node_modules/p-retry ] || (cd lab/size-report && npm ci --no-audit --no-fund)
node --expose-gc wasm/scripts/load.mjs --lab
