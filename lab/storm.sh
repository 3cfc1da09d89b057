#!/usr/bin/env bash
# The simulator's outage prediction against a real rate-limited server: nginx (Debian package) on
# 127.0.0.1 only, limit_req returning 503 above a set rate, and 300 Node clients per strategy using
# the npm package's fetchWithBackoff over real sockets (lab/storm/storm.mjs). Starts and stops
# nginx itself; about 80 s, stopped at 150 s. Writes the table to artifacts/storm.md (lab/RESULTS.md records one).
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

. lab/lib/nginx.sh
nginx_found "the nginx storm test" || exit 1

set -e
cargo build -q --release -p seeded-backoff-cli
if [ ! -f wasm/dist/index.js ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
  npm --prefix wasm run build
fi

capacity=${CAPACITY:-100}
# The outage: everything is a 503 until the test creates the file (checked per request).
nginx_serve storm "$capacity" 503 "      if (!-f @dir@/up) { return 503; }
      limit_req zone=storm burst=$capacity nodelay;"
mkdir -p artifacts
. lab/lib/checked.sh
checked storm env PORT=$port UP_FILE="$dir/up" ACCESS_LOG="$dir/access.log" CAPACITY=$capacity \
  SIMULATOR="$(realpath "${CARGO_TARGET_DIR:-target}")/release/seeded-backoff" PACKAGE="$PWD/wasm/dist/index.js" \
  OUT=artifacts/storm.md timeout 150 node lab/storm/storm.mjs
