#!/usr/bin/env bash
# The send rate against a real rate limiter: nginx (Debian package) on 127.0.0.1 only, limit_req
# answering 429 above RATE r/s (burst BURST, nodelay), and 50 concurrent Node workers, first with no
# limiter (fetchWithBackoff per request), then sharing one npm SendRate (tests/quota/quota.mjs).
# nginx's access log counts served and refused. Starts and stops nginx itself; about 45 s, stopped
# at 150 s. Writes the table to artifacts/quota-nginx.md.
set -uo pipefail
cd "$(dirname "$0")/../.."

. scripts/lib/nginx.sh
nginx_found "the nginx quota test" || exit 0

set -e
if [ ! -f wasm/dist/send-rate.js ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
  npm --prefix wasm run build
fi
rate=${RATE:-100}
burst=${BURST:-10}
nginx_serve quota "$rate" 429 "      limit_req zone=quota burst=$burst nodelay;"
mkdir -p artifacts
PORT=$port ACCESS_LOG="$dir/access.log" RATE=$rate BURST=$burst SECONDS=${SECONDS_PER_MODE:-20} \
  PACKAGE="$PWD/wasm/dist/index.js" OUT=artifacts/quota-nginx.md timeout 150 node tests/quota/quota.mjs
