#!/usr/bin/env bash
# Fuzzing: every target of fuzz/ for FUZZ_SECONDS (default 20) each, from the committed corpora
# (fuzz/run.sh prints execs and crashes per target). Random exploration, so never in the gate; a
# crash found here becomes a committed corpus entry and a test.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fuzz --version >/dev/null 2>&1 || { echo "fuzz: cargo-fuzz is not installed (bash scripts/setup.sh lab)"; exit 1; }
. lab/lib/checked.sh
checked fuzz bash fuzz/run.sh "${FUZZ_SECONDS:-20}"
