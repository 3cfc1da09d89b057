#!/usr/bin/env bash
# The C library's sizes: what each feature adds to the whole-API firmware, the no-panic proof at
# every opt-level, and the size and stack tables (artifacts/c-library.md, lab/RESULTS.md's
# c-library section), by the gate's C step with FFI_LAB=1 (every gate check of it runs too).
set -euo pipefail
cd "$(dirname "$0")/.."
FFI_LAB=1 bash scripts/test.d/30-ffi.sh
