#!/usr/bin/env bash
# 64-bit Arm Linux: the C SDK and the Python wheel for aarch64-unknown-linux-gnu, cross-built as
# scripts/dist.sh builds them (scripts/release/c-sdk.sh, scripts/release/wheel.sh), then run under
# qemu-aarch64 (user mode) in an arm64 Debian 12 root (lab/lib/arm64-root.sh, made once by
# debootstrap and cached): the SDK README's lines, the example, every vector file replayed by the
# C tests and by python/tests/test_vectors.py with the wheel installed by the root's pip. Each
# check has a control that must fail: a wrong vector in C and in Python, a wheel tagged for an
# older glibc or another machine.
# Standalone: bash lab/aarch64-root.sh (as root, after scripts/setup.sh lab). The first run
# builds the root from Debian's mirror (its only network use); later runs reuse it.
# Needs: gcc-aarch64-linux-gnu, qemu-user-static, debootstrap, pkg-config, the rustup target
# aarch64-unknown-linux-gnu, .venv (maturin, auditwheel).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never
target=aarch64-unknown-linux-gnu

start=$SECONDS
step() { echo; echo "--- aarch64 ($((SECONDS - start)) s): $*"; }
fail() { echo "FAIL (aarch64): $*" >&2; exit 1; }

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out=$target_dir/aarch64-test
rm -rf "$out"
mkdir -p "$out"

step "the arm64 Debian root (lab/lib/arm64-root.sh; built once, then cached)"
debian=$(timeout 2400 bash lab/lib/arm64-root.sh) || fail "no arm64 root"
# The test's files live in the root's /tmp; programs run there with a clean environment.
work=/tmp/seeded-backoff-aarch64
rm -rf "${debian:?}$work"
mkdir -p "$debian$work"
in_root() { chroot "$debian" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 "$@"; }
echo "$(in_root uname -m) root at $debian: $(in_root python3 -c 'import platform; print("%s %s, Python" % platform.libc_ver(), platform.python_version())') ($((SECONDS - start)) s)"

step "the C SDK for $target (scripts/release/c-sdk.sh, as scripts/dist.sh lays it out)"
sdk=$out/sdk
bash scripts/release/c-sdk.sh "$target" "$sdk"
lib_a=$sdk/lib/libseeded_backoff_ffi.a
machines=$(aarch64-linux-gnu-readelf -h "$lib_a" | sed -n 's/^ *Machine: *//p' | sort -u | paste -sd,)
[ "$machines" = AArch64 ] || fail "the SDK's archive holds objects for $machines"
echo "lib/libseeded_backoff_ffi.a: $(wc -c <"$lib_a") B, AArch64 objects only"

step "the SDK README's lines: cross-built through pkg-config and CMake, run by qemu-aarch64-static"
want=$(python3 ffi/tests/example_delays.py)
python3 scripts/release/readme-block.py "$sdk/README.md" "## Build the example" >"$out/build.sh"
got=$(cd "$sdk" && bash -euo pipefail "$out/build.sh" 2>&1) || { echo "$got"; fail "the SDK README's lines failed"; }
delays=$(grep -oE 'retrying in [0-9]+ ms' <<<"$got" | grep -oE '[0-9]+' | paste -sd' ')
[ "$delays" = "$want $want" ] || { echo "$got"; fail "the two builds of retry_http printed '$delays', the model $want each"; }
for program in retry_http build/retry_http; do
  aarch64-linux-gnu-readelf -d "$sdk/$program" | grep -q 'NEEDED.*seeded' && fail "$program needs a shared library"
done
echo "retry_http (static library, $(wc -c <"$sdk/retry_http") B) and CMake's build/retry_http each printed $want, the model's delays"

step "the example in the Debian root"
cp "$sdk/retry_http" "$debian$work/"
cp "$sdk/build/retry_http" "$debian$work/retry_http_cmake"
got=$(in_root "$work/retry_http") || fail "retry_http exited with $? in the root"
delays=$(grep -oE 'retrying in [0-9]+ ms' <<<"$got" | grep -oE '[0-9]+' | paste -sd' ')
[ "$delays" = "$want" ] || fail "retry_http printed '$delays' in the root, the model $want"
[ "$(in_root "$work/retry_http_cmake")" = "$got" ] || fail "CMake's retry_http printed other lines in the root"
glibc=$(aarch64-linux-gnu-readelf --dyn-syms -W "$sdk/retry_http" | grep -oE '@GLIBC_[0-9.]+' | sort -uV | tail -n 1)
echo "$got"
echo "(its newest glibc symbol: ${glibc#@})"

