#!/usr/bin/env bash
# The C library (ffi/): header freshness, C99 and C++11 tests of every vector under ASan+UBSan and
# valgrind, pkg-config, the Cortex-M3 firmware in QEMU, the soft-float and no-panic build proofs,
# and the stack report. Standalone: bash scripts/test.d/30-ffi.sh (from the repo root).
# With FFI_LAB=1 (lab/c-library.sh) it also measures: the no-panic proof at opt-levels "z" and 3,
# what each feature adds to the whole-API firmware, and the size and stack tables
# (artifacts/c-library.md, lab/RESULTS.md's c-library section).
# Needs: cbindgen, gcc, g++, valgrind, pkg-config, python3, gcc-arm-none-eabi,
# libnewlib-arm-none-eabi, qemu-system-arm, gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf,
# qemu-system-misc, rustup targets thumbv6m-none-eabi thumbv7m-none-eabi riscv32imc-unknown-none-elf
# riscv32imac-unknown-none-elf.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { echo; echo "--- ffi: $*"; }
fail() { echo "FAIL (ffi): $*" >&2; exit 1; }

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out="$target_dir/ffi-c"
rm -rf "$out"
mkdir -p "$out"

step "the committed header is what cbindgen generates"
command -v cbindgen >/dev/null || fail "cbindgen is not installed (cargo install cbindgen --version 0.29.2 --locked)"
RUSTUP_TOOLCHAIN=nightly cbindgen --quiet --config ffi/cbindgen.toml --crate seeded-backoff-ffi --output "$out/seeded_backoff.h"
diff -u ffi/include/seeded_backoff.h "$out/seeded_backoff.h" ||
  fail "ffi/include/seeded_backoff.h is stale: regenerate it with RUSTUP_TOOLCHAIN=nightly cbindgen (see ffi/cbindgen.toml)"
echo "header up to date ($(grep -c '^[a-z].*sb_[a-z_0-9]*(' ffi/include/seeded_backoff.h) functions)"

step "SB_VERSION_* match Cargo.toml"
cargo_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
header_version=$(for part in MAJOR MINOR PATCH; do
  sed -n "s/^#define SB_VERSION_$part \([0-9]*\)$/\1/p" ffi/include/seeded_backoff.h
done | paste -sd.)
[ "$cargo_version" = "$header_version" ] || fail "header says $header_version, Cargo.toml $cargo_version"
echo "version $header_version"

step "the C names of SPEC.md §14's table are the header's"
python3 ffi/tests/check_vocabulary.py || fail "the C column of SPEC.md §14 and the header differ"

step "the C names of SPEC.md §18's table are the header's"
python3 ffi/tests/check_names.py || fail "the C column of SPEC.md §18 and the header differ"

step "every C name ffi/README.md gives is the header's"
python3 ffi/tests/check_readme_names.py || fail "ffi/README.md names what the header does not declare"

step "vector tables from tests/vectors"
python3 ffi/tests/c/gen_vectors.py tests/vectors ffi/include/seeded_backoff.h "$out/vectors_data.h"

step "host library (release) and pkg-config install"
ffi/install.sh "$out/prefix" >/dev/null
lib_a="$out/prefix/lib/libseeded_backoff_ffi.a"
export PKG_CONFIG_PATH="$out/prefix/lib/pkgconfig"
pkg-config --exists --print-errors seeded-backoff
[ "$(pkg-config --modversion seeded-backoff)" = "$cargo_version" ] || fail "pkg-config version"
read -r -a pc_cflags <<<"$(pkg-config --cflags seeded-backoff)"
read -r -a pc_libs <<<"$(pkg-config --libs seeded-backoff)"
read -r -a static_libs <<<"$(pkg-config --libs-only-l --static seeded-backoff | sed 's/-lseeded_backoff_ffi//')"
echo "pkg-config: ${pc_cflags[*]} ${pc_libs[*]} (static extras: ${static_libs[*]})"
srcs=(ffi/tests/c/test_ffi.c ffi/tests/c/test_names.c ffi/tests/c/test_rate_limit.c ffi/tests/c/test_pacer.c ffi/tests/c/test_send_rate.c ffi/tests/c/test_store.c
  ffi/tests/c/replay.c)
inc=(-I ffi/tests/c -I "$out")

step "C99 -Wall -Wextra -Werror -pedantic, static library"
gcc -std=c99 -Wall -Wextra -Werror -pedantic -O2 "${pc_cflags[@]}" "${inc[@]}" "${srcs[@]}" \
  "$lib_a" "${static_libs[@]}" -o "$out/test_c99"
