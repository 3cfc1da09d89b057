#!/usr/bin/env bash
# Build proofs for the core: no alloc, no float, no panic, no unsafe. Each proof also runs
# a negative twin (one offending line behind a --cfg in scripts/proofs/src/main.rs) and requires it
# to be caught, so a proof that silently stopped working fails here too.
#
#   bash scripts/build-proofs.sh
#
# Needs: the thumbv6m-none-eabi target (rustup) and arm-none-eabi-nm (Debian binutils-arm-none-eabi,
# pulled in by gcc-arm-none-eabi).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=thumbv6m-none-eabi
proofs=scripts/proofs
image=target/$target/release/seeded-backoff-proofs
nm=arm-none-eabi-nm
command -v "$nm" >/dev/null || { echo "FAIL: $nm not found (apt-get install gcc-arm-none-eabi)"; exit 1; }

# Soft-float helpers of the ARM EABI and libgcc/compiler-builtins: single/double arithmetic,
# comparisons and conversions.
float_re='^(__aeabi_[fd][a-z0-9]*|__aeabi_u?[il]2[fd]|__aeabi_[ul]?l2[fd]|__(add|sub|mul|div|neg|pow|cmp|eq|ne|lt|le|gt|ge|unord)[sdt]f[23i]|__(fix|fixuns|float|floatun|extend|trunc)[a-z0-9]*)$'

# build [RUSTFLAGS...]: the firmware image that calls every core API; prints rustc's output.
build() {
  RUSTFLAGS="${1:-}" cargo build --release --target "$target" \
    --manifest-path "$proofs/Cargo.toml" --target-dir "$root/target" 2>&1
}

float_symbols() {
  "$nm" "$image" | awk '{print $NF}' | grep -E "$float_re" || true
}

echo "== positive: a release $target image calling every core API links, with a panic handler"
echo "   that calls an undefined symbol and no global allocator"
if ! out=$(build); then
  echo "$out" | tail -30
  echo "FAIL (no panic / no alloc): the image does not link; a reachable panic shows up as"
  echo "     'undefined symbol: seeded_backoff_core_has_a_reachable_panic' above"
  exit 1
fi
size=$(stat -c %s "$image")
echo "   linked: $image ($size bytes)"
echo "   no panic: OK (seeded_backoff_core_has_a_reachable_panic is not referenced)"
echo "   no alloc: OK (linked without #[global_allocator])"

floats=$(float_symbols)
if [ -n "$floats" ]; then
  echo "FAIL (no float): soft-float helpers in the image:"
  echo "$floats"
  exit 1
fi
echo "   no float: OK (0 soft-float helper symbols among $("$nm" "$image" | wc -l) symbols)"

echo "== no alloc: the core's dependency tree for $target enables no std/alloc feature, and its rlib"
echo "   references no allocator symbol"
tree=$(cargo tree -e features --target "$target" --manifest-path "$proofs/Cargo.toml")
if echo "$tree" | grep -E 'feature "(std|alloc)"'; then
  echo "FAIL (no alloc): a std/alloc feature is enabled for $target"
  exit 1
fi
# A dev (non-LTO) build, so the rlib holds machine code whose undefined symbols nm can list (the
# release profile's LTO leaves only bitcode).
cargo build -q -p seeded-backoff --target "$target" --manifest-path "$proofs/Cargo.toml" \
  --target-dir "$root/target/proofs-rlib"
rlib=$(ls -t target/proofs-rlib/$target/debug/deps/libseeded_backoff-*.rlib | head -1)
undefined=$("$nm" -u "$rlib" 2>/dev/null | awk '$1 == "U" {print $2}')
[ -n "$undefined" ] || { echo "FAIL: nm lists no undefined symbols in $rlib: cannot check it"; exit 1; }
if echo "$undefined" | grep -E '__rust_(alloc|dealloc|realloc|alloc_zeroed)|__rdl_|__rg_|5alloc'; then
  echo "FAIL (no alloc): $rlib references the allocator or the alloc crate"
  exit 1
fi
# Only the modules compiled for the `std` feature and those implying it (tokio, tower, its send-rate layer and the pace
# layer, retry-policies, http, reqwest, valkey's shared parts) may name std, and the shared parts'
# unit tests (a store kept in a Vec).
std_modules="std_support tokio_support tower_support tower_send_rate pace_layer retry_policies_support http_support reqwest_support shared/valkey shared/valkey/parts shared/tests shared/raw_tests"
if grep -rnE 'extern crate (alloc|std)|\balloc::' core/src --include=*.rs |
  grep -vE "^core/src/(${std_modules// /|})\.rs"; then
  echo "FAIL (no alloc): core/src names alloc or std outside the std modules: $std_modules"
  exit 1
fi
echo "   OK: $(basename "$rlib") has $(echo "$undefined" | wc -l) undefined symbols, none from alloc"

echo "== no unsafe: #![forbid(unsafe_code)] in core/src/lib.rs"
grep -qxF '#![forbid(unsafe_code)]' core/src/lib.rs || { echo "FAIL (no unsafe): the forbid attribute is gone"; exit 1; }
if grep -rnw 'unsafe' core/src --include=*.rs | grep -v 'forbid(unsafe_code)'; then
  echo "FAIL (no unsafe): the word unsafe appears in core/src"
  exit 1
fi
echo "   OK"

echo "== negative checks: each proof must catch one deliberate offence"
if out=$(build "--cfg sb_proof_panic"); then
  echo "FAIL: an image with a reachable panic (--cfg sb_proof_panic) linked; the no-panic proof is broken"
  exit 1
fi
grep -q 'undefined symbol: seeded_backoff_core_has_a_reachable_panic' <<<"$out" ||
  { echo "$out" | tail -20; echo "FAIL: sb_proof_panic failed for another reason"; exit 1; }
echo "   --cfg sb_proof_panic: link fails with 'undefined symbol: seeded_backoff_core_has_a_reachable_panic' (as it must)"

if ! out=$(build "--cfg sb_proof_float"); then
  echo "$out" | tail -20
  echo "FAIL: the float negative image did not build"
  exit 1
fi
floats=$(float_symbols)
[ -n "$floats" ] || { echo "FAIL: an image doing f32 arithmetic shows no soft-float helper; the no-float proof is broken"; exit 1; }
echo "   --cfg sb_proof_float: soft-float helpers found (as they must be): $(echo $floats)"

if out=$(build "--cfg sb_proof_alloc"); then
  echo "FAIL: an image that allocates (--cfg sb_proof_alloc) linked without an allocator; the no-alloc proof is broken"
  exit 1
fi
grep -q 'no global memory allocator' <<<"$out" ||
  { echo "$out" | tail -20; echo "FAIL: sb_proof_alloc failed for another reason"; exit 1; }
echo "   --cfg sb_proof_alloc: build fails with 'no global memory allocator found' (as it must)"

# Leave the positive image in place for anyone inspecting target/.
build >/dev/null
echo "build proofs: no panic, no alloc, no float, no unsafe: all OK"
