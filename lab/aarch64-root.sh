#!/usr/bin/env bash
# The aarch64 Python wheel as a user on 64-bit Arm Linux gets it: cross-built by
# scripts/release/wheel.sh (its tag checked there, and by the gate's scripts/test.d/32-aarch64.sh),
# installed by the pip of an arm64 Debian 12 root (lab/lib/arm64-root.sh, made once by debootstrap
# and cached), which checks its tags against that root's Python and glibc, then
# python/tests/test_vectors.py replays every vector file through it under qemu-aarch64 (user
# mode). The control: the same wheel tagged x86_64 is refused by that pip. The first run builds
# the root from Debian's mirror (its only network use, several minutes); later runs reuse it.
# Needs root (chroot), debootstrap and qemu-user-static (scripts/setup.sh lab), gcc-aarch64-linux-gnu,
# the rustup target aarch64-unknown-linux-gnu, .venv (maturin, auditwheel).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
target=aarch64-unknown-linux-gnu

start=$SECONDS
step() { echo; echo "--- aarch64 root ($((SECONDS - start)) s): $*"; }
fail() { echo "FAIL (aarch64 root): $*" >&2; exit 1; }

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out=$target_dir/aarch64-root
rm -rf "$out"
mkdir -p "$out"

step "the arm64 Debian root (lab/lib/arm64-root.sh; built once, then cached)"
debian=$(timeout 2400 bash lab/lib/arm64-root.sh) || fail "no arm64 root"
# The run's files live in the root's /tmp; programs run there with a clean environment.
work=/tmp/seeded-backoff-aarch64
rm -rf "${debian:?}$work"
mkdir -p "$debian$work"
in_root() { chroot "$debian" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 "$@"; }
echo "$(in_root uname -m) root at $debian: $(in_root python3 -c 'import platform; print("%s %s, Python" % platform.libc_ver(), platform.python_version())')"

step "the Python wheel for $target (scripts/release/wheel.sh)"
bash scripts/release/wheel.sh "$target" "$out/wheels"
wheel=$(ls "$out"/wheels/seeded_backoff-*_aarch64.whl)
echo "$(basename "$wheel"): $(wc -c <"$wheel") B"

step "the wheel installed by the root's pip; python/tests/test_vectors.py under qemu-aarch64"
cp "$wheel" "$debian$work/"
# --no-index: pip checks the wheel's tags against the root's Python and glibc, and fetches nothing
# (cffi is Debian's python3-cffi).
in_root python3 -m pip install --quiet --no-index --no-deps --disable-pip-version-check --root-user-action=ignore \
  --target "$work/site" "$work/$(basename "$wheel")" || fail "the root's pip did not install $(basename "$wheel")"
# The control: the same wheel tagged for x86_64 is refused by that check.
wrong=$(basename "$wheel" | sed 's/_aarch64\.whl$/_x86_64.whl/')
cp "$wheel" "$debian$work/$wrong"
if in_root python3 -m pip install --quiet --no-index --no-deps --disable-pip-version-check --root-user-action=ignore \
  --target "$work/wrong-site" "$work/$wrong" 2>"$out/pip-wrong.log"; then
  fail "the root's pip installed a wheel tagged x86_64"
fi
echo "control: the root's pip refuses the x86_64-tagged copy: $(grep -m1 -o 'is not a supported wheel on this platform' "$out/pip-wrong.log")"
mkdir -p "$debian$work/repo/python/tests" "$debian$work/repo/tests"
cp python/tests/conftest.py python/tests/test_vectors.py "$debian$work/repo/python/tests/"
cp -r tests/vectors tests/model "$debian$work/repo/tests/"
in_root env PYTHONPATH="$work/site" python3 -c 'import platform, seeded_backoff
assert "/site/" in seeded_backoff.__file__, seeded_backoff.__file__
print(f"seeded_backoff {seeded_backoff.__version__} imported on {platform.machine()}")'
pytest_start=$SECONDS
(in_root env PYTHONPATH="$work/site" timeout 900 python3 -m pytest -q -p no:cacheprovider \
  "$work/repo/python/tests/test_vectors.py" | tail -n 1) || fail "python/tests/test_vectors.py failed in the root"
echo "(pytest under qemu-aarch64: $((SECONDS - pytest_start)) s; its wrong-vector controls are among the tests)"

echo
echo "aarch64 root: the wheel, cross-built, installed by the root's pip and ran every vector under qemu-aarch64 in $((SECONDS - start)) s"