"$out/test_c99"

step "C++11 -Wall -Werror, same sources, shared library through pkg-config"
g++ -std=c++11 -Wall -Werror -O2 "${pc_cflags[@]}" "${inc[@]}" -x c++ "${srcs[@]}" -x none \
  "${pc_libs[@]}" -o "$out/test_cxx11"
LD_LIBRARY_PATH="$out/prefix/lib" "$out/test_cxx11" | tail -n 1
grep -q libseeded_backoff_ffi.so <<<"$(ldd "$out/test_cxx11")" || fail "C++ test did not use the shared library"

step "ffi/examples/retry_http.c (ffi/README.md's program): C99 static, C++ shared, CMake; output from the model"
python3 - <<'PY' || fail "ffi/README.md's C program and ffi/examples/retry_http.c differ"
readme = open("ffi/README.md").read()
block = readme.split("## Example: an HTTP request with retries", 1)[1].split("```c\n", 1)[1].split("```", 1)[0]
raise SystemExit(0 if block == open("ffi/examples/retry_http.c").read() else 1)
PY
# The expected output: SPEC.md's run (§15) under Google's preset for seed 42, from the
# independent Python model: 503 with Retry-After: 3, 503, 200.
PYTHONPATH=tests/model python3 - >"$out/example.expected" <<'PY'
import run_model as rm
import spec_model as m
run = rm.Run(m.preset("google"), 42)
run.start()
for hint in (m.RetryAfter(3000), None):
    a = run.outcome("retryable", hint=hint)
    print(f"attempt {a['attempt']}: HTTP 503, retrying in {a['delay_ms']} ms")
    run.wake()
print(f"HTTP 200 after {run.outcome('success')['attempts']} attempts")
PY
gcc -std=c99 -Wall -Wextra -Werror -pedantic "${pc_cflags[@]}" ffi/examples/retry_http.c "$lib_a" \
  "${static_libs[@]}" -o "$out/example-c99"
g++ -std=c++11 -Wall -Wextra -Werror -x c++ ffi/examples/retry_http.c -x none "${pc_cflags[@]}" \
  "${pc_libs[@]}" -Wl,-rpath,"$out/prefix/lib" -o "$out/example-cxx"
command -v cmake >/dev/null || fail "cmake is not installed (scripts/setup.sh installs it)"
cmake -S ffi/examples -B "$out/cmake" -DCMAKE_PREFIX_PATH="$out/prefix" >"$out/cmake.log" ||
  fail "cmake: $(tail -n 5 "$out/cmake.log")"
cmake --build "$out/cmake" >>"$out/cmake.log" || fail "cmake build: $(tail -n 5 "$out/cmake.log")"
for program in example-c99 example-cxx cmake/retry_http; do
  "$out/$program" >"$out/$program.out" || fail "$program exited with $?"
  diff -u "$out/example.expected" "$out/$program.out" || fail "$program printed other delays than the model"
