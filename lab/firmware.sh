#!/usr/bin/env bash
# Firmware reconnect loop: the reconnect variant beside FreeRTOS backoffAlgorithm and the floor (Cortex-M3, rv32imc), and a fleet's peak at the cap.
#
# Each program derives its seed (the variant and the floor from a device id), initialises and
# steps 12 times in QEMU, -Os, --gc-sections, without sb_strerror: ffi/firmware/main_reconnect.c
# on lib/variants/reconnect (scripts/release/c-sdk.sh's features), ffi/firmware/floor_reconnect.c
# (the same delays hand-written in C for its one policy: the least code that prints them) and
# ffi/firmware/main_backoff_algorithm.c on backoffAlgorithm's source/backoff_algorithm.c (with
# -DNDEBUG; it takes its random numbers from the caller, whose generator is not counted). Per
# function: flash (text from the map), the static worst-case stack (ffi/firmware/stack_report.py:
# the frame plus the deepest callee chain) and the painted stack (ffi/firmware/paint_wrap.c: the
# deepest any call of this run took; the floor's calls stay within its one file and are not
# wrapped); the state's sizeof as the firmware prints it. Then what
# sb_strerror adds to that program, and each goal of the reconnect variant, met or missed.
#
# backoffAlgorithm is not in this repository: set BACKOFF_ALGORITHM_DIR to a checkout of
# https://github.com/FreeRTOS/backoffAlgorithm (tag v1.4.1); without it its rows are skipped.
# Needs: gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm, gcc-riscv64-unknown-elf,
# picolibc-riscv64-unknown-elf, qemu-system-misc, the thumbv7m and riscv32imc rustup targets.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "firmware: $*" >&2; exit 1; }
for tool in arm-none-eabi-gcc riscv64-unknown-elf-gcc qemu-system-arm qemu-system-riscv32 python3; do
  command -v "$tool" >/dev/null || fail "$tool is missing (bash scripts/setup.sh c)"
done

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out="$target_dir/lab-firmware"
rm -rf "$out"
mkdir -p "$out"
fw=ffi/firmware
features=$(sed -n 's/^  "reconnect|\([^|]*\)|.*/\1/p' scripts/release/c-sdk.sh)
[ -n "$features" ] || fail "scripts/release/c-sdk.sh lists no reconnect variant"
boa=${BACKOFF_ALGORITHM_DIR:-}
if [ -n "$boa" ] && [ ! -f "$boa/source/backoff_algorithm.c" ]; then
  echo "BACKOFF_ALGORITHM_DIR=$boa has no source/backoff_algorithm.c: backoffAlgorithm skipped"
  boa=
elif [ -z "$boa" ]; then
  echo "backoffAlgorithm skipped: BACKOFF_ALGORITHM_DIR is not set (a checkout of FreeRTOS/backoffAlgorithm v1.4.1)"
fi

common=(-Os -std=c99 -Wall -Wextra -Werror -pedantic -ffunction-sections -fdata-sections
  -I ffi/include -I "$fw")
m3() { # NAME SOURCES...: links and runs NAME on the LM3S6965 (Cortex-M3)
  local name=$1
  shift
  arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb "${common[@]}" "$fw/startup.c" "$fw/semihosting.c" "$@" \
    -nostartfiles --specs=nano.specs -T "$fw/lm3s6965.ld" -Wl,--gc-sections -Wl,-z,noexecstack \
    -Wl,-Map="$out/m3-$name.map" -o "$out/m3-$name.elf"
  timeout 120 qemu-system-arm -M lm3s6965evb -nographic -monitor none -serial none \
    -chardev file,id=sh,path="$out/m3-$name.log" -semihosting-config enable=on,target=native,chardev=sh \
    -kernel "$out/m3-$name.elf" 2>/dev/null || fail "m3-$name exited with status $?"
}
rv() { # NAME SOURCES...: links and runs NAME on QEMU's virt board (rv32imc)
  local name=$1
  shift
  riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 "${common[@]}" --specs=picolibc.specs \
    --crt0=semihost --oslib=semihost -Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x200000 \
    -Wl,--defsym=__ram=0x80200000 -Wl,--defsym=__ram_size=0x200000 -Wl,--gc-sections \
    "$fw/semihosting.c" "$@" -Wl,-Map="$out/rv-$name.map" -o "$out/rv-$name.elf"
  timeout 120 qemu-system-riscv32 -M virt -nographic -monitor none -serial none -bios none \
    -chardev file,id=sh,path="$out/rv-$name.log" -semihosting-config enable=on,target=native,chardev=sh \
    -kernel "$out/rv-$name.elf" 2>/dev/null || fail "rv-$name exited with status $?"
}

