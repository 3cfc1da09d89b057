#!/usr/bin/env bash
# Builds every installable package into dist/ (gitignored), as a user would install it:
#   seeded-backoff-VERSION.tgz                  the npm package (`npm pack` of the built package)
#   seeded-backoff-VERSION.crate                the Rust crate (`cargo package`, checked by
#                                               `cargo publish --dry-run`)
#   seeded-backoff-c-VERSION-TARGET.tar.gz      the C SDK, one per target (scripts/release/c-sdk.sh),
#                                               aarch64-unknown-linux-gnu cross-built with Debian's
#                                               gcc-aarch64-linux-gnu
#   seeded_backoff-VERSION-*.whl                the Python wheels, x86_64 and aarch64 (cross-built),
#                                               when python/pyproject.toml exists, each manylinux tag
#                                               checked (scripts/release/wheel.sh)
#   seeded_backoff-VERSION.tar.gz               the Python sdist: `pip install` builds it with any
#                                               stable Rust toolchain (maturin)
#   SHA256SUMS                                  over all of them
# Every artifact carries LICENSE-MIT and LICENSE-APACHE. The CLI is not among them: it depends on
# the unpublished crates of this workspace, so `cargo package` cannot resolve it; it installs from
# a clone with `cargo install --locked --path cli`.
# Archives are reproducible (sorted, zero mtimes and owners, gzip -n), so SHA256SUMS changes only
# when a package does. Reruns are fast: Cargo and the npm build reuse their builds.
# usage: scripts/dist.sh [AUDIENCE] [OUT_DIR]   (after scripts/setup.sh AUDIENCE on a fresh machine)
#   AUDIENCE: web (the npm package), rust (the crate), c (the C SDKs), python (the wheel and sdist) or all
#   (the default); only that audience's artifacts are built.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
audience=all
case "${1:-}" in
  web | rust | c | python | all) audience=$1; shift ;;
esac
out=${1:-$root/dist}
wants() { [ "$audience" = all ] || [ "$audience" = "$1" ]; }
export CARGO_TERM_COLOR=never
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# Scratch space for the layouts that get archived: in target/, so dist/ holds only the artifacts.
stage=$target_dir/dist-stage
host=$(rustc -vV | sed -n 's/^host: //p')
sdk_targets=("$host" thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf
  riscv32imc-unknown-none-elf riscv32imac-unknown-none-elf)
# The C SDK and wheel for 64-bit Arm Linux beside the host's (cross-built when the host is not one).
wheel_targets=("$host")
if [ "$host" != aarch64-unknown-linux-gnu ]; then
  sdk_targets+=(aarch64-unknown-linux-gnu)
  wheel_targets+=(aarch64-unknown-linux-gnu)
fi

log() { echo "dist: $*"; }
# archive DIR FILE: DIR's contents under DIR's own name, reproducibly.
archive() {
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$(dirname "$1")" \
    -cf - "$(basename "$1")" | gzip -n -9 >"$2"
}

version=$(bash scripts/release/check-version.sh)
log "version $version, audience $audience"
rm -rf "$out" "$stage"
mkdir -p "$out" "$stage"

if wants web; then
log "npm package"
npm --prefix wasm run build >"$stage/npm-build.log" 2>&1 || { cat "$stage/npm-build.log"; exit 1; }
node scripts/release/npm-stage.mjs "$stage/npm"
(cd "$stage/npm" && npm pack --silent --pack-destination "$out" >/dev/null)
fi

if wants rust; then
log "Rust crate"
# cargo package builds the packaged sources alone (the check that it stands without the
# workspace); publish --dry-run adds the registry's checks without uploading. --allow-dirty: a
# working tree with edits packs as it is (cargo records that in .cargo_vcs_info.json).
cargo package -q -p seeded-backoff --allow-dirty
# Its warning that the manifest names no repository stays visible: the project has no public URL
# yet; once [workspace.package] repository is set, the npm package gets it too (npm-stage.mjs).
cargo publish --dry-run --no-verify -p seeded-backoff --allow-dirty 2>&1 |
  { grep -E '^(warning|error)' | grep -v 'aborting upload due to dry run' || true; }
cp "$target_dir/package/seeded-backoff-$version.crate" "$out/"
fi

if wants c; then
for target in "${sdk_targets[@]}"; do
  log "C SDK for $target"
  name=seeded-backoff-c-$version-$target
  bash scripts/release/c-sdk.sh "$target" "$stage/$name"
  archive "$stage/$name" "$out/$name.tar.gz"
done
fi

if wants python && [ -f python/pyproject.toml ]; then
  log "Python wheel and sdist"
  for target in "${wheel_targets[@]}"; do
    bash scripts/release/wheel.sh "$target" "$out" | sed 's/^/dist: /'
  done
  (. .venv/bin/activate && cd python &&
    { maturin sdist --out "$out" >"$stage/sdist.log" 2>&1 || { cat "$stage/sdist.log"; exit 1; }; })
fi

(cd "$out" && sha256sum -- $(ls | grep -vx SHA256SUMS) >SHA256SUMS)
log "wrote $out:"
(cd "$out" && ls -l --block-size=K | tail -n +2 | awk '{ print "  " $5 "  " $NF }')
