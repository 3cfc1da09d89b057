#!/usr/bin/env bash
# The Google Cloud and Valkey integrations against the real client libraries (pinned: Python's in
# python/requirements-integrations.txt, installed into .venv by scripts/setup.sh; Node's in
# wasm/test/google-cloud/package-lock.json) and real local servers on 127.0.0.1 at ephemeral ports:
# a stand-in of the Memorystore v1 API (REST, and gRPC for the async Python client) and
# redis-server (Debian's package), which the tests start, kill, restart and stop. Expected delays
# come from the independent model (tests/model). Node's seeded-backoff/shared against redis-server
# (wasm/test/google-cloud/shared-*.test.mjs) is here too: it reads in Node values the Python package
# (.venv) wrote, and back. Also runs the integration sections' snippets of python/README.md and
# wasm/README.md as pasted. About a minute; each half is stopped at
# 5 minutes. Standalone: bash scripts/test.d/75-integrations.sh (after scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "FAIL (integrations): $*" >&2; exit 1; }
venv=$PWD/.venv
command -v redis-server >/dev/null || fail "redis-server is not installed: run scripts/setup.sh"
"$venv/bin/python" -c 'import google.cloud.memorystore_v1, valkey' 2>/dev/null ||
  fail ".venv lacks python/requirements-integrations.txt: run scripts/setup.sh"
[ -d wasm/test/google-cloud/node_modules/google-gax ] || (cd wasm/test/google-cloud && npm ci --no-audit --no-fund)

echo "--- python: the wheel into .venv, then python/tests/integrations"
. scripts/lib/wheel.sh
installed_wheel >/dev/null || fail "the wheel did not build"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$out" && timeout 300 "$venv/bin/python" -m pytest -q -p no:cacheprovider -s "$OLDPWD/python/tests/integrations")

echo "--- node: the built package (wasm/dist) with the client libraries of wasm/test/google-cloud"
if [ ! -f wasm/dist/google-cloud.js ] || [ -n "$(find wasm/js wasm/types wasm/src core/src wasm/package.json -newer wasm/dist/google-cloud.js | head -n 1)" ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || (cd wasm && npm ci --no-audit --no-fund)
  npm --prefix wasm run build
fi
timeout 300 node --test --test-concurrency=1 --test-reporter=spec wasm/test/google-cloud/

echo
echo "integrations: the Google Cloud and Valkey clients retried on the core's schedules, as the model says"