done
grep -q libseeded_backoff_ffi.so <<<"$(ldd "$out/example-cxx")" || fail "the C++ build did not use the shared library"
cat "$out/example-c99.out"
python3 - "$out/example-c99.out" <<'PY' || fail "ffi/README.md's output of retry_http.c is not what the program printed"
import sys
readme = open("ffi/README.md").read()
block = readme.split("## Example: an HTTP request with retries", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
raise SystemExit(0 if block == open(sys.argv[1]).read() else 1)
PY
echo "C99 (static), C++11 (shared, rpath) and CMake find_package(seeded_backoff) builds print the model's run"
a_size=$(wc -c <"$lib_a")
built_size=$(wc -c <"$target_dir/release/libseeded_backoff_ffi.a")
echo "static library: $built_size B as Cargo builds it, $a_size B installed (debug info stripped);" \
  "the C99 example links to $(wc -c <"$out/example-c99") B"

step "ffi/examples/pacer.c (ffi/README.md's server pacer): C99 static, C++11; its slot from the model"
# The expected output: the 91st refusal at 5 s of SPEC.md §16's pacer (100/s, 100 per mille kept,
# 60 s, seed 7), recomputed by the independent model, in §16.4's header forms.
PYTHONPATH=tests/model python3 - >"$out/pacer.expected" <<'PY'
import pacer_model as pm
p = pm.Pacer(100, 100, 60, 7)
for _ in range(90):
    p.assign(5000)
after, reset, full = p.assign(5000)
print("HTTP/1.1 " + ("503 Service Unavailable" if full else "429 Too Many Requests"))
print(f"retry-after: {after}\nratelimit-reset: {reset // 1000}.{reset % 1000:03d}\nratelimit: \"pacer\";r=0;t={after}")
print(f"pending: {p.pending(5000)}")
print("capacity_per_s must be in 1..=1000000")
PY
gcc -std=c99 -Wall -Wextra -Werror -pedantic "${pc_cflags[@]}" ffi/examples/pacer.c "$lib_a" \
  "${static_libs[@]}" -o "$out/pacer-c99"
g++ -std=c++11 -Wall -Wextra -Werror -x c++ ffi/examples/pacer.c -x none "${pc_cflags[@]}" \
  "${pc_libs[@]}" -Wl,-rpath,"$out/prefix/lib" -o "$out/pacer-cxx"
for program in pacer-c99 pacer-cxx; do
  "$out/$program" >"$out/$program.out" || fail "$program exited with $?"
  diff -u "$out/pacer.expected" "$out/$program.out" || fail "$program printed another slot than the model"
done
python3 - "$out/pacer-c99.out" <<'PY' || fail "ffi/README.md's pacer program or its output differ from ffi/examples/pacer.c's"
import sys
section = open("ffi/README.md").read().split("## A server that paces its clients", 1)[1]
program = section.split("```c\n", 1)[1].split("```", 1)[0]
output = section.split("```text\n", 1)[1].split("```", 1)[0]
same = program == open("ffi/examples/pacer.c").read() and output == open(sys.argv[1]).read()
raise SystemExit(0 if same else 1)
PY
cat "$out/pacer-c99.out"

step "ASan + UBSan"
gcc -std=c99 -Wall -Wextra -Werror -pedantic -O1 -g -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=all "${pc_cflags[@]}" "${inc[@]}" \
  "${srcs[@]}" "$lib_a" "${static_libs[@]}" -o "$out/test_asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$out/test_asan" | tail -n 1

step "valgrind"
valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  "$out/test_c99" | tail -n 1

step "the replay can fail: one expected delay off by one is reported"
mkdir -p "$out/mutated"
cp -r tests/vectors/. "$out/mutated/"
python3 - "$out/mutated/schedule-preset-google.json" <<'PY'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
expect = doc["cases"][0]["expect"]
expect[0] = expect[0] + 1
json.dump(doc, open(path, "w"))
PY
python3 ffi/tests/c/gen_vectors.py "$out/mutated" ffi/include/seeded_backoff.h "$out/mutated/vectors_data.h" >/dev/null
gcc -std=c99 -O1 "${pc_cflags[@]}" -I ffi/tests/c -I "$out/mutated" "${srcs[@]}" "$lib_a" \
  "${static_libs[@]}" -o "$out/test_mutated"
if "$out/test_mutated" >"$out/mutated.log" 2>&1; then fail "a wrong vector passed"; fi
grep -q "vector mismatch: delay in schedule-preset-google" "$out/mutated.log" || fail "mutation not reported"
echo "the mutated vector was reported: $(grep -m1 'vector mismatch' "$out/mutated.log")"

# --- Cortex-M ---------------------------------------------------------------------------------
# Firmware libraries are built with ffi/README.md's plain `cargo build --release --target ...`:
# .cargo/config.toml makes bare-metal builds opt-level "s", and only a staticlib (no rlib) lets
# Cargo apply LTO. The no-panic proof below also covers "z" and 3, for firmware that builds so.
fw=ffi/firmware
fw_cflags=(-Os -g -std=c99 -Wall -Wextra -Werror -pedantic -ffunction-sections -fdata-sections
  -I ffi/include -I ffi/tests/c)
fw_ldflags=(-nostartfiles --specs=nano.specs -T "$fw/lm3s6965.ld" -Wl,--gc-sections
  -Wl,-z,noexecstack)
# The vectors firmwares (the whole API beside every vector table) outgrow the LM3S6965's 256 KiB
# of flash: they link with 4 MiB at 0 and run on QEMU's MPS2 AN385 board (a Cortex-M3 with 4 MiB
# of memory there; RAM at 0x20000000 as on the LM3S6965), as `make run-vectors` does. The other
# firmwares stay on the board the SDK's README names.
big_ld="$out/mps2-an385.ld"
sed 's/LENGTH = 256K/LENGTH = 4096K/' "$fw/lm3s6965.ld" >"$big_ld"
grep -q 'LENGTH = 4096K' "$big_ld" || fail "the linker script's FLASH length was not found"

. scripts/lib/firmware.sh

step "thumbv7m-none-eabi firmware replays every vector in qemu-system-arm (mps2-an385)"
v7m=$(staticlib thumbv7m-none-eabi)
firmware vectors cortex-m3 "$v7m" "$fw/main_vectors.c" ffi/tests/c/replay.c
run_qemu "$out/vectors.elf" "$out/qemu.log" mps2-an385 || fail "the firmware exited with status $?"
linked_functions=$(sed -n 's/^API functions linked: //p' "$out/qemu.log")
# Every vector file but pause/ (SPEC.md §13, the page-lifecycle waits of the npm package's retry()).
n_files=$(find tests/vectors -name '*.json' -not -path '*/pause/*' | wc -l)
grep -Eq "^PASS: ([0-9]+) of \1 vector checks matched \($n_files vector files\) on Cortex-M3, 0 cases skipped as not compiled in$" "$out/qemu.log" ||
  fail "the firmware did not report every vector matched"

# The firmware check can fail: the mutated vector table from above must make it report FAIL.
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb "${fw_cflags[@]}" -I "$out/mutated" "$fw/startup.c" \
  "$fw/semihosting.c" "$fw/main_vectors.c" ffi/tests/c/replay.c "${fw_ldflags[@]/#$fw\/lm3s6965.ld/$big_ld}" "$v7m" \
  -o "$out/vectors-mutated.elf"
if run_qemu "$out/vectors-mutated.elf" "$out/qemu-mutated.log" mps2-an385 >/dev/null; then
  fail "the firmware passed a wrong vector"
fi
grep -q "^FAIL: " "$out/qemu-mutated.log" || fail "the firmware did not report the wrong vector"
echo "control: with one wrong expected delay the firmware reports: $(grep '^FAIL: ' "$out/qemu-mutated.log")"

step "ffi/firmware/Makefile: make, make run, make run-vectors, as ffi/README.md says"
make -C ffi/firmware BUILD="$out/make" >"$out/make.log" 2>&1 || fail "make: $(tail -n 5 "$out/make.log")"
# Cargo's note that a bare-metal target cannot build the cdylib crate type is the only warning.
if grep -i warning "$out/make.log" | grep -Ev "dropping unsupported crate type .cdylib.|seeded-backoff-ffi. .lib. generated 1 warning"; then
  fail "make printed warnings (above)"
fi
make -s -C ffi/firmware BUILD="$out/make" run >"$out/make-run.log" 2>"$out/make-run.err" ||
  fail "make run: $(cat "$out/make-run.err")"
[ "$(wc -w <"$out/make-run.log")" -eq 10 ] || fail "make run should print 10 delays: $(cat "$out/make-run.log")"
echo "make run: $(cat "$out/make-run.log")"
make -s -C ffi/firmware BUILD="$out/make" run-vectors 2>/dev/null | grep '^PASS: ' ||
  fail "make run-vectors did not pass"

step "the Google firmware: its loop from the library (sb_run), and the bare step (sb_backoff_next)"
firmware google cortex-m3 "$v7m" "$fw/main_google.c"
run_qemu "$out/google.elf" "$out/google.log" || fail "the Google firmware exited with status $?"
[ "$(wc -w <"$out/google.log")" -eq 10 ] || fail "the Google firmware should print 10 delays"
cmp -s "$out/google.log" "$out/make-run.log" || fail "make run printed other delays than the test's build"
# The same schedule from the model (SPEC.md §5, seed 42, every attempt failing).
PYTHONPATH=tests/model python3 -c 'import spec_model as m
b = m.Backoff(m.preset("google"), 42)
print(" ".join(str(b.next().delay_ms) for _ in range(10)) + " ")' >"$out/google.expected"
cmp -s "$out/google.expected" "$out/google.log" || fail "the Google firmware's run printed $(cat "$out/google.log"), the model $(cat "$out/google.expected")"
firmware step cortex-m3 "$v7m" "$fw/main_step.c"
run_qemu "$out/step.elf" "$out/step.log" >/dev/null || fail "the bare-step firmware exited with status $?"
cmp -s "$out/google.log" "$out/step.log" || fail "the bare step printed other delays than the run"
echo "main_google.c (sb_run) and main_step.c (sb_backoff_next) print the model's 10 delays: $(cat "$out/google.log")"

step "the SDK's firmware archive: only sb_* defined; the firmware's memcpy, sqrtf, 64-bit division from newlib and libgcc"
mkdir -p "$out/sdk-form"
bash ffi/firmware-archive.sh thumbv7m-none-eabi "$v7m" "$out/sdk-form/libseeded_backoff_ffi.a"
globals=$(arm-none-eabi-nm -g --defined-only "$out/sdk-form/libseeded_backoff_ffi.a" | awk 'NF == 3 { print $3 }')
grep -v '^sb_' <<<"$globals" && fail "the firmware archive defines globals other than sb_* (above)"
echo "firmware archive: $(wc -l <<<"$globals") global symbols, all sb_*; undefined: $(arm-none-eabi-nm -u "$out/sdk-form/libseeded_backoff_ffi.a" | awk 'NF == 2 { print $2 }' | paste -sd' ')"
defs=$(runtime_link "$out/sdk-form/libseeded_backoff_ffi.a" runtime-sdk)
echo "$defs"
[ "$(wc -l <<<"$defs")" -eq 3 ] || fail "expected 3 traced definitions"
grep seeded_backoff <<<"$defs" && fail "the library defines the firmware's runtime (above)"
run_qemu "$out/runtime-sdk.elf" "$out/runtime-sdk.log" >/dev/null || fail "the runtime firmware failed"
[ "$(sed -n 2p "$out/runtime-sdk.log")" = "142857 150" ] || fail "runtime firmware printed $(cat "$out/runtime-sdk.log")"
cmp -s <(head -n 1 "$out/runtime-sdk.log") "$out/google.log" || fail "the runtime firmware's delays differ"
# The library's code alone: the crate's LTO'd object from Cargo's archive, without compiler_builtins.
mkdir -p "$out/crate-only"
(cd "$out/crate-only" && ar x "$v7m" $(ar t "$v7m" | grep '^seeded_backoff_ffi\.') &&
  ar rcs libseeded_backoff_ffi.a seeded_backoff_ffi.*.o)
runtime_link "$out/crate-only/libseeded_backoff_ffi.a" runtime-crate-only >/dev/null
# The control: Cargo's archive, whose compiler_builtins win over newlib and libgcc.
cargo_defs=$(runtime_link "$v7m" runtime-cargo)
grep -c seeded_backoff <<<"$cargo_defs" | grep -qx 3 || fail "control: Cargo's archive should define all three: $cargo_defs"
text() { arm-none-eabi-size "$out/$1.elf" | awk 'NR == 2 { print $1 }'; }
[ "$(text runtime-sdk)" -le "$(text runtime-crate-only)" ] ||
  fail "the firmware with the SDK's archive (.text $(text runtime-sdk) B) is larger than with the library's code alone ($(text runtime-crate-only) B)"
echo "main_runtime.c firmware .text: $(text runtime-sdk) B with the SDK's archive, $(text runtime-crate-only) B with the library's code alone," \
  "$(text runtime-cargo) B with Cargo's archive (whose memcpy, sqrtf and __aeabi_uldivmod win); prints $(sed -n 2p "$out/runtime-sdk.log") in qemu"

step "no soft-float helpers (thumbv7m and thumbv6m)"
# The thumbv6m vectors firmware is linked and measured, not run (QEMU has no Cortex-M0 board here).
v6m=$(staticlib thumbv6m-none-eabi)
firmware vectors-v6m cortex-m0 "$v6m" "$fw/main_vectors.c" ffi/tests/c/replay.c
softfloat='__aeabi_[fd][a-z0-9]+|__aeabi_[uil]?[2][fd]|__(add|sub|mul|div|neg)[sdt]f3|__(fix|fixuns)[sdt]f[sdt]i|__float(un)?[sdt]i[sdt]f|__(eq|ne|lt|le|gt|ge|un|cmp)[sdt]f2|__extend[sdt]f[sdt]f2|__trunc[sdt]f[sdt]f2'
for elf in vectors google vectors-v6m; do
  if arm-none-eabi-nm "$out/$elf.elf" | grep -Ew "$softfloat"; then fail "$elf.elf links soft-float helpers"; fi
  echo "$elf.elf: no soft-float symbol"
done
# The check itself can fail: a C file that adds two floats pulls in __aeabi_fadd on Cortex-M0.
printf 'float add(float a, float b) { return a + b; }\n' >"$out/float.c"
arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -O2 -nostartfiles -Wl,-e,add -Wl,-z,noexecstack \
  "$out/float.c" -o "$out/float.elf"
arm-none-eabi-nm "$out/float.elf" | grep -Eqw "$softfloat" || fail "the soft-float check misses __aeabi_fadd"

step "no panic path: firmware whose panic handler calls an undefined symbol still links"
# The shipped builds are opt-level "s" (.cargo/config.toml); the lab adds "z" and 3.
opts=(s)
[ "${FFI_LAB:-}" = 1 ] && opts=(s z 3)
for opt in "${opts[@]}"; do
  for target in thumbv7m-none-eabi:cortex-m3 thumbv6m-none-eabi:cortex-m0; do
    lib=$(RUSTFLAGS="-C opt-level=$opt" staticlib "${target%%:*}" default,panic-link-check)
    firmware "nopanic-${target%%-*}-O$opt" "${target##*:}" "$lib" "$fw/main_vectors.c" ffi/tests/c/replay.c
    echo "${target%%:*} opt-level $opt: firmware with all ${linked_functions:-29} API functions links, no panic path"
  done
done
# The proof can fail: an unoptimised build keeps overflow and bounds checks, and must not link.
lib=$(RUSTFLAGS="-C opt-level=0" staticlib thumbv7m-none-eabi default,panic-link-check debug)
if firmware nopanic-debug cortex-m3 "$lib" "$fw/main_vectors.c" ffi/tests/c/replay.c 2>"$out/nopanic-debug.log"; then
  fail "a debug build linked too: the no-panic check cannot detect panics"
fi
grep -q seeded_backoff_ffi_has_a_reachable_panic_path "$out/nopanic-debug.log" ||
  fail "the debug link failed for another reason: $(head -n 3 "$out/nopanic-debug.log")"
echo "control: the debug build (with panic paths) fails to link, as it must"

step "feature sets: each build replays what it contains in qemu and gives the same delays"
all_features=$(python3 - <<'PY'
import re
text = open("ffi/Cargo.toml").read().split("\n[features]\n", 1)[1].split("\n[", 1)[0]
default = re.search(r"^default = \[(.*?)\]", text, re.S | re.M).group(1)
print(",".join(re.findall(r'"([a-z0-9-]+)"', default)))
PY
)
# The default features without those matching the pattern $1.
without() { tr ',' '\n' <<<"$all_features" | grep -Evx "$1" | paste -sd,; }
# name|features|which vector cases must run (the rest are skipped as not compiled in)
feature_sets=(
  "google-preset|preset-google,run|some"
  "google-jitter|jitter-google,runtime-policy,run|some"
  "short-messages|$(without long-messages)|all"
)
for set in "${feature_sets[@]}"; do
  IFS='|' read -r name features expect <<<"$set"
  lib=$(staticlib thumbv7m-none-eabi "$features")
  firmware "google-$name" cortex-m3 "$lib" "$fw/main_google.c"
  run_qemu "$out/google-$name.elf" "$out/google-$name.log" >/dev/null || fail "$name: the Google firmware failed"
  cmp -s "$out/google.log" "$out/google-$name.log" ||
    fail "$name: the Google firmware's delays differ from the default build's"
  firmware "vectors-$name" cortex-m3 "$lib" "$fw/main_vectors.c" ffi/tests/c/replay.c
  run_qemu "$out/vectors-$name.elf" "$out/vectors-$name.log" mps2-an385 >/dev/null || fail "$name: the vector firmware failed"
  pass=$(grep '^PASS: ' "$out/vectors-$name.log") || fail "$name: $(grep '^FAIL' "$out/vectors-$name.log")"
  skipped=$(sed -n 's/.*, \([0-9]*\) cases skipped.*/\1/p' <<<"$pass")
  case $expect in
    all) [ "$skipped" -eq 0 ] || fail "$name: $skipped vector cases skipped" ;;
    some) [ "$skipped" -gt 0 ] && grep -Eq '^PASS: [1-9]' <<<"$pass" || fail "$name: $pass" ;;
  esac
  echo "$name ($features): same Google delays as the default build; $pass"
