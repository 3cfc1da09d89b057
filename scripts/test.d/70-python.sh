#!/usr/bin/env bash
# The Python package (python/): maturin builds the wheel from the ffi
# cdylib into a temporary directory; installed into .venv, pytest runs python/tests (every vector
# file, bad input for every argument, retry() against a real HTTP server on 127.0.0.1 with requests
# and httpx; Python, Node and the Rust example core/examples/shared_turn.rs taking turns on one
# fleet's keys in a redis-server) and the doctests; mypy --strict on the installed package and mypy
# and pyright on a typed program using it (python/tests/typed); and `pip install ./python` in a fresh venv runs python/README.md's
# examples and README.md's Python quick start, whose printed delays must be the independent model's.
# Standalone: bash scripts/test.d/70-python.sh (after scripts/setup.sh made .venv).
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { echo; echo "--- python: $*"; }
fail() { echo "FAIL (python): $*" >&2; exit 1; }

venv=$PWD/.venv
[ -x "$venv/bin/maturin" ] || fail ".venv has no maturin: run scripts/setup.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

step "maturin build --release in the activated .venv (the command scripts/dist.sh uses), installed there"
# Activated, so that maturin writes the cffi declarations with the venv's Python, which has cffi
# (a system python3 may not). The other Python steps reuse this wheel (scripts/lib/wheel.sh).
. scripts/lib/wheel.sh
wheel=$(installed_wheel) || fail "the wheel did not build"
cargo_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
case $(basename "$wheel") in
  "seeded_backoff-$cargo_version-"*) echo "$(basename "$wheel"): version $cargo_version, as Cargo.toml" ;;
  *) fail "the wheel's version is not Cargo.toml's $cargo_version: $(basename "$wheel")" ;;
esac

step "the Rust process of python/tests/test_shared_turns.py: cargo build --example shared_turn"
# Built here, outside pytest's time limit; the test's own build then finds it done.
cargo build -q --release -p seeded-backoff --features valkey --example shared_turn ||
  fail "core/examples/shared_turn.rs did not build"

step "pytest python/tests and the doctests, the wheel installed in .venv"
# python/tests/integrations (real client libraries and servers) is scripts/test.d/75-integrations.sh's.
(cd "$out" && timeout 150 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests" \
  --ignore="$OLDPWD/python/tests/integrations" \
  --ignore-glob '*/test_adapter_*.py' \
  --doctest-modules "$("$venv/bin/python" -c 'import os, seeded_backoff; print(os.path.dirname(seeded_backoff.__file__))')")

step "types: mypy --strict -p seeded_backoff, and python/tests/typed/usage.py by mypy and pyright"
# usage.py imports the adapters' and integrations' libraries (scripts/setup.sh installs them all).
"$venv/bin/python" -c 'import mypy, tenacity, stamina, google.cloud.memorystore_v1' 2>/dev/null ||
  fail ".venv lacks mypy or the adapters' and integrations' libraries: run scripts/setup.sh"
timeout 300 "$venv/bin/python" python/tests/typed/check_types.py || fail "the type checks failed"

step "pip install ./python in a fresh venv (maturin as the build backend), then the READMEs' examples"
python3 -m venv "$out/fresh"
"$out/fresh/bin/pip" install --quiet --disable-pip-version-check ./python requests ||
  fail "pip install ./python failed"
# Expected: SPEC.md's Google schedule for seed 42 and a 30 s Retry-After, from the model; then the
# quick start's request, answered 503 once and then 200 by a server on 127.0.0.1.
PYTHONPATH=tests/model python3 - >"$out/example.expected" <<'PY'
import spec_model as m
b = m.Backoff(m.preset("google", max_retries=5), 42)
print(b.next().delay_ms, b.next().delay_ms)
print(b.next(hint=m.RetryAfter(30000)).delay_ms)
print(200)
PY
"$out/fresh/bin/python" python/tests/readme_blocks.py python/README.md >"$out/example.out" ||
  fail "python/README.md's examples failed"
diff -u "$out/example.expected" "$out/example.out" || fail "python/README.md's examples printed other values than the model"
cat "$out/example.out"
# The repository README's Python quick start: the same first two delays.
"$out/fresh/bin/python" python/tests/readme_blocks.py README.md >"$out/top_readme.out" ||
  fail "README.md's Python example failed"
head -n 1 "$out/example.expected" | diff -u - "$out/top_readme.out" || fail "README.md's Python example printed other delays"

echo
echo "python: wheel built, tests passed, pip install ./python and the README example work"
