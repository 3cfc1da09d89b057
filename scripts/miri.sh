#!/usr/bin/env bash
# Miri (undefined behaviour, data races in the threaded budget test) over a crate's unit tests,
# integration tests and doctests. The gate (scripts/test.d/40-hardening.sh) runs it over the crates
# that hold `unsafe`: ffi (the C ABI: its pointer module and every extern function) and wasm (the
# npm build's runtime, rt.rs, whose statics the host tests use under Miri, on one thread). The
# core forbids unsafe code; the lab runs Miri over it too (lab/miri.sh).
#
#   bash scripts/miri.sh            # ffi, then wasm (the gate's)
#   bash scripts/miri.sh core ffi wasm   # the named crates
#
# Proptest case counts drop under cfg(miri) in the test files themselves
# (`ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 })`), and the long-running tests use
# small counts under cfg!(miri). Three tests are skipped by name (MIRI_SKIP), being bulk work with
# nothing Miri can add to a crate that forbids unsafe code, and far too slow interpreted:
#   jitter_is_uniform_by_chi_square            300 000 draws for a statistical test
#   every_vector_file_replays_bit_identically   parses and replays all of tests/vectors (file I/O)
#   the_async_loop_sleeps_exactly_the_vector_delays_on_a_virtual_clock   the same, through the
#                                               async loop (3 min interpreted; its other tests stay)
# Skipped too, for the same reason: the send rate's vector replay (half a megabyte of events) and
# the many-thread tests of the shared budget and send rate (every_send_rate_vector_replays_in_both_forms,
# shared_rate_, concurrent_spends_, every_refund_is_applied_once, spends_paired_with_refunds),
# whose interleavings the loom models check, and the many-call tests of SPEC.md §14's call seeds
# (concurrent_calls_, concurrent_requests_: 32 threads or tasks, each a whole retry run;
# call_zero_is_the_seed_itself: 10 000 seeds), whose one atomic counter adds nothing to check,
# and every_method_the_crate_readme_names_exists (a text search of the whole of core/src).
# All of them run natively in `cargo test`. The async_http example's test needs sockets, which Miri
# does not have (`cfg_attr(miri, ignore)`). Needs: rustup component add miri rust-src --toolchain nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
# Isolation off: proptest's failure persistence asks for the current directory.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}"
skip=(${MIRI_SKIP:-jitter_is_uniform_by_chi_square every_vector_file_replays_bit_identically the_async_loop_sleeps_exactly_the_vector_delays_on_a_virtual_clock every_send_rate_vector_replays_in_both_forms shared_rate_ concurrent_spends_ every_refund_is_applied_once spends_paired_with_refunds concurrent_calls_ concurrent_requests_ call_zero_is_the_seed_itself every_method_the_crate_readme_names_exists})
skip_args=()
for name in "${skip[@]}"; do skip_args+=(--skip "$name"); done
crates=("$@")
[ "${#crates[@]}" -gt 0 ] || crates=(ffi wasm)

summary=()
for crate in "${crates[@]}"; do
  threads=()
  case $crate in
    core) pkg=seeded-backoff features=(--all-features) ;;
    ffi) pkg=seeded-backoff-ffi features=() ;;
    # One thread: the npm build's runtime is single-threaded, and its statics are shared.
    wasm) pkg=seeded-backoff-wasm features=() threads=(--test-threads=1) ;;
    *) echo "unknown crate $crate"; exit 2 ;;
  esac
  if [ "$crate" = ffi ] && ! grep -q '^\s*name = "seeded-backoff-ffi"' ffi/Cargo.toml 2>/dev/null; then
    echo "miri: ffi crate not present, skipped"
    continue
  fi
  echo "== cargo +nightly miri test -p $pkg ${features[*]} -- ${skip_args[*]}"
  log=$(mktemp)
  set +e
  cargo +nightly miri test -p "$pkg" "${features[@]}" -- "${skip_args[@]}" ${threads[@]+"${threads[@]}"} 2>&1 | tee "$log" |
    grep -E '^(test result|     Running|   Doc-tests|error|failures:|thread .* panicked)'
  status=${PIPESTATUS[0]}
  set -e
  passed=$(grep -oE '[0-9]+ passed' "$log" | awk '{s += $1} END {print s + 0}')
  failed=$(grep -oE '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
  ignored=$(grep -oE '[0-9]+ ignored' "$log" | awk '{s += $1} END {print s + 0}')
  if grep -qE 'Undefined Behavior|error: unsupported operation|data race' "$log"; then
    grep -E -B2 -A10 'Undefined Behavior|unsupported operation|data race' "$log" | head -40
    status=1
  fi
  rm -f "$log"
  summary+=("$pkg: $passed passed, $failed failed, $ignored ignored (exit $status)")
  if [ "$status" -ne 0 ]; then
    printf 'miri: %s\n' "${summary[@]}"
    echo "miri: FAILED on $pkg"
    exit 1
  fi
done
printf 'miri: %s\n' "${summary[@]}"
echo "miri: clean"
