#!/usr/bin/env bash
# The shared parts against a 3-node Redis Cluster on 127.0.0.1 beside one node; a node killed mid-run
#
# Three `redis-server --cluster-enabled yes` nodes on free ports, made one cluster by
# `redis-cli --cluster create ... --cluster-replicas 0` (`cluster-require-full-coverage no`: a
# dead node stops its own slots only). Each shared part is one key, so one slot on one node
# (SPEC.md §19.1; its script touches that key only): the run gives each part's Store the node
# that holds its key's slot (`CLUSTER KEYSLOT`, `CLUSTER NODES`), the hash tags chosen so the
# pacer, the budget and the send rate live on three different nodes. lab/fleet's
# cluster-decisions then runs PROCESSES (8) processes' decisions, RATE (10) a second each on
# every part: against one redis-server for SECONDS (12), and against the cluster for as long,
# the pacer's node killed at KILL_S (4) and started again (same port and nodes.conf, its data
# gone) at RESTART_S (7); and both as fast as they can for 3 s. Printed: decisions a second
# through the store and alone, per part, and the summary of each run. Goals: the cluster's
# answers are one node's (the pacer's slots through the store never more than its capacity in a
# second before the kill and after the rejoin; the budget grants 100, what one bucket holds); the
# parts on the live nodes decide alone under 1 % of the time; 3 s after the node is back, 99 % of
# the pacer's decisions go through the store again. The runs as
# fast as they can give decisions a second only. About 60 s.
set -euo pipefail
cd "$(dirname "$0")/.."

server=${REDIS_SERVER:-/usr/bin/redis-server}
cli=${REDIS_CLI:-/usr/bin/redis-cli}
for tool in "$server" "$cli"; do
  [ -x "$tool" ] || { echo "FAIL (fleet-cluster): no $tool (redis-tools)" >&2; exit 1; }
done
cargo build -q --release -p seeded-backoff-fleet-lab >&2
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/cluster-decisions
processes=${PROCESSES:-8} rate=${RATE:-10} seconds=${SECONDS_PER_RUN:-12} kill_s=${KILL_S:-4} restart_s=${RESTART_S:-7}
# The node started again answers CLUSTERDOWN for its rejoin delay (the node timeout, 1 s) before
# it serves its slots; the pacer's links ask again every REJOIN_MS (1 s): so they are joined 2 s
# after the restart at the latest, and counted from 3 s after it.
rejoined_s=$((restart_s + 3))

dir=$(mktemp -d)
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap stop EXIT

# A port whose cluster bus port (+10000) is free too.
free_port() {
  python3 -c '
import random, socket
while True:
    p = random.randint(20000, 40000)
    try:
        for q in (p, p + 10000):
            s = socket.socket(); s.bind(("127.0.0.1", q)); s.close()
        print(p); break
    except OSError:
        pass'
}
wait_port() { for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return; sleep 0.05; done; }
# Starts a node on port $1 (a cluster node if $2 is "cluster"); its pid into node_pid[$1].
declare -A node_pid
start_node() {
  local extra=()
  [ "${2:-}" = cluster ] && extra=(--cluster-enabled yes --cluster-config-file "$dir/nodes-$1.conf"
    --cluster-node-timeout 1000 --cluster-require-full-coverage no)
  "$server" --port "$1" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" "${extra[@]}" >"$dir/node-$1.log" 2>&1 &
  node_pid[$1]=$!
  pids+=($!)
  wait_port "$1"
}
field() { sed -n "s/.*\b$2=\([^ ]*\).*/\1/p" <<<"$1"; }

echo "redis-server $("$server" --version | sed 's/.*v=\([^ ]*\).*/\1/') on 127.0.0.1, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"

# One node.
single=$(free_port)
start_node "$single"
url=redis://127.0.0.1:$single/
echo "--- one node, $processes processes, $rate decisions a second each on every part, $seconds s"
keys() { echo "$1 sb:lab:$2:pacer $1 sb:lab:$2:budget $1 sb:lab:$2:send-rate"; }
# shellcheck disable=SC2046 # the URL and key pairs are words
one=$(timeout 120 "$bin" "$processes" "$seconds" "$rate" $(keys "$url" "one:$$"))
echo "$one"
# shellcheck disable=SC2046
one_fast=$(timeout 60 "$bin" "$processes" 3 0 $(keys "$url" "one-fast:$$") | grep '^summary')

# The cluster.
ports=()
for _ in 1 2 3; do
  p=$(free_port)
  start_node "$p" cluster
  ports+=("$p")
done
"$cli" --cluster create "${ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1 ||
  { cat "$dir/create.log" >&2; echo "FAIL (fleet-cluster): redis-cli --cluster create" >&2; exit 1; }
for _ in $(seq 100); do
  ok=0
  for p in "${ports[@]}"; do "$cli" -p "$p" cluster info | grep -q '^cluster_state:ok' && ok=$((ok + 1)); done
  [ "$ok" = 3 ] && break
  sleep 0.1
done
[ "$ok" = 3 ] || { echo "FAIL (fleet-cluster): the cluster is not ok" >&2; exit 1; }

