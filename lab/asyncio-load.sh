#!/usr/bin/env bash
# Lab: 1,000 asyncio tasks retrying 503s through the Python package with Google's policy, beside
# tenacity (tests/faults/load_asyncio.py --lab): the Python memory per sleeping task of each, and
# the time cancelling the gather that holds them takes (goal <= 100 ms). The gate (77-faults.sh)
# runs the same load for its outcomes: every task ended, none left, no warning. Seconds, once the
# package is in .venv (scripts/setup.sh makes .venv, VENV names another; the package is built
# here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${VENV:-$PWD/.venv}
[ -x "$venv/bin/python" ] || { echo "asyncio-load: .venv is missing: run scripts/setup.sh" >&2; exit 1; }
if ! "$venv/bin/python" -c 'import seeded_backoff' 2>/dev/null; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  (. "$venv/bin/activate" && cd python && maturin build --release --out "$out/wheels" 2>&1 | tail -n 1)
  "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "$out"/wheels/*.whl
fi
"$venv/bin/python" tests/faults/load_asyncio.py --lab
