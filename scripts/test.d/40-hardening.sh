#!/usr/bin/env bash
# Hardening: build proofs (no panic / alloc / float / unsafe), Miri over the crates that hold
# `unsafe` (ffi and wasm), and the long-running tests in release (10^7 steps per strategy, a budget
# hammered from threads). Runs every part, then fails if any part failed. Fuzzing explores at
# random, and Miri over the safe core takes tens of minutes: both are the lab's (lab/fuzz.sh,
# lab/miri.sh).
#
#   bash scripts/test.d/40-hardening.sh
#
# Needs (installed by .ci/run): nightly with miri + rust-src, thumbv6m-none-eabi,
# arm-none-eabi-nm (gcc-arm-none-eabi).
set -uo pipefail
cd "$(dirname "$0")/../.."

failed=()
part() {
  local name=$1
  shift
  echo
  echo "--- hardening: $name"
  local start=$SECONDS
  if "$@"; then
    echo "--- hardening: $name: ok ($((SECONDS - start)) s)"
  else
    echo "--- hardening: $name: FAILED ($((SECONDS - start)) s)"
    failed+=("$name")
  fi
}

long_running() {
  cargo test --release -p seeded-backoff --all-features --test long_running -- --include-ignored 2>&1 |
    grep -E '^(test |test result|thread .* panicked|error)'
  return "${PIPESTATUS[0]}"
}

part "build proofs" bash scripts/build-proofs.sh
part "miri" bash scripts/miri.sh
part "long-running tests (release, 10^7 steps)" long_running

echo
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'hardening FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "hardening: all parts ok"
