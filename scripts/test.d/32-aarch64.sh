#!/usr/bin/env bash
# 64-bit Arm Linux: the C SDK and the Python wheel for aarch64-unknown-linux-gnu, cross-built as
# scripts/dist.sh builds them (scripts/release/c-sdk.sh, scripts/release/wheel.sh). The SDK's
# programs run under qemu-aarch64 (user mode) on Debian's aarch64 glibc (libc6-arm64-cross): the
# SDK README's lines, the example, every vector file replayed by the C tests. The wheel's
# manylinux tag is checked against its glibc symbols. Each check has a control that must fail: a
# wrong vector, a wheel tagged for an older glibc or another machine.
# The wheel installed by pip and its Python tests, in an arm64 Debian root, are the lab's
# (lab/aarch64-root.sh): that root takes minutes of debootstrap to make on a fresh machine.
# Standalone: bash scripts/test.d/32-aarch64.sh (after scripts/setup.sh).
# Needs: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user-static, pkg-config, the rustup
# target aarch64-unknown-linux-gnu, .venv (maturin, auditwheel).
set -euo pipefail
cd "$(dirname "$0")/../.."
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

# An aarch64 program of the SDK, run by qemu-aarch64 with Debian's aarch64 glibc as its root.
sysroot=/usr/aarch64-linux-gnu
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || fail "no aarch64 glibc at $sysroot (Debian's libc6-arm64-cross)"
run_arm64() { env -i PATH=/usr/bin:/bin LANG=C.UTF-8 qemu-aarch64-static -L "$sysroot" "$@"; }

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

step "the example under qemu-aarch64"
got=$(run_arm64 "$sdk/retry_http") || fail "retry_http exited with $? under qemu-aarch64"
delays=$(grep -oE 'retrying in [0-9]+ ms' <<<"$got" | grep -oE '[0-9]+' | paste -sd' ')
[ "$delays" = "$want" ] || fail "retry_http printed '$delays' under qemu-aarch64, the model $want"
[ "$(run_arm64 "$sdk/build/retry_http")" = "$got" ] || fail "CMake's retry_http printed other lines under qemu-aarch64"
glibc=$(aarch64-linux-gnu-readelf --dyn-syms -W "$sdk/retry_http" | grep -oE '@GLIBC_[0-9.]+' | sort -uV | tail -n 1)
echo "$got"
echo "(its newest glibc symbol: ${glibc#@})"

step "every vector file replayed by the C tests (scripts/test.d/30-ffi.sh's sources), cross-built, under qemu-aarch64"
srcs=(ffi/tests/c/test_ffi.c ffi/tests/c/test_names.c ffi/tests/c/test_rate_limit.c ffi/tests/c/test_pacer.c
  ffi/tests/c/test_send_rate.c ffi/tests/c/test_store.c ffi/tests/c/replay.c)
read -r -a libs_private <<<"$(sed -n 's/^Libs.private: *//p' "$sdk/lib/pkgconfig/seeded-backoff.pc")"
# vectors_from DIR NAME: the C tests built with DIR's vector tables, as $out/NAME/NAME.
vectors_from() {
  mkdir -p "$out/$2"
  python3 ffi/tests/c/gen_vectors.py "$1" ffi/include/seeded_backoff.h "$out/$2/vectors_data.h" >/dev/null
  aarch64-linux-gnu-gcc -std=c99 -Wall -Wextra -Werror -pedantic -O2 -I "$sdk/include" -I ffi/tests/c \
    -I "$out/$2" "${srcs[@]}" "$lib_a" "${libs_private[@]}" -o "$out/$2/$2"
}
vectors_from tests/vectors test_c99
run_arm64 "$out/test_c99/test_c99" >"$out/test_c99.log" 2>&1 || { tail -n 20 "$out/test_c99.log"; fail "the C tests failed under qemu-aarch64"; }
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
if run_arm64 "$out/test_mutated/test_mutated" >"$out/mutated.log" 2>&1; then fail "a wrong vector passed under qemu-aarch64"; fi
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

echo
echo "aarch64: the C SDK ran every vector under qemu-aarch64 and the wheel's tag holds, in $((SECONDS - start)) s"
