#!/usr/bin/env bash
# The adapters for the retry libraries people already use, each against the real library (pinned)
# and a local HTTP server on 127.0.0.1: ky 2, axios-retry 4 and got 16 (wasm/test/adapters, its own
# package-lock.json, importing the built npm package; wasm/README.md's adapter snippets as pasted),
# and tenacity 9 and stamina 26 (python/tests/test_adapter_*.py, python/requirements-adapters.txt;
# python/README.md's snippets as pasted). The Rust adapter (reqwest-retry) runs in
# `cargo test --workspace --all-features`.
# Standalone: bash scripts/test.d/76-adapters.sh (after scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "FAIL (adapters): $*" >&2; exit 1; }

echo "--- JS: ky, axios-retry, got against the built package"
[ -d wasm/test/adapters/node_modules/ky ] || fail "wasm/test/adapters has no node_modules: run scripts/setup.sh"
# ./test.sh built the package in 20-wasm.sh; on its own, this builds it once.
[ -f wasm/dist/adapters/ky.js ] || npm --prefix wasm run build
timeout 300 node --test --test-reporter=spec wasm/test/adapters/*.test.mjs

echo "--- Python: tenacity and stamina"
venv=$PWD/.venv
"$venv/bin/python" -c 'import tenacity, stamina' 2>/dev/null ||
  fail ".venv lacks python/requirements-adapters.txt: run scripts/setup.sh"
# This tree's wheel, as 70-python.sh installs it (a wheel, not `maturin develop`, which would leave
# a cffi module in the source tree); built here only when the sources changed since.
. scripts/lib/wheel.sh
installed_wheel >/dev/null || fail "the wheel did not build"
pkg=$("$venv/bin/python" -c 'import os, seeded_backoff; print(os.path.dirname(seeded_backoff.__file__))')
(cd "$(mktemp -d)" && timeout 120 "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$OLDPWD"/python/tests/test_adapter_*.py --doctest-modules "$pkg/tenacity.py" "$pkg/stamina.py")

echo
echo "adapters: ky, axios-retry, got, tenacity and stamina pass against the real libraries"
