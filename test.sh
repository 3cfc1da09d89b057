#!/usr/bin/env bash
# Every test of the project, in one command: ./test.sh
# It first installs what is missing (scripts/setup.sh), so it works on a fresh machine; .ci/run
# calls it.
#
# Core steps run here; each binding or tool adds its own part as scripts/test.d/NN-name.sh, run in
# order. A failing step does not stop the others: the summary names every failure, and the exit
# status is non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never

passed=0
failed=0
failures=()
step() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    echo "--- ok: $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "--- FAILED: $name ($((SECONDS - start)) s)"
  fi
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
  # scripts/mutants.sh runs outside this script; a test it names that no longer exists would make
  # its first (unmutated) run fail.
  local t missing=0
  for t in $(sed -n 's/^RULE_TESTS="\(.*\)"$/\1/p' scripts/mutants.sh); do
    [ -f "core/tests/$t.rs" ] || { echo "scripts/mutants.sh names core/tests/$t.rs, which does not exist"; missing=1; }
  done
  [ -n "$t" ] && [ "$missing" -eq 0 ] && echo "scripts/mutants.sh names only existing rule tests"
}

if ! bash scripts/setup.sh; then
  echo "test.sh: setup failed: the tools the tests need could not be installed"
  echo "test.sh: 0 passed, 1 failed"
  exit 1
fi

step "cargo fmt --check" cargo fmt --all -- --check
step "clippy -D warnings" cargo clippy --workspace --all-targets --all-features -- -D warnings
step "cargo doc (warnings are errors)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features -q
step "cargo test (workspace, all features)" cargo test --workspace --all-features
step "core builds without std (default features)" cargo build -q -p seeded-backoff
step "core for thumbv6m-none-eabi" cargo build -q -p seeded-backoff --release --target thumbv6m-none-eabi
step "core for wasm32-unknown-unknown" cargo build -q -p seeded-backoff --release --target wasm32-unknown-unknown
step "vectors are what the CLI generates" vectors_up_to_date
step "scripts/mutants.sh names existing tests" mutants_tests_exist
step "independent model: self-tests" python3 -m unittest tests/model/test_spec_model.py tests/model/test_rate_limit_model.py
step "independent model: every vector file" python3 tests/model/check_vectors.py tests/vectors
step "independent model: fleet helpers (SPEC.md §12)" python3 tests/model/fleet_model.py check
step "independent model: pauses (SPEC.md §13)" python3 tests/model/pause_model.py check
step "independent model: send rate (SPEC.md §17)" python3 tests/model/send_rate_model.py check
step "independent model: server pacing (SPEC.md §16)" python3 tests/model/pacer_model.py check
step "independent model: CLI schedule --format json" python3 tests/model/check_cli.py

for part in scripts/test.d/*.sh; do
  [ -e "$part" ] || continue
  step "$part" bash "$part"
done

echo
if [ "$failed" -gt 0 ]; then
  printf 'failed step: %s\n' "${failures[@]}"
fi
echo "test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
