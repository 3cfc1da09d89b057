#!/usr/bin/env bash
# The simulator at fleet scale: wall time and peak memory of one run per strategy (all six) for
# 10^3 .. 10^6 clients, outage and contention, printed as the markdown table lab/RESULTS.md records.
# CPU time is printed too: on a shared machine it says more than the wall time.
# Run: bash lab/fleet-scale.sh   (builds the release binary first; about two minutes)
# The goals (outage 10^6 clients <= 10 s, contention 10^5 <= 5 s) are its last lines.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p seeded-backoff-cli
bin=${CARGO_TARGET_DIR:-target}/release/seeded-backoff
command -v /usr/bin/time >/dev/null || { echo "simulate-scale: needs GNU time (Debian package 'time')"; exit 1; }

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
echo "| scenario | clients | requests simulated | wall time | CPU time (user + sys) | peak memory | result |"
echo "|---|---:|---:|---:|---:|---:|---|"
goals=()
for scenario in outage contention; do
  for clients in 1000 10000 100000 1000000; do
    log=$(mktemp)
    if /usr/bin/time -f "%e %M %U %S" -o "$log.time" "$bin" simulate --scenario "$scenario" \
        --clients "$clients" --runs 1 --format csv >"$log" 2>"$log.err"; then
      read -r wall kb user sys <"$log.time"
      if [ "$scenario" = outage ]; then
        requests=$(awk -F, '$3 == "requests_per_run" { s += $4 } END { print s }' "$log")
      else
        requests=$(awk -F, '$3 == "calls_total" { s += $4 } END { print s }' "$log")
      fi
      unfinished=$(awk -F, '$3 == "unfinished" { s += $4 } END { print s }' "$log")
      goal=
      case $scenario-$clients in outage-1000000) goal=10 ;; contention-100000) goal=5 ;; esac
      [ -z "$goal" ] || goals+=("goal: $(awk -v w="$wall" -v g="$goal" 'BEGIN { print (w <= g) ? "met" : "missed" }'): $scenario, $clients clients: $wall s wall (goal <= $goal s)")
      printf '| %s | %d | %d | %.2f s | %.2f s | %d MB | %s |\n' "$scenario" "$clients" "$requests" \
        "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" $((kb / 1024)) "$([ "$unfinished" = 0 ] && echo "all succeeded" || echo "$unfinished unfinished at the 1 h horizon")"
    else
      printf '| %s | %d | – | – | – | – | refused: %s |\n' "$scenario" "$clients" \
        "$(sed -e 's/^error: //' -e 's/|/\\|/g' "$log.err" | head -1)"
    fi
    rm -f "$log" "$log.time" "$log.err"
  done
done
echo
echo "machine load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for goal in "${goals[@]}"; do echo; echo "$goal"; done