# The port of the node that holds key $1's slot.
owner() {
  local slot
  slot=$("$cli" -p "${ports[0]}" cluster keyslot "$1")
  "$cli" -p "${ports[0]}" cluster nodes | python3 -c '
import sys
slot = int(sys.argv[1])
for line in sys.stdin:
    f = line.split()
    for r in f[8:]:
        lo, _, hi = r.partition("-")
        if lo.isdigit() and int(lo) <= slot <= int(hi or lo):
            print(f[1].split("@")[0].split(":")[1])' "$slot"
}
# For each part, a key whose hash tag puts it on node $i: the pacer on the first, the budget on
# the second, the send rate on the third.
names=(pacer budget send-rate)
part_port=()
part_key=()
for i in 0 1 2; do
  for n in $(seq 200); do
    key="sb:lab:{cluster:$$:$n}:${names[$i]}"
    [ "$(owner "$key")" = "${ports[$i]}" ] && { part_port+=("${ports[$i]}"); part_key+=("$key"); break; }
  done
done
[ "${#part_key[@]}" = 3 ] || { echo "FAIL (fleet-cluster): no hash tag found for each node" >&2; exit 1; }
cluster_parts() {
  for i in 0 1 2; do echo "redis://127.0.0.1:${part_port[$i]}/ ${part_key[$i]}${1:-}"; done
}
echo "--- the cluster (${ports[*]}): ${part_key[0]} on ${part_port[0]}, ${part_key[1]} on ${part_port[1]}, ${part_key[2]} on ${part_port[2]}"
echo "    $processes processes, $rate decisions a second each on every part, $seconds s; the pacer's node killed at $kill_s s, started again at $restart_s s"
out=$dir/cluster.out
# shellcheck disable=SC2046
timeout 120 "$bin" "$processes" "$seconds" "$rate" $(cluster_parts) "$kill_s" "$rejoined_s" >"$out" &
run=$!
pids+=("$run")
sleep "$kill_s"
victim=${node_pid[${part_port[0]}]}
# Out of the shell's jobs first, so that its death is not reported as a failure.
disown "$victim"
kill -9 "$victim"
while kill -0 "$victim" 2>/dev/null; do sleep 0.01; done
sleep $((restart_s - kill_s))
start_node "${part_port[0]}" cluster
wait "$run"
cluster=$(cat "$out")
echo "$cluster"
# shellcheck disable=SC2046
cluster_fast=$(timeout 60 "$bin" "$processes" 3 0 $(cluster_parts -fast) | grep '^summary')
echo "--- as fast as they can, 3 s"
echo "one node: $one_fast"
echo "cluster:  $cluster_fast"
echo "load after the runs: $(cut -d' ' -f1 /proc/loadavg)"

python3 - "$((rejoined_s - restart_s))" "$(grep '^summary' <<<"$one")" "$(grep '^summary' <<<"$cluster")" "$one_fast" "$cluster_fast" <<'PY'
import sys
def parse(line):
    return dict(kv.split("=") for kv in line.split()[1:])
rejoined_s_gap = sys.argv[1]
one, cl, one_fast, cl_fast = map(parse, sys.argv[2:])
cap = int(one["pacer_capacity"])
def goal(ok, text):
    print(f"goal: {'met' if ok else 'missed'}: {text}")
print(f"decisions a second, paced: one node {one['decisions_per_s']}, cluster {cl['decisions_per_s']}; "
      f"as fast as they can (all / through the store, p50/p99 us): one node {one_fast['decisions_per_s']} / "
      f"{one_fast['stored_per_s']}, {one_fast['p50_us']}/{one_fast['p99_us']}; cluster {cl_fast['decisions_per_s']} / "
      f"{cl_fast['stored_per_s']}, {cl_fast['p50_us']}/{cl_fast['p99_us']}")
goal(int(one["pacer_before_max"]) <= cap and int(cl["pacer_before_max"]) <= cap and int(cl["pacer_after_max"]) <= cap,
     f"the pacer's slots through the store, busiest second: one node {one['pacer_before_max']}, cluster "
     f"{cl['pacer_before_max']} before the kill and {cl['pacer_after_max']} after the rejoin (goal <= {cap}, one schedule; "
     f"{cl['pacer_outage_max']} while its node was down, the processes pacing alone)")
goal(one["budget_granted"] == cl["budget_granted"] == "100",
     f"the budget's grants: one node {one['budget_granted']}, cluster {cl['budget_granted']} (goal 100, one bucket of 500 tokens at 5)")
# As lab/fleet-store's goal: a loaded machine delays a reply past the 50 ms bound now and then.
live_one = int(one["alone_pacer"]) + int(one["alone_budget"]) + int(one["alone_send_rate"])
live_cl = int(cl["alone_budget"]) + int(cl["alone_send_rate"])
share_one, share_cl = live_one / int(one["decisions"]), live_cl / (int(cl["decisions"]) * 2 / 3)
goal(share_one < 0.01 and share_cl < 0.01,
     f"decided alone on a live node: one node {share_one * 100:.2f} %, the cluster's budget and send rate "
     f"{share_cl * 100:.2f} % (goal < 1 %); the killed node's pacer {cl['alone_pacer']} decisions")
after, after_alone = int(cl["pacer_after"]), int(cl["pacer_after_alone"])
goal(after_alone <= after * 0.01,
     f"rejoined: {after - after_alone} of the pacer's {after} decisions after the node came back (+{rejoined_s_gap} s) "
     f"through the store (goal >= 99 %); every link joined at the end: one node {one['joined_at_end']}, cluster {cl['joined_at_end']}")
PY
