#!/usr/bin/env bash
# The npm package `seeded-backoff` (wasm/): build it (the build fails if a wasm part links an
# allocator, core::fmt or a panic path), then test the built package.
#   wasm-bindgen-test (binding layer, in Node) | node:test via import and require (every vector,
#   bad input, retry against a local HTTP server, abort, pauses under a fake clock) | tsc on the
#   .d.ts | headless Chromium (vectors, fetch retry, example page screenshot in artifacts/wasm/;
#   offline/hidden/frozen pages and 50 pages back online against a logging server, with the
#   timeline example's screenshot; Chromium's fetch against tests/faults/fault_server.py;
#   wasm/README.md's import-map and esbuild snippets, and every example built by Vite and the browser ones run) | the example app installed from the packed
#   tarball and built by each bundler with its defaults, its pages checked in Chromium with and
#   without a strict CSP (wasm/test/bundlers/run.mjs) | 10,000 loops on one AbortSignal | the size
#   regression limits (bytes).
# Every check is on outcomes, order, counts or bytes, or a time bound ten times what it measures;
# the timings, speeds and sizes beside the peers are lab experiments (lab/web-*.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x wasm/node_modules/.bin/esbuild ]; then
  (cd wasm && npm ci --no-audit --no-fund)
fi

echo "--- npm --prefix wasm run build"
npm --prefix wasm run build

echo "--- the binding layer compiled to wasm32, run in Node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p seeded-backoff-wasm --target wasm32-unknown-unknown

echo "--- node:test against the built package (import and require)"
node --test --test-reporter=spec wasm/test/*.test.mjs wasm/test/*.test.cjs

echo "--- TypeScript: the .d.ts against documented usage (ESM and CommonJS, old and new lib)"
wasm/node_modules/.bin/tsc -p wasm/test/types/tsconfig.json
wasm/node_modules/.bin/tsc -p wasm/test/types/tsconfig.old-lib.json

echo "--- headless Chromium"
node wasm/test/browser/run.mjs

echo "--- headless Chromium: retries follow the page's life"
node wasm/test/browser/lifecycle.mjs

echo "--- headless Chromium: fetchWithBackoff() against the fault server (resets, stall, trickle, refused, storm)"
timeout 150 node wasm/test/browser/faults.mjs

echo "--- headless Chromium: wasm/README.md's snippets as pasted (import map, esbuild; every example built by Vite)"
if [ ! -x wasm/test/bundlers/node_modules/.bin/vite ]; then
  (cd wasm/test/bundlers && npm ci --no-audit --no-fund)
fi
node wasm/test/browser/readme.mjs

echo "--- headless Chromium: devicePreset() with device emulation on and off (README's phones snippet)"
node wasm/test/browser/device.mjs

echo "--- the example app built by esbuild, Vite, webpack, Rollup (default settings), an import map, Node, workers"
if [ ! -x wasm/test/bundlers/node_modules/.bin/vite ]; then
  (cd wasm/test/bundlers && npm ci --no-audit --no-fund)
fi
timeout 480 node wasm/test/bundlers/run.mjs

echo "--- load: 10,000 retry() loops on one AbortSignal"
timeout 300 node --expose-gc wasm/scripts/load.mjs

echo "--- size: the regression limits"
node wasm/scripts/size.mjs
