#!/usr/bin/env bash
# One quota, a mixed fleet: 50 client processes (RUST_PROCS 17 Rust, NODE_PROCS 17 Node, PY_PROCS 16 Python; WORKERS 3 each)
# against nginx's limit_req (RATE 100 r/s, burst 10, 429 above it) on 127.0.0.1, in three modes of
# SECONDS_PER_MODE (30) each, nginx's rate halved by a reload at a third of each mode and restored
# at two thirds (as lab/quota-nginx.sh's change):
#   /mixed-own     each process its own send rate (today's);
#   /mixed-shared  every process sharing one SharedSendRate (the defaults) on one key of a
#                  redis-server this script starts (SPEC.md §19): Rust, Node and Python on the same
#                  key and configuration;
#   /mixed-fixed   a fixed shared rate, as Bottleneck's clustering keeps one: a SharedSendRate on
#                  another key whose configuration pins min = max = RATE, set to it before the mode
#                  by one throttle (MODE=prime of the Rust client). A send rate's throttle sets the
#                  rate within [min, max] and a probe raises it within them, so with min = max no
#                  answer moves it: every process of the fleet waits its turn on one schedule of RATE
#                  r/s kept in the store, which is what a shared fixed limiter (Bottleneck's
#                  reservoir or minTime in Redis) does; the retries still go through it, as they go
#                  through Bottleneck's schedule.
# Each process's requests go to /mixed-MODE?BINDING, so nginx's access log counts each mode and
# each binding; every process of a mode begins at one agreed time (START_AT, STARTUP_S 8 after
# the launch), or with STAGGER_MS its first requests spread over that many ms (a fleet started by
# a rollout rather than at one instant; the first second's refusals are outside the figures). lab/quota/fleet_table.py prints per mode the goodput (served over the quota nginx
# offered, the halved third at the halved rate), the refused share after the first second and the
# time back within 5 % of the quota after each change, beside the goals (>= 98 %, <= 1 %, <= 3 s).
# The Rust client is lab/quota (MODE=fleet), Node lab/quota/fleet.mjs (the built wasm/dist and
# wasm/test/google-cloud's iovalkey), Python lab/quota/fleet_py.py (VENV, default .venv with the
# package built by scripts/lib/wheel.sh, and valkey-py). BOUND_MS sets the shared parts' store
# bound (SPEC.md §19's 50 ms when unset), to tell a late store from the rate's own rules. Each client is stopped after the mode
# plus 45 s; nginx and redis-server are stopped on exit. About 2.5 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."

. lab/lib/nginx.sh
nginx_found "the mixed fleet quota run" || exit 1
. lab/lib/redis.sh
redis_found fleet-quota-mixed || exit 1

set -e
if [ -z "${VENV:-}" ]; then
  . scripts/lib/wheel.sh
  installed_wheel >/dev/null
fi
venv=${VENV:-$PWD/.venv}
"$venv/bin/python" -c 'import seeded_backoff.shared, valkey' ||
  { echo "fleet-quota-mixed: $venv lacks the package or valkey-py (scripts/setup.sh python)"; exit 1; }
if [ ! -f wasm/dist/shared.js ]; then
  [ -x wasm/node_modules/.bin/esbuild ] || npm --prefix wasm ci --no-audit --no-fund
  npm --prefix wasm run build
fi
[ -d wasm/test/google-cloud/node_modules/iovalkey ] || (cd wasm/test/google-cloud && npm ci --no-audit --no-fund)
cargo build -q --release -p seeded-backoff-quota-client
client=${CARGO_TARGET_DIR:-target}/release/quota-client

