# redis-server for the fleet runs: on 127.0.0.1 only, on a free port, no persistence. Sourced.
# redis_found WHAT: REDIS_SERVER (default /usr/bin/redis-server) is there, else says so for WHAT.
# redis_start: starts it, sets rport and rpid, and returns once it takes connections (5 s at most);
# the caller's EXIT trap kills $rpid.
rpid=${rpid:-}

redis_found() {
  server=${REDIS_SERVER:-/usr/bin/redis-server}
  [ -x "$server" ] || { echo "$1: no redis-server at $server"; return 1; }
}

redis_start() {
  rport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$server" --port "$rport" --bind 127.0.0.1 --save '' --appendonly no >/dev/null 2>&1 &
  rpid=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$rport) 2>/dev/null && return 0; sleep 0.05; done
}