for arch in m3:thumbv7m-none-eabi rv:riscv32imc-unknown-none-elf; do
  tag=${arch%%:*} triple=${arch##*:}
  cargo build -q --release -p seeded-backoff-ffi --target "$triple" --no-default-features \
    --features "$features" 2>&1 | { grep -v cdylib >&2 || true; }
  mkdir -p "$out/$triple"
  bash ffi/firmware-archive.sh "$triple" "$target_dir/$triple/release/libseeded_backoff_ffi.a" \
    "$out/$triple/libseeded_backoff_ffi.a"
  lib="$out/$triple/libseeded_backoff_ffi.a"
  "$tag" reconnect "$fw/main_reconnect.c" "$lib"
  "$tag" strerror -DWITH_STRERROR "$fw/main_reconnect.c" "$lib"
  "$tag" floor "$fw/floor_reconnect.c"
  # The same programs with each measured call wrapped to paint the stack below it (paint_wrap.c).
  "$tag" reconnect-painted -DPAINT_SB "$fw/main_reconnect.c" "$fw/paint_wrap.c" "$lib" \
    -Wl,--wrap=sb_seed_from_device -Wl,--wrap=sb_reconnect_init -Wl,--wrap=sb_reconnect_next
  if [ -n "$boa" ]; then
    "$tag" boa -DNDEBUG -I "$boa/source/include" "$fw/main_backoff_algorithm.c" "$boa/source/backoff_algorithm.c"
    "$tag" boa-painted -DNDEBUG -DPAINT_BOA -I "$boa/source/include" "$fw/main_backoff_algorithm.c" \
      "$boa/source/backoff_algorithm.c" "$fw/paint_wrap.c" -Wl,--wrap=BackoffAlgorithm_InitializeParams \
      -Wl,--wrap=BackoffAlgorithm_GetNextBackoff
  fi
done

echo "== the reconnect loop: seed from a device id, init, step (-Os, --gc-sections; reconnect variant: $features)"
PYTHONPATH=$fw python3 - "$out" <<'PY'
import os
import re
import sys

from size_report import library_bytes
from stack_report import parse, resolve_indirect, worst

out = sys.argv[1]
LINE = re.compile(r"^\s*(\.[^\s]+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")


def sections(map_path):
    """[(section, size, origin)] of every input section in a GNU ld map."""
    body = open(map_path).read().split("Linker script and memory map", 1)[1]
    rows, pending = [], None
    for line in body.splitlines():
        m = LINE.match(line)
        if not m:
            s = line.strip()
            pending = s if s.startswith(".") and " " not in s else None
            continue
        rows.append((m.group(1) or pending, int(m.group(3), 16), m.group(4)))
        pending = None
    return rows


def code_of(map_path, marker):
    """Text of the object that holds section `marker`, but its main: the code that program's
    library or hand-written loop takes."""
    rows = [r for r in sections(map_path) if r[0] and r[1]]
    origin = next(o for s, _, o in rows if s == marker)
    return sum(n for s, n, o in rows if o == origin and s.startswith((".text", ".rodata"))
               and not s.endswith(".main"))


def painted(log):
    """{function: the deepest stack a call to it took}, from a program linked with paint_wrap.c."""
    depths = {}
    for name, depth in re.findall(r"painted (\S+) (\d+)", open(log).read()):
        depths[name] = max(depths.get(name, 0), int(depth))
    return depths


def per_function(elf, names):
    funcs = parse(elf)
    resolve_indirect(funcs)
    size = {}
    tool = "riscv64-unknown-elf-nm" if "/rv-" in elf else "arm-none-eabi-nm"
    for line in os.popen(f"{tool} -S --size-sort {elf}"):
        parts = line.split()
        if len(parts) == 4:
            size[parts[3]] = int(parts[1], 16)
    rows = []
    for name in names:
        if name in funcs:
            depth, problems = worst(funcs, name)
            rows.append((name, size.get(name, 0), "unbounded" if problems else depth))
    return rows


def state(log):
    return int(re.search(r"^state (\d+)", open(log).read(), re.M).group(1))


goals = []
for tag, arch in (("m3", "Cortex-M3 (thumbv7m)"), ("rv", "rv32imc")):
    p = lambda name, ext: os.path.join(out, f"{tag}-{name}.{ext}")
    print(f"\n{arch}")
    print(f"  {'program / function':<38}{'flash B':>9}{'stack B':>9}{'state B':>9}{'painted B':>11}")
    lib = library_bytes(p("reconnect", "map"))[0]
    rows = per_function(p("reconnect", "elf"), ["sb_seed_from_device", "sb_reconnect_init", "sb_reconnect_next"])
    paint = painted(p("reconnect-painted", "log"))
    st = state(p("reconnect", "log"))
    print(f"  {'reconnect variant (library code)':<38}{lib:>9}{'':>9}{st:>9}")
    for name, size, depth in rows:
        print(f"    {name:<36}{size:>9}{depth:>9}{'':>9}{paint.get(name, '-'):>11}")
    step = dict((n, d) for n, _, d in rows)["sb_reconnect_next"]
    floor = code_of(p("floor", "map"), ".text.floor_next")
    print(f"  {'floor (hand-written C, one policy)':<38}{floor:>9}{'':>9}{state(p('floor', 'log')):>9}")
    for name, size, depth in per_function(p("floor", "elf"), ["floor_seed_from_device", "floor_init", "floor_next"]):
        print(f"    {name:<36}{size:>9}{depth:>9}")
    boa = None
    if os.path.exists(p("boa", "map")):
        boa = code_of(p("boa", "map"), ".text.BackoffAlgorithm_GetNextBackoff")
        paint = painted(p("boa-painted", "log"))
        print(f"  {'backoffAlgorithm v1.4.1 (no generator)':<38}{boa:>9}{'':>9}{state(p('boa', 'log')):>9}")
        for name, size, depth in per_function(p("boa", "elf"), ["BackoffAlgorithm_InitializeParams", "BackoffAlgorithm_GetNextBackoff"]):
            print(f"    {name:<36}{size:>9}{depth:>9}{'':>9}{paint.get(name, '-'):>11}")
    strerror = library_bytes(p("strerror", "map"))[0] - lib
    print(f"  sb_strerror called once adds {strerror} B (this variant's table)")
    beside = f"floor {floor} B" + (f", backoffAlgorithm {boa} B" if boa is not None else "")
    goals.append((lib <= 512, f"{arch}: library code <= 512 B (stretch 400): {lib} B ({beside})"))
    goals.append((step != "unbounded" and step <= 32, f"{arch}: sb_reconnect_next stack <= 32 B: {step} B"))
    goals.append((st <= 32, f"{arch}: state <= 32 B with the policy read from flash: {st} B"))
print()
for met, text in goals:
    print(f"goal: {'met' if met else 'missed'}: {text}")
PY

echo
echo "== 10,000 devices dropped at once, the broker down: connects per second once every device is at the cap"
# The model's schedules (tests/model), each device seeded from its id (a 4-byte counter) and boot 1:
# attempts at 0 and after each delay; the busiest and the mean second of 600..1800 s, when every
# device's base is at the cap. Each archive's example policy, retrying forever.
PYTHONPATH=tests/model python3 - <<'PY'
import fleet_model as f
import spec_model as m

FOREVER = 2**32 - 1
POLICIES = [
    ("google (Google's jitter, 32 s cap)", m.preset("google", max_retries=FOREVER)),
    ("fleet, main_fleet.c (full, 32 s cap)", m.preset("google", jitter="full", max_retries=FOREVER)),
    ("reconnect, main_reconnect.c (full, 64 s)",
     m.make_policy(1000, 64000, jitter="full", max_retries=FOREVER)),
]
DEVICES, START, END = 10_000, 600_000, 1_800_000
for name, policy in POLICIES:
    per_second = [0] * ((END - START) // 1000)
    for device in range(DEVICES):
        b = m.Backoff(policy, f.seed_from_device(device.to_bytes(4, "little"), 1))
        t = 0
        while t < END:
            if t >= START:
                per_second[(t - START) // 1000] += 1
            t += b.next().delay_ms
    mean = sum(per_second) / len(per_second)
    print(f"  {name:<44} peak {max(per_second):>5}/s, mean {mean:>6.1f}/s, peak/mean {max(per_second) / mean:.1f}")
PY