rate=${RATE:-100}
burst=${BURST:-10}
seconds=${SECONDS_PER_MODE:-30}
startup=${STARTUP_S:-8}
workers=${WORKERS:-3}
counts=("${RUST_PROCS:-17}" "${NODE_PROCS:-17}" "${PY_PROCS:-16}")
total=$((counts[0] + counts[1] + counts[2]))
nginx_serve quota "$rate" 429 "      limit_req zone=quota burst=$burst nodelay;"
pids=()
trap 'set +e; kill "${pids[@]}" $rpid 2>/dev/null; nginx_stop' EXIT
trap 'exit 143' TERM INT
redis_start
echo "-- redis-server on 127.0.0.1:$rport; ${counts[0]} Rust + ${counts[1]} Node + ${counts[2]} Python processes x $workers workers; load $(cut -d' ' -f1 /proc/loadavg)"

until_epoch() { python3 -c "import sys, time; time.sleep(max(0, float(sys.argv[1]) - time.time()))" "$1"; }
: >"$dir/changes"
: >"$dir/learnt"
for mode in ${MODES:-own shared fixed}; do
  path=/mixed-$mode key=sb:lab:mixed-$mode store='' fixed=''
  [ "$mode" = own ] || store=$rport
  [ "$mode" = fixed ] && fixed=$((rate * 1000))
  [ "$mode" = fixed ] && MODE=prime STORE="redis://127.0.0.1:$rport/" KEY=$key FIXED_MILLI=$fixed "$client"
  start=$(python3 -c "import time; print(int(time.time() * 1000) + $startup * 1000)")
  echo "$path start $((start / 1000)).$(printf %03d $((start % 1000)))" >>"$dir/changes"
  echo "-- $path: begins at $start (Unix ms)"
  pids=()
  env=(PORT=$port SECONDS=$seconds WORKERS=$workers START_AT=$start KEY=$key FIXED_MILLI=$fixed BOUND_MS=${BOUND_MS:-})
  # STAGGER_MS spreads the processes' first requests over that many ms, the bindings interleaved
  # (the n-th process at start + (7n mod N) / N of it); 0, the default, starts them together.
  n=0
  begins() { n=$((n + 1)); at_env="START_AT=$((start + (7 * n % total) * ${STAGGER_MS:-0} / total))"; }
  for _ in $(seq "${counts[0]}"); do
    begins
    env "${env[@]}" "$at_env" MODE=fleet PATH_NAME="$path?rs" STORE="${store:+redis://127.0.0.1:$store/}" \
      timeout $((seconds + startup + 45)) "$client" >>"$dir/learnt" &
    pids+=($!)
  done
  for _ in $(seq "${counts[1]}"); do
    begins
    env "${env[@]}" "$at_env" PATH_NAME="$path?node" STORE_PORT=$store PACKAGE="$PWD/wasm/dist" \
      timeout $((seconds + startup + 45)) node lab/quota/fleet.mjs >>"$dir/learnt" &
    pids+=($!)
  done
  for _ in $(seq "${counts[2]}"); do
    begins
    env "${env[@]}" "$at_env" PATH_NAME="$path?py" STORE_PORT=$store \
      timeout $((seconds + startup + 45)) "$venv/bin/python" lab/quota/fleet_py.py >>"$dir/learnt" &
    pids+=($!)
  done
  for third in 1 2; do
    at=$(python3 -c "print(($start + $third * $seconds * 1000 / 3) / 1000)")
    until_epoch "$at"
    new=$([ "$third" = 1 ] && echo $((rate / 2)) || echo "$rate")
    echo "$path $(date +%s.%N) $new" >>"$dir/changes"
    nginx_rate quota "$new"
  done
  failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
  [ "$failed" = 0 ] || echo "-- $path: $failed processes failed or timed out"
  sleep 1.5 # nginx's bucket refilled
done

set +e
python3 lab/quota/fleet_table.py "$dir/access.log" "$rate" "$burst" "$seconds" "$dir/changes" "$dir/learnt"
status=$?
if [ "${KEEP_LOG:-}" ]; then cp "$dir/access.log" "$dir/changes" "$dir/learnt" "$KEEP_LOG/"; fi
exit $status
