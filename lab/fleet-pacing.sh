#!/usr/bin/env bash
# 3 replicas sharing one pacer through redis-server in front of one database of 100 requests/s, 1,000 clients
#
# lab/pacing's server with `--answer bare` is the database (100 served in each second, 429
# above); lab/pacing's pace-replica passes each request on and paces each 429 with the core's
# PaceLayer; 1,000 Rust clients (pace-clients, `paced`) are spread over the replicas, a third each.
# The modes (lab/pacing/fleet.mjs): 3 replicas sharing one SharedPacer (capacity 100) kept in
# a redis-server this script starts; 3 each pacing alone with 33; 3 each pacing alone with 100;
# 1 server pacing with 100; and, half the clients on one replica, 3 sharing one pacer and 3 each
# pacing alone with 33. Goals (the shared fleet): the last client done <= 11 s, <= 2.0 calls
# per client, no second after the first above 105 requests. About 75 s, stopped at 300 s; the
# table also goes to artifacts/fleet-pacing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

server=${REDIS_SERVER:-/usr/bin/redis-server}
[ -x "$server" ] || { echo "FAIL (fleet-pacing): no redis-server at $server" >&2; exit 1; }
cargo build -q --release -p seeded-backoff-pace-server >&2
target=${CARGO_TARGET_DIR:-$PWD/target}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.05; done
mkdir -p artifacts
echo "redis-server $("$server" --version | sed 's/.*v=\([^ ]*\).*/\1/') on 127.0.0.1, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
DB="$target/release/seeded-backoff-pace-server" REPLICA="$target/release/pace-replica" \
  CLIENTS_BIN="$target/release/pace-clients" STORE="redis://127.0.0.1:$port/" OUT=artifacts/fleet-pacing.md \
  timeout 300 node lab/pacing/fleet.mjs
echo "load after the runs: $(cut -d' ' -f1 /proc/loadavg)"