done
# Each feature set's own contract on the host (what it refuses, and that an invalid policy is
# named before SB_ERR_UNSUPPORTED): the crate's unit tests in that build.
for features in preset-google preset-google,run jitter-google,runtime-policy,run; do
  cargo test -q -p seeded-backoff-ffi --lib --no-default-features --features "$features" 2>&1 |
    grep -E '^test result: ok' || fail "$features: the crate's unit tests failed"
done
# The smallest build: Google's preset only, stepped by hand (main_step.c), without the run.
lib=$(staticlib thumbv7m-none-eabi preset-google)
firmware step-google-preset cortex-m3 "$lib" "$fw/main_step.c"
run_qemu "$out/step-google-preset.elf" "$out/step-google-preset.log" >/dev/null || fail "preset-google: the bare-step firmware failed"
cmp -s "$out/google.log" "$out/step-google-preset.log" || fail "preset-google: the bare step's delays differ from the run's"
echo "bare step (preset-google): same Google delays as the default build's run"

step "code size (opt-level s, as linked)"
arm-none-eabi-size "$out/vectors.elf" "$out/google.elf" "$out/vectors-v6m.elf"
python3 "$fw/size_report.py" "Google preset, the run (main_google.c), default build (thumbv7m)" "$out/google.map"
python3 "$fw/size_report.py" "Google preset, the run, --features preset-google,run (thumbv7m)" "$out/google-google-preset.map"
python3 "$fw/size_report.py" "Google preset, the bare step (main_step.c), --features preset-google (thumbv7m)" "$out/step-google-preset.map" 1024
python3 "$fw/size_report.py" "Google jitter, any policy, the run: jitter-google,runtime-policy,run (thumbv7m)" "$out/google-google-jitter.map"
python3 "$fw/size_report.py" "whole API, default build (vectors firmware, thumbv7m)" "$out/vectors.map"
python3 "$fw/size_report.py" "whole API, short messages (vectors firmware, thumbv7m)" "$out/vectors-short-messages.map" 6144
python3 "$fw/size_report.py" "whole API, default build (vectors firmware, thumbv6m)" "$out/vectors-v6m.map"

