#!/usr/bin/env bash
# The send rate against a real rate limiter: nginx (Debian package) on 127.0.0.1 only, limit_req
# answering 429 above RATE r/s (burst BURST, nodelay), and 50 concurrent Node workers, first with no
# limiter (fetchWithBackoff per request), then sharing one npm SendRate (tests/quota/quota.mjs).
# nginx's access log counts served and refused. Starts and stops nginx itself; about 45 s, stopped
# at 150 s. Writes the table to artifacts/quota-nginx.md.
set -uo pipefail
cd "$(dirname "$0")/../.."

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx_bin" ]; then
  echo "## SKIPPED: the nginx quota test: nginx is not installed (Debian package 'nginx')."
  exit 0
fi

set -e
if [ ! -f wasm/dist/send-rate.js ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
  npm --prefix wasm run build
fi
dir=$(mktemp -d)
chmod 755 "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rate=${RATE:-100}
burst=${BURST:-10}
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
  log_format quota '\$msec \$status \$request_uri';
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 1000000;
  limit_req_zone \$server_name zone=quota:1m rate=${rate}r/s;
  limit_req_status 429;
  limit_req_log_level warn;
  server {
    listen 127.0.0.1:$port;
    server_name quota;
    access_log $dir/access.log quota;
    location / {
      limit_req zone=quota burst=$burst nodelay;
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
PORT=$port ACCESS_LOG="$dir/access.log" RATE=$rate BURST=$burst SECONDS=${SECONDS_PER_MODE:-20} \
  PACKAGE="$PWD/wasm/dist/index.js" OUT=artifacts/quota-nginx.md timeout 150 node tests/quota/quota.mjs
