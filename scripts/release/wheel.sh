#!/usr/bin/env bash
# Builds the Python wheel for one Rust target into OUT (scripts/dist.sh and
# scripts/test.d/32-aarch64.sh call it) and checks that its manylinux tag names the glibc its
# library needs (check-wheel-glibc.py, which prints the finding). TARGET is the host or
# aarch64-unknown-linux-gnu, cross-built on another machine with Debian's gcc-aarch64-linux-gnu
# as the linker (no zig): the wheel is py3-none, cffi over the C library, so maturin needs no
# Python of the target.
# usage: scripts/release/wheel.sh TARGET OUT   (after scripts/setup.sh python made .venv)
set -euo pipefail
target=${1:?usage: wheel.sh TARGET OUT}
out=${2:?usage: wheel.sh TARGET OUT}
cd "$(dirname "$0")/../.."
root=$PWD
host=$(rustc -vV | sed -n 's/^host: //p')
[ -x .venv/bin/maturin ] || { echo "wheel.sh: .venv/bin/maturin is missing (scripts/setup.sh installs it)" >&2; exit 1; }

# The host's wheel builds without --target, in the target directory the other builds share.
target_args=()
if [ "$target" != "$host" ]; then
  target_args=(--target "$target")
  case $target in
    aarch64-unknown-linux-gnu)
      export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc} ;;
    *) echo "wheel.sh: no cross linker known for $target" >&2; exit 2 ;;
  esac
fi
mkdir -p "$out"
before=$(ls "$out"/*.whl 2>/dev/null || true)
# maturin writes the cffi declarations with the python3 on PATH, which must have cffi: the venv's.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
(. .venv/bin/activate && cd python &&
  maturin build --quiet --release ${target_args[@]+"${target_args[@]}"} --out "$out" >"$log" 2>&1) ||
  { cat "$log" >&2; echo "wheel.sh: maturin build for $target failed" >&2; exit 1; }
for wheel in "$out"/*.whl; do
  grep -qxF "$wheel" <<<"$before" && continue
  PATH="$root/.venv/bin:$PATH" python3 scripts/release/check-wheel-glibc.py "$wheel"
done
