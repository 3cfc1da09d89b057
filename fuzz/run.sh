#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after the other (one libFuzzer process, one core),
# starting from the committed seeds in corpus/<target>/, and prints execs and crashes per target.
# Exit status is non-zero if any target crashed or failed to run.
#
#   fuzz/run.sh 20                 # the run of lab/fuzz.sh
#   fuzz/run.sh 1200 ops           # one target only
#   KEEP_CORPUS=/tmp/c fuzz/run.sh 600   # keep the grown corpora in /tmp/c/<target>
#   RUNS=10000000 fuzz/run.sh 7200       # stop each target after 10 M execs (or 2 h)
#
# Builds with cargo-fuzz's default profile (release, debug assertions and overflow checks ON, so an
# integer overflow is a crash) and without AddressSanitizer: the core forbids unsafe code, and the
# sanitizer would halve the exec rate. Crash inputs go to fuzz/artifacts/<target>/.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
for t in "${targets[@]}"; do
  out=$(cargo +nightly fuzz build -s none "$t" 2>&1) || { echo "$out"; echo "fuzz build of $t FAILED"; exit 1; }
done

failed=0
results=()
for t in "${targets[@]}"; do
  if [ -n "${KEEP_CORPUS:-}" ]; then
    work="$KEEP_CORPUS/$t"
    mkdir -p "$work"
  else
    work=$(mktemp -d)
  fi
  log=$(mktemp)
  mkdir -p "corpus/$t" "artifacts/$t"
  cargo +nightly fuzz run -s none "$t" "$work" "corpus/$t" -- \
    -max_total_time="$seconds" ${RUNS:+-runs="$RUNS"} -print_final_stats=1 >"$log" 2>&1
  rc=$?
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tr -d '#' | tail -1)
  crashes=0
  if [ $rc -ne 0 ]; then
    crashes=1
    failed=1
    echo "---- $t FAILED (exit $rc); end of its log:"
    tail -40 "$log"
  fi
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  results+=("$(printf '%-12s execs %12s   exec/s %8s   crashes %d' "$t" "${execs:-0}" "${rate:-?}" "$crashes")")
  rm -f "$log"
  [ -n "${KEEP_CORPUS:-}" ] || rm -rf "$work"
done

echo "fuzz results (${seconds} s per target):"
printf '  %s\n' "${results[@]}"
exit $failed
