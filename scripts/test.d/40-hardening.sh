#!/usr/bin/env bash
# Hardening: build proofs (no panic / alloc / float / unsafe), Miri over core and ffi,
# the long-running tests in release (10^7 steps per strategy, a budget hammered from threads), and
# a fuzz smoke of about 20 s per target. Runs every part, then fails if any part failed.
#
#   bash scripts/test.d/40-hardening.sh
#
# Needs (installed by .ci/run): nightly with miri + rust-src, thumbv6m-none-eabi, cargo-fuzz,
# arm-none-eabi-nm (gcc-arm-none-eabi). FUZZ_SECONDS overrides the smoke length.
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

fuzz_smoke() {
  if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed (cargo install cargo-fuzz)"
    return 1
  fi
  bash fuzz/run.sh "${FUZZ_SECONDS:-20}"
}

part "build proofs" bash scripts/build-proofs.sh
part "miri" bash scripts/miri.sh
part "long-running tests (release, 10^7 steps)" long_running
part "fuzz smoke" fuzz_smoke

echo
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'hardening FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "hardening: all parts ok"
