#!/usr/bin/env bash
# Lays out the C SDK for one Rust target in DIR (scripts/dist.sh archives it): the header, the
# stripped static library with its pkg-config and CMake files (ffi/install.sh --static-only: no
# shared library, so `-lseeded_backoff_ffi` is the static one and a program runs without a
# loader path), the example (retry_http.c on a hosted target, the firmware on Cortex-M), the
# licenses, and a README whose build lines scripts/test.d/80-dist.sh runs as written there.
# usage: scripts/release/c-sdk.sh TARGET DIR
set -euo pipefail
target=${1:?usage: c-sdk.sh TARGET DIR}
dir=${2:?usage: c-sdk.sh TARGET DIR}
cd "$(dirname "$0")/../.."
host=$(rustc -vV | sed -n 's/^host: //p')

rm -rf "$dir"
if [ "$target" = "$host" ]; then
  bash ffi/install.sh "$dir" --static-only >/dev/null
else
  bash ffi/install.sh "$dir" --target "$target" --static-only >/dev/null
fi
# Bare metal: the prebuilt variants beside the whole API, each the same one-object archive
# (name|Cargo features|what it is for, the README's line).
variants=(
  "google|preset-google,run|Google's preset only, unchanged (\`sb_policy_google()\`), and the run (\`sb_run_*\`): the smallest"
  "fleet|jitter-full,runtime-policy,run,fleet|full jitter, which stays at the cap, any policy's fields, the run, and the per-device seed and startup delay (\`sb_seed_from_device\`, \`sb_startup_delay\`): for fleets (\`examples/firmware/main_fleet.c\`)"
  "reconnect|reconnect,fleet,runtime-policy,jitter-full|a device's reconnect loop (\`sb_reconnect_*\`: a 28-byte state, the policy read from flash, retry forever), full jitter at any cap, the per-device seed and startup delay: the smallest for a fleet (\`examples/firmware/main_reconnect.c\`)"
)
case $target in
  thumb* | riscv32*)
    for variant in "${variants[@]}"; do
      IFS='|' read -r name features _ <<<"$variant"
      cargo build -q --release -p seeded-backoff-ffi --target "$target" --no-default-features \
        --features "$features" 2>&1 | { grep -v 'cdylib' >&2 || true; }
      mkdir -p "$dir/lib/variants/$name"
      bash ffi/firmware-archive.sh "$target" \
        "$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/$target/release/libseeded_backoff_ffi.a" \
        "$dir/lib/variants/$name/libseeded_backoff_ffi.a"
    done
    ;;
  *) variants=() ;;
esac
version=$(sed -n 's/^Version: //p' "$dir/lib/pkgconfig/seeded-backoff.pc")
libs_private=$(sed -n 's/^Libs.private: *//p' "$dir/lib/pkgconfig/seeded-backoff.pc")
cp LICENSE-MIT LICENSE-APACHE "$dir/"
mkdir -p "$dir/examples"

# The compiler flags of each Cortex-M target: its CPU and, for eabihf, the hardware float ABI the
# Rust library was built with (objects of the two float ABIs do not link together).
case $target in
  thumbv6m-none-eabi) cpu="-mcpu=cortex-m0 -mthumb" ;;
  thumbv7m-none-eabi) cpu="-mcpu=cortex-m3 -mthumb" ;;
  thumbv7em-none-eabihf) cpu="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16" ;;
  riscv32imc-unknown-none-elf) cpu="-march=rv32imc -mabi=ilp32" ;;
  riscv32imac-unknown-none-elf) cpu="-march=rv32imac -mabi=ilp32" ;;
  "$host" | aarch64-unknown-linux-gnu) cpu= ;;
  *) echo "c-sdk.sh: no C flags known for $target" >&2; exit 2 ;;
esac

