# The Python package as the Python steps test it (sourced): `installed_wheel` builds the wheel with
# maturin in the activated .venv (the command scripts/dist.sh uses) and installs it there, once
# for the sources it was built from: the next step that needs it finds the same sources' stamp and
# reuses it. It prints the wheel's path.
installed_wheel() {
  local venv=$PWD/.venv cache=${CARGO_TARGET_DIR:-$PWD/target}/python-wheel sources
  [ -x "$venv/bin/maturin" ] || { echo "no maturin in .venv: run scripts/setup.sh" >&2; return 1; }
  # What the wheel is made of: the core, the C ABI and the Python package, as they are on disk.
  sources=$(git ls-files -co --exclude-standard -- core ffi python Cargo.toml Cargo.lock |
    grep -v '^python/tests/' | sort | xargs sha1sum | sha1sum | cut -d' ' -f1)
  if [ "$(cat "$cache/stamp" 2>/dev/null)" != "$sources" ] || ! ls "$cache"/seeded_backoff-*.whl >/dev/null 2>&1 ||
    ! "$venv/bin/python" -c 'import seeded_backoff' 2>/dev/null; then
    rm -rf "$cache"
    mkdir -p "$cache"
    (. "$venv/bin/activate" && cd python && maturin build --release --out "$cache" 2>&1 | tail -n 3) >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "$cache"/seeded_backoff-*.whl >&2
    echo "$sources" >"$cache/stamp"
  fi
  ls "$cache"/seeded_backoff-*.whl
}
