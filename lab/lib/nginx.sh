# nginx on 127.0.0.1 for the tests that need a real rate limiter (lab/storm.sh, lab/quota-nginx.sh).
# Sourced; `nginx_serve NAME RATE STATUS LOCATION` writes a config whose one server counts
# requests in a `limit_req` zone NAME of RATE r/s answering STATUS above it (LOCATION is the body
# of `location /`, which names the zone; `@dir@` in it stands for the server's root), starts nginx
# on a free port and stops it when the script exits. It sets `dir` (the server's root;
# `$dir/access.log` holds "msec status uri" per request) and `port`; `nginx_rate` changes the rate. `nginx_found` fails, with a
# line saying so, where nginx is not installed.
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

nginx_found() {
  [ -x "$nginx_bin" ] && return 0
  echo "## SKIPPED: $1: nginx is not installed and scripts/setup.sh could not install it (Debian package 'nginx')."
  return 1
}

nginx_serve() {
  local name=$1 rate=$2 status=$3 location=$4
  dir=$(mktemp -d)
  location=${location//@dir@/$dir}
  chmod 755 "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
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
  log_format $name '\$msec \$status \$request_uri';
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 1000000;
  limit_req_zone \$server_name zone=$name:1m rate=${rate}r/s;
  limit_req_status $status;
  limit_req_log_level warn;
  server {
    listen 127.0.0.1:$port;
    server_name $name;
    access_log $dir/access.log $name;
    location / {
$location
      root $dir/www;
      try_files /ok.txt =404;
    }
  }
}
CONF
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -t -q
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf"
  trap nginx_stop EXIT
  echo "-- nginx on 127.0.0.1:$port (pid $(cat "$dir/nginx.pid"))"
}

# `nginx_rate NAME RATE`: zone NAME's rate changed to RATE r/s by a reload (SIGHUP). The zone keeps
# its shared memory, so its state carries over; the old worker closes its keep-alive connections
# as their requests end, and the clients connect again to the new one.
nginx_rate() {
  sed -i "s|zone=$1:1m rate=[0-9]*r/s|zone=$1:1m rate=${2}r/s|" "$dir/nginx.conf"
  kill -HUP "$(cat "$dir/nginx.pid")"
}

nginx_stop() {
  if [ -f "$dir/nginx.pid" ]; then
    kill -QUIT "$(cat "$dir/nginx.pid")" 2>/dev/null || true
    sleep 0.5
  fi
  rm -rf "$dir"
}
