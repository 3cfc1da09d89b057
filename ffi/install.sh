#!/usr/bin/env bash
# Builds the C library in release mode and installs it under PREFIX:
#   PREFIX/include/seeded_backoff.h
#   PREFIX/lib/libseeded_backoff_ffi.a  (debug info stripped) and, on the host, the shared library
#   PREFIX/lib/pkgconfig/seeded-backoff.pc
#   PREFIX/lib/cmake/seeded_backoff/seeded_backoffConfig.cmake (+ ConfigVersion.cmake)
# usage: ffi/install.sh PREFIX [--target TRIPLE] [--static-only]
#   --target       a Rust target (e.g. thumbv7m-none-eabi) instead of the host
#   --static-only  no shared library (scripts/dist.sh's SDK archives ship the static one only)
#
# On a hosted target the static library bundles the parts of Rust's standard library the C layer
# may call, so that a C linker needs nothing else; the linker keeps only what a program uses. Its
# debug info is stripped here (most of its size; symbols stay). On bare metal
# (thumb*, riscv32*) it is one object defining only the sb_* symbols (ffi/firmware-archive.sh). The pkg-config and CMake files find the prefix
# from their own location, so the tree can be moved or unpacked anywhere.
set -euo pipefail
prefix=
target=
static_only=
while [ $# -gt 0 ]; do
  case $1 in
    --target) target=${2:?--target needs a Rust target triple}; shift 2 ;;
    --static-only) static_only=1; shift ;;
    -*) echo "install.sh: unknown option $1" >&2; exit 2 ;;
    *) prefix=$1; shift ;;
  esac
done
[ -n "$prefix" ] || { echo "usage: ffi/install.sh PREFIX [--target TRIPLE] [--static-only]" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
cd "$(dirname "$0")/.."

target_args=()
build_dir=release
strip_tool=strip
if [ -n "$target" ]; then
  target_args=(--target "$target")
  build_dir=$target/release
fi
# 64-bit Arm Linux from another machine: Debian's cross toolchain (gcc-aarch64-linux-gnu) links
# the shared library and strips. On an Arm host the target is the host and its own cc links.
if [ "$target" = aarch64-unknown-linux-gnu ] && [ "$(uname -m)" != aarch64 ]; then
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc}
  strip_tool=aarch64-linux-gnu-strip
fi

# The system libraries Rust's std needs when linking the static library, as rustc reports them
# (none on bare metal).
libs_private=$(cargo rustc -q --release -p seeded-backoff-ffi "${target_args[@]}" --crate-type staticlib -- \
  --print native-static-libs 2>&1 | sed -n 's/.*native-static-libs: //p' | head -n 1)
# Bare-metal targets cannot build the cdylib crate type; Cargo skips it with a warning that says
# nothing to a C user, so it is filtered out.
cargo build -q --release -p seeded-backoff-ffi "${target_args[@]}" 2>&1 | { grep -v 'cdylib' >&2 || true; }
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
version=$(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "seeded-backoff-ffi"))')

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/seeded_backoff"
cp ffi/include/seeded_backoff.h "$prefix/include/"
case $target in
  thumb* | riscv32*)
    # Bare metal: only the sb_* functions, the firmware's libc and libgcc doing the rest.
    bash ffi/firmware-archive.sh "$target" "$target_dir/$build_dir/libseeded_backoff_ffi.a" \
      "$prefix/lib/libseeded_backoff_ffi.a"
    ;;
  *)
    cp "$target_dir/$build_dir/libseeded_backoff_ffi.a" "$prefix/lib/"
    "$strip_tool" --strip-debug "$prefix/lib/libseeded_backoff_ffi.a" 2>/dev/null ||
      echo "install.sh: $strip_tool not found; the static library keeps its debug info" >&2
    ;;
esac
shared_name=
if [ -z "$static_only" ]; then
  for shared in "$target_dir/$build_dir"/libseeded_backoff_ffi.so "$target_dir/$build_dir"/libseeded_backoff_ffi.dylib; do
    if [ -e "$shared" ]; then
      cp "$shared" "$prefix/lib/"
      shared_name=$(basename "$shared")
    fi
  done
fi
sed -e "s|@VERSION@|$version|" -e "s|@LIBS_PRIVATE@|$libs_private|" \
  ffi/seeded-backoff.pc.in >"$prefix/lib/pkgconfig/seeded-backoff.pc"
sed -e "s|@LIBS_PRIVATE_CMAKE@|$(tr -s ' ' ';' <<<"$libs_private")|" -e "s|@SHARED_NAME@|$shared_name|" \
  ffi/seeded_backoffConfig.cmake.in >"$prefix/lib/cmake/seeded_backoff/seeded_backoffConfig.cmake"
cat >"$prefix/lib/cmake/seeded_backoff/seeded_backoffConfigVersion.cmake" <<CMAKE
# Compatible when the major version matches (and, before 1.0, the minor version too).
set(PACKAGE_VERSION "$version")
string(REGEX MATCH "^[0-9]+\\\\.[0-9]+" _sb_have "\${PACKAGE_VERSION}")
string(REGEX MATCH "^[0-9]+\\\\.[0-9]+" _sb_want "\${PACKAGE_FIND_VERSION}")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(PACKAGE_FIND_VERSION_MAJOR STREQUAL "0" AND NOT _sb_have STREQUAL _sb_want)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL "0" AND NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL "${version%%.*}")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
CMAKE
echo "installed seeded-backoff $version C library${target:+ for $target} under $prefix"

# A program linked against the shared library finds it at run time only if the loader searches
# PREFIX/lib: refresh the loader's cache when that is a directory it searches (e.g. /usr/local/lib
# on Debian), else say what to do.
if [ -n "$shared_name" ] && [ "$(uname -s)" = Linux ]; then
  if command -v ldconfig >/dev/null && [ "$(id -u)" = 0 ] &&
    grep -q "^$prefix/lib:" <<<"$(ldconfig -N -v 2>/dev/null)"; then
    ldconfig
    echo "ran ldconfig: programs linked against $shared_name find it at run time"
  else
    echo "note: $prefix/lib is not in the loader's cache: link with -Wl,-rpath,$prefix/lib," \
      "set LD_LIBRARY_PATH=$prefix/lib, or add it to /etc/ld.so.conf.d and run ldconfig"
  fi
fi
