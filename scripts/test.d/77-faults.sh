#!/usr/bin/env bash
# Faults and load for the Python package (the Rust loops' fault tests, core/tests/faults.rs, run in
# the cargo test step): `retry` with requests and httpx against tests/faults/fault_server.py on
# 127.0.0.1 (resets, stall, trickle, truncated chunked body, refused port, 5xx/429 storm), with
# ResourceWarning as an error; then 1,000 asyncio tasks retrying 503s, cancelled together
# (tests/faults/load_asyncio.py: one attempt each, every task cancelled, none left, no warning).
# Its figures beside tenacity (memory per sleeping task, the cancellation's time) are the lab's
# (lab/asyncio-load.sh). About 40 s; each part stopped at its timeout.
# Standalone: bash scripts/test.d/77-faults.sh (after scripts/setup.sh made .venv).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "FAIL (faults): $*" >&2; exit 1; }
venv=$PWD/.venv
[ -x "$venv/bin/python" ] || fail ".venv is missing: run scripts/setup.sh"

# The package as 70-python.sh installs it; built here only when the sources changed since.
. scripts/lib/wheel.sh
installed_wheel >/dev/null || fail "the wheel did not build"

echo "--- faults: Python retry (requests, httpx) against the fault server"
timeout 180 "$venv/bin/python" -W error::ResourceWarning -m pytest -q -s -p no:cacheprovider tests/faults ||
  fail "a Python fault test failed"

echo
echo "--- load: 1,000 asyncio tasks retrying 503s, seeded_backoff beside tenacity"
timeout 120 "$venv/bin/python" tests/faults/load_asyncio.py || fail "the asyncio load test failed"
echo
echo "faults: every fault ends in bounds without leaks; the load test passed"
