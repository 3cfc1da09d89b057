#!/usr/bin/env bash
# The C SDK archives unpacked in DIR, each used by the lines of its own README ("Build the
# example"), with nothing from the repository: the host one (pkg-config, the plain compiler line,
# CMake find_package; each program's delays compared with EXPECTED), the thumbv7m one linked into
# the firmware and run in qemu, the thumbv6m and thumbv7em ones linked for their CPUs, the RISC-V ones run in qemu. Part of
# scripts/test.d/80-dist.sh.
# usage: scripts/release/test-c-sdk.sh DIST VERSION DIR EXPECTED
set -euo pipefail
dist=${1:?usage: test-c-sdk.sh DIST VERSION DIR EXPECTED}
version=${2:?}
dir=${3:?}
expected=${4:?}
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL (dist C SDK): $*" >&2; exit 1; }
host=$(rustc -vV | sed -n 's/^host: //p')
mkdir -p "$dir"

# unpack TARGET: the SDK's directory, after checking what any SDK must hold.
unpack() {
  local sdk=$dir/seeded-backoff-c-$version-$1
  tar xzf "$dist/seeded-backoff-c-$version-$1.tar.gz" -C "$dir"
  for f in include/seeded_backoff.h lib/libseeded_backoff_ffi.a lib/pkgconfig/seeded-backoff.pc \
    lib/cmake/seeded_backoff/seeded_backoffConfig.cmake LICENSE-MIT LICENSE-APACHE README.md; do
    [ -f "$sdk/$f" ] || fail "$1: the SDK has no $f"
  done
  # Stripped: no member of the archive keeps DWARF sections (the unstripped one is most of 22 MB).
  local readelf=readelf
  case $1 in thumb*) readelf=arm-none-eabi-readelf ;; esac
  if "$readelf" -S -W "$sdk/lib/libseeded_backoff_ffi.a" | grep -q '\.debug_info'; then
    fail "$1: the static library keeps its debug info"
  fi
  echo "$sdk"
}
# runtime_check SDK CPU_FLAGS...: the SDK's archive defines only sb_* symbols, and a firmware that
# also calls memcpy, sqrtf and a 64-bit division (examples/firmware/main_runtime.c) gets them from
# newlib and libgcc (the linker's --trace-symbol names where each was defined).
runtime_check() {
  local sdk=$1 fw=$1/examples/firmware defs
  shift
  ! arm-none-eabi-nm -g --defined-only "$sdk/lib/libseeded_backoff_ffi.a" | awk 'NF == 3 { print $3 }' |
    grep -v '^sb_' || fail "$sdk: the archive defines globals other than sb_* (above)"
  defs=$(arm-none-eabi-gcc "$@" -Os -std=c99 -ffunction-sections -fdata-sections -I "$sdk/include" \
    "$fw/startup.c" "$fw/semihosting.c" "$fw/main_runtime.c" -nostartfiles --specs=nano.specs \
    -T "$fw/lm3s6965.ld" -Wl,--gc-sections -Wl,-z,noexecstack "$sdk/lib/libseeded_backoff_ffi.a" -lm \
    -Wl,--trace-symbol=memcpy -Wl,--trace-symbol=sqrtf -Wl,--trace-symbol=__aeabi_uldivmod \
    -o "$sdk/runtime.elf" 2>&1 | sed -n 's|.*/\([^/(]*\)(.*: definition of \(.*\)|\2 from \1|p' | sort | paste -sd,)
  [ "$defs" = "__aeabi_uldivmod from libgcc.a,memcpy from libc_nano.a,sqrtf from libm.a" ] ||
    [ "$defs" = "__aeabi_uldivmod from libgcc.a,memcpy from libg_nano.a,sqrtf from libm.a" ] ||
    fail "$sdk: the firmware's runtime came from: $defs"
  echo "$(basename "$sdk"): only sb_* symbols; a firmware's $defs"
}
# run_readme SDK: the SDK README's build lines, in the SDK's directory, as a user pastes them.
run_readme() {
  python3 "$root/scripts/release/readme-block.py" "$1/README.md" '## Build the example' >"$1/.build.sh"
  (cd "$1" && bash -euo pipefail .build.sh)
}

