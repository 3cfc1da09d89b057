#!/usr/bin/env bash
# One version number: [workspace.package] version in Cargo.toml is the source; every crate takes it
# (version.workspace = true), and the places that cannot read it must say the same number:
# wasm/package.json, the C header's SB_VERSION_* (ffi/src/version.rs fails to build on a mismatch;
# this reads the committed header), python/pyproject.toml when it exists (dynamic: maturin reads
# Cargo's), and the versioned file names in README.md's install lines.
# Prints the version on success; on a mismatch names each place that differs and exits 1.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$version" ] || { echo "check-version: no [workspace.package] version in Cargo.toml" >&2; exit 1; }
bad=()
members=$(sed -n 's/^members = \[\(.*\)\]$/\1/p' Cargo.toml | tr -d '",')
for member in $members; do
  grep -qx 'version.workspace = true' "$member/Cargo.toml" || bad+=("$member/Cargo.toml does not take the workspace version")
done
# The fuzz targets' build of ffi/src is outside the workspace; version.rs checks its version too.
rlib_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' ffi/rlib/Cargo.toml)
[ "$rlib_version" = "$version" ] || bad+=("ffi/rlib/Cargo.toml says $rlib_version")
npm_version=$(node -p 'require("./wasm/package.json").version')
[ "$npm_version" = "$version" ] || bad+=("wasm/package.json says $npm_version")
header_version=$(for part in MAJOR MINOR PATCH; do
  sed -n "s/^#define SB_VERSION_$part \([0-9]*\)$/\1/p" ffi/include/seeded_backoff.h
done | paste -sd.)
[ "$header_version" = "$version" ] || bad+=("ffi/include/seeded_backoff.h says $header_version")
if [ -f python/pyproject.toml ]; then
  py_version=$(sed -n '/^\[project\]/,/^\[/s/^version = "\(.*\)"$/\1/p' python/pyproject.toml)
  if [ -n "$py_version" ]; then
    [ "$py_version" = "$version" ] || bad+=("python/pyproject.toml says $py_version")
  else
    grep -Eq '^dynamic = \[.*"version"' python/pyproject.toml ||
      bad+=("python/pyproject.toml has neither a version nor a dynamic one")
  fi
fi
# Artifact names pasted in the READMEs (seeded-backoff-X.Y.Z.tgz, .crate, seeded-backoff-c-X.Y.Z-...).
for named in $(grep -ohE 'seeded[-_]backoff(-c)?-[0-9]+\.[0-9]+\.[0-9]+' README.md core/README.md wasm/README.md ffi/README.md python/README.md | sort -u); do
  [ "${named##*-}" = "$version" ] || bad+=("a README names $named")
done
if [ "${#bad[@]}" -gt 0 ]; then
  printf 'check-version: the version is %s (Cargo.toml), but %s\n' "$version" "${bad[@]}" >&2
  exit 1
fi
echo "$version"
