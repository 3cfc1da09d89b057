#!/usr/bin/env bash
# Turns Cargo's bare-metal static library into the archive a firmware links: one relocatable
# object whose only global definitions are the sb_* functions.
#
# Cargo's archive also holds Rust's compiler_builtins (about 470 members: strong __aeabi_uidiv and
# __divsi3, weak memcpy/memset/memcmp, the soft-float helpers, libm's sqrtf, sinf, pow ...).
# Placed before newlib and libgcc on the link line they would replace the firmware's own runtime.
# The library's code (the LTO'd seeded_backoff_ffi object) calls none of them but memcpy, memset
# and memcmp under their AEABI names, which newlib provides; so the builtins are left out, the
# crate's objects are linked into one (`ld -r`), and every global but sb_* is made local: the
# firmware's libc and libgcc resolve what the library calls, and nothing of Rust's runtime can win
# over them.
# usage: ffi/firmware-archive.sh TARGET IN.a OUT.a
set -euo pipefail
target=${1:?usage: firmware-archive.sh TARGET IN.a OUT.a}
in=$(realpath "${2:?}")
out=${3:?}
case $target in
  thumb*) tools=arm-none-eabi- ldflags=() ;;
  riscv32*) tools=riscv64-unknown-elf- ldflags=(-m elf32lriscv) ;;
  *) echo "firmware-archive.sh: $target is not a bare-metal target" >&2; exit 2 ;;
esac
for tool in ar ld objcopy nm; do
  command -v "$tools$tool" >/dev/null || { echo "firmware-archive.sh: $tools$tool is missing (scripts/setup.sh c installs it)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/sb-firmware-archive.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The crate's own members (one with LTO and one codegen unit); the rest is compiler_builtins.
mapfile -t members < <("${tools}ar" t "$in" | grep '^seeded_backoff_ffi\.')
[ "${#members[@]}" -gt 0 ] || { echo "firmware-archive.sh: $in has no seeded_backoff_ffi object" >&2; exit 1; }
(cd "$work" && "${tools}ar" x "$in" "${members[@]}")
"${tools}ld" "${ldflags[@]}" -r -o "$work/seeded_backoff.o" "${members[@]/#/$work/}"
"${tools}objcopy" --strip-debug --wildcard --keep-global-symbol='sb_*' "$work/seeded_backoff.o"
# Every global definition left must be an sb_ function or table.
if "${tools}nm" -g --defined-only "$work/seeded_backoff.o" | awk '{ print $3 }' | grep -v '^sb_'; then
  echo "firmware-archive.sh: global symbols other than sb_* remain (above)" >&2
  exit 1
fi
rm -f "$out"
"${tools}ar" rcsD "$out" "$work/seeded_backoff.o"
