#!/usr/bin/env bash
# Installs what is missing, skipping what is already there, so reruns are fast (idempotent).
# usage: bash scripts/setup.sh [AUDIENCE...]   AUDIENCE: web, rust, c, python, lab; none means
# what ./test.sh needs (every audience, and the gate's tools).
#   web      the npm package: the wasm32 target, wasm-bindgen-cli, the npm dependencies of wasm/
#   rust     the crate: clippy and rustfmt, and the toolchain of the declared rust-version
#   c        the C SDKs: the Cortex-M, RISC-V and aarch64 Linux targets, gcc, pkg-config, cmake,
#            the ARM, RISC-V and aarch64 Linux toolchains
#   python   the wheels: python3-venv, .venv (maturin, cffi and the test tools), the aarch64 target
#            and its cross toolchain
#   lab      what the lab (lab/run.sh) adds to the gate's tools: nginx, debootstrap, librsvg, GNU
#            time, cargo-fuzz, cargo-mutants
# With no audience (as ./test.sh runs it) it also installs what every gate test needs: headless
# Chromium, QEMU (system and user mode), valgrind, g++, redis-server, Miri, cbindgen, and npm ci
# for every committed package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

all=0
web=0 rust=0 c=0 python=0 lab=0
[ "$#" -eq 0 ] && all=1
for audience in "$@"; do
  case "$audience" in
    web) web=1 ;; rust) rust=1 ;; c) c=1 ;; python) python=1 ;; all) all=1 ;; lab) all=1 lab=1 ;;
    *) echo "setup: unknown audience '$audience' (one of web, rust, c, python, lab)" >&2; exit 2 ;;
  esac
done
[ "$all" = 1 ] && web=1 rust=1 c=1 python=1

