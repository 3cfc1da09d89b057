#!/usr/bin/env bash
# The C library's reconnect variant (scripts/release/c-sdk.sh's lib/variants/reconnect) on
# Cortex-M3 and rv32imc in QEMU: main_reconnect.c's delays are the independent model's
# (tests/model), two devices draw different delays, the floor the lab compares with prints the
# same delays, an invalid policy is named by its field; the fleet example (main_fleet.c) seeds per
# device; the header opens with its quick start. Standalone: bash scripts/test.d/31-reconnect.sh.
# Needs: gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm, gcc-riscv64-unknown-elf,
# picolibc-riscv64-unknown-elf, qemu-system-misc, python3, the thumbv7m-none-eabi and
# riscv32imc-unknown-none-elf rustup targets.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { echo; echo "--- reconnect: $*"; }
fail() { echo "FAIL (reconnect): $*" >&2; exit 1; }

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out="$target_dir/reconnect-c"
rm -rf "$out"
mkdir -p "$out"

# The features each variant ships with, from the one list scripts/release/c-sdk.sh builds.
variant_features() { sed -n "s/^  \"$1|\([^|]*\)|.*/\1/p" scripts/release/c-sdk.sh; }
reconnect=$(variant_features reconnect)
fleet=$(variant_features fleet)
[ -n "$reconnect" ] && [ -n "$fleet" ] || fail "scripts/release/c-sdk.sh lists no reconnect or fleet variant"

fw=ffi/firmware
fw_cflags=(-Os -g -std=c99 -Wall -Wextra -Werror -pedantic -ffunction-sections -fdata-sections
  -I ffi/include -I ffi/tests/c)
fw_ldflags=(-nostartfiles --specs=nano.specs -T "$fw/lm3s6965.ld" -Wl,--gc-sections
  -Wl,-z,noexecstack)
big_ld="$fw/lm3s6965.ld"
. scripts/lib/firmware.sh

rv_flags=(-march=rv32imc -mabi=ilp32 -Os -std=c99 -Wall -Wextra -Werror -pedantic
  -ffunction-sections -fdata-sections -I ffi/include -I ffi/tests/c --specs=picolibc.specs
  --crt0=semihost --oslib=semihost -Wl,--defsym=__flash=0x80000000
  -Wl,--defsym=__flash_size=0x200000 -Wl,--defsym=__ram=0x80200000
  -Wl,--defsym=__ram_size=0x200000 -Wl,--gc-sections)
# rv_firmware NAME ARCHIVE MAIN [CFLAGS...]: links NAME.elf for QEMU's virt board.
rv_firmware() {
  local name=$1 archive=$2 main=$3
  shift 3
  riscv64-unknown-elf-gcc "${rv_flags[@]}" "$@" "$fw/semihosting.c" "$main" \
    -Wl,-Map="$out/$name.map" "$archive" -o "$out/$name.elf"
}
# rv_run ELF LOG: runs it in qemu-system-riscv32; its semihosting output goes to LOG.
rv_run() {
  timeout 120 qemu-system-riscv32 -M virt -nographic -monitor none -serial none -bios none \
    -chardev file,id=sh0,path="$2" -semihosting-config enable=on,target=native,chardev=sh0 \
    -kernel "$1" 2>"$2.stderr"
}
# delays LOG: the line of delays a firmware printed (after its "state N" line).
delays() { grep -E '^[0-9 ]+$' "$1" | sed 's/ *$//'; }

# The model's 12 delays for a device id and boot counter under POLICY (spec_model keywords).
model() {
  PYTHONPATH=tests/model python3 - "$@" <<'PY'
import sys
import fleet_model as f
import spec_model as m
uid, boot, policy = bytes.fromhex(sys.argv[1]), int(sys.argv[2]), eval("dict(" + sys.argv[3] + ")")
b = m.Backoff(m.make_policy(**policy), f.seed_from_device(uid, boot))
print(" ".join(str(b.next().delay_ms) for _ in range(12)))
PY
}
reconnect_policy='initial_ms=1000, max_backoff_ms=64000, jitter="full", max_retries=2**32 - 1'
fleet_policy='initial_ms=1000, max_backoff_ms=32000, jitter="full", max_retries=2**32 - 1'
uid_a=001b638445e6 uid_b=001b638445e7
c_uid_b='-DDEVICE_UID=0x00,0x1b,0x63,0x84,0x45,0xe7'

