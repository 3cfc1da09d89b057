#!/usr/bin/env bash
# The simulator's `shed` with what the server answers, against a real server: lab/pacing's hyper
# server on 127.0.0.1 only (100 requests/s, 429 above; the core's PaceLayer for the pacer), and
# 1,000 clients per fleet, half the npm package's fetchWithBackoff in two Node processes, half the
# Python package's asyncio retry over aiohttp (lab/pacing/pacing.mjs). The fleets: the pacer with
# `paced` clients, `Retry-After: 1` with `equal`, no Retry-After with `full` and with `google`. Each
# fleet has a server of its own, started and stopped by the test; about 100 s, stopped at 170 s.
# Prints the table on stdout (the build's output goes to stderr) and writes it to
# artifacts/pacing.md; lab/RESULTS.md's `pacing` section is this script's output
# (bash lab/benchmarks.sh pacing).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

venv=$PWD/.venv
[ -x "$venv/bin/maturin" ] || { echo "FAIL (pacing): .venv has no maturin: run scripts/setup.sh" >&2; exit 1; }
"$venv/bin/python" -c 'import aiohttp' 2>/dev/null ||
  { echo "FAIL (pacing): .venv has no aiohttp: run scripts/setup.sh" >&2; exit 1; }
{
  cargo build -q --release -p seeded-backoff-cli -p seeded-backoff-pace-server
  if [ ! -f wasm/dist/index.js ]; then
    [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
    npm --prefix wasm run build
  fi
  # The Python package as 70-python.sh builds it: the wheel of this tree, installed into .venv.
  . scripts/lib/wheel.sh
  installed_wheel
} >&2
target=${CARGO_TARGET_DIR:-$PWD/target}
mkdir -p artifacts
. lab/lib/checked.sh
checked pacing env SERVER="$target/release/seeded-backoff-pace-server" SIMULATOR="$target/release/seeded-backoff" \
  PACKAGE="$PWD/wasm/dist/index.js" PYTHON="$venv/bin/python" OUT=artifacts/pacing.md \
  timeout 170 node lab/pacing/pacing.mjs
