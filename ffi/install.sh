#!/usr/bin/env bash
# Builds the C library in release mode and installs it under PREFIX:
#   PREFIX/include/seeded_backoff.h
#   PREFIX/lib/libseeded_backoff_ffi.a  (and the shared library, .so or .dylib)
#   PREFIX/lib/pkgconfig/seeded-backoff.pc
# usage: ffi/install.sh PREFIX
set -euo pipefail
prefix=${1:?usage: ffi/install.sh PREFIX}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
cd "$(dirname "$0")/.."

# The system libraries Rust's std needs when linking the static library, as rustc reports them.
libs_private=$(cargo rustc -q --release -p seeded-backoff-ffi --crate-type staticlib -- \
  --print native-static-libs 2>&1 | sed -n 's/.*native-static-libs: //p' | head -n 1)
cargo build -q --release -p seeded-backoff-ffi
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
version=$(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "seeded-backoff-ffi"))')

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp ffi/include/seeded_backoff.h "$prefix/include/"
cp "$target_dir/release/libseeded_backoff_ffi.a" "$prefix/lib/"
for shared in "$target_dir"/release/libseeded_backoff_ffi.so "$target_dir"/release/libseeded_backoff_ffi.dylib; do
  [ -e "$shared" ] && cp "$shared" "$prefix/lib/"
done
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@LIBS_PRIVATE@|$libs_private|" \
  ffi/seeded-backoff.pc.in >"$prefix/lib/pkgconfig/seeded-backoff.pc"
echo "installed seeded-backoff $version C library under $prefix"
