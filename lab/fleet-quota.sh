#!/usr/bin/env bash
# A fleet sharing one quota: PROCESSES (5) Rust client processes of WORKERS (10) Tokio tasks each
# against nginx's limit_req (RATE 100 r/s, burst 10, 429 above it) on 127.0.0.1, first each with
# its own send rate (/fleet-own), then all sharing one send rate kept in a redis-server
# (/fleet-shared, SPEC.md §19), SECONDS (15) each. Counted from nginx's access log: goodput
# (served over the quota: the rate over the mode's span in the log, plus the burst) and the
# refused share after the first second, printed beside the goals for the shared rate (goodput
# >= 98 % of the quota, refused <= 1 % after the first second); the clients' own lines give the
# rate each learnt and, shared, its decisions, those made alone, and conflicts.
set -uo pipefail
cd "$(dirname "$0")/.."

. lab/lib/nginx.sh
nginx_found "the fleet quota run" || exit 1
. lab/lib/redis.sh
redis_found fleet-quota || exit 1

set -e
cargo build -q --release -p seeded-backoff-quota-client
client=${CARGO_TARGET_DIR:-target}/release/quota-client
rate=${RATE:-100}
burst=${BURST:-10}
seconds=${SECONDS_PER_MODE:-15}
processes=${PROCESSES:-5}
workers=${WORKERS:-10}
nginx_serve quota "$rate" 429 "      limit_req zone=quota burst=$burst nodelay;"
trap 'kill $rpid 2>/dev/null; nginx_stop' EXIT
redis_start
echo "-- redis-server on 127.0.0.1:$rport; $processes processes x $workers tasks; load $(cut -d' ' -f1 /proc/loadavg)"

for run in "/fleet-own|" "/fleet-shared|redis://127.0.0.1:$rport/"; do
  path=${run%%|*}
  store=${run#*|}
  sleep 1.5 # nginx's bucket refilled
  echo "-- $path"
  pids=()
  for _ in $(seq "$processes"); do
    MODE=fleet PORT=$port SECONDS=$seconds WORKERS=$workers PATH_NAME=$path STORE=$store \
      timeout $((seconds + 45)) "$client" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
done
sleep 1.5 # the log flushed

python3 - "$dir/access.log" "$rate" "$burst" <<'PY'
import sys
log, rate, burst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = {}
for line in open(log):
    msec, status, uri = line.split()
    rows.setdefault(uri, []).append((float(msec), int(status)))
figures = {}
print("| fleet | served | refused | goodput (of the quota) | refused after the first second |")
print("|---|---|---|---|---|")
for path, name in (("/fleet-own", "each process its own send rate"), ("/fleet-shared", "one send rate in redis-server")):
    reqs = sorted(rows.get(path, []))
    if not reqs:
        sys.exit(f"fleet-quota: no request on {path}")
    start, end = reqs[0][0], reqs[-1][0]
    served = sum(1 for _, s in reqs if s == 200)
    refused = sum(1 for _, s in reqs if s == 429)
    quota = rate * (end - start) + burst
    after = [s for t, s in reqs if t >= start + 1]
    late = sum(1 for s in after if s == 429) / max(1, len(after))
    figures[path] = (served / quota, late)
    print(f"| {name} | {served} | {refused} | {100 * served / quota:.1f} % | {100 * late:.2f} % |")
goodput, late = figures["/fleet-shared"]
own_goodput, own_late = figures["/fleet-own"]
print(f"goal: {'met' if goodput >= 0.98 else 'missed'}: a fleet sharing one send rate in redis-server: goodput {100 * goodput:.1f} % of the quota (goal >= 98 %; own rates: {100 * own_goodput:.1f} %)")
print(f"goal: {'met' if late <= 0.01 else 'missed'}: a fleet sharing one send rate in redis-server: refused {100 * late:.2f} % after the first second (goal <= 1 %; own rates: {100 * own_late:.2f} %)")
PY