step "stack: worst case of every sb_ function (disassembly + call graph; goal <= 256 B for next*)"
python3 "$fw/test_stack_report.py" 2>&1 | tail -n 1 | grep -qx OK || fail "stack_report.py's hand-counted listings: $(python3 "$fw/test_stack_report.py" 2>&1 | tail -n 5)"
echo "stack_report.py: the hand-counted listings (tail calls, calls, conditional pops, branch targets) pass"
python3 "$fw/stack_report.py" "default build, thumbv7m" "$out/vectors.elf" 256
python3 "$fw/stack_report.py" "default build, thumbv6m" "$out/vectors-v6m.elf" 256
python3 "$fw/stack_report.py" "--features preset-google,run, thumbv7m" "$out/vectors-google-preset.elf" 256
lib=$(staticlib thumbv6m-none-eabi preset-google,run)
firmware vectors-v6m-google-preset cortex-m0 "$lib" "$fw/main_vectors.c" ffi/tests/c/replay.c
python3 "$fw/stack_report.py" "--features preset-google,run, thumbv6m" "$out/vectors-v6m-google-preset.elf" 256
# The measurement can fail: a function whose frame grows by 4 KiB is reported with it.
printf 'int sb_fake(int x) { volatile char big[4096]; big[x & 4095] = 1; return big[0]; }\n' >"$out/big.c"
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O2 -nostartfiles -Wl,-e,sb_fake -Wl,-z,noexecstack \
  "$out/big.c" -o "$out/big.elf"
