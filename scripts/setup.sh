#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, skipping what is already there so reruns
# are fast. ./test.sh runs it first; it is also safe to run on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

# Debian packages: headless Chromium for the browser tests, qemu + the ARM toolchain for the
# Cortex-M firmware, binaryen for wasm-opt, valgrind and g++ for the C tests.
apt_packages=(chromium chromium-driver qemu-system-arm gcc-arm-none-eabi libnewlib-arm-none-eabi
  binaryen valgrind g++ python3 pkg-config)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: apt-get install ${missing[*]}"
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Rust: cross targets, lint components, and Miri on nightly for the UB checks.
installed_targets=$(rustup target list --installed)
for target in thumbv6m-none-eabi thumbv7m-none-eabi wasm32-unknown-unknown; do
  grep -qx "$target" <<<"$installed_targets" || rustup target add "$target"
done
rustup component list --installed | grep -q '^clippy' || rustup component add clippy
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
nightly_components=$(rustup component list --installed --toolchain nightly 2>/dev/null || true)
if ! grep -q '^miri' <<<"$nightly_components" || ! grep -q '^rust-src' <<<"$nightly_components"; then
  rustup component add miri rust-src --toolchain nightly
fi

# Cargo tools. The wasm-bindgen CLI must be the exact version of the wasm-bindgen dependency.
wb_version=$(grep -E '^wasm-bindgen = ' wasm/Cargo.toml | grep -oE '[0-9]+\.[0-9]+\.[0-9]+')
if ! wasm-bindgen --version 2>/dev/null | grep -q "$wb_version"; then
  cargo install wasm-bindgen-cli --version "$wb_version"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz
fi

# npm dependencies of every package with a committed lock file (skipped when already current).
for lock in $(git ls-files '*package-lock.json'); do
  dir=$(dirname "$lock")
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$lock" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund)
  fi
done
echo "setup: everything needed is installed"
