#!/usr/bin/env bash
# Lab: what a browser fetches for each use of the npm package, gzip -9, beside the npm peers
# (p-retry, cockatiel, exponential-backoff, ky), with the size goals (wasm/scripts/size.mjs --lab;
# the gate keeps only its regression limits). Seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
[ -f wasm/dist/index.js ] || npm --prefix wasm run build
[ -d lab/size-report/node_modules/p-retry ] || (cd lab/size-report && npm ci --no-audit --no-fund)
node wasm/scripts/size.mjs --lab
