#!/usr/bin/env bash
# Lab: the npm package's cost per request in Node (wasm/scripts/bench.mjs): a request's schedule
# from a shared Policy beside a plain JS doubling loop (goal <= 3x), and a long-lived Backoff's
# nextDelay() beside a pure-JS twin of the same strategy (goal <= 2x). About 1 minute.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
[ -f wasm/dist/index.js ] || npm --prefix wasm run build
node wasm/scripts/bench.mjs
