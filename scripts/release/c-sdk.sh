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
  "$host") cpu= ;;
  *) echo "c-sdk.sh: no C flags known for $target" >&2; exit 2 ;;
esac

if [ "$target" = "$host" ]; then
  cp ffi/examples/retry_http.c ffi/examples/CMakeLists.txt "$dir/examples/"
  example="\`examples/retry_http.c\`: one request retried with Google's backoff (a stand-in transport)"
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
else
  mkdir -p "$dir/examples/firmware"
  cp ffi/firmware/startup.c ffi/firmware/semihosting.c ffi/firmware/semihosting.h \
    ffi/firmware/main_google.c ffi/firmware/main_runtime.c ffi/firmware/lm3s6965.ld "$dir/examples/firmware/"
  example="\`examples/firmware/\`: \`main_google.c\` prints one request's delays through
  semihosting; \`main_runtime.c\` also calls \`memcpy\`, \`sqrtf\` and a 64-bit division, which
  newlib and libgcc provide (the library defines only \`sb_*\` symbols); \`startup.c\` (vector table and reset handler) and \`lm3s6965.ld\` (the memory map
  of the TI LM3S6965, the Cortex-M3 board QEMU emulates) stand in for your chip's own"
  build=$(cat <<SH
export PKG_CONFIG_PATH="\$PWD/lib/pkgconfig"
arm-none-eabi-gcc $cpu -Os -std=c99 -ffunction-sections -fdata-sections \\
  \$(pkg-config --cflags seeded-backoff) examples/firmware/startup.c examples/firmware/semihosting.c \\
  examples/firmware/main_google.c -nostartfiles --specs=nano.specs -T examples/firmware/lm3s6965.ld \\
  -Wl,--gc-sections -Wl,-z,noexecstack \$(pkg-config --libs seeded-backoff) -o google.elf
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
\`-z noexecstack\` because arm-none-eabi-gcc's objects carry no stack note."
fi

cat >"$dir/README.md" <<MD
# seeded-backoff $version: C SDK for $target

Deterministic, seeded exponential backoff with a C ABI: the same seed gives the same delays as the
Rust crate and the npm package. No allocation; every function returns an \`sb_status\`, and
\`sb_strerror(code)\` names the field at fault and its allowed range. The API is documented in
\`include/seeded_backoff.h\`.

## Contents

- \`include/seeded_backoff.h\`: the header (C99 and C++11; \`SB_VERSION_*\` match \`sb_version()\`)
- \`lib/libseeded_backoff_ffi.a\`: the static library (debug info stripped)
- \`lib/pkgconfig/seeded-backoff.pc\`, \`lib/cmake/seeded_backoff/\`: pkg-config and CMake files;
  they find the SDK where it is unpacked
- $example
- \`LICENSE-MIT\`, \`LICENSE-APACHE\`: MIT OR Apache-2.0, at your option

## Build the example

From this directory:

\`\`\`sh
$build
\`\`\`

$notes
MD