# Debian packages. The C SDKs: gcc, pkg-config and cmake for the host example, the ARM toolchain
# (binutils for the size report, newlib for the firmware), Debian's aarch64 Linux cross compiler
# and its glibc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross) for the aarch64 SDK. The wheels:
# python3-venv for .venv, the same cross compiler for the aarch64 one; redis-server for the shared
# parts' tests (python/tests/test_shared_*.py), valkey-py coming with python/requirements-dev.txt.
# Every gate test (all): headless Chromium for the browser tests, qemu for the Cortex-M and RISC-V
# firmware, qemu-user-static for the aarch64 SDK's programs, valgrind and g++ for the C tests,
# redis-server (protocol-compatible with Valkey) for the reconnect tests of the Valkey integrations
# and the tests of the parts a fleet shares through it (core/tests/shared_*.rs).
# The lab: debootstrap for the arm64 Debian root the aarch64 wheel runs in, rsvg-convert
# (librsvg2-bin) for the simulator's chart, nginx for the real-server runs, GNU time for
# lab/fleet-scale.sh.
# wasm-opt comes from the npm binaryen package: Debian's is too old for wasm-bindgen's output.
apt_packages=()
[ "$c" = 1 ] && apt_packages+=(gcc pkg-config cmake gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
[ "$python" = 1 ] && apt_packages+=(python3 python3-venv gcc-aarch64-linux-gnu libc6-dev-arm64-cross redis-server)
[ "$all" = 1 ] && apt_packages+=(chromium chromium-driver qemu-system-arm qemu-system-misc qemu-user-static valgrind g++ redis-server)
[ "$lab" = 1 ] && apt_packages+=(debootstrap librsvg2-bin nginx time)
missing=()
for pkg in ${apt_packages[@]+"${apt_packages[@]}"}; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: apt-get install ${missing[*]}"
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Rust targets: wasm32 for the npm package, the Cortex-M, RISC-V and aarch64 Linux ones for their C
# SDKs, aarch64 Linux for its wheel (scripts/dist.sh).
targets=()
[ "$web" = 1 ] && targets+=(wasm32-unknown-unknown)
[ "$c" = 1 ] && targets+=(thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf
  riscv32imc-unknown-none-elf riscv32imac-unknown-none-elf aarch64-unknown-linux-gnu)
[ "$python" = 1 ] && targets+=(aarch64-unknown-linux-gnu)
installed_targets=$(rustup target list --installed)
for target in ${targets[@]+"${targets[@]}"}; do
  grep -qx "$target" <<<"$installed_targets" || rustup target add "$target"
done
if [ "$rust" = 1 ]; then
  grep -q '^clippy' <<<"$(rustup component list --installed)" || rustup component add clippy
  grep -q '^rustfmt' <<<"$(rustup component list --installed)" || rustup component add rustfmt
  # The declared rust-version (Cargo.toml), on which the gate builds the core with each feature.
  msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
  rustup toolchain list | grep -q "^$msrv-" || rustup toolchain install "$msrv" --profile minimal
fi
# Miri on nightly for the UB checks; nightly also runs cbindgen's macro expansion.
if [ "$all" = 1 ]; then
  nightly_components=$(rustup component list --installed --toolchain nightly 2>/dev/null || true)
  if ! grep -q '^miri' <<<"$nightly_components" || ! grep -q '^rust-src' <<<"$nightly_components"; then
    rustup component add miri rust-src --toolchain nightly
  fi
fi

# Cargo tools. The wasm-bindgen CLI must be the exact version of the wasm-bindgen dependency.
if [ "$web" = 1 ]; then
  wb_version=$(grep -E '^wasm-bindgen = ' wasm/Cargo.toml | grep -oE '[0-9]+\.[0-9]+\.[0-9]+')
  if ! wasm-bindgen --version 2>/dev/null | grep -q "$wb_version"; then
    cargo install wasm-bindgen-cli --version "$wb_version"
  fi
fi
if [ "$all" = 1 ]; then
  # The C header is generated by cbindgen; the committed one came from this version.
  if ! cbindgen --version 2>/dev/null | grep -q "0.29.2"; then
    cargo install cbindgen --version 0.29.2
  fi
fi
if [ "$lab" = 1 ]; then
  if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz
  fi
  # The mutation run (lab/mutants.sh; lab/RESULTS.md has its score) needs this version.
  if ! cargo mutants --version 2>/dev/null | grep -q "27.1.0"; then
    cargo install cargo-mutants --locked --version 27.1.0
  fi
fi

# npm dependencies (skipped when already current): wasm/ for the npm package; with no audience,
# every package with a committed lock file.
if [ "$all" = 1 ]; then
  locks=$(git ls-files '*package-lock.json')
elif [ "$web" = 1 ]; then
  locks=wasm/package-lock.json
else
  locks=
fi
for lock in $locks; do
  dir=$(dirname "$lock")
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$lock" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund)
  fi
done
# Python: .venv at the repository root with maturin, cffi and the test tools of the Python package
# (python/requirements-dev.txt), from PyPI; skipped while the requirements are what it was made from.
if [ "$python" = 1 ]; then
  if ! cmp -s python/requirements-dev.txt .venv/requirements-dev.txt 2>/dev/null || [ ! -x .venv/bin/maturin ]; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r python/requirements-dev.txt
    cp python/requirements-dev.txt .venv/requirements-dev.txt
  fi
  # pyright (PyPI) runs the npm package of its version, fetched on its first run.
  .venv/bin/pyright --version >/dev/null
fi
# Every test (all): the integration tests' client libraries (pinned), into the same .venv.
if [ "$all" = 1 ] && ! cmp -s python/requirements-integrations.txt .venv/requirements-integrations.txt 2>/dev/null; then
  .venv/bin/pip install --quiet --disable-pip-version-check -r python/requirements-integrations.txt
  cp python/requirements-integrations.txt .venv/requirements-integrations.txt
fi
# Every test (all): the pinned retry libraries the Python adapters are tested against.
if [ "$all" = 1 ] && ! cmp -s python/requirements-adapters.txt .venv/requirements-adapters.txt 2>/dev/null; then
  .venv/bin/pip install --quiet --disable-pip-version-check -r python/requirements-adapters.txt
  cp python/requirements-adapters.txt .venv/requirements-adapters.txt
fi
echo "setup: everything needed is installed ($([ "$#" -eq 0 ] && echo gate || echo "$*"))"
