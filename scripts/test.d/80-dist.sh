#!/usr/bin/env bash
# The packages as a user gets them: builds dist/ by the README's "Packages" lines (scripts/dist.sh),
# then installs and uses every artifact from the artifact alone, each in a fresh directory outside
# the repository, and runs the README's install lines as written. Each program's delays (Google
# preset, seed 42) are compared with the independent Python model of SPEC.md.
#   - one version everywhere (scripts/release/check-version.sh); SHA256SUMS; licenses in each
#   - npm tarball: ESM import, CJS require, TypeScript nodenext type-check, an esbuild bundle in a
#     page in headless Chromium
#   - .crate: unpacked, built and run as a path dependency of a new crate, offline
#   - C SDKs: the host one by its README's lines (pkg-config, no pkg-config, CMake find_package);
#     the thumbv7m one linked into the firmware and run in qemu; thumbv6m and thumbv7em linked
#   - the CLI by `cargo install --locked --path cli`; the Python wheel (when python/ exists) in a
#     new venv
# Standalone: bash scripts/test.d/80-dist.sh (from anywhere). About 40 s when the earlier steps of
# ./test.sh have built the libraries; a cold machine adds the release builds (the CLI the longest).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
export CARGO_TERM_COLOR=never

tmp=$(mktemp -d "${TMPDIR:-/tmp}/seeded-backoff-dist-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
step() { echo; echo "--- dist ($((SECONDS - start)) s): $*"; }
fail() { echo "FAIL (dist): $*" >&2; exit 1; }
block() { python3 scripts/release/readme-block.py "$root/${2:-README.md}" "$1"; }
# run_block HEADING DIR [README]: the README's lines under HEADING, run in DIR by bash -e.
run_block() { block "$1" "${3:-README.md}" >"$tmp/block.sh" && (cd "$2" && bash -euo pipefail "$tmp/block.sh"); }

# The expected schedule, from the model rather than from the code under test.
expected=$(PYTHONPATH=tests/model python3 -c '
import spec_model as m
b = m.Backoff(m.preset("google"), 42)
out = []
while (d := getattr(b.next(), "delay_ms", None)) is not None:
    out.append(d)
print(" ".join(map(str, out)))')
echo "model: Google preset, seed 42: $expected"
first_two=$(cut -d' ' -f1-2 <<<"$expected")
same() { [ "$(tr -s ' \n' '  ' <<<"$2" | sed 's/^ *//; s/ *$//')" = "$expected" ] || fail "$1 printed '$2', the model $expected"; }

step "one version"
version=$(bash scripts/release/check-version.sh)
echo "version $version everywhere"

step "README 'Packages': setup, scripts/dist.sh, checksums"
dist_start=$SECONDS
run_block '## Packages' "$root" | grep -v ': OK$' || true
(cd dist && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match dist/"
echo "dist/ built and checked in $((SECONDS - dist_start)) s"
host=$(rustc -vV | sed -n 's/^host: //p')
tgz=dist/seeded-backoff-$version.tgz
crate=dist/seeded-backoff-$version.crate
for f in "$tgz" "$crate" dist/seeded-backoff-c-"$version"-{"$host",aarch64-unknown-linux-gnu,thumbv6m-none-eabi,thumbv7m-none-eabi,thumbv7em-none-eabihf,riscv32imc-unknown-none-elf,riscv32imac-unknown-none-elf}.tar.gz; do
  [ -f "$f" ] || fail "$f is missing"
  listing=$(tar tzf "$f")
  for lic in LICENSE-MIT LICENSE-APACHE; do grep -q "/$lic$" <<<"$listing" || fail "$f has no $lic"; done
  grep -q "/README.md$" <<<"$listing" || fail "$f has no README.md"
  [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$(sed -n "s|  $(basename "$f")$||p" dist/SHA256SUMS)" ] ||
    fail "$f is not in SHA256SUMS"
done
echo "every artifact has LICENSE-MIT, LICENSE-APACHE, a README and its checksum"

step "one audience: scripts/setup.sh AUDIENCE, then scripts/dist.sh rust builds the crate alone"
for audience in web rust c python; do
  bash scripts/setup.sh "$audience" >/dev/null || fail "scripts/setup.sh $audience failed"
done
bash scripts/dist.sh rust "$tmp/dist-rust" >/dev/null || fail "scripts/dist.sh rust failed"
[ "$(ls "$tmp/dist-rust" | paste -sd' ')" = "SHA256SUMS seeded-backoff-$version.crate" ] ||
  fail "scripts/dist.sh rust wrote $(ls "$tmp/dist-rust" | paste -sd' ')"
(cd "$tmp/dist-rust" && sha256sum --quiet -c SHA256SUMS) || fail "dist.sh rust: SHA256SUMS"
echo "setup.sh per audience reran as a no-op; dist.sh rust wrote only the crate"

step "npm tarball in a new Node project"
bash "$root/scripts/release/test-npm.sh" "$root/$tgz" "$tmp/npm" "$expected"

step "README's npm quick start"
out=$(run_block '### JavaScript and TypeScript (npm)' "$root" | tail -n 1)
[ "$out" = "${first_two%% *}" ] || fail "the README's npm install lines printed '$out'"
echo "printed $out"

step ".crate as a path dependency of a new crate, offline"
mkdir -p "$tmp/crate/vendor"
tar xzf "$crate" -C "$tmp/crate/vendor"
(cd "$tmp/crate" && cargo new -q --vcs none app)
cat >>"$tmp/crate/app/Cargo.toml" <<TOML
seeded-backoff = { path = "../vendor/seeded-backoff-$version", features = ["std"] }
TOML
# The crate's own README example is the program (it prints the schedule).
python3 - "$tmp/crate/vendor/seeded-backoff-$version/README.md" >"$tmp/crate/app/src/main.rs" <<'PY'
import sys
print(open(sys.argv[1]).read().split("```rust\n", 1)[1].split("```", 1)[0], end="")
PY
same "the crate" "$(cd "$tmp/crate/app" && CARGO_TARGET_DIR="$tmp/crate/target" cargo run -q --offline)"
echo "the crate README's program, run --offline in a new crate: $expected"

step "core/README.md 'Install from the crate archive'"
CARGO_TARGET_DIR="$tmp/crate/target" run_block '### Install from the crate archive' "$root" core/README.md
echo "ran as written"

step "core/README.md's async and tower programs, each in a new crate with the dependencies it names"
# Each program's [dependencies] block as written, the path to the crate replaced by the archive's.
python3 - "$root/core/README.md" "$tmp/crate" "$version" <<'PY'
import os, re, subprocess, sys
readme, base, version = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(readme, encoding="utf-8").read()
pairs = re.findall(r"```toml\n(\[dependencies\]\n[^`]*)```\s*\n```rust\n(.*?)```", text, re.S)
pairs = [(deps, program) for deps, program in pairs if "features" in deps.split("\n")[1]]
assert len(pairs) >= 2, f"{readme}: {len(pairs)} programs with their dependencies"
for i, (deps, program) in enumerate(pairs):
    app = os.path.join(base, f"program_{i}")
    subprocess.run(["cargo", "new", "-q", "--vcs", "none", app], check=True)
    vendored = os.path.join(base, "vendor", f"seeded-backoff-{version}")
    deps = re.sub(r'path = "[^"]*"', f'path = "{vendored}"', deps, count=1)
    manifest = open(os.path.join(app, "Cargo.toml")).read().replace("[dependencies]\n", deps)
    open(os.path.join(app, "Cargo.toml"), "w").write(manifest)
    open(os.path.join(app, "src", "main.rs"), "w").write(program)
    subprocess.run(["cargo", "run", "-q", "--offline"], cwd=app, check=True,
                   env={**os.environ, "CARGO_TARGET_DIR": os.path.join(base, "target")})
    print(f"program {i}: built and ran with {deps.splitlines()[1:]}")
PY

step "CLI: cli/README.md's cargo install --locked --path cli"
out=$(CARGO_INSTALL_ROOT="$tmp/cargo-root" PATH="$tmp/cargo-root/bin:$PATH" run_block '## Install' "$root" cli/README.md 2>&1 |
  grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+$' | awk '{ print $2 }' | paste -sd' ')
[ "$out" = "$(cut -d' ' -f1-3 <<<"$expected")" ] || fail "the installed CLI printed '$out'"
echo "installed CLI: $out"

step "C SDK for $host: its README's lines, with only the SDK's files"
bash "$root/scripts/release/test-c-sdk.sh" "$root/dist" "$version" "$tmp/c" "$expected"

step "ffi/README.md 'Install'"
out=$(run_block '## Install' "$root" ffi/README.md 2>&1 | grep -oE 'retrying in [0-9]+' | grep -oE '[0-9]+$' | paste -sd' ')
# The C example honours its first 503's Retry-After: 3: the model's delays for that step and the next.
c_two=$(python3 "$root/ffi/tests/example_delays.py")
[ "$out" = "$c_two $c_two" ] || fail "ffi/README.md's C lines printed '$out', not $c_two twice"
echo "the pkg-config and the CMake builds each printed $c_two"

step "Python wheel in a new venv"
if [ -f python/pyproject.toml ]; then
  # This machine's wheel (the aarch64 one runs in lab/aarch64-root.sh's arm64 root).
  wheel=$(ls dist/*_"$(uname -m)".whl 2>/dev/null | head -n 1)
  [ -n "$wheel" ] || fail "python/pyproject.toml exists but dist/ has no $(uname -m) wheel"
  for arch in x86_64 aarch64; do
    ls dist/*-manylinux_*_"$arch".whl >/dev/null 2>&1 || fail "dist/ has no $arch wheel"
  done
  python3 - "$wheel" <<'PY' || fail "$wheel does not carry LICENSE-MIT and LICENSE-APACHE"
import sys, zipfile
names = [n.rsplit("/", 1)[-1] for n in zipfile.ZipFile(sys.argv[1]).namelist()]
sys.exit(not {"LICENSE-MIT", "LICENSE-APACHE"} <= set(names))
PY
  python3 -m venv "$tmp/venv"
  # python/README.md's install line, as written, in the new venv.
  (. "$tmp/venv/bin/activate" && PIP_QUIET=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    run_block '## Install' "$root" python/README.md) || fail "python/README.md 'Install' failed"
  installed=$("$tmp/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("seeded-backoff"))')
  [ "$installed" = "$version" ] || fail "the wheel installs version $installed"
  # One schedule by the package's own documented example (its module docstring, run as a doctest
  # by the installed package, outside the repository), then the README's Python blocks.
  (cd "$tmp" && "$tmp/venv/bin/python" -c '
import doctest, seeded_backoff
r = doctest.testmod(seeded_backoff)
assert r.attempted and not r.failed, r
print(f"seeded_backoff {seeded_backoff.__version__}: its docstring example ran ({r.attempted} checks)")') ||
    fail "the installed wheel's example failed"
  # python/README.md's examples as pasted, with the HTTP client its quick start names.
  "$tmp/venv/bin/pip" install --quiet --disable-pip-version-check requests
  blocks=$("$tmp/venv/bin/python" "$root/python/tests/readme_blocks.py" "$root/python/README.md") ||
    fail "python/README.md's examples failed"
  [ "$(head -n 1 <<<"$blocks")" = "$first_two" ] || fail "python/README.md's example printed '$blocks'"
  echo "wheel $(basename "$wheel"): installed in a new venv as $installed; python/README.md's examples printed $(paste -sd' ' <<<"$blocks")"

  step "Python sdist: pip install builds it in a new venv with stable Rust, with and without CARGO_TARGET_DIR"
  sdist=dist/seeded_backoff-$version.tar.gz
  [ -f "$sdist" ] || fail "dist/ has no $sdist"
  mkdir -p "$tmp/sdist"
  cp "$sdist" "$tmp/sdist/"
  for target_dir in "" "$tmp/sdist/cargo-target"; do
    sdist_start=$SECONDS
    rm -rf "$tmp/sdist/venv"
    python3 -m venv "$tmp/sdist/venv"
    target_env=(-u CARGO_TARGET_DIR)
    [ -z "$target_dir" ] || target_env=(CARGO_TARGET_DIR="$target_dir")
    (cd "$tmp/sdist" && env "${target_env[@]}" RUSTUP_TOOLCHAIN=stable venv/bin/pip install --quiet --no-cache-dir --disable-pip-version-check \
      "./$(basename "$sdist")") || fail "pip install of the sdist failed (CARGO_TARGET_DIR=${target_dir:-unset})"
    [ -z "$target_dir" ] || [ -f "$target_dir/header.h" ] || fail "the build did not use $target_dir"
    (cd "$tmp" && "$tmp/sdist/venv/bin/python" -c '
import doctest, seeded_backoff
r = doctest.testmod(seeded_backoff)
assert r.attempted and not r.failed, r') || fail "the package built from the sdist failed its example"
    echo "sdist built and installed with CARGO_TARGET_DIR=${target_dir:-unset} in $((SECONDS - sdist_start)) s; its docstring example ran"
  done
else
  echo "no python/pyproject.toml: no wheel to test"
fi

echo
echo "dist: every artifact installed and used from itself in $((SECONDS - start)) s"