step "every vector file replayed by the C tests (scripts/test.d/30-ffi.sh's sources), cross-built, in the root"
srcs=(ffi/tests/c/test_ffi.c ffi/tests/c/test_names.c ffi/tests/c/test_rate_limit.c ffi/tests/c/test_pacer.c
  ffi/tests/c/test_send_rate.c ffi/tests/c/replay.c)
read -r -a libs_private <<<"$(sed -n 's/^Libs.private: *//p' "$sdk/lib/pkgconfig/seeded-backoff.pc")"
# vectors_from DIR NAME: the C tests built with DIR's vector tables, into the root as NAME.
vectors_from() {
  mkdir -p "$out/$2"
  python3 ffi/tests/c/gen_vectors.py "$1" ffi/include/seeded_backoff.h "$out/$2/vectors_data.h" >/dev/null
  aarch64-linux-gnu-gcc -std=c99 -Wall -Wextra -Werror -pedantic -O2 -I "$sdk/include" -I ffi/tests/c \
    -I "$out/$2" "${srcs[@]}" "$lib_a" "${libs_private[@]}" -o "$debian$work/$2"
}
vectors_from tests/vectors test_c99
in_root "$work/test_c99" >"$out/test_c99.log" 2>&1 || { tail -n 20 "$out/test_c99.log"; fail "the C tests failed in the root"; }
tail -n 1 "$out/test_c99.log"
# The control: one expected delay off by one must be reported under QEMU too.
mkdir -p "$out/mutated"
cp -r tests/vectors/. "$out/mutated/"
python3 - "$out/mutated/schedule-preset-google.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"][0]["expect"][0] += 1
json.dump(doc, open(sys.argv[1], "w"))
PY
vectors_from "$out/mutated" test_mutated
if in_root "$work/test_mutated" >"$out/mutated.log" 2>&1; then fail "a wrong vector passed in the root"; fi
grep -q "vector mismatch: delay in schedule-preset-google" "$out/mutated.log" || fail "the wrong vector was not reported"
echo "control: $(grep -m1 'vector mismatch' "$out/mutated.log")"

step "the Python wheel for $target (scripts/release/wheel.sh): its manylinux tag checked against its glibc symbols"
bash scripts/release/wheel.sh "$target" "$out/wheels"
wheel=$(ls "$out"/wheels/seeded_backoff-*_aarch64.whl)
so_size=$(python3 -c 'import sys, zipfile
print(next(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist() if i.filename.endswith(".so")))' "$wheel")
echo "$(basename "$wheel"): $(wc -c <"$wheel") B, its library $so_size B"
# The check can fail: the same wheel tagged for an older glibc (the symbols' check), a newer one
# than it needs (auditwheel's, on the cross-built wheel), or another machine.
tag=$(basename "$wheel" .whl | sed 's/.*-//')
for wrong in manylinux_2_17_aarch64 manylinux_2_39_aarch64 "${tag%_aarch64}_x86_64"; do
  mkdir -p "$out/wrong-$wrong"
  cp "$wheel" "$out/wrong-$wrong/$(basename "$wheel" | sed "s/$tag/$wrong/")"
  if PATH="$root/.venv/bin:$PATH" python3 scripts/release/check-wheel-glibc.py "$out/wrong-$wrong"/*.whl >"$out/wrong.log" 2>&1; then
    fail "check-wheel-glibc.py accepted the wheel tagged $wrong"
  fi
  echo "control: tagged $wrong, the check says: $(tail -n 1 "$out/wrong.log" | sed 's/.*\.whl: //; s/\. The wheel references.*//')"
done

step "the wheel installed by the root's pip; python/tests/test_vectors.py under qemu-aarch64"
cp "$wheel" "$debian$work/"
# --no-index: pip checks the wheel's tags against the root's Python and glibc, and fetches nothing
# (cffi is Debian's python3-cffi).
in_root python3 -m pip install --quiet --no-index --no-deps --disable-pip-version-check --root-user-action=ignore \
  --target "$work/site" \
  "$work/$(basename "$wheel")" || fail "the root's pip did not install $(basename "$wheel")"
# The control: the same wheel tagged for x86_64 is refused by that check.
cp "$out/wrong-${tag%_aarch64}_x86_64"/*.whl "$debian$work/"
if in_root python3 -m pip install --quiet --no-index --no-deps --disable-pip-version-check --root-user-action=ignore \
  --target "$work/wrong-site" "$work/$(basename "$wheel" | sed "s/_aarch64/_x86_64/")" 2>"$out/pip-wrong.log"; then
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
echo "aarch64: the C SDK and the wheel, cross-built, ran every vector under qemu-aarch64 in $((SECONDS - start)) s"