python3 "$fw/stack_report.py" control "$out/big.elf" | grep -Eq 'sb_fake +40[0-9][0-9] ' ||
  fail "the stack report misses a 4 KiB frame"

step "RISC-V (riscv32imc, riscv32imac): the SDK's archive replays every vector in qemu-system-riscv32 (virt)"
# picolibc's C runtime with semihosting (its exit ends qemu), the board's RAM at 0x80000000.
rv_flags=(-Os -std=c99 -Wall -Wextra -Werror -pedantic -ffunction-sections -fdata-sections
  -I ffi/include -I ffi/tests/c -I "$out" --specs=picolibc.specs --crt0=semihost --oslib=semihost
  -Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x200000
  -Wl,--defsym=__ram=0x80200000 -Wl,--defsym=__ram_size=0x200000 -Wl,--gc-sections)
for target in riscv32imc-unknown-none-elf:rv32imc riscv32imac-unknown-none-elf:rv32imac; do
  triple=${target%%:*} march=${target##*:}
  mkdir -p "$out/$triple"
  bash ffi/firmware-archive.sh "$triple" "$(staticlib "$triple")" "$out/$triple/libseeded_backoff_ffi.a"
  riscv64-unknown-elf-gcc -march="$march" -mabi=ilp32 "${rv_flags[@]}" "$fw/semihosting.c" \
    "$fw/main_vectors.c" ffi/tests/c/replay.c "$out/$triple/libseeded_backoff_ffi.a" -o "$out/$triple/vectors.elf"
  timeout 120 qemu-system-riscv32 -M virt -nographic -monitor none -serial none -bios none \
    -chardev file,id=sh0,path="$out/$triple/qemu.log" -semihosting-config enable=on,target=native,chardev=sh0 \
    -kernel "$out/$triple/vectors.elf" || fail "$triple: the firmware exited with status $?"
  grep -Eq "^PASS: ([0-9]+) of \1 vector checks matched \($n_files vector files\) on RISC-V, 0 cases skipped" "$out/$triple/qemu.log" ||
    fail "$triple: $(tail -n 3 "$out/$triple/qemu.log")"
  echo "$triple: $(grep '^PASS' "$out/$triple/qemu.log")"
  python3 "$fw/stack_report.py" "default build, $triple" "$out/$triple/vectors.elf" 256
  riscv64-unknown-elf-gcc -march="$march" -mabi=ilp32 "${rv_flags[@]}" "$fw/semihosting.c" \
    "$fw/main_google.c" -Wl,-Map="$out/$triple/google.map" "$out/$triple/libseeded_backoff_ffi.a" -o "$out/$triple/google.elf"
  python3 "$fw/size_report.py" "Google preset, the run (main_google.c), default build ($triple)" "$out/$triple/google.map"
  lib=$(staticlib "$triple" preset-google)
  mkdir -p "$out/$triple/google-only"
  bash ffi/firmware-archive.sh "$triple" "$lib" "$out/$triple/google-only/libseeded_backoff_ffi.a"
  riscv64-unknown-elf-gcc -march="$march" -mabi=ilp32 "${rv_flags[@]}" "$fw/semihosting.c" \
    "$fw/main_step.c" -Wl,-Map="$out/$triple/google-only.map" "$out/$triple/google-only/libseeded_backoff_ffi.a" -o "$out/$triple/google-only.elf"
  python3 "$fw/size_report.py" "Google preset, the bare step (main_step.c), --features preset-google ($triple)" "$out/$triple/google-only.map" 1024
done
# The RISC-V measurement can fail too: a 1 KiB frame is reported with it.
printf 'int sb_fake(int x) { volatile char big[1024]; big[x & 1023] = 1; return big[0]; }\n' >"$out/big-rv.c"
riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 -O2 -nostdlib -Wl,-e,sb_fake "$out/big-rv.c" -o "$out/big-rv.elf"
python3 "$fw/stack_report.py" control "$out/big-rv.elf" | grep -Eq 'sb_fake +10[0-9][0-9] ' ||
  fail "the RISC-V stack report misses a 1 KiB frame"

if [ "${FFI_LAB:-}" = 1 ]; then
step "what each feature adds (thumbv7m, the whole-API firmware without it vs the default build)"
# Each build also replays in qemu every vector it can run (the rest are counted as skipped).
whole=$(python3 "$fw/size_report.py" --bytes "$out/vectors.map")
printf '  %-22s %8s\n' feature bytes
for feature in $(tr ',' ' ' <<<"$all_features"); do
  case $feature in preset-*) continue ;; esac # presets matter only without runtime-policy
  # Presets are dropped too: each brings its strategy back, and with runtime-policy they add nothing.
  lib=$(staticlib thumbv7m-none-eabi "$(without "$feature|preset-.*")")
  firmware "without-$feature" cortex-m3 "$lib" "$fw/main_vectors.c" ffi/tests/c/replay.c
  # Each of these builds also replays, in qemu, every vector it can run.
  run_qemu "$out/without-$feature.elf" "$out/without-$feature.log" mps2-an385 >/dev/null ||
    fail "without $feature: $(grep -E '^(FAIL|mismatch)' "$out/without-$feature.log" | head -n 3)"
  printf '  %-22s %8s   %s\n' "$feature" \
    "$((whole - $(python3 "$fw/size_report.py" --bytes "$out/without-$feature.map")))" \
    "$(sed -n 's/^PASS: \([0-9]*\) of .*, \([0-9]*\) cases skipped.*/qemu: \1 checks passed, \2 cases skipped/p' "$out/without-$feature.log")"
done

step "the size and stack tables (artifacts/c-library.md, lab/RESULTS.md's c-library section)"
mkdir -p artifacts
python3 "$fw/c_tables.py" "$out" >artifacts/c-library.md
cat artifacts/c-library.md
fi

echo
echo "ffi: all C, C++, sanitizer, valgrind, firmware and build-proof checks passed"