sdk=$(unpack "$host")
pc=$(PKG_CONFIG_PATH="$sdk/lib/pkgconfig" pkg-config --cflags --libs --static seeded-backoff)
[[ $pc == *"$sdk/"* && $pc != *"$root"* ]] || fail "pkg-config points outside the SDK: $pc"
[ "$(PKG_CONFIG_PATH="$sdk/lib/pkgconfig" pkg-config --modversion seeded-backoff)" = "$version" ] ||
  fail "the .pc file's version is not $version"
out=$(run_readme "$sdk" 2>&1) || { echo "$out"; fail "$host: the SDK README's lines failed"; }
delays=$(grep -oE 'retrying in [0-9]+ ms' <<<"$out" | grep -oE '[0-9]+' | paste -sd' ')
# The example honours its first 503's Retry-After: 3 (sb_hint_from_headers): the model's delays
# for that step and the next, as scripts/test.d/30-ffi.sh expects them.
want=$(python3 "$root/ffi/tests/example_delays.py")
[ "$delays" = "$want $want $want" ] || { echo "$out"; fail "$host: the three builds printed '$delays'"; }
grep -q seeded_backoff <<<"$(ldd "$sdk/retry_http")" && fail "$host: the example needs a shared library"
echo "$host SDK: pkg-config, plain cc and CMake builds of retry_http each printed $want (static, $(du -k "$sdk/lib/libseeded_backoff_ffi.a" | cut -f1) KB library)"

sdk=$(unpack thumbv7m-none-eabi)
out=$(run_readme "$sdk" 2>/dev/null) || fail "thumbv7m-none-eabi: the SDK README's lines failed"
[ "$(sed 's/ *$//' <<<"$out" | grep -E '^[0-9 ]+$')" = "$expected" ] ||
  fail "thumbv7m-none-eabi: the firmware printed '$out' in qemu, the model $expected"
echo "thumbv7m-none-eabi SDK: the firmware linked by its README's line printed $expected in qemu (lm3s6965evb)"
runtime_check "$sdk" -mcpu=cortex-m3 -mthumb
# The prebuilt variants, linked as the README's line links the whole API but with the variant's
# archive; each run in qemu, its delays from the model, its size and stack measured on the image.
# main_fleet.c and main_reconnect.c seed from their device id and boot counter.
model_delays() {
  PYTHONPATH="$root/tests/model" python3 -c 'import sys, fleet_model as f, spec_model as m
seed = f.seed_from_device(bytes([0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6]), 1)
b = m.Backoff(m.preset("google", jitter="full", max_retries=2**32 - 1, max_backoff_ms=int(sys.argv[1])), seed)
print(" ".join(str(b.next().delay_ms) for _ in range(12)))' "$1"
}
fleet_expected=$(model_delays 32000)
reconnect_expected=$(model_delays 64000)
for variant in google:main_google.c:"$expected" fleet:main_fleet.c:"$fleet_expected" \
  reconnect:main_reconnect.c:"$reconnect_expected" whole::; do
  IFS=: read -r name main want <<<"$variant"
  lib=$sdk/lib/variants/$name/libseeded_backoff_ffi.a
  [ "$name" = whole ] && lib=$sdk/lib/libseeded_backoff_ffi.a main=main_fleet.c want=$fleet_expected
  [ -f "$lib" ] || fail "thumbv7m-none-eabi: the SDK has no $lib"
  fwd=$sdk/examples/firmware
  arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os -std=c99 -ffunction-sections -fdata-sections \
    -I "$sdk/include" "$fwd/startup.c" "$fwd/semihosting.c" "$fwd/$main" -nostartfiles \
    --specs=nano.specs -T "$fwd/lm3s6965.ld" -Wl,--gc-sections -Wl,-z,noexecstack \
    -Wl,-Map="$sdk/$name.map" "$lib" -o "$sdk/$name.elf"
  got=$(timeout 60 qemu-system-arm -M lm3s6965evb -nographic -monitor none -serial none \
    -chardev stdio,id=semihosting -semihosting-config enable=on,target=native,chardev=semihosting \
    -kernel "$sdk/$name.elf" 2>/dev/null | grep -v '^state ' | sed 's/ *$//')
  [ "$got" = "$want" ] || fail "thumbv7m-none-eabi $name variant: $main printed '$got', the model $want"
  python3 "$root/ffi/firmware/size_report.py" "thumbv7m-none-eabi SDK, $name archive, $main" "$sdk/$name.map"
  python3 "$root/ffi/firmware/stack_report.py" "thumbv7m-none-eabi SDK, $name archive, $main" "$sdk/$name.elf" 256 |
    grep -E '^[a-z]|sb_backoff_(init|next) |sb_run_(outcome|wake) |sb_reconnect_(init|next) |sb_seed_from_device |goal'
  # The bare step on the same archive (the repository's main_step.c): its size and stack.
  arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os -std=c99 -ffunction-sections -fdata-sections \
    -I "$sdk/include" "$fwd/startup.c" "$fwd/semihosting.c" "$root/ffi/firmware/main_step.c" \
    -nostartfiles --specs=nano.specs -T "$fwd/lm3s6965.ld" -Wl,--gc-sections -Wl,-z,noexecstack \
    -Wl,-Map="$sdk/$name-step.map" "$lib" -o "$sdk/$name-step.elf"
  python3 "$root/ffi/firmware/size_report.py" "thumbv7m-none-eabi SDK, $name archive, main_step.c" "$sdk/$name-step.map" |
    grep -E '^[a-z]|core\+ffi'
  python3 "$root/ffi/firmware/stack_report.py" "thumbv7m-none-eabi SDK, $name archive, main_step.c" "$sdk/$name-step.elf" 256 |
    grep -E 'sb_backoff_(init|next) |goal'