if [ "$target" = "$host" ]; then
  cp ffi/examples/retry_http.c ffi/examples/CMakeLists.txt "$dir/examples/"
  example="\`examples/retry_http.c\`: one request retried with Google's backoff, its loop over \`sb_run\` (a stand-in transport)"
  build=$(cat <<SH
export PKG_CONFIG_PATH="\$PWD/lib/pkgconfig"
cc -std=c99 examples/retry_http.c \$(pkg-config --cflags --libs --static seeded-backoff) -o retry_http
./retry_http
# The same without pkg-config:
cc -std=c99 -I include examples/retry_http.c lib/libseeded_backoff_ffi.a $libs_private -o retry_http
./retry_http
# CMake: find_package(seeded_backoff) (examples/CMakeLists.txt), target seeded_backoff::seeded_backoff
cmake -S examples -B build -DCMAKE_PREFIX_PATH="\$PWD" && cmake --build build
build/retry_http
SH
)
  notes="\`--static\` adds the system libraries that Rust's standard library needs when it is
linked statically (\`$libs_private\`). The library bundles the parts of Rust's standard library it
calls; the linker keeps only what a program uses."
elif [ "$target" = aarch64-unknown-linux-gnu ]; then
  # 64-bit Arm Linux (Raspberry Pi OS 64-bit, Debian or Ubuntu arm64, Graviton): the host SDK's
  # example, built on the Arm machine or cross-built and run under QEMU's user mode.
  cp ffi/examples/retry_http.c ffi/examples/CMakeLists.txt "$dir/examples/"
  example="\`examples/retry_http.c\`: one request retried with Google's backoff, its loop over \`sb_run\` (a stand-in transport)"
  build=$(cat <<SH
export PKG_CONFIG_PATH="\$PWD/lib/pkgconfig"
# On the Arm machine:
#   cc -std=c99 examples/retry_http.c \$(pkg-config --cflags --libs --static seeded-backoff) -o retry_http
#   cmake -S examples -B build -DCMAKE_PREFIX_PATH="\$PWD" && cmake --build build
# Cross-built on x86_64 Debian or Ubuntu (gcc-aarch64-linux-gnu), run by qemu-user-static:
aarch64-linux-gnu-gcc -std=c99 examples/retry_http.c \$(pkg-config --cflags --libs --static seeded-backoff) -o retry_http
qemu-aarch64-static -L /usr/aarch64-linux-gnu ./retry_http
# CMake, cross: find_package(seeded_backoff) (examples/CMakeLists.txt), target seeded_backoff::seeded_backoff
cmake -S examples -B build -DCMAKE_PREFIX_PATH="\$PWD" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \\
  -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc && cmake --build build
qemu-aarch64-static -L /usr/aarch64-linux-gnu build/retry_http
SH
)
  notes="\`--static\` adds the system libraries that Rust's standard library needs when it is
linked statically (\`$libs_private\`); the linker keeps only what a program uses. The library
is built for glibc: the project's tests run the example and every test vector with it under
\`qemu-aarch64\` on Debian's arm64 glibc. \`-L /usr/aarch64-linux-gnu\` points QEMU at the
cross toolchain's arm64 glibc (libc6-arm64-cross)."
elif [[ $target == riscv32* ]]; then
  mkdir -p "$dir/examples/firmware"
  cp ffi/firmware/semihosting.c ffi/firmware/semihosting.h ffi/firmware/main_google.c \
    ffi/firmware/main_fleet.c ffi/firmware/main_reconnect.c "$dir/examples/firmware/"
  example="\`examples/firmware/\`: \`main_google.c\`, a retry loop over \`sb_run\`, prints one
  request's delays through semihosting (\`semihosting.c\`); \`main_fleet.c\` reconnects forever
  with full jitter, \`main_reconnect.c\` too on the reconnect variant; picolibc's
  start files and the memory map of QEMU's \`virt\` board (RAM at 0x80000000) stand in for your
  chip's own"
  build=$(cat <<SH
export PKG_CONFIG_PATH="\$PWD/lib/pkgconfig"
riscv64-unknown-elf-gcc $cpu -Os -std=c99 -ffunction-sections -fdata-sections \\
  \$(pkg-config --cflags seeded-backoff) examples/firmware/semihosting.c examples/firmware/main_google.c \\
  --specs=picolibc.specs --crt0=semihost --oslib=semihost -Wl,--defsym=__flash=0x80000000 \\
  -Wl,--defsym=__flash_size=0x200000 -Wl,--defsym=__ram=0x80200000 -Wl,--defsym=__ram_size=0x200000 \\
  -Wl,--gc-sections \$(pkg-config --libs seeded-backoff) -o google.elf
# Run it on the emulated board; it prints the delays and exits.
timeout 60 qemu-system-riscv32 -M virt -nographic -monitor none -serial none -bios none \\
  -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 -kernel google.elf
SH
)
  notes="No allocation, no floating point, no C library calls beyond \`memcpy\`, \`memset\` and
\`memcmp\` (from picolibc here, or your SDK's C library); the archive is one object that defines
only the \`sb_*\` symbols, so your C library and libgcc stay the firmware's runtime. No panic
path is reachable. \`riscv64-unknown-elf-gcc\` (Debian's gcc-riscv64-unknown-elf, with the rv32
multilibs) and picolibc (picolibc-riscv64-unknown-elf) build it; \`--crt0=semihost\` makes
\`main\`'s return end QEMU."
else
  mkdir -p "$dir/examples/firmware"
  cp ffi/firmware/startup.c ffi/firmware/semihosting.c ffi/firmware/semihosting.h \
    ffi/firmware/main_google.c ffi/firmware/main_runtime.c ffi/firmware/main_fleet.c \
    ffi/firmware/main_reconnect.c ffi/firmware/lm3s6965.ld "$dir/examples/firmware/"
  example="\`examples/firmware/\`: \`main_google.c\`, a retry loop over \`sb_run\`, prints one
  request's delays through semihosting; \`main_runtime.c\` also calls \`memcpy\`, \`sqrtf\` and a 64-bit division, which
  newlib and libgcc provide (the library defines only \`sb_*\` symbols); \`main_fleet.c\`
  reconnects forever with full jitter, \`main_reconnect.c\` too on the reconnect variant; \`startup.c\` (vector table and reset handler) and
  \`lm3s6965.ld\` (the memory map
  of the TI LM3S6965, the Cortex-M3 board QEMU emulates) stand in for your chip's own"
  build=$(cat <<SH
export PKG_CONFIG_PATH="\$PWD/lib/pkgconfig"
arm-none-eabi-gcc $cpu -Os -std=c99 -ffunction-sections -fdata-sections \\
  \$(pkg-config --cflags seeded-backoff) examples/firmware/startup.c examples/firmware/semihosting.c \\
  examples/firmware/main_google.c -nostartfiles --specs=nano.specs -T examples/firmware/lm3s6965.ld \\
  -Wl,--gc-sections -Wl,-z,noexecstack \$(pkg-config --libs seeded-backoff) -o google.elf
# A fleet's device: the fleet variant (full jitter, any policy), retrying forever.
arm-none-eabi-gcc $cpu -Os -std=c99 -ffunction-sections -fdata-sections -I include \\
  examples/firmware/startup.c examples/firmware/semihosting.c examples/firmware/main_fleet.c \\
  -nostartfiles --specs=nano.specs -T examples/firmware/lm3s6965.ld -Wl,--gc-sections \\
  -Wl,-z,noexecstack lib/variants/fleet/libseeded_backoff_ffi.a -o fleet.elf
# A device's reconnect loop: the reconnect variant, its policy in flash, retrying forever.
arm-none-eabi-gcc $cpu -Os -std=c99 -ffunction-sections -fdata-sections -I include \\
  examples/firmware/startup.c examples/firmware/semihosting.c examples/firmware/main_reconnect.c \\
  -nostartfiles --specs=nano.specs -T examples/firmware/lm3s6965.ld -Wl,--gc-sections \\
  -Wl,-z,noexecstack lib/variants/reconnect/libseeded_backoff_ffi.a -o reconnect.elf
SH
)
  if [ "$target" = thumbv7m-none-eabi ]; then
    build+=$'\n'$(cat <<'SH'
# Run it on the emulated board; it prints the delays and exits.
timeout 60 qemu-system-arm -M lm3s6965evb -nographic -monitor none -serial none \
  -chardev stdio,id=semihosting -semihosting-config enable=on,target=native,chardev=semihosting \
  -kernel google.elf
SH
)
  fi
  notes="No allocation, no floating point, no C library calls beyond \`memcpy\`, \`memset\` and
\`memcmp\` (their AEABI names, from newlib); the archive is one object that defines only the
\`sb_*\` symbols, so your C library and libgcc stay the firmware's runtime, and
\`arm-none-eabi-nm\`/\`objdump\` read it. No panic path is reachable. \`-nostartfiles\` because
\`startup.c\` replaces the C runtime's start files, \`nano.specs\` for newlib-nano,
\`-z noexecstack\` because arm-none-eabi-gcc's objects carry no stack note.

Variants: link \`lib/variants/NAME/libseeded_backoff_ffi.a\` in place of
\`-lseeded_backoff_ffi\` (pkg-config names the whole API). A function a variant leaves out still
links and returns \`SB_ERR_UNSUPPORTED\`; sizes and stacks: lab/RESULTS.md of the project.

For a fleet, keep the jitter at the cap: Google's formula adds at most 1 s to a 32 s cap, so
devices dropped together retry together. The project's simulator
(\`seeded-backoff simulate --scenario outage --clients 10000 --runs 5 --strategies google,full
--outage-s 300\`): 10,000 devices, the broker down 300 s then accepting 1,000 connects/s; the
busiest second after recovery has 4,947 connects with Google's formula and 622 with full jitter,
and every device is connected 151 s after recovery with Google's, 31.6 s with full jitter.
\`main_fleet.c\` is that policy: \`sb_policy_google()\` with \`jitter = SB_JITTER_FULL\` and
\`max_retries = SB_RETRY_FOREVER\`, seeded from the device's id and boot counter
(\`sb_seed_from_device\`): a fixed seed would give every device the same delays.
\`main_reconnect.c\` is the smallest such loop (\`lib/variants/reconnect\`, \`sb_reconnect_*\`): a
28-byte state that reads its \`static const\` policy from flash; the header's first screen lists
what each archive contains and costs."
fi

cat >"$dir/README.md" <<MD
# seeded-backoff $version: C SDK for $target

Deterministic, seeded exponential backoff with a C ABI: the same seed gives the same delays as the
Rust crate and the npm package. Your retry loop is a shell over \`sb_run\`: it performs the
action the run answers (attempt, sleep) and reports what happened; the run numbers the attempts,
draws the delays, honours the server's hints and decides when to give up. No allocation; every
function returns an \`sb_status\`, and
\`sb_strerror(code)\` names the field at fault and its allowed range. The API is documented in
\`include/seeded_backoff.h\`.

## Contents

- \`include/seeded_backoff.h\`: the header (C99 and C++11; \`SB_VERSION_*\` match \`sb_version()\`)
- \`lib/libseeded_backoff_ffi.a\`: the static library, the whole API (debug info stripped)
- \`lib/pkgconfig/seeded-backoff.pc\`, \`lib/cmake/seeded_backoff/\`: pkg-config and CMake files;
  they find the SDK where it is unpacked
$(for variant in "${variants[@]}"; do
  IFS='|' read -r name features use <<<"$variant"
  echo "- \`lib/variants/$name/libseeded_backoff_ffi.a\` (Cargo features \`$features\`): $use"
done)
- $example
- \`LICENSE-MIT\`, \`LICENSE-APACHE\`: MIT OR Apache-2.0, at your option

## Build the example

From this directory:

\`\`\`sh
$build
\`\`\`

$notes
MD