step "the variant's own contract on the host: cargo test --features $reconnect"
cargo test -q -p seeded-backoff-ffi --lib --no-default-features --features "$reconnect" 2>&1 |
  grep -E '^test result: ok' || fail "the crate's unit tests failed in the reconnect variant"

want_a=$(model "$uid_a" 1 "$reconnect_policy")
want_b=$(model "$uid_b" 1 "$reconnect_policy")
[ "$want_a" != "$want_b" ] || fail "the model gives devices A and B one schedule"
for arch in thumbv7m-none-eabi:cortex-m3 riscv32imc-unknown-none-elf:rv32imc; do
  triple=${arch%%:*} cpu=${arch##*:}
  step "$triple: main_reconnect.c (two devices), floor_reconnect.c, check_reconnect.c in qemu"
  mkdir -p "$out/$triple"
  archive="$out/$triple/libseeded_backoff_ffi.a"
  bash ffi/firmware-archive.sh "$triple" "$(staticlib "$triple" "$reconnect")" "$archive"
  for program in reconnect-a:main_reconnect.c reconnect-b:main_reconnect.c floor:floor_reconnect.c \
    check:check_reconnect.c; do
    name=$cpu-${program%%:*} main=$fw/${program##*:} extra=()
    [ "${program%%:*}" = reconnect-b ] && extra=("$c_uid_b")
    if [ "$cpu" = cortex-m3 ]; then
      firmware "$name" cortex-m3 "$archive" "$main" "${extra[@]}"
      run_qemu "$out/$name.elf" "$out/$name.log" >/dev/null || fail "$name exited with status $?: $(cat "$out/$name.log")"
    else
      rv_firmware "$name" "$archive" "$main" "${extra[@]}"
      rv_run "$out/$name.elf" "$out/$name.log" || fail "$name exited with status $?: $(cat "$out/$name.log")"
    fi
  done
  [ "$(delays "$out/$cpu-reconnect-a.log")" = "$want_a" ] ||
    fail "$triple: device A printed '$(delays "$out/$cpu-reconnect-a.log")', the model '$want_a'"
  [ "$(delays "$out/$cpu-reconnect-b.log")" = "$want_b" ] ||
    fail "$triple: device B printed '$(delays "$out/$cpu-reconnect-b.log")', the model '$want_b'"
  cmp -s <(delays "$out/$cpu-reconnect-a.log") <(delays "$out/$cpu-reconnect-b.log") &&
    fail "$triple: two devices share a schedule"
  [ "$(delays "$out/$cpu-floor.log")" = "$want_a" ] || fail "$triple: the floor printed other delays than the model"
  grep -qx 'PASS: reconnect statuses' "$out/$cpu-check.log" || fail "$triple: $(grep FAIL "$out/$cpu-check.log")"
  startup=$(PYTHONPATH=tests/model python3 -c "import fleet_model as f
print(f.startup_delay_ms(f.seed_from_device(bytes.fromhex('$uid_a'), 1), 60000))")
  grep -qx "startup $startup" "$out/$cpu-check.log" || fail "$triple: startup delay $(grep startup "$out/$cpu-check.log"), the model $startup"
  echo "device A: $want_a"
  echo "device B: $want_b"
  echo "the model's delays for both devices, which differ; the floor prints A's; every named status as expected; startup delay $startup ms as the model"
  # Wide bounds, far above today's figures (lab/firmware.sh measures them against their goals):
  # they catch a variant that links the whole library or a step that copies its policy.
  code=$(python3 "$fw/size_report.py" --bytes "$out/$cpu-reconnect-a.map")
  [ "$code" -le 2048 ] || fail "$triple: the reconnect program links $code B of library code (bound 2048)"
  depth=$(python3 "$fw/stack_report.py" x "$out/$cpu-reconnect-a.elf" | awk '$1 == "sb_reconnect_next" { print $2 }')
  [ "${depth:-999}" -le 128 ] || fail "$triple: sb_reconnect_next takes ${depth:-unbounded} B of stack (bound 128)"
  echo "library code $code B (bound 2048), sb_reconnect_next stack $depth B (bound 128)"
done

step "no panic path in the reconnect variant: with a panic handler that calls an undefined symbol it still links"
lib=$(staticlib thumbv7m-none-eabi "$reconnect,panic-link-check")
firmware nopanic cortex-m3 "$lib" "$fw/main_reconnect.c"
echo "thumbv7m: main_reconnect.c links against the variant built with panic-link-check"

step "main_fleet.c on the fleet variant ($fleet): each device seeds from its id"
archive="$out/fleet/libseeded_backoff_ffi.a"
mkdir -p "$out/fleet"
bash ffi/firmware-archive.sh thumbv7m-none-eabi "$(staticlib thumbv7m-none-eabi "$fleet")" "$archive"
firmware fleet-a cortex-m3 "$archive" "$fw/main_fleet.c"
firmware fleet-b cortex-m3 "$archive" "$fw/main_fleet.c" "$c_uid_b"
for device in a b; do
  run_qemu "$out/fleet-$device.elf" "$out/fleet-$device.log" >/dev/null || fail "main_fleet.c, device $device: $(cat "$out/fleet-$device.log")"
done
uid=$uid_a
for device in a b; do
  want=$(model "$uid" 1 "$fleet_policy")
  [ "$(delays "$out/fleet-$device.log")" = "$want" ] ||
    fail "main_fleet.c device $device printed '$(delays "$out/fleet-$device.log")', the model '$want'"
  uid=$uid_b
done
cmp -s <(delays "$out/fleet-a.log") <(delays "$out/fleet-b.log") && fail "main_fleet.c: two devices share a schedule"
grep -q 'sb_seed_from_device' "$fw/main_fleet.c" || fail "main_fleet.c does not derive its seed"
echo "devices A and B: the model's delays, which differ ($(delays "$out/fleet-a.log") / $(delays "$out/fleet-b.log"))"

step "the header opens with its quick start: the reconnect loop's declarations in use order"
python3 - ffi/include/seeded_backoff.h <<'PY' || fail "the header's first screen is not the quick start"
import re
import sys
text = open(sys.argv[1]).read()
screen = "\n".join(text.splitlines()[:60])
order = ["sb_seed_from_device", "sb_startup_delay", "sb_reconnect_init", "sb_reconnect_next",
         "sb_reconnect_reset"]
places = [screen.find(name + "(") for name in order]
if -1 in places or places != sorted(places):
    sys.exit(f"lines 1-60 do not name {', '.join(order)} in that order")
# Each declaration the quick start lists is the header's own, word for word.
code = text.split(" */", 1)[1]  # after the quick start
real = {m.group(1): " ".join(m.group(0).split()) for m in
        re.finditer(r"^[a-z][^;(]*?\b(sb_[a-z_0-9]+)\([^;]*\);", code, re.M)}
listed = re.findall(r"^ \*     ((?:sb_status|const char) [^;]*?\b(sb_[a-z_0-9]+)\([^;]*\);)", screen, re.M)
if len(listed) < len(order):
    sys.exit(f"the quick start lists {len(listed)} declarations")
for decl, name in listed:
    if " ".join(decl.split()) != real.get(name):
        sys.exit(f"the quick start's {name} is not the header's: {decl} / {real.get(name)}")
print(f"lines 1-60: the quick start names {', '.join(order)} in use order; its {len(listed)} declarations are the header's")
PY
grep -q '#include <stddef.h>' ffi/include/seeded_backoff.h || fail "the header does not include <stddef.h>"
echo "<stddef.h> included"

echo
echo "reconnect: the variant's delays are the model's on Cortex-M3 and rv32imc, devices differ, statuses are named"
