#!/usr/bin/env bash
# Every test of the project, in one command: ./test.sh
# It first installs what is missing (scripts/setup.sh), so it works on a fresh machine; .ci/run
# calls it. It is the gate: every check is deterministic (outcomes, order, counts, virtual clocks;
# no wall-clock or throughput threshold). The experiments and figures live in the lab
# (bash lab/run.sh), which this script never runs.
#
# Core steps run here; each binding or tool adds its own part as scripts/test.d/NN-name.sh, run in
# order. A failing step does not stop the others: the summary names every failure, and the exit
# status is non-zero if any step failed. The time of each step is listed at the end.
set -uo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never

passed=0
failed=0
failures=()
times=()
# record NAME ok|FAILED SECONDS [NOTE]: counts a step's outcome, prints its closing line and keeps its time.
record() {
  if [ "$2" = ok ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$1")
  fi
  echo "--- $2: $1 ($3 s)"
  times+=("$(printf '%5d s  %s%s' "$3" "$1" "${4:+ ($4)}")")
}
step() {
  local name=$1 start=$SECONDS status=ok
  shift
  echo
  echo "=== $name"
  "$@" || status=FAILED
  record "$name" "$status" $((SECONDS - start))
}

core_on_rust_version() {
  # The declared rust-version (Cargo.toml) builds the core with each public feature, with the
  # locked dependencies (the lock file pins what the tests use).
  local msrv feature
  msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
  for feature in "" $(sed -n '/^\[features\]/,/^\[/s/^\([a-z-]*\) = .*/\1/p' core/Cargo.toml | grep -vx default); do
    cargo "+$msrv" build -q --locked -p seeded-backoff --target-dir target/rust-version ${feature:+--features "$feature"} ||
      { echo "the core with feature '${feature:-default}' does not build on Rust $msrv"; return 1; }
  done
  echo "Rust $msrv builds the core with each feature: default $(sed -n '/^\[features\]/,/^\[/s/^\([a-z-]*\) = .*/\1/p' core/Cargo.toml | grep -vx default | paste -sd' ')"
}

vectors_up_to_date() {
  # tests/vectors/fleet/ and pause/ come from the Python models (SPEC.md §12, §13), checked by
  # their own steps.
  local tmp
  tmp=$(mktemp -d)
  cargo run -q --release -p seeded-backoff-cli -- vectors --out "$tmp" &&
    diff -r --exclude=fleet --exclude=pause tests/vectors "$tmp" && echo "tests/vectors matches a fresh generation"
  local rc=$?
  rm -rf "$tmp"
  return $rc
}

mutants_tests_exist() {
  # lab/mutants.sh runs outside this script; a test it names that no longer exists would make
  # its first (unmutated) run fail.
  local t missing=0
  for t in $(sed -n 's/^RULE_TESTS="\(.*\)"$/\1/p' lab/mutants.sh); do
    [ -f "core/tests/$t.rs" ] || { echo "lab/mutants.sh names core/tests/$t.rs, which does not exist"; missing=1; }
  done
  [ -n "$t" ] && [ "$missing" -eq 0 ] && echo "lab/mutants.sh names only existing rule tests"
}

gate_start=$SECONDS
if ! bash scripts/setup.sh; then
  echo "test.sh: setup failed: the tools the tests need could not be installed"
  echo "test.sh: 0 passed, 1 failed"
  exit 1
fi

times+=("$(printf '%5d s  %s' $((SECONDS - gate_start)) "setup (scripts/setup.sh)")")

step "cargo fmt --check" cargo fmt --all -- --check
step "clippy -D warnings" cargo clippy --workspace --all-targets --all-features -- -D warnings
step "cargo doc (warnings are errors)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features -q
step "cargo test (workspace, all features)" cargo test --workspace --all-features
step "core builds without std (default features)" cargo build -q -p seeded-backoff
step "core for thumbv6m-none-eabi" cargo build -q -p seeded-backoff --release --target thumbv6m-none-eabi
step "core for wasm32-unknown-unknown" cargo build -q -p seeded-backoff --release --target wasm32-unknown-unknown
step "core on the declared rust-version, each feature" core_on_rust_version
step "vectors are what the CLI generates" vectors_up_to_date
step "lab/mutants.sh names existing tests" mutants_tests_exist
step "independent model: self-tests" python3 -m unittest tests/model/test_spec_model.py tests/model/test_rate_limit_model.py
step "independent model: every vector file" python3 tests/model/check_vectors.py tests/vectors
step "independent model: fleet helpers (SPEC.md §12)" python3 tests/model/fleet_model.py check
step "independent model: pauses (SPEC.md §13)" python3 tests/model/pause_model.py check
step "independent model: send rate (SPEC.md §17)" python3 tests/model/send_rate_model.py check
step "independent model: server pacing (SPEC.md §16)" python3 tests/model/pacer_model.py check
step "independent model: CLI schedule --format json" python3 tests/model/check_cli.py

# The parts run in two lanes at once: the browser, Python and server tests spend most of their time
# waiting (real sleeps, real sockets) while the C and Rust parts compile. Their checks assert no
# duration, so sharing the two cores changes no outcome. Each part writes its own log, printed
# whole when both lanes are done; a line says when each part ends. A part that rebuilds what the
# others read (80-dist rewrites wasm/dist) runs alone afterwards.
io_lane="20-wasm 25-outbox 32-aarch64 70-python 75-integrations 76-adapters 77-faults"
alone="80-dist"
logs=$(mktemp -d)
lane() {
  local part name start
  for part in "$@"; do
    name=$(basename "$part" .sh)
    start=$SECONDS
    if bash "$part" >"$logs/$name.log" 2>&1; then
      echo "ok $((SECONDS - start))" >"$logs/$name.status"
    else
      echo "FAILED $((SECONDS - start))" >"$logs/$name.status"
    fi
    echo "--- $(cut -d' ' -f1 "$logs/$name.status"): $part ($((SECONDS - start)) s, at $((SECONDS - gate_start)) s)"
  done
}
cpu_parts=() io_parts=() alone_parts=()
for part in scripts/test.d/*.sh; do
  [ -e "$part" ] || continue
  name=$(basename "$part" .sh)
  if grep -qw -- "$name" <<<"$alone"; then
    alone_parts+=("$part")
  elif grep -qw -- "$name" <<<"$io_lane"; then
    io_parts+=("$part")
  else
    cpu_parts+=("$part")
  fi
done
echo
echo "=== the parts, in two lanes: ${cpu_parts[*]##*/} | ${io_parts[*]##*/}"
lanes_start=$SECONDS
lane ${cpu_parts[@]+"${cpu_parts[@]}"} &
cpu_lane=$!
lane ${io_parts[@]+"${io_parts[@]}"}
wait "$cpu_lane"
for part in ${cpu_parts[@]+"${cpu_parts[@]}"} ${io_parts[@]+"${io_parts[@]}"}; do
  name=$(basename "$part" .sh)
  read -r status took <"$logs/$name.status"
  echo
  echo "=== $part"
  cat "$logs/$name.log"
  record "$part" "$status" "$took" "in a lane"
done
times+=("$(printf '%5d s  %s' $((SECONDS - lanes_start)) "the two lanes, wall time")")
rm -rf "$logs"
for part in ${alone_parts[@]+"${alone_parts[@]}"}; do
  step "$part" bash "$part"
done

echo
echo "time per step:"
printf '  %s\n' "${times[@]}"
echo "  $((SECONDS - gate_start)) s in all"
if [ "$failed" -gt 0 ]; then
  printf 'failed step: %s\n' "${failures[@]}"
fi
echo "test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
