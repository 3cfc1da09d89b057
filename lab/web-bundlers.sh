#!/usr/bin/env bash
# Lab: the npm package in the example app as each bundler builds it with its defaults (esbuild,
# Vite, webpack, Rollup, an import map), timed and weighed in headless Chromium beside p-retry:
# the time from retry() to its first request with no DevTools attached (goal <= 5 ms, the least of
# up to 10 cold pages), under the strict CSP at 4x CPU (fetch() called <= 20 ms after retry()) and
# with a policy option at 4x CPU (<= 10 ms), and the bytes each page fetched, as a table
# (wasm/test/bundlers/run.mjs --lab; the gate runs the same pages' functional checks without
# timing them). About 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
[ -f wasm/dist/index.js ] || npm --prefix wasm run build
[ -x wasm/test/bundlers/node_modules/.bin/vite ] || (cd wasm/test/bundlers && npm ci --no-audit --no-fund)
node wasm/test/bundlers/run.mjs --lab
