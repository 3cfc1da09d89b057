#!/usr/bin/env bash
# The simulator's outage prediction against a real rate-limited server: nginx (Debian package) on
# 127.0.0.1 only, limit_req returning 503 above a set rate, and 300 Node clients per strategy using
# the npm package's fetchWithBackoff over real sockets (tests/storm/storm.mjs). Starts and stops
# nginx itself; about 80 s, stopped at 150 s. Writes the table to artifacts/storm.md (BENCHMARKS.md records one).
set -uo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx_bin" ]; then
  echo "################################################################################"
  echo "## SKIPPED: the nginx storm test. nginx is not installed and scripts/setup.sh  ##"
  echo "## could not install it (Debian package 'nginx'). The simulator's prediction   ##"
  echo "## is NOT checked against a real server in this run.                          ##"
  echo "################################################################################"
  exit 0
fi

set -e
cargo build -q --release -p seeded-backoff-cli
if [ ! -f wasm/dist/index.js ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
  npm --prefix wasm run build
fi

dir=$(mktemp -d)
chmod 755 "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
capacity=${CAPACITY:-100}
mkdir -p "$dir/www" "$dir/tmp"
echo ok >"$dir/www/ok.txt"
chmod -R a+rX "$dir"
cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 8192;
pid $dir/nginx.pid;
error_log $dir/error.log error;
events { worker_connections 4096; }
http {
  access_log off;
  log_format storm '\$msec \$status \$request_uri';
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 1000000;
  limit_req_zone \$server_name zone=storm:1m rate=${capacity}r/s;
  limit_req_status 503;
  limit_req_log_level warn;
  server {
    listen 127.0.0.1:$port;
    server_name storm;
    access_log $dir/access.log storm;
    location / {
      # The outage: everything is a 503 until the test creates the file (checked per request).
      if (!-f $dir/up) { return 503; }
      limit_req zone=storm burst=$capacity nodelay;
      root $dir/www;
      try_files /ok.txt =404;
    }
  }
}
CONF
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -t -q
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf"
stop() {
  if [ -f "$dir/nginx.pid" ]; then
    kill -QUIT "$(cat "$dir/nginx.pid")" 2>/dev/null || true
    sleep 0.5
  fi
  rm -rf "$dir"
}
trap stop EXIT
echo "-- nginx on 127.0.0.1:$port (pid $(cat "$dir/nginx.pid"))"
mkdir -p artifacts
rc=0
PORT=$port UP_FILE="$dir/up" ACCESS_LOG="$dir/access.log" CAPACITY=$capacity \
  SIMULATOR="$(realpath "${CARGO_TARGET_DIR:-target}")/release/seeded-backoff" PACKAGE="$PWD/wasm/dist/index.js" \
  OUT=artifacts/storm.md timeout 150 node tests/storm/storm.mjs || rc=$?
exit $rc
