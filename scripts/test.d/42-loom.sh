#!/usr/bin/env bash
# AtomicRetryBudget and AtomicSendRate model-checked with loom over every interleaving of their
# operations (core/tests/loom_budget.rs, loom_send_rate.rs): the library's atomics are loom's under --cfg seeded_backoff_loom,
# built in a target directory of its own so the other steps' builds stay cached. Bounded in time.
# The same checks under real threads: core/tests/budget_stress.rs (cargo test) and
# python/tests/test_budget_concurrency.py (70-python.sh).
# Standalone: bash scripts/test.d/42-loom.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO_TARGET_DIR=target/loom RUSTFLAGS="--cfg seeded_backoff_loom" \
  timeout 900 cargo test -q -p seeded-backoff --test loom_budget --test loom_send_rate --release
echo "loom: AtomicRetryBudget and AtomicSendRate hold under every interleaving of the modelled operations"