done
mkdir -p "$root/artifacts"
python3 "$root/ffi/firmware/c_tables.py" --sdk "$sdk" >"$root/artifacts/c-sdk.md"
cat "$root/artifacts/c-sdk.md"

for target in thumbv6m-none-eabi thumbv7em-none-eabihf; do
  sdk=$(unpack "$target")
  run_readme "$sdk" >/dev/null || fail "$target: the SDK README's lines failed"
  attrs=$(arm-none-eabi-readelf -A "$sdk/google.elf")
  case $target in
    thumbv6m-none-eabi) grep -q 'Tag_CPU_arch: v6S-M' <<<"$attrs" || fail "$target: not an ARMv6-M image" ;;
    thumbv7em-none-eabihf) grep -q 'Tag_ABI_VFP_args: VFP registers' <<<"$attrs" || fail "$target: not a hard-float image" ;;
  esac
  case $target in
    thumbv6m-none-eabi) runtime_check "$sdk" -mcpu=cortex-m0 -mthumb ;;
    thumbv7em-none-eabihf) runtime_check "$sdk" -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 ;;
  esac
  echo "$target SDK: the firmware links by its README's line ($(arm-none-eabi-size "$sdk/google.elf" | awk 'NR == 2 { print $1 + $2 }') B flash)"
done

# RISC-V: each SDK's README lines build and run the firmware in qemu-system-riscv32 (virt); its
# archive defines only sb_* symbols.
for target in riscv32imc-unknown-none-elf riscv32imac-unknown-none-elf; do
  sdk=$(unpack "$target")
  ! riscv64-unknown-elf-nm -g --defined-only "$sdk/lib/libseeded_backoff_ffi.a" | awk 'NF == 3 { print $3 }' |
    grep -v '^sb_' || fail "$target: the archive defines globals other than sb_* (above)"
  out=$(run_readme "$sdk" 2>/dev/null) || fail "$target: the SDK README's lines failed"
  [ "$(sed 's/ *$//' <<<"$out" | grep -E '^[0-9 ]+$')" = "$expected" ] ||
    fail "$target: the firmware printed '$out' in qemu, the model $expected"
  echo "$target SDK: only sb_* symbols; the firmware linked by its README's line printed $expected in qemu (virt)"
done
