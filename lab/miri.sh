#!/usr/bin/env bash
# Miri over the whole workspace's Rust tests: the core (which forbids unsafe code: Miri checks its
# threaded budget and send rate for data races), the C ABI and the npm build's runtime. The gate
# runs the last two (scripts/test.d/40-hardening.sh); this adds the core, about 20-40 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/miri.sh core ffi wasm
